"""Running commands side by side: each run times the baseline and the
candidate back to back, in alternating order, so a machine shared with other
work slows both alike; a figure is the median of the runs' ratios."""
import os
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor


def run_one(command, cwd=None):
    """Wall seconds and peak RSS (KiB) of one command; fails loudly."""
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: barrierpair check found something
        raise RuntimeError(f"{command[:3]}... exited {code}")
    return seconds, usage.ru_maxrss


def run_set(commands, jobs=1):
    """Wall seconds to run a list of (command, cwd) with `jobs` at a time,
    and the largest peak RSS among them."""
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda job: run_one(*job), commands))
    return time.monotonic() - start, max(peak for _, peak in results)


def side_by_side(baseline, candidate, runs):
    """baseline, candidate: callables returning (seconds, peak KiB). Returns
    the medians of both and of the per-run ratios."""
    pairs = []
    for i in range(runs):
        if i % 2 == 0:
            a, b = baseline(), candidate()
        else:
            b, a = candidate(), baseline()
        pairs.append((a, b))
    return {
        "runs": runs,
        "baseline_seconds": statistics.median(a[0] for a, _ in pairs),
        "candidate_seconds": statistics.median(b[0] for _, b in pairs),
        "ratio": statistics.median(b[0] / a[0] for a, b in pairs),
        "ratios": [b[0] / a[0] for a, b in pairs],
        "baseline_peak_kib": statistics.median(a[1] for a, _ in pairs),
        "candidate_peak_kib": statistics.median(b[1] for _, b in pairs),
    }
