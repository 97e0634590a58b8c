#!/usr/bin/env python3
"""kr_perft.py -- an independent perft for king and rook games on boards of any size
up to 16 x 16, with Fairy-Stockfish's castling rules. It checks our counts where the
installed pyffish cannot (its build allows boards up to 12 x 10).

Rules: kings move one square, rooks slide; a move may not leave the own king attacked.
Castling as Fairy-Stockfish plays it outside Chess960: a right (K, Q, k, q in the FEN)
belongs to the outermost rook on that side of the king, on the side's first rank; the
king must stand on castlingKingFile and goes to castlingKingsideFile or
castlingQueensideFile, the rook to the square next to it on the inner side; every
square either piece crosses must be empty (but for the two pieces), and the king may
not castle out of, through or into an attack. A right goes when its rook leaves or is
taken, both of a side go when its king moves or castles.

Usage: kr_perft.py FILES RANKS KING_FILE KINGSIDE_FILE QUEENSIDE_FILE FEN DEPTH
(files counted from 0 = a). Prints 'depth count' per depth.

  kr_perft.py 8 8 4 6 2 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1' 3   # 26 568 13744
"""
import sys

ROOK_STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
KING_STEPS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


class Game:
    def __init__(self, files, ranks, king_file, kingside_file, queenside_file):
        self.files, self.ranks = files, ranks
        self.king_file = king_file
        self.kingside_file, self.queenside_file = kingside_file, queenside_file

    def on_board(self, f, r):
        return 0 <= f < self.files and 0 <= r < self.ranks

    def parse(self, fen):
        """Board {(file, rank): letter}, white to move?, rights {(white, rook square)}."""
        placement, side, castling = fen.split()[:3]
        board = {}
        for i, row in enumerate(placement.split('/')):
            rank, f, k = self.ranks - 1 - i, 0, 0
            while k < len(row):
                if row[k].isdigit():
                    n = 0
                    while k < len(row) and row[k].isdigit():
                        n, k = n * 10 + int(row[k]), k + 1
                    f += n
                else:
                    board[(f, rank)] = row[k]
                    f, k = f + 1, k + 1
        rights = set()
        for ch in set(castling) - {'-'}:
            white = ch.isupper()
            rank = 0 if white else self.ranks - 1
            king = self.king(board, white)
            files = (range(self.files - 1, king[0], -1) if ch.upper() == 'K'
                     else range(0, king[0]))
            for f in files:
                if board.get((f, rank)) == ('R' if white else 'r'):
                    rights.add((white, (f, rank)))
                    break
        return board, side == 'w', frozenset(rights)

    def king(self, board, white):
        return next((s for s, p in board.items() if p == ('K' if white else 'k')), None)

    def attacked(self, board, sq, by_white):
        king, rook = ('K', 'R') if by_white else ('k', 'r')
        if any(board.get((sq[0] + dx, sq[1] + dy)) == king for dx, dy in KING_STEPS):
            return True
        for dx, dy in ROOK_STEPS:
            f, r = sq[0] + dx, sq[1] + dy
            while self.on_board(f, r):
                p = board.get((f, r))
                if p is not None:
                    if p == rook:
                        return True
                    break
                f, r = f + dx, r + dy
        return False

    def pseudo_moves(self, board, white, rights):
        own = str.isupper if white else str.islower
        out = []
        for s, p in board.items():
            if not own(p):
                continue
            slider = p.upper() == 'R'
            for dx, dy in ROOK_STEPS if slider else KING_STEPS:
                f, r = s[0] + dx, s[1] + dy
                while self.on_board(f, r):
                    q = board.get((f, r))
                    if q is not None and own(q):
                        break
                    out.append(('move', s, (f, r)))
                    if q is not None or not slider:
                        break
                    f, r = f + dx, r + dy
        rank = 0 if white else self.ranks - 1
        king = self.king(board, white)
        if king != (self.king_file, rank) or self.attacked(board, king, not white):
            return out
        for side_white, rook in rights:
            if side_white != white or board.get(rook) != ('R' if white else 'r'):
                continue
            kingside = rook[0] > king[0]
            kto = (self.kingside_file if kingside else self.queenside_file, rank)
            rto = (kto[0] - 1 if kingside else kto[0] + 1, rank)
            crossed = set()
            for a, b in ((king, kto), (rook, rto)):
                crossed |= {(f, rank) for f in range(min(a[0], b[0]), max(a[0], b[0]) + 1)}
            if any(board.get(sq) is not None for sq in crossed - {king, rook}):
                continue
            king_path = range(min(king[0], kto[0]), max(king[0], kto[0]) + 1)
            if any(self.attacked(board, (f, rank), not white)
                   for f in king_path if f != king[0]):
                continue
            out.append(('castle', king, rook, kto, rto))
        return out

    def play(self, board, white, rights, m):
        b = dict(board)
        if m[0] == 'castle':
            _, king, rook, kto, rto = m
            k, r = b.pop(king), b.pop(rook)
            b[kto], b[rto] = k, r
            rights = frozenset(x for x in rights if x[0] != white)
        else:
            _, s, t = m
            p = b.pop(s)
            b[t] = p
            if p.upper() == 'K':
                rights = frozenset(x for x in rights if x[0] != white)
            rights = frozenset(x for x in rights if x[1] not in (s, t))
        return b, not white, rights

    def perft(self, board, white, rights, depth):
        nodes = 0
        for m in self.pseudo_moves(board, white, rights):
            b, w, rt = self.play(board, white, rights, m)
            if self.attacked(b, self.king(b, white), not white):
                continue
            nodes += 1 if depth == 1 else self.perft(b, w, rt, depth - 1)
        return nodes


def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__)
    files, ranks, king_file, ks, qs = map(int, sys.argv[1:6])
    game = Game(files, ranks, king_file, ks, qs)
    board, white, rights = game.parse(sys.argv[6])
    for d in range(1, int(sys.argv[7]) + 1):
        print(d, game.perft(board, white, rights, d), flush=True)


if __name__ == '__main__':
    main()
