#!/usr/bin/env python3
"""scale_weights.py -- multiply groups of weights in a weights file (variants/weights/*.txt).

A fit to a label (Fairy-Stockfish's static evaluation, game results) can leave a whole group
of terms too strong or too weak for Menagerie's own search: the king danger terms in chess
were, as games at a fixed depth showed (README, "Evaluation weights"). This writes the file
again with the named terms (both numbers of each, every piece type's) multiplied by FACTOR,
keeping everything else, comments included, so that such a scaling is one reproducible step
after the fit:

    python3 tools/scale_weights.py IN OUT FACTOR TERM [TERM ...]
    python3 tools/scale_weights.py variants/weights/chess.txt /tmp/chess.txt 0.77 --danger

`--danger` names every king-danger term (the single-number terms summed into the danger
that is squared), as the evaluation's term table src/eval/terms.rs marks them (`danger`):
today king_hits king_weak king_unsafe_check king_weak_check king_flank_attacks
king_flank_defense king_mobility king_offset attacker check drop_check hand_danger defender
presence. It reads that file of the clone the tool is in.
"""
import os
import re
import sys

# The evaluation's king-danger terms are those its term table (src/eval/terms.rs) marks
# `danger`: read from there, so that the list is written once.
TERMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "eval", "terms.rs")
TABLE_LINE = re.compile(r'^\s*\w+ = "(\w+)", \w+, \w+, (danger|plain), ')


def danger_terms(path=TERMS):
    """The names of the terms the table at `path` marks `danger`."""
    try:
        with open(path) as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit(f"scale_weights.py: --danger reads the term table: {e}")
    names = [m.group(1) for m in map(TABLE_LINE.match, lines) if m and m.group(2) == "danger"]
    if not names:
        sys.exit(f"scale_weights.py: {path}: no term marked danger (has the table's format changed?)")
    return names


# A weight line: the term, its piece letter and square if any, the numbers, a comment.
LINE = re.compile(r"^(\w+)((?: [^=\s]+)*) = ([^#]*?)(\s*#.*)?$")


def scale(lines, factor, names):
    """The lines with the named terms' numbers multiplied by `factor`, to a tenth."""
    out = []
    for line in lines:
        m = LINE.match(line.rstrip("\n"))
        if m and m.group(1) in names:
            numbers = " ".join(f"{round(float(x) * factor, 1):g}" for x in m.group(3).split())
            line = f"{m.group(1)}{m.group(2)} = {numbers}{m.group(4) or ''}\n"
        out.append(line)
    return out


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
    names = set()
    for name in sys.argv[4:]:
        names.update(danger_terms() if name == "--danger" else [name])
    with open(src) as f:
        lines = f.readlines()
    with open(dst, "w") as f:
        f.writelines(scale(lines, factor, names))


if __name__ == "__main__":
    main()
