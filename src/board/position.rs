//! The position: board, hands and game state, with make/unmake.
//!
//! Every change to a square goes through `Board::set_square`, which updates the
//! square sets and the Zobrist key and logs the old contents; unmake replays the log
//! backwards. That one mechanism covers castling, en passant, promotions, drops,
//! gating, locust captures and atomic blasts alike.

use super::Ruleset;
use super::counting::{CountingMove, Material};
use super::zobrist::KEYS;
use crate::types::{Color, MAX_PIECE_TYPES, Move, MoveKind, Piece, PieceType, Square, SquareSet};
use crate::variant::{CountingRule, Enclosing, Variant, WallingRule};
use std::sync::Arc;

/// State that make/unmake saves and restores wholesale.
#[derive(Clone, Debug)]
pub struct StateInfo {
    pub key: u64,
    pub hand: [[u8; MAX_PIECE_TYPES]; 2],
    /// Per side: the rook squares that still have castling rights.
    pub castling: [SquareSet; 2],
    /// The square of each side's castling king, if it has one.
    pub castling_king: [Option<Square>; 2],
    /// Squares a piece just passed with a double (or longer) step.
    pub ep_squares: SquareSet,
    /// The piece that can be taken en passant, if the last move set one.
    pub ep_victim: Option<Square>,
    /// Per side, seirawan gating rights: squares whose pieces have not moved yet.
    pub gates: [SquareSet; 2],
    pub rule50: u32,
    pub plies_from_null: u32,
    /// Check counting: checks each side still has to give.
    pub checks_remaining: [u8; 2],
    /// True when the side to move is in check (royal attacked).
    pub in_check: bool,
    /// Shatar: the check is a shak (given by a knight, rook or bers).
    pub shak: bool,
    /// The move that led here.
    pub last_move: Move,
    /// The piece captured by that move on its destination (or en passant), if any.
    pub captured: Piece,
    /// Counting rules (counting.rs): the limit in plies (0: no count is on) and
    /// the count.
    pub counting_limit: u32,
    pub counting_ply: u32,
    /// Wall squares: holes of the board, arrows, the duck, petrified pieces. Their
    /// squares hold [`Piece::WALL`].
    pub walls: SquareSet,
    /// Index into the change log where that move's changes begin.
    change_start: u32,
}

#[derive(Clone, Copy, Debug)]
struct Change {
    sq: Square,
    piece: Piece,
    promoted: u8,
}

/// A position: the variant's compiled rules, shared and read only, and the board that
/// make/unmake change. The two are apart so that make reads the rules by reference
/// while it changes the board: no reference count is touched per move.
#[derive(Clone)]
pub struct Position {
    rules: Arc<Ruleset>,
    board: Board,
}

/// The pieces, hands and game state, with the log that unmake replays.
#[derive(Clone)]
pub(super) struct Board {
    squares: [Piece; 256],
    /// 0 = not promoted; k = promoted, demotes to type k-1; PROMOTED_UNKNOWN = promoted
    /// with unknown original (FEN `~`), demotes to the main promotion pawn type.
    promoted: [u8; 256],
    by_color: [SquareSet; 2],
    by_type: [[SquareSet; MAX_PIECE_TYPES]; 2],
    side: Color,
    st: StateInfo,
    history: Vec<StateInfo>,
    changes: Vec<Change>,
    /// Plies since the start of the game (for move numbers).
    game_ply: u32,
}

