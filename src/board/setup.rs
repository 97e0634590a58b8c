//! From an unvalidated [`Setup`] (what a FEN says) to a [`Position`]: the one fallible
//! constructor [`Position::from_setup`] builds the position the way Fairy-Stockfish
//! reads FENs (castling rights, gates, en passant, counters) and refuses positions
//! that cannot be played.

use super::{Position, Ruleset};
use crate::types::{Color, MAX_PIECE_TYPES, Piece, PieceType, Square, TypeSet};
use crate::variant::{CountingRule, GameValue, Variant};
use std::sync::Arc;

/// A position as written (a FEN read against a variant), not yet checked to be
/// playable.
#[derive(Clone, Debug)]
pub struct Setup {
    /// Pieces on the board: square, piece, promotion mark (as in
    /// [`Position::raw_promoted`]).
    pub board: Vec<(Square, Piece, u8)>,
    pub hands: [[u8; MAX_PIECE_TYPES]; 2],
    pub side: Color,
    /// Castling and gating letters as written: `KQkq`, file letters, seirawan gates.
    pub castling: Vec<char>,
    pub ep: Vec<Square>,
    /// Checks each side still has to give (check-counting variants).
    pub checks_remaining: Option<[u8; 2]>,
    /// The counting rules' limit in plies (0: no count is on); the count is then
    /// written in place of the halfmove clock.
    pub counting_limit: u32,
    pub rule50: u32,
    pub fullmove: u32,
}

impl Setup {
    /// An empty board with `side` to move, at move 1.
    pub fn new(side: Color) -> Setup {
        Setup {
            board: Vec::new(),
            hands: [[0; MAX_PIECE_TYPES]; 2],
            side,
            castling: Vec::new(),
            ep: Vec::new(),
            checks_remaining: None,
            counting_limit: 0,
            rule50: 0,
            fullmove: 1,
        }
    }
}

/// Why a setup is not a playable position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A side without the royal piece it has at the start, where its loss has
    /// not ended the game by extinction (a king cannot be captured).
    #[error("{} has no king", side_name(*.0))]
    NoKing(Color),
    /// In a variant without royal pieces, a side without any of the pieces whose
    /// loss would end the game (that it has at the start), where the extinction
    /// rule has not ended it (pseudo-royal pieces that captures do not explode
    /// cannot be lost).
    #[error("{} has no pieces", side_name(*.0))]
    NoVitalPieces(Color),
    /// The side that just moved left its royal piece attacked.
    #[error("the side that is not to move is in check")]
    OpponentInCheck,
}

fn side_name(c: Color) -> &'static str {
    if c.is_white() { "White" } else { "Black" }
}

impl Position {
    /// The position `setup` describes, or why it cannot be played: a side without
    /// the royal piece that it has at the start (horde's White has no king to begin
    /// with), or the side that just moved still in check. A finished game is a
    /// position: a side that has lost the pieces whose loss ends the game by
    /// extinction (atomic's exploded king, dobutsu's captured lion) is accepted,
    /// and the game-end rules say it is over.
    pub fn from_setup(rules: &Arc<Ruleset>, setup: &Setup) -> Result<Position, SetupError> {
        let pos = Position::from_setup_unchecked(rules, setup);
        validate(&pos)?;
        Ok(pos)
    }

    /// The position `setup` describes, without the checks of [`Position::from_setup`]:
    /// for start positions (played as written) and for tests and tools that study
    /// finished or composed positions. Outside input goes through `from_setup`.
    pub fn from_setup_unchecked(rules: &Arc<Ruleset>, s: &Setup) -> Position {
        let v = &rules.variant;
        let mut pos = Position::empty(rules);
        for &(sq, p, promoted) in &s.board {
            pos.put(sq, p, promoted);
        }
        for c in Color::BOTH {
            for t in 0..v.num_types() {
                let n = s.hands[c.index()][t];
                if n > 0 {
                    pos.add_to_hand(c, t as PieceType, n as i32);
                }
            }
        }
        pos.set_side(s.side);
        for &letter in &s.castling {
            pos.read_castling_letter(letter);
        }
        if v.gating && v.castling {
            pos.castle_with_gated_king();
        }
        pos.set_en_passant(&s.ep, s.side);
        if v.check_counting {
            let [w, b] = s.checks_remaining.unwrap_or([1, 1]);
            pos.set_checks_remaining(Color::White, w);
            pos.set_checks_remaining(Color::Black, b);
        }
        pos.state_mut().rule50 = s.rule50;
        if v.counting_rule != CountingRule::None && s.counting_limit > 0 {
            let st = pos.state_mut();
            st.counting_limit = s.counting_limit;
            st.counting_ply = s.rule50;
            st.rule50 = 0;
        }
        pos.set_game_ply(2 * (s.fullmove - 1) + (s.side == Color::Black) as u32);
        pos.finish_setup();
        pos
    }

