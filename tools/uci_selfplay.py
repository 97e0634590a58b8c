#!/usr/bin/env python3
"""UCI check with python-chess: the engine plays complete games against itself through
chess.engine.SimpleEngine.popen_uci, in chess and in crazyhouse (python-chess selects the
variant with the UCI_Variant option). Every move is checked to be legal by python-chess;
the first plies are random (seeded) so that games differ; a game ends by
python-chess's rules (mate, stalemate, insufficient material, and the
draws a player may claim: threefold repetition, 50-move rule).

  uci_selfplay.py [--games N] [--movetime S] ENGINE [ARG...]

Prints one line per game and a summary; exit status 0 when every game finished with
legal moves only.
"""
import argparse
import random
import sys
import time

import chess
import chess.engine
import chess.variant


def play(engine, board_class, movetime, max_plies, opening_plies, rng):
    board = board_class()
    # A few random opening moves, so that the games differ.
    for _ in range(opening_plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        result = engine.play(board, chess.engine.Limit(time=movetime))
        if result.move is None or result.move not in board.legal_moves:
            return board, "illegal move %s in %s" % (result.move, board.fen())
        board.push(result.move)
    if not board.is_game_over(claim_draw=True):
        return board, "unfinished after %d plies" % board.ply()
    return board, None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4, help="games per variant")
    ap.add_argument("--movetime", type=float, default=0.05, help="seconds per move")
    ap.add_argument("--max-plies", type=int, default=1000)
    ap.add_argument("--opening-plies", type=int, default=2, help="random plies before the engine plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("engine", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    failures = 0
    total = 0
    rng = random.Random(a.seed)
    with chess.engine.SimpleEngine.popen_uci(a.engine) as engine:
        for name, cls in (("chess", chess.Board), ("crazyhouse", chess.variant.CrazyhouseBoard)):
            for g in range(a.games):
                t = time.time()
                board, problem = play(engine, cls, a.movetime, a.max_plies, a.opening_plies, rng)
                total += 1
                outcome = board.outcome(claim_draw=True)
                why = outcome.termination.name if outcome else "-"
                print("%s game %d: %s %s, %d plies, %.1fs%s" % (name, g + 1, board.result(claim_draw=True), why,
                      board.ply(), time.time() - t, "  PROBLEM: " + problem if problem else ""), flush=True)
                failures += problem is not None
    print("%d games, %d complete with legal moves only, %d with problems" % (total, total - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