pub const PROMOTED_UNKNOWN: u8 = 255;

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl Position {
    /// The board under the rules (for the rules' own helpers in this module tree).
    pub(super) fn board(&self) -> &Board {
        &self.board
    }

    /// An empty board of the variant, White to move. Used by the FEN reader.
    pub(crate) fn empty(rules: &Arc<Ruleset>) -> Position {
        Position {
            rules: rules.clone(),
            board: Board {
                squares: [Piece::NONE; 256],
                promoted: [0; 256],
                by_color: [SquareSet::EMPTY; 2],
                by_type: [[SquareSet::EMPTY; MAX_PIECE_TYPES]; 2],
                side: Color::White,
                st: StateInfo {
                    key: 0,
                    hand: [[0; MAX_PIECE_TYPES]; 2],
                    castling: [SquareSet::EMPTY; 2],
                    castling_king: [None; 2],
                    ep_squares: SquareSet::EMPTY,
                    ep_victim: None,
                    gates: [SquareSet::EMPTY; 2],
                    rule50: 0,
                    plies_from_null: 0,
                    checks_remaining: [0; 2],
                    in_check: false,
                    shak: false,
                    last_move: Move::NONE,
                    captured: Piece::NONE,
                    counting_limit: 0,
                    counting_ply: 0,
                    walls: SquareSet::EMPTY,
                    change_start: 0,
                },
                history: Vec::with_capacity(256),
                changes: Vec::with_capacity(1024),
                game_ply: 0,
            },
        }
    }

    // ------------------------------------------------------------------ accessors

    #[inline]
    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }
    #[inline]
    pub fn variant(&self) -> &Variant {
        &self.rules.variant
    }
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.board.squares[sq as usize]
    }
    /// The type a promoted piece on `sq` turns back into, if it is promoted.
    #[inline]
    pub fn promoted_from(&self, sq: Square) -> Option<PieceType> {
        self.board.promoted_from(&self.rules.variant, sq)
    }
    #[inline]
    pub fn is_promoted(&self, sq: Square) -> bool {
        self.board.promoted[sq as usize] != 0
    }
    #[inline]
    pub fn raw_promoted(&self, sq: Square) -> u8 {
        self.board.promoted[sq as usize]
    }
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.board.side
    }
    #[inline]
    pub fn pieces(&self, c: Color) -> SquareSet {
        self.board.by_color[c as usize]
    }
    #[inline]
    pub fn occupied(&self) -> SquareSet {
        self.board.by_color[0] | self.board.by_color[1]
    }
    /// The wall squares (not part of [`occupied`](Self::occupied)).
    #[inline]
    pub fn walls(&self) -> SquareSet {
        self.board.st.walls
    }
    #[inline]
    pub fn pieces_of(&self, c: Color, t: PieceType) -> SquareSet {
        self.board.by_type[c as usize][t as usize]
    }
    #[inline]
    pub fn count(&self, c: Color, t: PieceType) -> u32 {
        self.board.by_type[c as usize][t as usize].count()
    }
    #[inline]
    pub fn hand(&self, c: Color, t: PieceType) -> u8 {
        self.board.st.hand[c as usize][t as usize]
    }
    pub fn hand_total(&self, c: Color) -> u32 {
        self.board.hand_total(c)
    }
    #[inline]
    pub fn state(&self) -> &StateInfo {
        &self.board.st
    }
    #[inline]
    pub fn key(&self) -> u64 {
        self.board.st.key
    }
    #[inline]
    pub fn in_check(&self) -> bool {
        self.board.st.in_check
    }
    #[inline]
    pub fn game_ply(&self) -> u32 {
        self.board.game_ply
    }
    /// Earlier states, oldest first (for repetition detection).
    pub fn history(&self) -> &[StateInfo] {
        &self.board.history
    }
    /// The state `back` plies before the current one (0: the current state). The
    /// caller keeps `back` within the plies made (`ply_count()`).
    #[inline]
    pub fn state_back(&self, back: usize) -> &StateInfo {
        match back {
            0 => &self.board.st,
            k => &self.board.history[self.board.history.len() - k],
        }
    }
    /// Plies made since this position object was set up.
    pub fn ply_count(&self) -> usize {
        self.board.history.len()
    }
    /// What the last `plies` plies changed on the board (`plies` at most
    /// [`ply_count`](Self::ply_count)): each square change in the order made, with
    /// the square's contents before it ([`Piece::WALL`] for a wall). A square changed
    /// more than once appears more than once; its first entry holds its contents
    /// `plies` plies ago and the board holds its contents now. With the hands of
    /// [`state_back`](Self::state_back) this is all an incremental evaluation needs
    /// to follow the moves, whatever they did (drops, promotions, multi-leg captures,
    /// castling, walls, gating, blasts).
    pub fn changes_since(&self, plies: usize) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let start = match plies {
            0 => self.board.changes.len(),
            k => self.state_back(k - 1).change_start as usize,
        };
        self.board.changes[start..].iter().map(|c| (c.sq, c.piece))
    }
    /// Squares of the royal pieces of `c`.
    pub fn royals(&self, c: Color) -> SquareSet {
        let mut s = SquareSet::EMPTY;
        let mut r = self.rules.royal_types;
        while r != 0 {
            let t = r.trailing_zeros() as usize;
            r &= r - 1;
            s |= self.board.by_type[c as usize][t];
        }
        s
    }

    // ------------------------------------------------------------------ setup helpers

    pub(crate) fn set_side(&mut self, c: Color) {
        if c != self.board.side {
            self.board.st.key ^= KEYS.side;
        }
        self.board.side = c;
    }
    pub(crate) fn set_game_ply(&mut self, ply: u32) {
        self.board.game_ply = ply;
    }
    pub(crate) fn state_mut(&mut self) -> &mut StateInfo {
        &mut self.board.st
    }
    pub(crate) fn put(&mut self, sq: Square, p: Piece, promoted: u8) {
        if p.is_wall() {
            self.board.set_wall(sq, true);
        } else {
            self.board.set_square(sq, p, promoted);
        }
        self.board.changes.clear();
    }
    /// Take down the wall on `sq` (logged: the next unmake puts it back).
    pub(crate) fn clear_wall(&mut self, sq: Square) {
        self.board.set_wall(sq, false);
    }
    pub(crate) fn add_to_hand(&mut self, c: Color, t: PieceType, n: i32) {
        self.board.add_to_hand(c, t, n);
    }
    pub(crate) fn toggle_castling(&mut self, c: Color, sq: Square) {
        self.board.toggle_castling(c, sq);
    }
    pub(crate) fn toggle_ep(&mut self, sq: Square) {
        self.board.toggle_ep(sq);
    }
    pub(crate) fn toggle_gate(&mut self, c: Color, sq: Square) {
        self.board.toggle_gate(c, sq);
    }
    pub(crate) fn set_checks_remaining(&mut self, c: Color, n: u8) {
        self.board.set_checks_remaining(c, n);
    }
    pub(crate) fn finish_setup(&mut self) {
        let in_check = self.rules.in_check(self);
        self.board.st.in_check = in_check;
        self.board.st.shak = in_check && self.rules.is_shak(self);
        self.clear_history();
    }

    /// The key computed from scratch (for tests of the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0u64;
        for c in Color::BOTH {
            for sq in self.board.by_color[c as usize].iter() {
                k ^= KEYS.psq[self.board.squares[sq as usize].index()][sq as usize];
            }
            for t in 0..self.variant().num_types() {
                k ^= KEYS.hand_key(c as usize, t, self.board.st.hand[c as usize][t] as usize);
            }
            k ^= KEYS.checks[c as usize][self.board.st.checks_remaining[c as usize] as usize];
        }
        for c in 0..2 {
            for sq in self.board.st.castling[c].iter() {
                k ^= KEYS.castling[c][sq as usize];
            }
            for sq in self.board.st.gates[c].iter() {
                k ^= KEYS.gates[c][sq as usize];
            }
        }
        for sq in self.board.st.ep_squares.iter() {
            k ^= KEYS.en_passant[sq as usize];
        }
        for sq in self.board.st.walls.iter() {
            k ^= KEYS.psq[Piece::WALL.index()][sq as usize];
        }
        if self.board.side == Color::Black {
            k ^= KEYS.side;
        }
        k
    }

    // ------------------------------------------------------------------ make / unmake

    /// Play a move (assumed pseudo-legal). Legality is the caller's business.
    pub fn make(&mut self, m: Move) {
        let rules = &*self.rules;
        let us = self.board.side;
        self.board.play(rules, m);
        let gives_check = rules.in_check(self);
        if gives_check && rules.variant.check_counting {
            let r = self.board.st.checks_remaining[us as usize];
            self.board.set_checks_remaining(us, r.saturating_sub(1));
        }
        self.board.st.in_check = gives_check;
        self.board.st.shak = gives_check && rules.is_shak(self);
    }

    /// [`make`](Self::make) for a move the caller knows gives no check (the search's
    /// check hints say so before the move is made): the attack test is skipped.
    pub fn make_without_check(&mut self, m: Move) {
        self.board.play(&self.rules, m);
        self.board.st.in_check = false;
        self.board.st.shak = false;
    }

    /// Take back the last move made with [`make`](Self::make).
    pub fn unmake(&mut self) {
        self.board.unmake();
    }

    /// Pass the turn without moving (search null move).
    pub fn make_null(&mut self) {
        self.board.play_null();
        let in_check = self.rules.in_check(self);
        self.board.st.in_check = in_check;
    }

    pub fn unmake_null(&mut self) {
        self.unmake();
    }

    /// Forget the move history (after a FEN is set, the game starts here).
    pub fn clear_history(&mut self) {
        self.board.history.clear();
        self.board.changes.clear();
        self.board.st.change_start = 0;
    }
}

