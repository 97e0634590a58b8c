//! The pieces of a variant as XBoard distinguishes them, with their moves in the
//! canonical XBetza that is compared with XBoard's built-in moves and sent in
//! `piece` commands.

use super::parents::{FIDE_PAWN, PLAIN_PAWN, Parent, SOLDIER};
use crate::board::{PROMOTED_UNKNOWN, fen};
use crate::types::{Color, PieceType};
use crate::variant::{GameValue, Variant};
use crate::xbetza::{self, Dialect, PieceMoves};

/// One piece as XBoard distinguishes them: a piece type of ours, a shogi-style
/// promoted piece, or a crazyhouse-style promoted piece (which reverts to a pawn
/// when captured).
#[derive(Clone, Debug)]
pub(super) struct Kind {
    /// The type whose moves it has.
    pub(super) ty: PieceType,
    /// The unpromoted type (equal to `ty` unless promoted).
    pub(super) base: PieceType,
    pub(super) form: Form,
    pub(super) in_hand: bool,
    pub(super) royal: bool,
    /// Canonical moves, for comparison with XBoard's built-in moves.
    pub(super) signature: String,
    /// XBetza to send in a `piece` command.
    pub(super) betza: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    Base,
    Promoted,
    Tilde,
}

/// Canonical XBetza: each component in XBoard's modifier order, components sorted.
pub(super) fn canonical(moves: &PieceMoves) -> String {
    let mut parts: Vec<String> = moves
        .components
        .iter()
        .map(|c| {
            xbetza::to_xboard(&PieceMoves {
                components: vec![c.clone()],
                text: String::new(),
            })
        })
        .collect();
    parts.sort();
    parts.dedup();
    parts.concat()
}

/// Canonical form of an XBetza text (a pseudo-signature stays as it is).
pub(super) fn canonical_text(text: &str) -> String {
    match xbetza::parse(text, Dialect::XBoard) {
        Ok(m) if text != SOLDIER => canonical(&m),
        _ => text.to_string(),
    }
}

pub(super) fn collect_kinds(v: &Variant) -> Vec<Kind> {
    let n = v.num_types();
    let promo_targets = v.promotion_piece_types[0] | v.promotion_piece_types[1];
    let mut on_start_board = vec![false; n];
    let mut in_start_hand = vec![false; n];
    let mut start_count = vec![[0u32; 2]; n];
    if let Ok(setup) = fen::parse(v, &v.start_fen) {
        for &(_, p, promoted) in setup.board.iter().filter(|(_, p, _)| !p.is_wall()) {
            start_count[p.kind() as usize][p.color() as usize] += 1;
            if promoted == 0 || promoted == PROMOTED_UNKNOWN {
                on_start_board[p.kind() as usize] = true;
            } else {
                on_start_board[(promoted - 1) as usize] = true;
            }
        }
        for c in Color::BOTH {
            for (held, &count) in in_start_hand.iter_mut().zip(&setup.hands[c as usize]) {
                *held |= count > 0;
            }
        }
    }
    let is_promotion_result = |t: usize| v.promoted_piece_type.contains(&Some(t as PieceType));
    let promoted_only = |t: usize| {
        is_promotion_result(t)
            && !on_start_board[t]
            && !in_start_hand[t]
            && promo_targets & 1 << t == 0
    };
    // A type that is neither in the start position nor reachable by promotion never
    // appears (a piece inherited from a parent variant and not used).
    let absent = |t: usize| {
        !on_start_board[t]
            && !in_start_hand[t]
            && promo_targets & 1 << t == 0
            && !is_promotion_result(t)
    };
    let mut kinds = Vec::new();
    for (t, p) in v.pieces.iter().enumerate() {
        if promoted_only(t) || absent(t) {
            continue;
        }
        // Held at the start (even a king, in placement variants), or captured; not
        // a side's only piece of a type whose loss ends the game (dobutsu's lion).
        let ends_game = v.extinction_value != GameValue::None
            && v.extinction_piece_count == 0
            && v.extinction_piece_types & 1 << t != 0
            && start_count[t].iter().all(|&k| k <= 1);
        let in_hand = in_start_hand[t] || (!p.royal && v.captures_to_hand && !ends_game);
        let (signature, betza) = moves_of(v, t as PieceType);
        kinds.push(Kind {
            ty: t as PieceType,
            base: t as PieceType,
            form: Form::Base,
            in_hand,
            royal: p.royal,
            signature,
            betza,
        });
    }
    for t in 0..n {
        if promoted_only(t) || absent(t) {
            continue;
        }
        if let Some(p) = v.promoted_piece_type[t] {
            let (signature, betza) = moves_of(v, p);
            kinds.push(Kind {
                ty: p,
                base: t as PieceType,
                form: Form::Promoted,
                in_hand: false,
                royal: false,
                signature,
                betza,
            });
        }
    }
    if v.captures_to_hand && !v.drop_loop {
        for t in 0..n {
            if promo_targets & 1 << t != 0 && !promoted_only(t) && !absent(t) {
                let (signature, betza) = moves_of(v, t as PieceType);
                kinds.push(Kind {
                    ty: t as PieceType,
                    base: t as PieceType,
                    form: Form::Tilde,
                    in_hand: false,
                    royal: false,
                    signature,
                    betza,
                });
            }
        }
    }
    kinds
}

/// (canonical signature, XBetza for `piece`) of a type's moves.
fn moves_of(v: &Variant, t: PieceType) -> (String, String) {
    let p = &v.pieces[t as usize];
    match p.slot.as_str() {
        "pawn" => {
            let text = if v.double_step { FIDE_PAWN } else { PLAIN_PAWN };
            (canonical_text(text), text.to_string())
        }
        "soldier" => (SOLDIER.to_string(), xbetza::to_xboard(&p.moves)),
        // Cambodian chess: the king's and the met's first leaps (XBoard knows a
        // piece's first move from the virgin files of the FEN's castling field).
        "king" | "fers" if v.cambodian_moves => {
            let leap = if p.slot == "king" { "ismN" } else { "imfD" };
            (
                format!("{}{leap}", canonical(&p.moves)),
                format!("{}{leap}", xbetza::to_xboard(&p.moves)),
            )
        }
        _ => (canonical(&p.moves), xbetza::to_xboard(&p.moves)),
    }
}

/// Does the parent's image move like this kind?
pub(super) fn builtin_matches(parent: &Parent, image: u8, signature: &str) -> bool {
    parent
        .moves
        .iter()
        .any(|&(i, m)| i == image && canonical_text(m) == signature)
}
