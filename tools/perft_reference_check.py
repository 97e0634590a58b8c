#!/usr/bin/env python3
"""perft_reference_check.py -- run Menagerie's perft on every position of a reference file
(perft-reference.json format: {"positions": [{"variant", "label", "fen", "levels": [...]}]})
or of tests/data/perft/random-positions.epd, and compare the counts.

  tools/perft_reference_check.py REFERENCE.json [--max-depth N] [--max-nodes N] [--engine BIN]
  tools/perft_reference_check.py tests/data/perft/random-positions.epd

Prints one line per position (OK/FAIL, variant, label, depth, count, seconds) and a summary;
exit status 1 on any mismatch. Optional check outside `cargo test` (deep counts take minutes).
"""
import argparse
import json
import re
import subprocess
import sys
import time


def cases(path):
    if path.endswith(".json"):
        for p in json.load(open(path))["positions"]:
            yield p["variant"], p["label"], p["fen"], {i + 1: n for i, n in enumerate(p["levels"])}
    else:
        for i, line in enumerate(open(path)):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            variant, rest = line.split(";", 1)
            fen = rest.split(";")[0].strip()
            counts = {int(d): int(n) for d, n in re.findall(r"D(\d+) (\d+)", rest)}
            yield variant.strip(), f"line {i + 1}", fen, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("--engine", default="./target/release/menagerie")
    ap.add_argument("--max-depth", type=int, default=99)
    ap.add_argument("--max-nodes", type=int, default=10**12)
    ap.add_argument("--variants", action="append", default=[])
    args = ap.parse_args()
    bad = total = 0
    t_all = time.time()
    for variant, label, fen, counts in cases(args.reference):
        depths = [d for d, n in counts.items() if d <= args.max_depth and n <= args.max_nodes]
        if not depths:
            continue
        d = max(depths)
        cmd = [args.engine, "perft", str(d), "--variant", variant, "--fen", fen]
        for f in args.variants:
            cmd += ["--variants", f]
        t0 = time.time()
        out = subprocess.run(cmd, capture_output=True, text=True)
        secs = time.time() - t0
        m = re.search(r"Nodes searched: (\d+)", out.stdout)
        got = int(m.group(1)) if m else None
        total += 1
        ok = got == counts[d]
        bad += not ok
        print(f"{'OK  ' if ok else 'FAIL'} {variant:12} {label:40} d{d} {counts[d]:>13} {secs:7.1f}s"
              + ("" if ok else f"  got {got} {out.stderr.strip()[:200]}"), flush=True)
    print(f"\n{total - bad}/{total} positions agree ({time.time() - t_all:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