impl Board {
    #[inline]
    pub(super) fn piece_at(&self, sq: Square) -> Piece {
        self.squares[sq as usize]
    }
    #[inline]
    pub(super) fn side_to_move(&self) -> Color {
        self.side
    }
    /// The type a promoted piece on `sq` turns back into, if it is promoted.
    #[inline]
    fn promoted_from(&self, v: &Variant, sq: Square) -> Option<PieceType> {
        match self.promoted[sq as usize] {
            0 => None,
            PROMOTED_UNKNOWN => v.main_promotion_pawn_type
                [self.squares[sq as usize].color() as usize]
                .or(Some(self.squares[sq as usize].kind())),
            k => Some(k - 1),
        }
    }
    fn hand_total(&self, c: Color) -> u32 {
        self.st.hand[c as usize].iter().map(|&x| x as u32).sum()
    }
    fn add_to_hand(&mut self, c: Color, t: PieceType, n: i32) {
        let cur = self.st.hand[c as usize][t as usize] as i32;
        let new = (cur + n).clamp(0, 255);
        self.st.key ^= KEYS.hand_key(c as usize, t as usize, cur as usize)
            ^ KEYS.hand_key(c as usize, t as usize, new as usize);
        self.st.hand[c as usize][t as usize] = new as u8;
    }
    fn toggle_castling(&mut self, c: Color, sq: Square) {
        self.st.castling[c as usize].toggle(sq);
        self.st.key ^= KEYS.castling[c as usize][sq as usize];
    }
    pub(super) fn toggle_ep(&mut self, sq: Square) {
        self.st.ep_squares.toggle(sq);
        self.st.key ^= KEYS.en_passant[sq as usize];
    }
    pub(super) fn set_ep_victim(&mut self, sq: Square) {
        self.st.ep_victim = Some(sq);
    }
    fn toggle_gate(&mut self, c: Color, sq: Square) {
        self.st.gates[c as usize].toggle(sq);
        self.st.key ^= KEYS.gates[c as usize][sq as usize];
    }
    fn set_checks_remaining(&mut self, c: Color, n: u8) {
        let n = n.min(31);
        let i = c as usize;
        self.st.key ^=
            KEYS.checks[i][self.st.checks_remaining[i] as usize] ^ KEYS.checks[i][n as usize];
        self.st.checks_remaining[i] = n;
    }

