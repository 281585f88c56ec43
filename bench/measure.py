"""Running commands side by side: each run times the baseline and the
candidate back to back, in alternating order, so a machine shared with other
work slows both alike; a figure is the median of the runs' ratios.

Compiles are compared by CPU time (user + system, from wait4): on a machine
other builds share, wall time mostly measures them. Runs in parallel are
compared by wall time, which is what parallelism buys."""
import os
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor


def run_one(command, cwd=None):
    """{wall, cpu} seconds and peak RSS (KiB) of one command; fails loudly."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: barrierpair check found something
        raise RuntimeError(f"{command[:3]}... exited {code}")
    return {"wall": seconds, "cpu": usage.ru_utime + usage.ru_stime}, usage.ru_maxrss


def repeat(command, runs, cwd=None):
    """Medians of `runs` runs of one command: {wall, cpu} and peak KiB."""
    results = [run_one(command, cwd) for _ in range(runs)]
    return {
        "runs": runs,
        "wall": statistics.median(s["wall"] for s, _ in results),
        "cpu": statistics.median(s["cpu"] for s, _ in results),
        "peak_kib": statistics.median(peak for _, peak in results),
    }


def run_set(commands, jobs=1):
    """The seconds to run a list of (command, cwd) with `jobs` at a time
    (wall: from first start to last end; cpu: their sum) and the largest
    peak RSS among them."""
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda job: run_one(*job), commands))
    seconds = {"wall": time.monotonic() - start, "cpu": sum(s["cpu"] for s, _ in results)}
    return seconds, max(peak for _, peak in results)


def side_by_side(baseline, candidate, runs, clock="cpu"):
    """baseline, candidate: callables returning ({wall, cpu}, peak KiB).
    Returns the medians of both, their ratio (the figure) and the median of
    the per-run ratios on `clock`."""
    pairs = []
    for i in range(runs):
        if i % 2 == 0:
            a, b = baseline(), candidate()
        else:
            b, a = candidate(), baseline()
        pairs.append(((a[0][clock], a[1]), (b[0][clock], b[1])))
    return {
        "runs": runs,
        "clock": clock,
        "baseline_seconds": statistics.median(a[0] for a, _ in pairs),
        "candidate_seconds": statistics.median(b[0] for _, b in pairs),
        "ratio": statistics.median(b[0] for _, b in pairs) /
        statistics.median(a[0] for a, _ in pairs),
        "median_of_ratios": statistics.median(b[0] / a[0] for a, b in pairs),
        "ratios": [b[0] / a[0] for a, b in pairs],
        "baseline_peak_kib": statistics.median(a[1] for a, _ in pairs),
        "candidate_peak_kib": statistics.median(b[1] for _, b in pairs),
    }
