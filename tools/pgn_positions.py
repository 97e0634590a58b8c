#!/usr/bin/env python3
"""pgn_positions.py -- tuning data from played games (the referee's PGN files).

Writes the position before every move after the opening (moves marked `{book}` are
skipped) as make_tuning_data.py does, `FEN;SCORE;RESULT;BESTMOVE`, with SCORE 0: label
the lines with tools/static_labels.py. Games without a result are left out. Any variant
pyffish knows (the PGN's `Variant` tag, chess without one); moves are read back from SAN
by pyffish.

Why: an evaluation fitted to one engine's self-play meets other positions in its own
games. Games of Menagerie against Fairy-Stockfish, labelled with Fairy-Stockfish's static
evaluation, teach it the positions it actually reaches:

    python3 tools/sprt.py gauntlet --engine target/release/menagerie --variants chess \\
        --opponents fsf --pairs 400 --tc 60+1 --depth 8 --seed 321 --pgn /tmp/vsfsf.pgn
    python3 tools/pgn_positions.py /tmp/vsfsf.pgn /tmp/vsfsf.data
    python3 tools/static_labels.py /tmp/vsfsf.data /tmp/vsfsf-static.data
"""
import argparse
import re

import pyffish as sf

from pgn import games

RESULTS = {"1-0": "1", "0-1": "0", "1/2-1/2": "0.5"}
SQUARES = re.compile(r"[a-z][0-9]+")


def positions(tags, moves, out):
    """Writes the game's positions after its book moves; returns how many."""
    result = RESULTS.get(tags.get("Result"))
    if result is None:
        return 0
    variant = tags.get("Variant", "chess")
    current = tags.get("FEN", sf.start_fen(variant))
    written = 0
    for san, comment in moves:
        # Moves whose destination square is written in the SAN are tried first.
        legal = sorted(sf.legal_moves(variant, current, []), key=lambda m: SQUARES.findall(m)[-1] not in san)
        move = next((m for m in legal
                     if sf.get_san(variant, current, m, False, sf.NOTATION_SAN).rstrip("+#")
                     == san.rstrip("+#")), None)
        if move is None:
            raise SystemExit("no legal move %s in %s" % (san, current))
        if comment != "book":
            out.write("%s;0;%s;%s\n" % (current, result, move))
            written += 1
        current = sf.get_fen(variant, current, [move])
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+", help="PGN files (the last argument is the output)")
    a = ap.parse_args()
    if len(a.pgn) < 2:
        raise SystemExit("give PGN files and an output file")
    *inputs, output = a.pgn
    n_games = n_positions = 0
    with open(output, "w") as out:
        for path in inputs:
            for tags, moves in games(path):
                k = positions(tags, moves, out)
                n_games += k > 0
                n_positions += k
    print("%d games, %d positions" % (n_games, n_positions))


if __name__ == "__main__":
    main()