    /// Change a square, keeping sets and key in step and logging the old contents.
    #[inline]
    fn set_square(&mut self, sq: Square, p: Piece, promoted: u8) {
        let i = sq as usize;
        let old = self.squares[i];
        self.changes.push(Change {
            sq,
            piece: old,
            promoted: self.promoted[i],
        });
        if old.is_some() {
            self.by_color[old.color() as usize].remove(sq);
            self.by_type[old.color() as usize][old.kind() as usize].remove(sq);
            self.st.key ^= KEYS.psq[old.index()][i];
        }
        if p.is_some() {
            self.by_color[p.color() as usize].insert(sq);
            self.by_type[p.color() as usize][p.kind() as usize].insert(sq);
            self.st.key ^= KEYS.psq[p.index()][i];
        }
        self.squares[i] = p;
        self.promoted[i] = promoted;
    }

    /// Put up (`on`) or take down a wall on `sq` (an empty square, when putting one
    /// up), logged like a piece change; walls are in no side's sets.
    pub(super) fn set_wall(&mut self, sq: Square, on: bool) {
        let i = sq as usize;
        self.changes.push(Change {
            sq,
            piece: self.squares[i],
            promoted: self.promoted[i],
        });
        self.squares[i] = if on { Piece::WALL } else { Piece::NONE };
        self.promoted[i] = 0;
        self.st.walls.set(sq, on);
        self.st.key ^= KEYS.psq[Piece::WALL.index()][i];
    }

