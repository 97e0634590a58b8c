#!/usr/bin/env python3
"""Search start-up time: how long `go depth 1` takes, from the command to `bestmove`,
after a long game, with T threads; several engine binaries compared in the same run.

    tools/smp_startup.py [--variant chess] [--plies 300] [--rounds 15] [--threads 2]
                         BINARY [BINARY ...]

A depth-1 search is a few hundred nodes, so the time is the search's start-up: what
every thread does before it searches (copying the position, setting up its tables).
The game is a seeded random legal game from pyffish, `--plies` long, that never
leaves the side to move without a move, sent as `position startpos moves ...`. Each binary runs as one UCI process;
the rounds alternate between them so that a shared machine's changing speed hits all
alike. Reports the median and the quartiles per binary, in milliseconds.
"""
import argparse
import random
import statistics
import subprocess
import time


def random_game(variant, plies, seed):
    import pyffish
    rng = random.Random(seed)
    fen = pyffish.start_fen(variant)
    moves = []
    for _ in range(plies):
        # A move after which the game goes on (a finished game has no search to start).
        legal = sorted(pyffish.legal_moves(variant, fen, moves))
        rng.shuffle(legal)
        going_on = [m for m in legal if pyffish.legal_moves(variant, fen, moves + [m])]
        if not going_on:
            break
        moves.append(going_on[0])
    return moves


class Engine:
    def __init__(self, binary, variant, threads):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send(f"setoption name Threads value {threads}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine quit")
            if line.startswith(prefix):
                return line

    def time_go(self, position):
        self.send(position)
        self.send("isready")
        self.wait("readyok")
        start = time.perf_counter()
        self.send("go depth 1")
        self.wait("bestmove")
        return (time.perf_counter() - start) * 1000

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binaries", nargs="+")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--plies", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    moves = random_game(a.variant, a.plies, a.seed)
    position = "position startpos moves " + " ".join(moves)
    engines = [Engine(b, a.variant, a.threads) for b in a.binaries]
    times = [[] for _ in engines]
    for e in engines:
        e.time_go(position)  # warm-up
    for r in range(a.rounds):
        order = list(range(len(engines)))
        if r % 2:
            order.reverse()
        for i in order:
            times[i].append(engines[i].time_go(position))
    for e in engines:
        e.quit()
    print(f"{a.variant}, {len(moves)} plies, {a.threads} threads, {a.rounds} rounds: "
          f"go depth 1 -> bestmove, ms")
    for b, t in zip(a.binaries, times):
        q = statistics.quantiles(t, n=4)
        print(f"  {b}: median {statistics.median(t):.2f}  quartiles {q[0]:.2f} {q[2]:.2f}")


if __name__ == "__main__":
    main()
