#!/usr/bin/env python3
"""make_tuning_data.py -- positions with labels for fitting the evaluation (Texel tuning).

Plays Fairy-Stockfish against itself from the balanced openings of tools/openings/VARIANT.txt
(a fixed node budget per move, varied per game so that games differ), pyffish deciding legality
and game ends. Every position after the opening is written with the searching side's score
and the game's result:

    FEN;SCORE;RESULT;BESTMOVE

SCORE: centipawns from the side to move's point of view as Fairy-Stockfish reports them
(mates as +-2000); RESULT: 1, 0.5 or 0 for White; BESTMOVE: the move played (pyffish UCI
notation), so that a tuner can keep quiet positions only.

    python3 tools/make_tuning_data.py --variant crazyhouse --games 600 --out /tmp/zh.data

Games are adjudicated once both sides agree on a score beyond --adjudicate for 6 plies in
a row. The seed fixes the choice of openings and node budgets.

--contempt sets Fairy-Stockfish's Contempt. Its default, 24, is what the shipped weights'
data were made with; it scores the side to move (the searching side) about 10 centipawns
better than the position is (measured in chess), a bias that a fit takes into the tempo.
New data want --contempt 0.
"""
import argparse
import os
import random
import sys

import pyffish as sf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_openings import Uci  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def search(eng, fen, moves, nodes):
    eng.send("position fen %s%s" % (fen, (" moves " + " ".join(moves)) if moves else ""))
    eng.send("go nodes %d" % nodes)
    score, best = None, None
    for line in eng.wait("bestmove"):
        t = line.split()
        if t and t[0] == "info" and "score" in t:
            i = t.index("score")
            v = int(t[i + 2])
            score = v if t[i + 1] == "cp" else (2000 if v > 0 else -2000)
        if t and t[0] == "bestmove":
            best = t[1]
    return score, best


def play(eng, variant, opening, nodes, max_plies, adjudicate, out):
    start = sf.start_fen(variant)
    moves = list(opening)
    eng.send("ucinewgame")
    rows = []
    streak = 0
    result = None
    while len(moves) < max_plies:
        legal = sf.legal_moves(variant, start, moves)
        if not legal:
            r = sf.game_result(variant, start, moves)  # side to move's view, in centi-units
            stm_white = sf.get_fen(variant, start, moves).split()[1] == "w"
            res = 0.5 if r == 0 else (1.0 if r > 0 else 0.0)
            result = res if stm_white else 1.0 - res
            break
        end, r = sf.is_optional_game_end(variant, start, moves)
        if end:
            stm_white = sf.get_fen(variant, start, moves).split()[1] == "w"
            res = 0.5 if r == 0 else (1.0 if r > 0 else 0.0)
            result = res if stm_white else 1.0 - res
            break
        score, best = search(eng, start, moves, nodes)
        if best is None or best not in legal or score is None:
            break
        fen = sf.get_fen(variant, start, moves)
        rows.append((fen, score, best))
        white = fen.split()[1] == "w"
        streak = streak + 1 if abs(score) >= adjudicate else 0
        if streak >= 6:
            white_score = score if white else -score
            result = 1.0 if white_score > 0 else 0.0
            break
        moves.append(best)
    if result is None:
        result = 0.5
    for fen, score, best in rows:
        out.write("%s;%d;%g;%s\n" % (fen, score, result, best))
    out.flush()
    return result, len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--nodes", type=int, default=12000, help="mean node budget per move")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--adjudicate", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--openings", default=None, help="default: tools/openings/VARIANT.txt")
    ap.add_argument("--contempt", type=int, default=24, help="Fairy-Stockfish's Contempt (see above)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    path = a.openings or os.path.join(HERE, "openings", a.variant + ".txt")
    openings = [ln.split() for ln in open(path) if ln.strip() and not ln.startswith("#")]
    rng = random.Random(a.seed)
    eng = Uci(a.engine, a.variant)
    eng.send("setoption name Contempt value %d" % a.contempt)
    total = 0
    with open(a.out, "a") as out:
        for g in range(a.games):
            opening = rng.choice(openings)
            nodes = int(a.nodes * rng.uniform(0.6, 1.4))
            res, n = play(eng, a.variant, opening, nodes, a.max_plies, a.adjudicate, out)
            total += n
            print("game %d: %s, %d positions (total %d)" % (g + 1, res, n, total), file=sys.stderr, flush=True)
    eng.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
