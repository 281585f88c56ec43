"""Writes a litmus file that calls every operation of litmus/lf_ops.def once,
each with the arguments its family takes (for ops-complete.test)."""
import re
import sys

ops = re.findall(r"^LF_OP\((\w+), (\d), (true|false)\)", open(sys.argv[1]).read(), re.M)
body = []
for name, arity, returns in ops:
    arity = int(arity)
    if name in ("READ_ONCE", "rcu_dereference"):
        args = ["*x"]
    elif name in ("WRITE_ONCE", "rcu_assign_pointer"):
        args = ["*x", "1"]
    elif name.startswith("spin_"):
        args = ["l"]
    elif name.startswith("atomic_"):
        if re.match(r"atomic_(add|sub|fetch_add)", name):
            args = ["1", "a"]
        elif re.match(r"atomic_(set|xchg)", name):
            args = ["a", "1"]
        elif name.startswith("atomic_cmpxchg"):
            args = ["a", "0", "1"]
        else:
            args = ["a"]
    else:
        args = ["x", "0", "1"][:arity] if arity != 2 else ["x", "1"]
    assert len(args) == arity, name
    call = f"{name}({', '.join(args)})"
    body.append(f"\tr0 = {call};" if returns == "true" else f"\t{call};")
print("C all-ops\n\n{\n}\n")
print("P0(int *x, atomic_t *a, spinlock_t *l)\n{\n\tint r0;\n")
print("\n".join(body))
print("}\n\nexists (0:r0=1 \\/ ~(x=0) /\\ true)")
