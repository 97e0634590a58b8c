#!/usr/bin/env python3
"""eval_bias.py -- where Menagerie's static evaluation is more hopeful than Fairy-Stockfish's
on the positions of their games (chess).

For every position of a referee PGN of Menagerie against Fairy-Stockfish (`sprt.py
gauntlet --pgn`) after the opening (plies 17-101, side to move not in check), asks
Fairy-Stockfish for its `eval` table and Menagerie for its terms
(`examples/evalterms.rs`), keeps the positions Fairy-Stockfish scores within
`--window` centipawns, and prints, from the side Menagerie plays, the mean of each
engine's total and of groups of terms that measure the same thing (Fairy-Stockfish's
rows against the sum of Menagerie's terms named beside them), then both kings' safety
on their own. A search steers into positions its evaluation overrates, so a group
that is more hopeful here than Fairy-Stockfish's, and not on its self-play, is a
term the search exploits.

    cargo build --release --example evalterms
    python3 tools/eval_bias.py /work/s53/g_chess.pgn

Fairy-Stockfish's numbers are in its own centipawns (its static evaluation is about
0.77 times Menagerie's on quiet positions, tools/eval_residuals.py). Needs python-chess.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

import chess
import chess.pgn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_residuals import ROW, phase  # noqa: E402
from static_labels import evaluations  # noqa: E402

# Fairy-Stockfish's `eval` row -> Menagerie's terms that measure the same thing.
GROUPS = {
    "Mobility": ["mobility", "safe_mobility", "mobility_root"],
    "Threats": ["threat", "threat_by_pawn", "hanging", "pawn_push_threat", "restricted",
                "threat_by_lesser"],
    "King safety": ["danger to White", "danger to Black", "shelter", "storm",
                    "flank_attacks", "pawnless_flank"],
    "Pawns": ["doubled", "isolated", "connected", "backward"],
    "Passed": ["passed", "passed2", "passed_free", "passed_own_king", "passed_enemy_king",
               "advance2"],
    "Bishops": ["pair", "same_colour_pawns"],
}
FIRST_PLY, LAST_PLY = 16, 100


def positions(pgn_file, name):
    """(FEN, +1 if Menagerie plays White else -1) of the positions to compare."""
    out = []
    with open(pgn_file) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            side = 1 if game.headers.get("White") == name else -1
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                board.push(move)
                if FIRST_PLY <= ply <= LAST_PLY and not board.is_check():
                    out.append((board.fen(), side))
    return out


PARTS = re.compile(r"^  \| (White|Black) king danger parts: (.*)$")


def our_terms(evalterms, fens):
    """FEN -> ({term: centipawns, White's view}, {colour: {danger part: units}}) from
    examples/evalterms.rs."""
    reply = subprocess.run([evalterms, "chess", "--danger"], input="\n".join(fens) + "\n",
                           capture_output=True, text=True, check=True).stdout
    terms, current = {}, None
    for line in reply.splitlines():
        if not line.startswith("  "):
            current = terms.setdefault(line.strip(), ({}, {}))
        elif current is None or line.startswith("  score"):
            continue
        elif m := PARTS.match(line):
            items = (x.rsplit(" ", 1) for x in m.group(2).split(", ") if x)
            current[1][m.group(1)] = {k: float(v) for k, v in items}
        else:
            current[0][line[2:24].strip()] = float(line[24:])
    return terms


def fsf_rows(answer):
    """{row: (white mg, white eg, black mg, black eg, total mg, total eg)} of an `eval`."""
    rows = {}
    for line in answer:
        m = ROW.match(line)
        if not m:
            continue
        cols = [re.findall(r"-?[0-9.]+", c) for c in line.split("|")[1:4]]
        nums = [float(x) for c in cols for x in (c if len(c) == 2 else ["0", "0"])]
        rows[m.group(1).strip()] = nums
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--evalterms", default="target/release/examples/evalterms")
    ap.add_argument("--name", default="menagerie", help="Menagerie's name in the PGN")
    ap.add_argument("--window", type=int, default=300)
    a = ap.parse_args()
    pos = positions(a.pgn, a.name)
    ours = our_terms(a.evalterms, [f for f, _ in pos])
    totals, groups, kings = [], {g: [] for g in GROUPS}, []
    parts = [{}, {}]  # danger part -> sum, for Menagerie's king and FSF's
    for (fen, side), answer in zip(pos, evaluations(a.engine, "chess", [f for f, _ in pos])):
        rows, (mine, danger_parts) = fsf_rows(answer), ours.get(fen, (None, None))
        if mine is None or "Total" not in rows:
            continue
        ph = phase(chess.Board(fen)) / 128

        def taper(mg, eg):
            return 100 * (mg * ph + eg * (1 - ph))

        theirs = {r: taper(v[4], v[5]) for r, v in rows.items() if r != "Total"}
        total = side * sum(theirs.values())
        if abs(total) > a.window:
            continue
        totals.append((side * sum(mine.values()), total))
        for g, names in GROUPS.items():
            groups[g].append((side * sum(mine.get(n, 0) for n in names),
                              side * theirs.get(g, 0)))
        ks = rows.get("King safety", [0] * 6)
        me, them = (0, 1) if side == 1 else (1, 0)
        # (White's view: the danger to White counts against it, to Black for it.)
        danger = {0: mine.get("danger to White", 0), 1: -mine.get("danger to Black", 0)}
        for i, colour in enumerate(["White", "Black"] if side == 1 else ["Black", "White"]):
            for k, x in danger_parts.get(colour, {}).items():
                parts[i][k] = parts[i].get(k, 0) + x
        kings.append((taper(ks[2 * me], ks[2 * me + 1]), taper(ks[2 * them], ks[2 * them + 1]),
                      danger[me], danger[them]))
    if not totals:
        raise SystemExit("no positions to compare")
    mean = statistics.mean
    print("%d positions, Menagerie's side, Fairy-Stockfish within %d cp" % (len(totals), a.window))
    print("%-12s %9s %9s" % ("", "Menagerie", "FSF"))
    print("%-12s %9.1f %9.1f" % ("total", mean(x for x, _ in totals), mean(y for _, y in totals)))
    for g, v in groups.items():
        print("%-12s %9.1f %9.1f" % (g, mean(x for x, _ in v), mean(y for _, y in v)))
    print("king safety of each side (positive: good for that side)")
    print("%-12s %9.1f %9.1f" % ("Menagerie's", mean(k[2] for k in kings), mean(k[0] for k in kings)))
    print("%-12s %9.1f %9.1f" % ("FSF's", mean(k[3] for k in kings), mean(k[1] for k in kings)))
    print("(Menagerie's column there is its king danger alone, shelter and storm left out)")
    print("Menagerie's king-danger parts, mean units before squaring: Menagerie's king / FSF's")
    for k in sorted(set(parts[0]) | set(parts[1])):
        print("  %-20s %7.1f %7.1f" % (k, parts[0].get(k, 0) / len(totals),
                                        parts[1].get(k, 0) / len(totals)))


if __name__ == "__main__":
    main()