    /// Is `p` a castling rook of `c`?
    fn is_castling_rook(&self, c: Color, p: Piece) -> bool {
        p.is_some()
            && p.color() == c
            && self.variant().castling_rook_pieces[c.index()] & 1u64 << p.kind() != 0
    }

    /// One castling letter, as Fairy-Stockfish reads it: `K`/`Q` the outermost rook
    /// on that side of the king, a file letter the piece on that file of the back
    /// rank (a castling rook, or a seirawan gate).
    fn read_castling_letter(&mut self, letter: char) {
        let rules = self.rules().clone();
        let v = &rules.variant;
        let g = v.geometry;
        let c = if letter.is_ascii_lowercase() {
            Color::Black
        } else {
            Color::White
        };
        let up = letter.to_ascii_uppercase();
        let rank = rules.castling_rank(c);
        let rook_sq = if v.castling && (up == 'K' || up == 'Q') {
            self.outermost_rook(c, rank, up == 'K')
        } else if (up as u8) >= b'A' && (up as u8) < b'A' + g.files {
            g.square(up as u8 - b'A', rank)
        } else {
            return;
        };
        if v.castling && self.state().castling_king[c.index()].is_none() {
            self.find_castling_king(c, rank, rook_sq);
        }
        if v.gating {
            if self.pieces(c).contains(rook_sq) && !self.state().gates[c.index()].contains(rook_sq)
            {
                self.toggle_gate(c, rook_sq);
            }
            let k = self.state().castling_king[c.index()];
            if let Some(k) = k.filter(|_| up == 'K' || up == 'Q') {
                if !self.state().gates[c.index()].contains(k) {
                    self.toggle_gate(c, k);
                }
            } else if !v.seirawan_gating || self.hand_total(c) > 0 || v.captures_to_hand {
                // A gate letter, not a castling right.
                return;
            }
        }
        if v.castling
            && self.state().castling_king[c.index()].is_some()
            && self.is_castling_rook(c, self.piece_at(rook_sq))
            && !self.state().castling[c.index()].contains(rook_sq)
        {
            self.toggle_castling(c, rook_sq);
        }
    }

    /// The square of the outermost castling rook of `c` on `rank`, searched from the
    /// variant's rook file towards the centre (the last square searched when none).
    fn outermost_rook(&self, c: Color, rank: u8, kingside: bool) -> Square {
        let v = self.variant();
        let g = v.geometry;
        if kingside {
            let mut f = v.castling_rook_kingside_file;
            loop {
                let sq = g.square(f, rank);
                if self.is_castling_rook(c, self.piece_at(sq)) || f == 0 {
                    return sq;
                }
                f -= 1;
            }
        } else {
            let mut f = v.castling_rook_queenside_file;
            loop {
                let sq = g.square(f, rank);
                if self.is_castling_rook(c, self.piece_at(sq)) || f == g.files - 1 {
                    return sq;
                }
                f += 1;
            }
        }
    }

    /// Find the castling king of `c` on `rank` for a right on `rook_sq`: the only king
    /// there (the first one in chess960), or the one on the variant's king file.
    fn find_castling_king(&mut self, c: Color, rank: u8, rook_sq: Square) {
        let v = self.variant();
        let g = v.geometry;
        let king_type = v.castling_king_piece[c.index()];
        let kings: Vec<Square> = match king_type {
            Some(kt) => self
                .pieces_of(c, kt)
                .and(&g.rank_set(rank))
                .iter()
                .collect(),
            None => Vec::new(),
        };
        let ksq = if v.chess960
            && king_type.is_some_and(|kt| self.piece_at(rook_sq) == Piece::new(c, kt))
        {
            rook_sq
        } else if !kings.is_empty() && (kings.len() == 1 || v.chess960) {
            kings[0]
        } else {
            g.square(v.castling_king_file, rank)
        };
        if kings.contains(&ksq) {
            self.state_mut().castling_king[c.index()] = Some(ksq);
        }
    }

