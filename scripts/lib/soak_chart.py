#!/usr/bin/env python3
"""Draws the soak's samples and gives the verdict.

    soak_chart.py SAMPLES.csv CHART.png

SAMPLES.csv has lines "seconds,process,rss_kb,descriptors,threads". Passing means, for
every process, from the sample at one minute to the end (the median of the last three
samples, so that one sample taken mid-reopen does not decide): RSS grew by at most 5 %, and
descriptors and threads ended no higher than they were.
"""
import csv
import statistics
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

samples_path, chart_path = sys.argv[1], sys.argv[2]
series = defaultdict(list)
with open(samples_path) as f:
    for seconds, process, rss, descriptors, threads in csv.reader(f):
        series[process].append((float(seconds), int(rss) / 1024, int(descriptors), int(threads)))

figure, axes = plt.subplots(3, 1, figsize=(10, 9), sharex=True)
for (column, label), axis in zip([(1, "RSS (MiB)"), (2, "open descriptors"), (3, "threads")], axes):
    for process, rows in sorted(series.items()):
        axis.plot([r[0] / 60 for r in rows], [r[column] for r in rows], label=process, linewidth=1.2)
    axis.set_ylabel(label)
    axis.grid(True, alpha=0.3)
    axis.axvline(1, color="grey", linestyle=":", linewidth=1)
axes[0].legend(loc="upper left", fontsize=8, ncol=2)
axes[-1].set_xlabel("minutes (dotted: the one-minute baseline)")
minutes = max(r[0] for rows in series.values() for r in rows) / 60
figure.suptitle(f"Reel soak, {minutes:.0f} minutes: memory, descriptors and threads per process, sampled every 10 s")
figure.tight_layout()
figure.savefig(chart_path, dpi=80)

failures = 0
print(f"{'process':<22} {'RSS 1 min':>10} {'RSS end':>9} {'growth':>7} {'peak':>8}  {'fds 1 min/end/max':>17}  {'threads 1 min/end/max':>21}")
for process, rows in sorted(series.items()):
    after = [r for r in rows if r[0] >= 60]
    if len(after) < 4:
        print(f"{process}: too few samples after the first minute ({len(after)})")
        failures += 1
        continue
    base, tail = after[0], after[-3:]
    end = [statistics.median(r[c] for r in tail) for c in range(4)]
    growth = (end[1] - base[1]) / base[1] * 100
    peak = max(r[1] for r in after)
    flat = end[2] <= base[2] and end[3] <= base[3]
    ok = growth <= 5 and flat
    failures += not ok
    print(f"{process:<22} {base[1]:>8.1f}MB {end[1]:>7.1f}MB {growth:>+6.1f}% {peak:>6.1f}MB"
          f"  {base[2]:>5}/{end[2]:>4.0f}/{max(r[2] for r in after):>4}    {base[3]:>9}/{end[3]:>4.0f}/{max(r[3] for r in after):>4}"
          f"  {'ok' if ok else 'FAIL'}")
print(f"chart: {chart_path}")
sys.exit(1 if failures else 0)
