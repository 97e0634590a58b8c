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
that is squared): king_hits king_weak king_unsafe_check king_weak_check king_flank_attacks
king_flank_defense king_mobility king_offset attacker check drop_check hand_danger defender
presence.
"""
import re
import sys

# The evaluation's king-danger terms (src/variant/weights.rs: `PieceTerm::is_danger` and the
# single-number global terms but king_danger_eg and those set by hand, `GlobalTerm::is_fixed`);
# a test there keeps the two lists equal.
DANGER = (
    "king_hits king_weak king_unsafe_check king_weak_check king_flank_attacks king_flank_defense "
    "king_mobility king_offset attacker check drop_check hand_danger defender presence"
).split()

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
        names.update(DANGER if name == "--danger" else [name])
    with open(src) as f:
        lines = f.readlines()
    with open(dst, "w") as f:
        f.writelines(scale(lines, factor, names))


if __name__ == "__main__":
    main()