    /// Gating variants with castling: a gated king without written castling rights
    /// may castle with every gated rook.
    fn castle_with_gated_king(&mut self) {
        let rules = self.rules().clone();
        let v = &rules.variant;
        for c in Color::BOTH {
            let gates = self.state().gates[c.index()];
            let king_gated = self.state().castling_king[c.index()].is_some_and(|k| {
                gates.contains(k)
                    && v.castling_king_piece[c.index()].is_some_and(|kt| {
                        self.piece_at(k).kind() == kt && self.piece_at(k).is_some()
                    })
            });
            if king_gated
                && self.state().castling[c.index()].is_empty()
                && (!v.seirawan_gating || self.hand_total(c) > 0 || v.captures_to_hand)
            {
                for sq in gates.and(&self.pieces(c)).iter() {
                    if self.is_castling_rook(c, self.piece_at(sq)) {
                        self.toggle_castling(c, sq);
                    }
                }
            }
        }
    }

    /// En passant squares: only on the mover's e.p. region and an empty square. The
    /// victim is the closest piece of the other side behind the first of them.
    fn set_en_passant(&mut self, squares: &[Square], us: Color) {
        let v = self.variant();
        let region = v.en_passant_region[us.index()];
        let g = v.geometry;
        for &sq in squares {
            if region.contains(sq) && self.piece_at(sq).is_none() {
                self.toggle_ep(sq);
            }
        }
        let Some(first) = self.state().ep_squares.first() else {
            return;
        };
        let dir = if us == Color::White { -1 } else { 1 };
        let mut cur = first;
        let mut victim = None;
        while let Some(n) = g.offset(cur, 0, dir) {
            let p = self.piece_at(n);
            if p.is_some() {
                if p.color() != us {
                    victim = Some(n);
                }
                break;
            }
            cur = n;
        }
        self.state_mut().ep_victim = victim;
    }
}

/// Refuse positions the rules core reads but that cannot be played (see
/// [`Position::from_setup`]).
fn validate(pos: &Position) -> Result<(), SetupError> {
    let rules = pos.rules();
    let v = pos.variant();
    let vital = vital_types(rules);
    if vital != 0 {
        let at_start = start_counts(v, vital);
        for c in Color::BOTH {
            let now: u32 = types_in(vital, v)
                .map(|t| pos.count(c, t) + pos.hand(c, t) as u32)
                .sum();
            // Where the extinction rule ends the game so, the game is over: the
            // position is accepted as Fairy-Stockfish accepts it (the game-end
            // rules report the result, and there are no moves).
            if now == 0 && at_start[c.index()] > 0 && !pos.extinct(c) {
                return Err(if rules.royal_types != 0 {
                    SetupError::NoKing(c)
                } else {
                    SetupError::NoVitalPieces(c)
                });
            }
        }
    }
    if rules.royal_types != 0
        && !rules.pseudo_royal
        && v.checking
        && rules.royal_attacked(pos, pos.side_to_move().flip())
    {
        return Err(SetupError::OpponentInCheck);
    }
    Ok(())
}

/// The piece types whose loss ends the game: the royal ones, and in extinction
/// variants the extinction types.
fn vital_types(rules: &Ruleset) -> TypeSet {
    let v = &rules.variant;
    let mut vital = rules.royal_types;
    if v.extinction_value != GameValue::None {
        vital |= if v.extinction_all_types {
            v.all_types()
        } else {
            v.extinction_piece_types
        };
    }
    vital
}

fn types_in(set: TypeSet, v: &Variant) -> impl Iterator<Item = PieceType> {
    (0..v.num_types() as PieceType).filter(move |&t| set & 1u64 << t != 0)
}

/// Pieces of the `vital` types each side has in the variant's start position
/// (on the board and in hand).
fn start_counts(v: &Variant, vital: TypeSet) -> [u32; 2] {
    let mut counts = [0; 2];
    // The start position was read when the variant loaded.
    let Ok(start) = super::fen::parse(v, &v.start_fen) else {
        return counts;
    };
    for &(_, p, _) in &start.board {
        if vital & 1u64 << p.kind() != 0 {
            counts[p.color().index()] += 1;
        }
    }
    for c in Color::BOTH {
        for t in types_in(vital, v) {
            counts[c.index()] += start.hands[c.index()][t as usize] as u32;
        }
    }
    counts
}