    /// Restore a square without touching the key (the key comes back with the state).
    #[inline]
    fn restore_square(&mut self, c: Change) {
        let i = c.sq as usize;
        let cur = self.squares[i];
        if cur.is_some() {
            self.by_color[cur.color() as usize].remove(c.sq);
            self.by_type[cur.color() as usize][cur.kind() as usize].remove(c.sq);
        }
        if c.piece.is_some() && !c.piece.is_wall() {
            self.by_color[c.piece.color() as usize].insert(c.sq);
            self.by_type[c.piece.color() as usize][c.piece.kind() as usize].insert(c.sq);
        }
        self.squares[i] = c.piece;
        self.promoted[i] = c.promoted;
    }

    /// Remove a captured (or exploded) piece; it goes to the capturer's hand when the
    /// variant says so, demoted unless drop loop is on.
    fn capture_at(&mut self, v: &Variant, sq: Square, capturer: Color) {
        let victim = self.squares[sq as usize];
        if victim.is_none() {
            return;
        }
        if v.captures_to_hand {
            let kind = if self.promoted[sq as usize] != 0 && !v.drop_loop {
                self.promoted_from(v, sq).unwrap_or(victim.kind())
            } else {
                victim.kind()
            };
            self.add_to_hand(capturer, kind, 1);
        }
        self.set_square(sq, Piece::NONE, 0);
        self.clear_rights_at(sq);
    }

    /// A piece left or was removed from `sq`: castling rights tied to it go.
    #[inline]
    fn clear_rights_at(&mut self, sq: Square) {
        for c in Color::BOTH {
            if self.st.castling[c as usize].contains(sq) {
                self.toggle_castling(c, sq);
            }
            if self.st.castling_king[c as usize] == Some(sq)
                && !self.st.castling[c as usize].is_empty()
            {
                for r in self.st.castling[c as usize].iter() {
                    self.toggle_castling(c, r);
                }
            }
        }
    }

