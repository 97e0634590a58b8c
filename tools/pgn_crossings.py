#!/usr/bin/env python3
"""pgn_crossings.py -- how a lost game slipped away, from referee PGN files.

For every game the engine `--engine` (default menagerie) lost, finds the first move at which
the winner's own search score reached each threshold (in pawns, `--thresholds`), and prints,
per threshold, the median ply of that move and the loser's own score (from its side, from
the move comments `{SCORE/DEPTH TIMEs}` that ../shared/tools/referee.py writes) at its move
just before and just after. It also counts how the winner's score first crossed the middle
threshold: by a jump of at least that much in one of its moves (a tactic the loser missed),
or by small steps (a position the loser misjudged for several moves).

    python3 tools/pgn_crossings.py /tmp/chess-vs-fsf.pgn
    python3 tools/pgn_crossings.py --thresholds 1,2,3 a.pgn b.pgn

The two engines' scores are on their own scales (Fairy-Stockfish's chess scores are about
0.77 of Menagerie's for the same position): compare signs and sizes, not the units.
"""
import argparse
import re
import statistics

from pgn import games

SCORE = re.compile(r"^([+-]?M\d+|[+-]?[0-9.]+)/\d+")
# A mate score counts as this many pawns.
MATE_PAWNS = 20.0


def pawns(comment):
    """The score of a move comment, in pawns from the mover's side (None for a book move)."""
    m = SCORE.match(comment)
    if not m:
        return None
    s = m.group(1)
    if "M" in s:
        return -MATE_PAWNS if s.startswith("-") else MATE_PAWNS
    return float(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--engine", default="menagerie", help="the loser whose games are read")
    ap.add_argument("--thresholds", default="1,1.5,2.5", help="the winner's scores, in pawns")
    a = ap.parse_args()
    thresholds = [float(t) for t in a.thresholds.split(",")]
    middle = thresholds[len(thresholds) // 2]
    found = {t: [] for t in thresholds}
    lost = jumps = 0
    for path in a.pgn:
        for tags, moves in games(path):
            white = tags.get("White") == a.engine
            if not white and tags.get("Black") != a.engine:
                continue
            if tags.get("Result") != ("0-1" if white else "1-0"):
                continue
            lost += 1
            # Plies of the winner (the side the engine is not).
            winner = 1 if white else 0
            scores = [pawns(c) for _, c in moves]
            jumped = None
            prev = None
            reached = set()
            for ply in range(winner, len(moves), 2):
                v = scores[ply]
                if v is None:
                    continue
                if jumped is None and v >= middle:
                    jumped = prev is not None and v - prev >= middle
                for t in thresholds:
                    if v >= t and t not in reached:
                        reached.add(t)
                        before = scores[ply - 1] if ply >= 1 else None
                        after = scores[ply + 1] if ply + 1 < len(moves) else None
                        found[t].append((ply, before, after))
                prev = v
            jumps += bool(jumped)
    print("%d games lost by %s" % (lost, a.engine))
    for t in thresholds:
        rows = found[t]
        if not rows:
            continue
        med = lambda xs: statistics.median(xs) if xs else float("nan")
        print(
            "winner at %+.1f: %3d games, median ply %5.1f; loser's own score before %+.2f, after %+.2f"
            % (
                t,
                len(rows),
                med([r[0] for r in rows]),
                med([r[1] for r in rows if r[1] is not None]),
                med([r[2] for r in rows if r[2] is not None]),
            )
        )
    print("crossed %+.1f by one jump of as much: %d games; by small steps: %d" % (middle, jumps, lost - jumps))


if __name__ == "__main__":
    main()
