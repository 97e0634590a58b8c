#!/usr/bin/env python3
"""make_openings.py -- generate a balanced opening suite for one variant.

Each opening is a short line of plausible moves from the start position: at every ply
Fairy-Stockfish (MultiPV, shallow depth) lists its best moves and one of those within
--spread centipawns of the best is picked at random. The final position is searched deeper
and kept only when its score lies within --balance centipawns of zero; duplicates (same
position) are dropped. Output: one line per opening, space-separated UCI moves in pyffish
notation, the format tools/sprt.py and referee.py read.

    python3 tools/make_openings.py --variant crazyhouse --count 300 \
        --out tools/openings/crazyhouse.txt

The seed makes a run reproducible for a given Fairy-Stockfish binary (one thread, fixed depths).
"""
import argparse
import random
import subprocess
import sys

import pyffish as sf


class Uci:
    def __init__(self, cmd, variant, config=None):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  universal_newlines=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if config:
            self.send("setoption name VariantPath value %s" % config)
        self.send("setoption name UCI_Variant value %s" % variant)
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 32")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            lines.append(line.strip())
            if line.startswith(token):
                return lines

    def search(self, moves, depth, multipv):
        self.send("setoption name MultiPV value %d" % multipv)
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go depth %d" % depth)
        lines = self.wait("bestmove")
        best = {}
        for line in lines:
            t = line.split()
            if not t or t[0] != "info" or "pv" not in t or "score" not in t:
                continue
            if "depth" in t and int(t[t.index("depth") + 1]) != depth:
                continue
            k = int(t[t.index("multipv") + 1]) if "multipv" in t else 1
            i = t.index("score")
            kind, val = t[i + 1], int(t[i + 2])
            cp = val if kind == "cp" else (100000 if val > 0 else -100000)
            best[k] = (cp, t[t.index("pv") + 1])
        return [best[k] for k in sorted(best)]

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--min-plies", type=int, default=6)
    ap.add_argument("--max-plies", type=int, default=10)
    ap.add_argument("--multipv", type=int, default=6)
    ap.add_argument("--pick-depth", type=int, default=7)
    ap.add_argument("--check-depth", type=int, default=12)
    ap.add_argument("--spread", type=int, default=60, help="centipawns below the best a picked move may be")
    ap.add_argument("--balance", type=int, default=70, help="keep final positions scored within this")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--config", default=None, help="variants.ini for variants the engine lacks")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if a.config:
        sf.load_variant_config(open(a.config).read())
    rng = random.Random(a.seed)
    eng = Uci(a.engine, a.variant, a.config)
    start = sf.start_fen(a.variant)
    seen = set()
    kept = []
    tries = 0
    while len(kept) < a.count and tries < a.count * 20:
        tries += 1
        plies = rng.randint(a.min_plies, a.max_plies)
        moves = []
        for _ in range(plies):
            cands = eng.search(moves, a.pick_depth, a.multipv)
            if not cands:
                break
            top = cands[0][0]
            ok = [m for cp, m in cands if cp >= top - a.spread]
            moves.append(rng.choice(ok))
        if len(moves) < plies:
            continue
        if not sf.legal_moves(a.variant, start, moves) or sf.is_optional_game_end(a.variant, start, moves)[0]:
            continue
        fen = sf.get_fen(a.variant, start, moves)
        key = " ".join(fen.split()[:-2])
        if key in seen:
            continue
        score = eng.search(moves, a.check_depth, 1)
        if not score or abs(score[0][0]) > a.balance:
            continue
        seen.add(key)
        kept.append(moves)
        print("%d/%d (tries %d) %+d: %s" % (len(kept), a.count, tries, score[0][0], " ".join(moves)),
              file=sys.stderr, flush=True)
    eng.close()
    with open(a.out, "w") as f:
        f.write("# %s: %d balanced openings (|score| <= %d cp at depth %d by Fairy-Stockfish),\n"
                % (a.variant, len(kept), a.balance, a.check_depth))
        f.write("# made by: tools/make_openings.py --variant %s --count %d --seed %d --min-plies %d "
                "--max-plies %d --multipv %d --pick-depth %d --check-depth %d --spread %d --balance %d\n"
                % (a.variant, a.count, a.seed, a.min_plies, a.max_plies, a.multipv, a.pick_depth,
                   a.check_depth, a.spread, a.balance))
        for m in kept:
            f.write(" ".join(m) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