    /// Play a move: everything but the check test, which needs the whole position.
    fn play(&mut self, rules: &Ruleset, m: Move) {
        self.history.push(self.st.clone());
        let us = self.side;
        let them = us.flip();
        let v = &rules.variant;
        let st = &mut self.st;
        st.change_start = self.changes.len() as u32;
        st.key ^= KEYS.side;
        st.rule50 += 1;
        st.plies_from_null += 1;
        if st.counting_limit != 0 {
            st.counting_ply += 1;
        }
        st.last_move = m;
        st.captured = Piece::NONE;
        // En passant squares last one ply.
        if !self.st.ep_squares.is_empty() {
            for sq in self.st.ep_squares.iter() {
                self.st.key ^= KEYS.en_passant[sq as usize];
            }
            self.st.ep_squares = SquareSet::EMPTY;
        }
        self.st.ep_victim = None;

        let from = m.from();
        let to = m.to();
        if v.connect.flip_enclosed != Enclosing::None {
            self.flip_enclosed(rules, m, us);
        }
        let mut captured_any = false;
        let mut blast_center: Option<Square> = None;
        match m.kind() {
            MoveKind::Drop => {
                let t = m.piece();
                if !v.connect.free_drops {
                    self.add_to_hand(us, t, -1);
                }
                let (placed, promoted) =
                    match (m.is_promoted_drop(), v.promoted_piece_type[t as usize]) {
                        (true, Some(p)) => (p, t + 1),
                        _ => (t, 0),
                    };
                self.set_square(to, Piece::new(us, placed), promoted);
                self.st.rule50 = 0;
                if v.castling_dropped_piece {
                    self.castling_after_drop(rules, us, to, placed);
                }
            }
            MoveKind::Pass => {}
            MoveKind::Castling => {
                let (kto, rto) = rules.castling_destinations(us, from, to);
                let king = self.squares[from as usize];
                let rook = self.squares[to as usize];
                self.clear_rights_at(from);
                self.clear_rights_at(to);
                self.set_square(from, Piece::NONE, 0);
                self.set_square(to, Piece::NONE, 0);
                self.set_square(kto, king, 0);
                self.set_square(rto, rook, 0);
                if v.opposite_castling {
                    let kingside = to > from;
                    let k = self.st.castling_king[them as usize];
                    for r in self.st.castling[them as usize].iter() {
                        if k.is_some_and(|k| (r > k) == kingside) {
                            self.toggle_castling(them, r);
                        }
                    }
                }
            }
            _ => {
                let mover = self.squares[from as usize];
                let mover_promoted = self.promoted[from as usize];
                let demoted = match m.kind() {
                    MoveKind::PieceDemotion => self.promoted_from(v, from),
                    _ => None,
                };
                // Locust captures on the way.
                for (sq, captured) in m.extras() {
                    if captured {
                        let victim = self.squares[sq as usize];
                        if self.st.captured.is_none() {
                            self.st.captured = victim;
                        }
                        self.capture_at(v, sq, us);
                        captured_any = true;
                    }
                }
                self.clear_rights_at(from);
                self.set_square(from, Piece::NONE, 0);
                let target = self.squares[to as usize];
                if target.is_some() {
                    self.st.captured = target;
                    self.capture_at(v, to, us);
                    captured_any = true;
                    blast_center = Some(to);
                }
                if m.kind() == MoveKind::EnPassant {
                    let victim_sq = self
                        .history
                        .last()
                        .and_then(|s| s.ep_victim)
                        .or_else(|| rules.ep_victim_fallback(self, to));
                    if let Some(victim_sq) = victim_sq {
                        self.st.captured = self.squares[victim_sq as usize];
                        self.capture_at(v, victim_sq, us);
                        captured_any = true;
                        blast_center = Some(to);
                    }
                }
                self.clear_rights_at(to);
                let (placed, promoted) = match m.kind() {
                    MoveKind::Promotion => (Piece::new(us, m.piece()), PROMOTED_UNKNOWN),
                    MoveKind::PiecePromotion => {
                        match v.promoted_piece_type[mover.kind() as usize] {
                            Some(p) => (Piece::new(us, p), mover.kind() + 1),
                            None => (mover, mover_promoted),
                        }
                    }
                    MoveKind::PieceDemotion => match demoted {
                        Some(t) => (Piece::new(us, t), 0),
                        None => (mover, mover_promoted),
                    },
                    _ => (mover, mover_promoted),
                };
                self.set_square(to, placed, promoted);
                if v.cambodian_moves {
                    self.cambodian_after_move(rules, them, mover.kind(), to);
                }
                // A promotion is irreversible unless pieces can demote again.
                if captured_any
                    || matches!(m.kind(), MoveKind::Promotion)
                    || (m.kind() == MoveKind::PiecePromotion && !v.piece_demotion)
                    || (v.n_move_rule_types[us as usize] & 1 << mover.kind() != 0
                        && !rules.is_reversible(us, mover.kind(), to, from))
                {
                    self.st.rule50 = 0;
                }
                if m.kind() == MoveKind::Normal || m.kind() == MoveKind::EnPassant {
                    rules.set_ep_after_move(self, us, mover.kind(), from, to);
                }
            }
        }
        if captured_any {
            self.st.rule50 = 0;
        }
        // Gating: a piece from the hand appears on the vacated square.
        if let Some(g) = m.gate() {
            let sq = if m.gate_on_rook() { to } else { from };
            self.add_to_hand(us, g, -1);
            self.set_square(sq, Piece::new(us, g), 0);
        }
        if v.gating {
            if self.st.gates[us as usize].contains(from) {
                self.toggle_gate(us, from);
            }
            if m.kind() == MoveKind::Castling && self.st.gates[us as usize].contains(to) {
                self.toggle_gate(us, to);
            }
            if m.kind() != MoveKind::Castling && self.st.gates[them as usize].contains(to) {
                self.toggle_gate(them, to);
            }
            if v.seirawan_gating && !v.captures_to_hand && self.hand_total(us) == 0 {
                for sq in self.st.gates[us as usize].iter() {
                    self.toggle_gate(us, sq);
                }
            }
        }
        if let Some(center) = blast_center.filter(|_| v.blast_on_capture) {
            self.blast(v, center, us);
        } else if let Some(to) = blast_center.filter(|_| v.petrify_on_capture_types != 0) {
            self.petrify_capturer(v, to, us);
        }
        if v.walling_rule != WallingRule::None {
            self.place_wall(v, m);
        }
        self.side = them;
        self.game_ply += 1;
        if v.counting_rule != CountingRule::None {
            let captured_pawn =
                self.st.captured.is_some() && Some(self.st.captured.kind()) == rules.pawn_type;
            let mv = CountingMove {
                mover: us,
                captured_pawn,
                captured_or_promoted: captured_any || m.kind() == MoveKind::Promotion,
            };
            self.update_counting(rules, mv);
        }
    }

