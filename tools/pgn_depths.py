#!/usr/bin/env python3
"""pgn_depths.py -- how deep and how long each engine searched, from referee PGN files.

Reads the move comments `{SCORE/DEPTH TIMEs}` that tools/referee.py writes
(book moves, `{book}`, are skipped) and prints, per engine, the average depth and time
per move over all games and by stretches of the game (`--bucket` plies each, counted
from the game's start, the opening moves included):

    python3 tools/pgn_depths.py /tmp/chess.pgn
    python3 tools/pgn_depths.py --bucket 20 --stretches 4 a.pgn b.pgn
"""
import argparse
import re
from collections import defaultdict

from pgn import games

SEARCH = re.compile(r"^\S+/(\d+)\s+([0-9.]+)s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--bucket", type=int, default=20, help="plies per stretch")
    ap.add_argument("--stretches", type=int, default=4, help="stretches shown (the last takes the rest)")
    a = ap.parse_args()
    total = defaultdict(list)
    stretch = defaultdict(lambda: defaultdict(list))
    for path in a.pgn:
        for tags, moves in games(path):
            for ply, (_, comment) in enumerate(moves):
                m = SEARCH.match(comment)
                if not m:
                    continue
                engine = tags.get("White" if ply % 2 == 0 else "Black", "?")
                x = (int(m.group(1)), float(m.group(2)))
                total[engine].append(x)
                stretch[engine][min(ply // a.bucket, a.stretches - 1)].append(x)
    mean = lambda xs, i: sum(x[i] for x in xs) / len(xs)
    for engine, xs in sorted(total.items()):
        print("%-12s %6d moves  depth %5.2f  time %.3f s" % (engine, len(xs), mean(xs, 0), mean(xs, 1)))
        for k, ys in sorted(stretch[engine].items()):
            lo = k * a.bucket
            span = "%d-%d" % (lo, lo + a.bucket - 1) if k < a.stretches - 1 else "%d-" % lo
            print("    plies %-8s %6d moves  depth %5.2f  time %.3f s" % (span, len(ys), mean(ys, 0), mean(ys, 1)))


if __name__ == "__main__":
    main()
