"""The benchmark's plots, with gnuplot (Debian's gnuplot-nox): the plugin's
cost against file size, engine time and memory against program size, and
litmus throughput per row."""
import math
import os
import shutil
import subprocess
import sys

PREFIX = "performance"


def write(path, rows):
    with open(path, "w") as data:
        for row in rows:
            data.write(" ".join(str(value) for value in row) + "\n")


def render(results, out):
    if not shutil.which("gnuplot"):
        print("bench: gnuplot not found (scripts/install-deps.sh --bench installs it): no plots",
              file=sys.stderr)
        return []
    engine = results["engine"]
    largest = engine[-1]
    scale_time = (largest["analysis_seconds"] + largest["reporting_seconds"]) / (
        largest["events"] * math.log(largest["events"]))
    engine_data = os.path.join(out, "engine.dat")
    write(engine_data, [(r["events"], r["analysis_seconds"] + r["reporting_seconds"],
                         r["peak_rss_kib"] / 1024) for r in engine])
    litmus_data = os.path.join(out, "litmus.dat")
    write(litmus_data, [(row, rate / 1e6)
                        for row, rate in results["litmus"]["runs_per_second"].items()])
    size_data = os.path.join(out, "plugin-size.dat")
    write(size_data, [(r["lines"], r["ratio"]) for r in results.get("by_size", [])])
    inputs_data = os.path.join(out, "plugin-inputs.dat")
    write(inputs_data, [(results["inputs"][name]["lines"],
                         results["plugin"][f"{name}_syntax"]["ratio"], name)
                        for name in ("liburcu", "zlib", "sqlite3")
                        if name in results.get("inputs", {})
                        and f"{name}_syntax" in results["plugin"]])
    size_png = os.path.join(out, f"{PREFIX}-plugin-size.png")
    time_png = os.path.join(out, f"{PREFIX}-engine-time.png")
    memory_png = os.path.join(out, f"{PREFIX}-engine-memory.png")
    litmus_png = os.path.join(out, f"{PREFIX}-litmus.png")
    script = f"""
set terminal pngcairo size 720,480 font ",11"
set grid
set key top left
set logscale xy
set format x "10^{{%L}}"

set output "{size_png}"
set xlabel "lines of C"
set ylabel "CPU time, plugin / plain -fsyntax-only"
set format y "%g"
set yrange [0.8:20]
set title "barrierpair plugin: cost against file size"
plot "{size_data}" using 1:2 with linespoints lw 2 pt 7 title "generated barrier code", \\
     "{inputs_data}" using 1:2 with points pt 5 ps 1.5 title "real code", \\
     "{inputs_data}" using 1:2:3 with labels offset 0,1 notitle, \\
     1 with lines dt 2 lc "gray" notitle
set autoscale y

set xlabel "sites (events) in the program"

set output "{time_png}"
set ylabel "analysis + reporting (s)"
set title "barrierpair engine: time against program size"
plot "{engine_data}" using 1:2 with linespoints lw 2 pt 7 title "measured", \\
     {scale_time!r} * x * log(x) with lines dt 2 title "N log N through the largest"

set output "{memory_png}"
set ylabel "peak RSS (MiB)"
set title "barrierpair engine: peak memory against program size"
plot "{engine_data}" using 1:3 with linespoints lw 2 pt 7 title "measured", \\
     1024 with lines dt 2 title "1 GiB"

unset logscale
set format x "%g"
set output "{litmus_png}"
set style fill solid 0.6
set boxwidth 0.7
set xlabel "scenario row (variant weakest)"
set ylabel "millions of runs per second"
set xrange [-0.5:15.5]
set yrange [0:*]
set xtics 1
set title "barrierpair-litmus throughput per row"
plot "{litmus_data}" using 1:2 with boxes notitle
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    return [size_png, time_png, memory_png, litmus_png]