    /// Counting rules: start or restart a count after a move.
    fn update_counting(&mut self, rules: &Ruleset, mv: CountingMove) {
        let material = Material::new(
            &rules.counting,
            |c, t| self.by_type[c as usize][t as usize].count(),
            |c| self.by_color[c as usize].count(),
        );
        let before = (self.st.counting_limit, self.st.counting_ply);
        (self.st.counting_limit, self.st.counting_ply) =
            rules.counting_after_move(&material, mv, before);
    }

    /// Turn over the enemy pieces that `m` encloses (reversi, ataxx), as
    /// Fairy-Stockfish does: found on the board before the move, kept as they are but
    /// for the colour.
    fn flip_enclosed(&mut self, rules: &Ruleset, m: Move, us: Color) {
        let ours = self.by_color[us as usize];
        let theirs = self.by_color[us.flip() as usize];
        for sq in rules.flipped(m, ours, theirs).iter() {
            let p = self.squares[sq as usize];
            self.set_square(sq, Piece::new(us, p.kind()), 0);
        }
    }

    /// Petrification without a blast: the capturing piece on `to` turns into a wall
    /// when its type petrifies.
    fn petrify_capturer(&mut self, v: &Variant, to: Square, us: Color) {
        let mover = self.squares[to as usize];
        if mover.is_some() && v.petrify_on_capture_types & 1u64 << mover.kind() != 0 {
            self.capture_at(v, to, us);
            self.set_wall(to, true);
        }
    }

    /// The move's wall square goes up (in wall-or-move variants only when the move
    /// is the pass that stands for placing one); a duck is taken down from where it
    /// stood first.
    fn place_wall(&mut self, v: &Variant, m: Move) {
        let Some(sq) = m.wall() else {
            return;
        };
        if v.wall_or_move && m.kind() != MoveKind::Pass {
            return;
        }
        if v.walling_rule == WallingRule::Duck {
            let before = self.history.last().map_or(SquareSet::EMPTY, |s| s.walls);
            for old in before.iter() {
                self.set_wall(old, false);
            }
        }
        self.set_wall(sq, true);
    }

