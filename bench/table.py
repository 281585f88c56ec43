"""The benchmark's table, in Markdown: every figure beside its target."""
import math

TARGETS = {"syntax": 0.03, "O2": 0.01}
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
    lines = [f"Machine: {machine.get('Model name', '?')}, {machine.get('CPU(s)', '?')} CPUs"
             f" ({machine.get('Hypervisor vendor', 'bare metal')} guest), {machine.get('clang', '')}",
             "",
             "| figure | measured | target | |",
             "|---|---|---|---|"]
    generated = results["generated"]
    for mode in ("syntax", "O2"):
        for source, name in (("liburcu", "liburcu 0.13 (every file)"),
                             ("large", f"generated TU ({generated['lines']} lines)")):
            r = plugin[f"{source}_{mode}"]
            overhead = r["ratio"] - 1
            lines.append(f"| plugin overhead, {MODE_NAMES[mode]}, {name} | {overhead:+.1%} "
                         f"({r['baseline_seconds']:.2f} s → {r['candidate_seconds']:.2f} s CPU, "
                         f"median of {r['runs']}) | ≤ {TARGETS[mode]:.0%} | "
                         f"{verdict(overhead <= TARGETS[mode])} |")
    whole = results["whole_program"]
    lines.append(f"| `barrierpair check` ÷ `clang -fsyntax-only`, liburcu ({whole['files']} "
                 f"commands, {whole['jobs']} jobs) | {whole['ratio']:.2f}× "
                 f"({whole['baseline_seconds']:.2f} s → {whole['candidate_seconds']:.2f} s wall) "
                 f"| ≤ 1.15× | {verdict(whole['ratio'] <= 1.15)} |")
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
    for mode in ("syntax", "O2"):
        r = plugin[f"large_{mode}"]
        a, b = r["baseline_peak_kib"] / 1024, r["candidate_peak_kib"] / 1024
        lines.append(f"| clang peak RSS, {MODE_NAMES[mode]}, generated TU | {a:.0f} → {b:.0f} MiB "
                     f"({b / a - 1:+.1%}) | | |")
    litmus = results["litmus"]
    witness = litmus["first_witness_seconds"]
    lines.append(f"| litmus self-test: first scenario-10 witness without barriers | "
                 + (f"{witness * 1e3:.2f} ms" if witness is not None else "none")
                 + f" ({litmus['self_tests_witnessed']} witnessed) | | |")

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
