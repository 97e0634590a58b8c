#!/usr/bin/env python3
"""own_perft_data.py -- perft test data for a variant no oracle can play (Menagerie's own).

    python3 tools/own_perft_data.py VARIANT SEED [--need-hand] [--engine BIN] > tests/data/perft/VARIANT.epd

Prints the start position and two positions reached by seeded random playouts (30-90 plies),
each with perft counts from Menagerie itself, depth 1 up to the first count above 400,000.
With --need-hand only playout positions with a piece in hand are kept (drop coverage).
The counts are a regression check, not an independent oracle: check the moves of the
variant's pieces by hand (`menagerie moves`) before trusting them.
"""
import argparse
import random
import re
import subprocess


def run(engine, variant, depth, moves=None, fen=None):
    cmd = [engine, "perft", str(depth), "--variant", variant, "--divide"]
    if fen:
        cmd += ["--fen", fen]
    if moves is not None:
        cmd += ["--moves", " ".join(moves)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=True)
    legal = [l.split(":")[0] for l in p.stdout.splitlines() if ":" in l and not l.startswith("Nodes")]
    nodes = int(p.stdout.strip().splitlines()[-1].split()[-1])
    fens = [l[len("position: "):] for l in p.stderr.splitlines() if l.startswith("position: ")]
    return legal, nodes, (fens[0] if fens else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("variant")
    ap.add_argument("seed", type=int)
    ap.add_argument("--need-hand", action="store_true")
    ap.add_argument("--engine", default="./target/release/menagerie")
    a = ap.parse_args()
    random.seed(a.seed)
    positions = [(run(a.engine, a.variant, 0, moves=[])[2], "start")]
    while len(positions) < 3:
        moves = []
        for _ in range(random.randint(30, 90)):
            legal, _, _ = run(a.engine, a.variant, 1, moves=moves)
            if not legal:
                break
            moves.append(random.choice(legal))
        legal, _, fen = run(a.engine, a.variant, 1, moves=moves)
        if len(legal) < 5 or (a.need_hand and not re.search(r"\[[A-Za-z+]", fen)):
            continue
        positions.append((fen, "playout-%d" % len(moves)))
    print("# variant: %s" % a.variant)
    print("# Menagerie's own variant: no oracle plays it, so the counts come from Menagerie itself")
    print("# (a regression check), made by: tools/own_perft_data.py %s %d%s"
          % (a.variant, a.seed, " --need-hand" if a.need_hand else ""))
    print("# format: FEN ;D<depth> <perft count> ... ;label NAME")
    for fen, label in positions:
        counts = []
        for d in range(1, 8):
            n = run(a.engine, a.variant, d, fen=fen)[1]
            counts.append(";D%d %d" % (d, n))
            if n > 400000:
                break
        print("%s %s ;label %s" % (fen, " ".join(counts), label), flush=True)


if __name__ == "__main__":
    main()
