#!/usr/bin/env python3
"""eval_residuals.py -- which of Fairy-Stockfish's evaluation terms Menagerie's misses (chess).

For the quiet positions of a tuning-data file (lines `FEN;SCORE;RESULT;BESTMOVE`,
tools/make_tuning_data.py: not in check, the move played neither a capture nor a
promotion), asks Fairy-Stockfish for its `eval` table (each term's middlegame and endgame
value, tapered here by its game phase) and Menagerie for its static evaluation
(`cargo build --release --example evalfen`). Fits Fairy-Stockfish's total as a multiple of
Menagerie's, then, term by term, how much adding that one term of Fairy-Stockfish's
lowers the spread of what is left: a term that lowers it much is one Menagerie's
evaluation does not follow. `--top N` lists the positions that differ most.

    python3 tools/eval_residuals.py /work/tune/chess-s41.data --limit 15000

Needs python-chess and numpy; chess only (the phase is chess's).
"""
import argparse
import os
import re
import subprocess
import sys

import chess
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from static_labels import evaluations, total  # noqa: E402

TERMS = ["Material", "Imbalance", "Pawns", "Knights", "Bishops", "Rooks", "Queens", "Mobility",
         "King safety", "Threats", "Passed", "Space", "Initiative"]
ROW = re.compile(r"^\s*([A-Za-z ]+?)\s*\|.*\|\s*(-?[0-9.]+)\s+(-?[0-9.]+)\s*$")
# Stockfish 11's non-pawn material values and phase limits (facts about its evaluation).
NPM = {chess.KNIGHT: 781, chess.BISHOP: 825, chess.ROOK: 1276, chess.QUEEN: 2538}
ENDGAME_LIMIT, MIDGAME_LIMIT = 3915, 15258


def phase(board):
    npm = sum(NPM.get(p.piece_type, 0) for p in board.piece_map().values())
    npm = max(ENDGAME_LIMIT, min(npm, MIDGAME_LIMIT))
    return (npm - ENDGAME_LIMIT) * 128 // (MIDGAME_LIMIT - ENDGAME_LIMIT)


def quiet(lines):
    for line in lines:
        f = line.split(";")
        if len(f) < 4:
            continue
        b = chess.Board(f[0])
        try:
            m = chess.Move.from_uci(f[3])
        except ValueError:
            continue
        if not b.is_check() and not b.is_capture(m) and not m.promotion:
            yield f[0], b


def fsf_tables(engine, fens):
    """Per FEN: {term: (mg, eg)} from Fairy-Stockfish's eval table, and "total"."""
    for answer in evaluations(engine, "chess", fens):
        table = {"total": total(answer)}
        for line in answer:
            m = ROW.match(line)
            if m and m.group(1) in TERMS:
                table[m.group(1)] = (float(m.group(2)), float(m.group(3)))
        yield table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--limit", type=int, default=20000, help="lines of the data file read")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--evalfen", default="target/release/examples/evalfen")
    ap.add_argument("--top", type=int, default=0)
    a = ap.parse_args()
    lines = [ln.strip() for ln in open(a.data) if ln.strip()][:a.limit]
    positions = list(quiet(lines))
    fens = [fen for fen, _ in positions]
    tables = list(fsf_tables(a.engine, fens))
    ours = {}
    reply = subprocess.run([a.evalfen, "chess"], input="\n".join(fens) + "\n",
                           capture_output=True, text=True, check=True).stdout
    for ln in reply.splitlines():
        fen, v = ln.rsplit(";", 1)
        ours[fen] = int(v)
    rows = []
    for (fen, board), t in zip(positions, tables):
        if t.get("total") is None or fen not in ours:
            continue
        sign = 1 if board.turn == chess.WHITE else -1
        ph = phase(board)
        feats = [(t[k][0] * ph + t[k][1] * (128 - ph)) / 128 * 100 for k in TERMS]
        rows.append((ours[fen] * sign, t["total"] * 100, feats, fen))
    y_ours = np.array([r[0] for r in rows], float)
    y = np.array([r[1] for r in rows], float)
    F = np.array([r[2] for r in rows], float)
    keep = (np.abs(y) < 600) & (np.abs(y_ours) < 900)
    y_ours, y, F = y_ours[keep], y[keep], F[keep]
    slope = (y_ours @ y) / (y_ours @ y_ours)
    resid = y - slope * y_ours
    print("%d positions; Fairy-Stockfish = %.3f x Menagerie, residual sd %.1f cp (its sd %.1f)"
          % (len(y), slope, resid.std(), y.std()))
    for i, term in enumerate(TERMS):
        X = np.column_stack([y_ours, F[:, i]])
        coef, *_ = np.linalg.lstsq(X, y, rcond=None)
        left = (y - X @ coef).std()
        print("%-12s sd %6.1f  coefficient %6.3f  residual sd %.1f (-%.1f)"
              % (term, F[:, i].std(), coef[1], left, resid.std() - left))
    if a.top:
        worst = sorted(zip(resid, y, slope * y_ours, [r[3] for r, k in zip(rows, keep) if k]),
                       key=lambda x: -abs(x[0]))[:a.top]
        for r, fsf, mine, fen in worst:
            print("%6.0f  fsf %6.0f  menagerie %6.0f  %s" % (r, fsf, mine, fen))


if __name__ == "__main__":
    main()
