//! The rules of a variant in plain words, read from its keys: what a designer set
//! and what the engine will play, sentence by sentence. Only rules that differ from
//! "nothing special" are said; a variant with none of them says so.

use crate::types::{Color, PieceType, TypeSet};
use crate::variant::{CountingRule, GameValue, MaterialCounting, Variant, WallingRule};

/// A piece type's name: its slot (`knight`), or `piece X` for a custom piece.
pub fn piece_name(v: &Variant, t: PieceType) -> String {
    let p = &v.pieces[t as usize];
    if p.slot.starts_with("customPiece") {
        format!("piece {}", p.letter)
    } else {
        format!("{} ({})", p.slot, p.letter)
    }
}

/// The names of the types of `set`, joined with commas.
pub fn type_names(v: &Variant, set: TypeSet) -> String {
    let names: Vec<String> = (0..v.num_types())
        .filter(|&t| set & 1 << t != 0)
        .map(|t| piece_name(v, t as PieceType))
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// What a game value means for the player it applies to.
fn verdict(value: GameValue) -> &'static str {
    match value {
        GameValue::Win => "wins",
        GameValue::Loss => "loses",
        GameValue::Draw => "draws (the game is drawn)",
        GameValue::None => "plays on",
    }
}

/// The sentences, grouped under headings: (heading, sentences).
pub fn rules_in_words(v: &Variant) -> Vec<(&'static str, Vec<String>)> {
    let mut groups = Vec::new();
    let g = v.geometry;
    let mut board = vec![format!(
        "The board has {} files and {} ranks; White starts at the bottom.",
        g.files, g.ranks
    )];
    if v.chess960 {
        board.push("The back rank is shuffled at the start (Chess960 style).".into());
    }
    if let Some(p) = &v.parent {
        board.push(format!("It inherits every rule not set here from '{p}'."));
    }
    groups.push(("Board", board));

    let mut moving = Vec::new();
    if v.castling {
        moving.push("The king may castle with a rook as in chess.".to_string());
    }
    if v.double_step {
        moving.push(
            "Pawns may make a double step from the squares of their double-step region."
                .to_string(),
        );
    }
    if v.double_step && (v.en_passant_types[0] != 0 || v.pieces.iter().any(|p| p.is_pawn_slot())) {
        moving.push("Pawns capture en passant.".to_string());
    }
    if v.flying_general {
        moving.push(
            "The two generals may not face each other on an open file (flying general)."
                .to_string(),
        );
    }
    if v.bikjang_rule {
        moving.push(
            "Kings facing each other on an open line (bikjang) must be separated, or the game ends."
                .to_string(),
        );
    }
    for t in 0..v.num_types() {
        if let Some(Some(_)) = v.mobility_region[0].get(t) {
            moving.push(format!(
                "The {} may stand only in its shaded region.",
                piece_name(v, t as PieceType)
            ));
        }
    }
    if v.pass[0] || v.pass[1] {
        moving.push("A player may pass instead of moving.".to_string());
    }
    if !v.diagonal_lines.is_empty() {
        moving.push("Some pieces also move along the marked diagonal lines.".to_string());
    }
    if v.walling_rule != WallingRule::None {
        moving.push(format!(
            "After moving, a player places a wall square: {}.",
            match v.walling_rule {
                WallingRule::Arrow => "where the moved piece could move next",
                WallingRule::Duck => "on any empty square (the wall then moves: the old one goes)",
                WallingRule::Edge => "on the board's edge or next to a wall",
                WallingRule::Past => "on the square the piece left",
                WallingRule::Static => "on any empty square of its walling region",
                WallingRule::None => "",
            }
        ));
    }
    if v.makpong_rule {
        moving.push("A king in check may only capture the checking piece (makpong).".to_string());
    }
    if !moving.is_empty() {
        groups.push(("Moving", moving));
    }

    let mut promotion = Vec::new();
    let pawns = v.promotion_pawn_types[0];
    if pawns != 0 && !v.promotion_region[0].is_empty() {
        promotion.push(format!(
            "A {} reaching the promotion zone {} to one of: {}.",
            type_names(v, pawns),
            if v.mandatory_pawn_promotion {
                "promotes"
            } else {
                "may promote"
            },
            type_names(v, v.promotion_piece_types[0])
        ));
    }
    let partners: Vec<String> = (0..v.num_types())
        .filter_map(|t| {
            let to = v.promoted_piece_type.get(t).copied().flatten()?;
            Some(format!(
                "{} → {}",
                piece_name(v, t as PieceType),
                piece_name(v, to)
            ))
        })
        .collect();
    if !partners.is_empty() {
        promotion.push(format!(
            "Moving into, inside or out of the promotion zone, a piece {} to its partner: {}.",
            if v.mandatory_piece_promotion {
                "must promote"
            } else {
                "may promote"
            },
            partners.join("; ")
        ));
        if v.piece_promotion_on_capture {
            promotion.push("Only a capturing move promotes.".to_string());
        }
    }
    if v.piece_demotion {
        promotion.push("A promoted piece may turn back by a move.".to_string());
    }
    if v.sittuyin_promotion {
        promotion.push(
            "A pawn promotes in place or by one step, without checking or attacking (sittuyin)."
                .to_string(),
        );
    }
    if !promotion.is_empty() {
        groups.push(("Promotion", promotion));
    }

    let mut drops = Vec::new();
    if v.captures_to_hand {
        drops.push(
            "A captured piece goes, unpromoted, to the hand of the player who took it.".to_string(),
        );
    }
    if v.piece_drops {
        drops.push(
            "Instead of moving, a player may drop a piece from hand on an empty square."
                .to_string(),
        );
        if !v.drop_region[0].is_empty() && v.drop_region[0].count() < g.num_squares() as u32 {
            drops.push("Drops go only to the shaded drop region.".to_string());
        }
        if let Some(t) = v.drop_no_doubled {
            drops.push(format!(
                "No {} may be dropped on a file that already holds {} of its own.",
                piece_name(v, t),
                v.drop_no_doubled_count.max(1)
            ));
        }
        if !v.first_rank_pawn_drops {
            drops.push("Pawns may not be dropped on a player's own first rank.".to_string());
        }
        if !v.promotion_zone_pawn_drops {
            drops.push("Pawns may not be dropped in the promotion zone.".to_string());
        }
        if v.shogi_pawn_drop_mate_illegal {
            drops.push("A pawn drop may not give checkmate.".to_string());
        }
        if !v.drop_checks {
            drops.push("A drop may not give check.".to_string());
        }
        if v.must_drop {
            drops.push("A player with pieces in hand must drop one.".to_string());
        }
    }
    if v.gating {
        drops.push(
            "A piece in hand may be gated in: put on the square a back-rank piece leaves."
                .to_string(),
        );
    }
    if v.connect.free_drops {
        drops.push("Any piece may always be dropped: drops do not come from a hand.".into());
    }
    if !drops.is_empty() {
        groups.push(("Hands and drops", drops));
    }

    let mut captures = Vec::new();
    if v.must_capture {
        captures.push("A player who can capture must capture.".to_string());
    }
    if v.blast_on_capture {
        captures.push(format!(
            "A capture explodes: the capturing piece and every piece next to the square go (immune: {}).",
            type_names(v, v.blast_immune_types)
        ));
    }
    if v.petrify_on_capture_types != 0 {
        captures.push(format!(
            "A capturing {} turns into a wall square.",
            type_names(v, v.petrify_on_capture_types)
        ));
    }
    if v.mutually_immune_types != 0 {
        captures.push(format!(
            "These may not capture each other: {}.",
            type_names(v, v.mutually_immune_types)
        ));
    }
    if !captures.is_empty() {
        groups.push(("Captures", captures));
    }

    let mut end = Vec::new();
    let royals = v.royal_types();
    if v.checking && royals != 0 {
        end.push(format!(
            "A royal piece ({}) may not be left in check; a player who is checkmated {}.",
            type_names(v, royals),
            verdict(v.checkmate_value)
        ));
    } else if royals != 0 {
        end.push("There is no check: a royal piece may be captured.".to_string());
    }
    if v.shatar_mate_rule {
        end.push("A mate by knights alone, or without a shak, is a draw (shatar).".into());
    }
    if v.stalemate_value != GameValue::None {
        end.push(format!(
            "A player with no legal move (stalemate) {}{}.",
            verdict(v.stalemate_value),
            if v.stalemate_piece_count {
                ", or the pieces are counted"
            } else {
                ""
            }
        ));
    }
    if v.extinction_value != GameValue::None {
        let what = if v.extinction_all_types {
            "all of their pieces".to_string()
        } else {
            format!(
                "their pieces of type {}",
                type_names(v, v.extinction_piece_types)
            )
        };
        end.push(format!(
            "A player who has lost {what} (down to {}) {}.",
            v.extinction_piece_count,
            verdict(v.extinction_value)
        ));
    }
    for c in [Color::White, Color::Black] {
        if let Some(t) = v.flag_piece[c as usize] {
            end.push(format!(
                "{c:?} wins by bringing {} {} into the shaded flag region.",
                v.flag_piece_count.max(1),
                piece_name(v, t)
            ));
        }
    }
    if v.check_counting {
        end.push(
            "A player who gives the number of checks the start position sets wins.".to_string(),
        );
    }
    if v.castling_wins != 0 {
        end.push("Castling wins.".to_string());
    }
    if v.connect.piece_types != 0 {
        end.push(format!(
            "A player who connects ({}: a line or chain of their own pieces) {}.",
            type_names(v, v.connect.piece_types),
            verdict(v.connect.value)
        ));
    }
    if v.connect.adjudicate_full_board {
        end.push("A full board ends the game.".to_string());
    }
    if v.n_fold_rule > 0 && v.n_fold_value != GameValue::None {
        end.push(format!(
            "The same position {} times: {}{}.",
            v.n_fold_rule,
            match v.n_fold_value {
                GameValue::Draw => "a draw".to_string(),
                value => format!("the player to move {}", verdict(value)),
            },
            if v.perpetual_check_illegal {
                " (a player giving perpetual check loses)"
            } else {
                ""
            }
        ));
    }
    if v.move_repetition_illegal {
        end.push("Moving one piece back and forth four times in a row loses.".to_string());
    }
    if v.n_move_rule > 0 {
        let resetting = v.n_move_rule_types[0];
        end.push(format!(
            "{} moves by each player without a capture{}: a draw.",
            v.n_move_rule,
            if resetting == 0 {
                String::new()
            } else {
                format!(" or a move of a {}", type_names(v, resetting))
            }
        ));
    }
    if v.counting_rule != CountingRule::None {
        end.push(
            "Once one side cannot win, a count starts; when it runs out the game is drawn."
                .to_string(),
        );
    }
    match v.material_counting {
        MaterialCounting::None => {}
        MaterialCounting::Unweighted => {
            end.push("A drawn game goes to the player with more pieces on the board.".into())
        }
        MaterialCounting::WhiteDrawOdds => end.push("A drawn game is a win for White.".into()),
        MaterialCounting::BlackDrawOdds => end.push("A drawn game is a win for Black.".into()),
        MaterialCounting::Janggi => {
            end.push("A drawn game goes to the player with more points (janggi).".into())
        }
    }
    if end.is_empty() {
        end.push("No rule ends the game by itself.".to_string());
    }
    groups.push(("Winning, losing, drawing", end));
    groups
}
