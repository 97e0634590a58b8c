#!/usr/bin/env python3
"""Time to a fixed depth, position by position, for a speed change that must keep the
node counts (Menagerie or any UCI engine; one thread, Hash 16, `ucinewgame` before each
position so that runs do not share a table).

    python3 tools/time_to_depth.py ENGINE FENFILE DEPTH [--variant V]

Prints each position's nodes and seconds, then the totals and nodes a second. On a
shared machine the same run varies by about 10 %: alternate a base and a candidate build
several times and compare the sums (a callgrind instruction count of
`menagerie bench --position N` is exact, but blind to memory effects)."""

import argparse
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("fens", help="one FEN a line")
    ap.add_argument("depth", type=int)
    ap.add_argument("--variant", default="chess")
    a = ap.parse_args()
    args = [a.engine] + (["--uci"] if "menagerie" in a.engine else [])
    p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def wait(token):
        last = None
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("the engine quit")
            if line.startswith("info depth"):
                last = line
            if line.startswith(token):
                return last

    send("uci")
    wait("uciok")
    send("setoption name Hash value 16")
    if a.variant != "chess":
        send("setoption name UCI_Variant value " + a.variant)
    total_nodes, total_time = 0, 0.0
    for fen in open(a.fens):
        fen = fen.strip()
        if not fen or fen.startswith("#"):
            continue
        send("ucinewgame")
        send("isready")
        wait("readyok")
        send("position fen " + fen)
        start = time.time()
        send("go depth %d" % a.depth)
        last = wait("bestmove")
        elapsed = time.time() - start
        words = last.split()
        nodes = int(words[words.index("nodes") + 1])
        total_nodes += nodes
        total_time += elapsed
        print(nodes, round(elapsed, 3), flush=True)
    print("total", total_nodes, round(total_time, 2), int(total_nodes / total_time))
    send("quit")


if __name__ == "__main__":
    main()
