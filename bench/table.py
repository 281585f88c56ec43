"""The benchmark's table, in Markdown: every figure beside its target."""
import math

# Plugin ÷ plain clang, CPU time and instructions executed (issue targets,
# docs/performance.md).
TARGETS = {
    "syntax": {"liburcu": 1.03, "zlib": 1.01, "sqlite3": 1.01, "large": 1.25},
    "O2": {"liburcu": 1.01, "zlib": 1.01, "sqlite3": 1.01, "large": 1.01},
}
MEMORY_TARGET = 1.1
CK_CPU_TARGET, CK_PEAK_TARGET_MB = 2.0, 300
WHOLE_PROGRAM_TARGET = 0.6
MODE_NAMES = {"syntax": "`-fsyntax-only`", "O2": "`-O2 -c`"}


def verdict(met):
    return "met" if met else "**missed**"


def growth_exponent(engine):
    """k in time ~ N^k between the two largest sizes."""
    if len(engine) < 2:
        return None
    a, b = engine[-2], engine[-1]
    ta = a["analysis_seconds"] + a["reporting_seconds"]
    tb = b["analysis_seconds"] + b["reporting_seconds"]
    if ta <= 0 or tb <= 0:
        return None
    return math.log(tb / ta) / math.log(b["events"] / a["events"])


def render(results):
    machine = results["machine"]
    plugin = results["plugin"]
    host = (f"{machine['Hypervisor vendor']} guest" if "Hypervisor vendor" in machine
            else "no hypervisor reported")
    lines = [f"Machine: {machine.get('Model name', '?')}, {machine.get('CPU(s)', '?')} CPUs"
             f" ({host}), {machine.get('clang', '')}",
             "",
             "| figure | measured | target | |",
             "|---|---|---|---|"]
    generated = results["generated"]
    inputs = results.get("inputs", {})
    names = {"liburcu": "liburcu 0.13 (every file)", "zlib": "zlib (every file)",
             "sqlite3": "sqlite3 amalgamation, `SQLITE_THREADSAFE=0`",
             "large": f"generated TU ({generated['lines']} lines)"}
    for mode in ("syntax", "O2"):
        for source, name in names.items():
            r = plugin.get(f"{source}_{mode}")
            if not r:
                continue
            target = TARGETS[mode][source]
            lines.append(f"| plugin ÷ plain, {MODE_NAMES[mode]}, {name} | {r['ratio']:.3f} "
                         f"({r['baseline_seconds']:.2f} s → {r['candidate_seconds']:.2f} s CPU, "
                         f"medians of {r['runs']}) | ≤ {target} | "
                         f"{verdict(r['ratio'] <= target)} |")
    counted = results.get("instructions") or {}
    for source, name in names.items():
        r = counted.get(f"{source}_syntax")
        if not r:
            continue
        target = TARGETS["syntax"][source]
        lines.append(f"| plugin ÷ plain, instructions, {MODE_NAMES['syntax']}, {name} | "
                     f"{r['ratio']:.4f} ({r['baseline_instructions'] / 1e9:.3f} G → "
                     f"{r['candidate_instructions'] / 1e9:.3f} G, callgrind) | ≤ {target} | "
                     f"{verdict(r['ratio'] <= target)} |")
    for mode in ("syntax", "O2"):
        for source, name in names.items():
            r = plugin.get(f"{source}_{mode}")
            if not r:
                continue
            a, b = r["baseline_peak_kib"] / 1024, r["candidate_peak_kib"] / 1024
            lines.append(f"| peak RSS, plugin ÷ plain, {MODE_NAMES[mode]}, {name} | {b / a:.3f} "
                         f"({a:.0f} → {b:.0f} MiB) | ≤ {MEMORY_TARGET} | "
                         f"{verdict(b / a <= MEMORY_TARGET)} |")
    ck = results.get("check_ck")
    if ck:
        peak = ck["peak_kib"] * 1024 / 1e6
        lines.append(f"| `barrierpair check`, Concurrency Kit 0.7.1 with `ck.def` ({ck['files']} "
                     f"commands, {ck['jobs']} jobs): CPU | {ck['cpu']:.2f} s (parallel "
                     f"`-fsyntax-only`: {ck['parse_cpu']:.2f} s CPU) | < {CK_CPU_TARGET:.0f} s | "
                     f"{verdict(ck['cpu'] < CK_CPU_TARGET)} |")
        lines.append(f"| `barrierpair check`, Concurrency Kit 0.7.1: peak RSS | {peak:.0f} MB | "
                     f"< {CK_PEAK_TARGET_MB} MB | {verdict(peak < CK_PEAK_TARGET_MB)} |")
    whole = results["whole_program"]
    lines.append(f"| `barrierpair check` ÷ parallel `clang -fsyntax-only`, liburcu "
                 f"({whole['files']} commands, {whole['jobs']} jobs) | {whole['ratio']:.2f}× "
                 f"({whole['baseline_seconds']:.2f} s → {whole['candidate_seconds']:.2f} s wall) "
                 f"| < {WHOLE_PROGRAM_TARGET}× | {verdict(whole['ratio'] < WHOLE_PROGRAM_TARGET)} |")
    engine = results["engine"]
    largest = engine[-1]
    seconds = largest["analysis_seconds"] + largest["reporting_seconds"]
    lines.append(f"| engine, {largest['events']:,} sites: analysis and reporting | "
                 f"{seconds:.2f} s | < 2 s | {verdict(seconds < 2)} |")
    peak = largest["peak_rss_kib"] / 1024
    lines.append(f"| engine, {largest['events']:,} sites: peak memory | {peak:.0f} MiB | "
                 f"< 1024 MiB | {verdict(peak < 1024)} |")
    k = growth_exponent(engine)
    if k is not None:
        lines.append(f"| engine growth, last decade: time ∝ N^k | k = {k:.2f} (N log N: ≈ 1.1) "
                     f"| close to N log N | {verdict(k < 1.3)} |")
    litmus = results["litmus"]
    witness = litmus["first_witness_seconds"]
    lines.append(f"| litmus self-test: first scenario-10 witness without barriers | "
                 + (f"{witness * 1e3:.2f} ms" if witness is not None else "none")
                 + f" ({litmus['self_tests_witnessed']} witnessed) | | |")

    by_size = results.get("by_size")
    if by_size:
        lines += ["", "| generated file | plain `-fsyntax-only` | with the plugin | plugin ÷ plain |",
                  "|---:|---:|---:|---:|"]
        for r in by_size:
            lines.append(f"| {r['lines']:,} lines | {r['baseline_seconds']:.2f} s | "
                         f"{r['candidate_seconds']:.2f} s | {r['ratio']:.3f} |")

    lines += ["", "| sites | orderings | findings | analysis | reporting | peak RSS |",
              "|---:|---:|---:|---:|---:|---:|"]
    for run in engine:
        lines.append(f"| {run['events']:,} | {run['orderings']:,} | {run['findings']:,} | "
                     f"{run['analysis_seconds']:.3f} s | {run['reporting_seconds']:.3f} s | "
                     f"{run['peak_rss_kib'] / 1024:.0f} MiB |")

    lines += ["", f"| scenario | litmus runs/s (`weakest`, {litmus['iterations']:,} runs) |",
              "|---:|---:|"]
    for row, rate in litmus["runs_per_second"].items():
        lines.append(f"| {row} | {rate:.3g} |")
    return "\n".join(lines) + "\n"
