#!/usr/bin/env python3
"""Lazy SMP: time for the bench positions to reach the same depth with 1 and with 2
threads, in the same run, and nodes/second at both.

    tools/bench_smp.py [--rounds N] [--extra-depth E] [--threads T] [--hash MB]
                       [--nnue] [--variants V,W]

Each round runs every bench position (`menagerie bench --extra-depth E --position N`)
at 1 thread and right after at T threads: interleaved, so that a shared machine's
changing speed hits both alike. A two-thread search is not deterministic, so one
round says little: the script reports every round and the median over the rounds of
  - the total-time ratio (1 thread / T threads), and
  - the geometric mean of the per-position time ratios (positions that take at
    least 50 ms at one thread; mates found at once are left out),
and nodes/second at both thread counts. Run it on an idle machine with a core per
thread: the load average is printed before each run. `--nnue` searches with the
built-in nets where a variant has one (`bench --nnue`); `--variants` keeps only the
positions of those variants (e.g. the ones with a net).
"""
import argparse
import math
import os
import re
import statistics
import subprocess

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^Position\s+(\d+)\s+(\S+)\s+depth\s+(\d+).*?nodes\s+(\d+)\s+time\s+(\d+) ms")


def bench(binary, threads, extra, hash_mb, position, nnue):
    """(variant, depth, nodes, ms) of one bench position."""
    out = subprocess.run(
        [binary, "bench", "--extra-depth", str(extra), "--threads", str(threads), "--hash", str(hash_mb),
         "--position", str(position)] + (["--nnue"] if nnue else []),
        check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            return m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))
    return None


def positions(binary, variants):
    """The numbers of the bench's positions (of `variants` only, where given)."""
    out = subprocess.run([binary, "bench", "1"], check=True, capture_output=True, text=True).stdout
    return [int(m.group(1)) for m in map(LINE.match, out.splitlines())
            if m and (not variants or m.group(2) in variants)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--extra-depth", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--nnue", action="store_true", help="the built-in nets where a variant has one")
    ap.add_argument("--variants", default="", help="comma-separated: only these variants' positions")
    ap.add_argument("--binary", default=os.environ.get("MENAGERIE", os.path.join(HERE, "target/release/menagerie")))
    a = ap.parse_args()
    total_ratios, geo_ratios, nps1, npsn = [], [], [], []
    numbers = positions(a.binary, [v for v in a.variants.split(",") if v])
    for r in range(1, a.rounds + 1):
        load = open("/proc/loadavg").read().split()[:3]
        t1, tn = {}, {}
        for i in numbers:
            t1[i] = bench(a.binary, 1, a.extra_depth, a.hash, i, a.nnue)
            tn[i] = bench(a.binary, a.threads, a.extra_depth, a.hash, i, a.nnue)
        ms1, msn = sum(t[3] for t in t1.values()), sum(t[3] for t in tn.values())
        n1, nn = sum(t[2] for t in t1.values()), sum(t[2] for t in tn.values())
        s1, sn = int(n1 * 1000 / ms1), int(nn * 1000 / msn)
        ratios = [t1[i][3] / max(tn[i][3], 1) for i in numbers if t1[i][3] >= 50]
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        total_ratios.append(ms1 / msn)
        geo_ratios.append(geo)
        nps1.append(s1)
        npsn.append(sn)
        print(f"round {r} (load {' '.join(load)}): 1 thread {ms1} ms {n1} nodes {s1} nodes/s; "
              f"{a.threads} threads {msn} ms {nn} nodes {sn} nodes/s; "
              f"time-to-depth {ms1 / msn:.2f} (total), {geo:.2f} (geometric mean of {len(ratios)} positions)",
              flush=True)
        print("  per position (1 thread ms / %d threads ms): " % a.threads + ", ".join(
            f"{i}:{t1[i][0]} {t1[i][3]}/{tn[i][3]}" for i in numbers), flush=True)
    med = statistics.median
    print(f"median over {a.rounds} rounds: time-to-depth speed-up {med(total_ratios):.2f} (total time), "
          f"{med(geo_ratios):.2f} (geometric mean per position); nodes/s 1 thread {med(nps1):.0f}, "
          f"{a.threads} threads {med(npsn):.0f} (scaling {med(npsn) / med(nps1):.2f})")


if __name__ == "__main__":
    main()
