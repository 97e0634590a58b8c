"""pgn.py -- reads the PGN files tools/referee.py writes (sprt.py --pgn); shared by
pgn_positions.py and pgn_depths.py.

`games(path)` yields each game's tags and its moves, each move with the comment that follows
it (`{book}` for an opening move, `{SCORE/DEPTH TIMEs}` for a searched one, "" for none;
the first comment where there are several).
"""
import re

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
# Movetext tokens: comments, move numbers ("12." / "12..."), results, and moves.
TOKEN = re.compile(r"\{[^}]*\}|\S+")
NOT_A_MOVE = re.compile(r"^(\d+\.+|1-0|0-1|1/2-1/2|\*)$")


def moves(movetext):
    """[(SAN, comment)] of a game's movetext."""
    out = []
    for tok in TOKEN.findall(movetext):
        if tok.startswith("{"):
            # The first comment after a move is its own; a game's last move may
            # have another, the reason the game ended.
            if out and not out[-1][1]:
                out[-1] = (out[-1][0], tok[1:-1].strip())
        elif not NOT_A_MOVE.match(tok):
            out.append((tok, ""))
    return out


def games(path):
    """(tags, [(SAN, comment)]) of each game in a PGN file."""
    tags, text = {}, []
    with open(path) as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if text:
                    yield tags, moves(" ".join(text))
                    tags, text = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                text.append(line.strip())
    if tags:
        yield tags, moves(" ".join(text))
