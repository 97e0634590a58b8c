#!/usr/bin/env python3
"""static_labels.py -- relabel tuning data with Fairy-Stockfish's static evaluation.

Reads lines `FEN;SCORE;RESULT;BESTMOVE` (tools/make_tuning_data.py) and writes the same
lines with SCORE replaced by Fairy-Stockfish's static evaluation of the position (its
`eval` command), in centipawns from the side to move's point of view. Positions it will
not evaluate (the side to move in check) are left out.

The search scores of make_tuning_data.py carry the tactics of a search a dozen plies
deep, which no static evaluation can see; the static evaluation is a target the
evaluation can actually meet. Fitted with `menagerie tune --lambda 0`, Menagerie's
evaluation learns to agree with Fairy-Stockfish's, term by term where it has the terms.

    python3 tools/static_labels.py /tmp/tune/chess.data /tmp/tune/chess-static.data

`--engine` names another binary; `--variant` is sent as UCI_Variant (default chess).

`--nodes N` writes Fairy-Stockfish's search score after N nodes instead (Contempt 0, which
would otherwise favour the side to move; mates as +-2000; positions in check kept). A chess
fit to such labels of the positions of Menagerie's games against it lost badly in play
(tools/TRIED.md, stop 64): they carry the tactics of those games, which the evaluation's
terms then try to explain.
"""
import argparse
import os
import re
import subprocess
import sys

# Positions per round trip: their commands must fit the engine's input pipe (64 KB)
# while its answers wait in the output pipe, or both sides block.
BATCH = 300
TOTAL = re.compile(r"Total evaluation: (-?[0-9.]+)")


def evaluations(engine, variant, fens):
    """Fairy-Stockfish's `eval` of each FEN, in order: the lines of its answer, the
    "Total evaluation" line last. The engine's round trips are batched (see BATCH)."""
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write("uci\nsetoption name UCI_Variant value %s\n" % variant)
    for i in range(0, len(fens), BATCH):
        chunk = fens[i:i + BATCH]
        for fen in chunk:
            p.stdin.write("position fen %s\neval\n" % fen)
        p.stdin.write("isready\n")
        p.stdin.flush()
        answers, current = [], []
        for reply in p.stdout:
            if reply.startswith("readyok"):
                break
            current.append(reply)
            if reply.startswith("Total evaluation"):
                answers.append(current)
                current = []
        if len(answers) != len(chunk):
            raise SystemExit("engine answered %d evaluations for %d positions" % (len(answers), len(chunk)))
        yield from answers
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait()


def total(answer):
    """The total of one `eval` answer in pawns, White's view (None in check)."""
    m = TOTAL.match(answer[-1])
    return float(m.group(1)) if m else None


def label_searched(engine, variant, lines, out, nodes):
    """Search-score labels: make_tuning_data.py's search of each position (a fresh
    table each time), at Contempt 0; positions without a score are left out."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from make_openings import Uci
    from make_tuning_data import search

    eng = Uci(engine, variant)
    eng.send("setoption name Contempt value 0")
    kept = 0
    for line in lines:
        fields = line.split(";")
        eng.send("ucinewgame")
        score, _ = search(eng, fields[0], [], nodes)
        if score is None:
            continue
        fields[1] = str(max(-2000, min(2000, score)))
        out.write(";".join(fields) + "\n")
        kept += 1
    eng.close()
    return kept


def label(engine, variant, lines, out):
    kept = 0
    fens = [line.split(";")[0] for line in lines]
    for line, answer in zip(lines, evaluations(engine, variant, fens)):
        v = total(answer)
        if v is None:
            continue
        fields = line.split(";")
        white = fields[0].split()[1] == "w"
        # `eval` reports pawns from White's point of view.
        fields[1] = str(round(v * 100) * (1 if white else -1))
        out.write(";".join(fields) + "\n")
        kept += 1
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--nodes", type=int, default=0, help="search scores after this many nodes (see above)")
    a = ap.parse_args()
    lines = [l.strip() for l in open(a.src) if l.strip() and not l.startswith("#")]
    with open(a.dst, "w") as out:
        if a.nodes > 0:
            kept = label_searched(a.engine, a.variant, lines, out, a.nodes)
        else:
            kept = label(a.engine, a.variant, lines, out)
    print("%d of %d positions labelled (the rest in check or unscored)" % (kept, len(lines)), file=sys.stderr)


if __name__ == "__main__":
    main()