    /// An atomic capture: the pieces around `center` (pawns other than the capturer
    /// and victim excepted) go too.
    fn blast(&mut self, v: &Variant, center: Square, us: Color) {
        let pawn = v.type_by_slot("pawn");
        let g = v.geometry;
        let mut victims = [0 as Square; 9];
        let mut n = 0;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(sq) = g.offset(center, dx, dy) {
                    let p = self.squares[sq as usize];
                    if p.is_none() || p.is_wall() || v.blast_immune_types & 1 << p.kind() != 0 {
                        continue;
                    }
                    if sq != center && Some(p.kind()) == pawn {
                        continue;
                    }
                    victims[n] = sq;
                    n += 1;
                }
            }
        }
        for &sq in &victims[..n] {
            let kind = self.squares[sq as usize].kind();
            self.capture_at(v, sq, us);
            let petrify = if sq == center {
                v.petrify_on_capture_types & 1u64 << kind != 0
            } else {
                v.petrify_blast_pieces
            };
            if petrify {
                self.set_wall(sq, true);
            }
        }
    }

    /// Cambodian chess: a rook of the mover in line with the enemy king on its gate
    /// takes the king's leap away.
    fn cambodian_after_move(&mut self, rules: &Ruleset, them: Color, mover: PieceType, to: Square) {
        let gates = self.st.gates[them as usize];
        let by_type = &self.by_type[them as usize];
        let lost =
            rules.cambodian_gate_lost(|king| by_type[king as usize].and(&gates).first(), mover, to);
        if let Some(sq) = lost {
            self.toggle_gate(them, sq);
        }
    }

    fn castling_after_drop(&mut self, rules: &Ruleset, us: Color, to: Square, placed: PieceType) {
        let v = &rules.variant;
        let g = v.geometry;
        let rank = rules.castling_rank(us);
        if g.rank(to) != rank {
            return;
        }
        let is_king_piece = v.castling_king_piece[us as usize] == Some(placed);
        if is_king_piece && g.file(to) == v.castling_king_file {
            self.st.castling_king[us as usize] = Some(to);
            for f in [0, g.files - 1] {
                let sq = g.square(f, rank);
                let p = self.squares[sq as usize];
                if p.is_some()
                    && p.color() == us
                    && v.castling_rook_pieces[us as usize] & 1 << p.kind() != 0
                    && !self.st.castling[us as usize].contains(sq)
                {
                    self.toggle_castling(us, sq);
                }
            }
        } else if v.castling_rook_pieces[us as usize] & 1 << placed != 0
            && (g.file(to) == 0 || g.file(to) == g.files - 1)
        {
            let ksq = g.square(v.castling_king_file, rank);
            let k = self.squares[ksq as usize];
            if k.is_some()
                && k.color() == us
                && v.castling_king_piece[us as usize] == Some(k.kind())
            {
                self.st.castling_king[us as usize] = Some(ksq);
                if !self.st.castling[us as usize].contains(to) {
                    self.toggle_castling(us, to);
                }
            }
        }
    }

    fn unmake(&mut self) {
        let start = self.st.change_start as usize;
        while self.changes.len() > start {
            let c = self.changes.pop().expect("non-empty");
            self.restore_square(c);
        }
        self.st = self.history.pop().expect("unmake without make");
        self.side = self.side.flip();
        self.game_ply -= 1;
    }

    /// Pass the turn: everything but the check test.
    fn play_null(&mut self) {
        self.history.push(self.st.clone());
        self.st.change_start = self.changes.len() as u32;
        self.st.key ^= KEYS.side;
        for sq in self.st.ep_squares.iter() {
            self.st.key ^= KEYS.en_passant[sq as usize];
        }
        self.st.ep_squares = SquareSet::EMPTY;
        self.st.ep_victim = None;
        self.st.rule50 += 1;
        self.st.plies_from_null = 0;
        self.st.last_move = Move::NONE;
        self.st.captured = Piece::NONE;
        self.side = self.side.flip();
        self.game_ply += 1;
    }
}
