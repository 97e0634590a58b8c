//! CECP commands that change or inspect the game: new, variant, setboard, edit,
//! undo/remove, moves, claims, hint, bk, options, exclude/include.

use super::{Activity, EditBoard, Mode, Session};
use crate::board::shuffled_start_fen;
use crate::protocol::controller::ControlError;
use crate::protocol::options::{self, Applied, OptionError};
use crate::protocol::wire;
use crate::protocol::xboard::{self, XbVariant};
use crate::types::{Color, RankNumbering};

impl Session {
    /// Forget what belonged to the previous position.
    pub(super) fn after_position_change(&mut self) {
        self.claimed = false;
        self.excluded.clear();
        self.entry.reset();
    }

    pub(super) fn new_game(&mut self) {
        if let Err(e) = self.ctl.select_variant(xboard::CHESS) {
            self.out.line(&format!("Error ({e}): new"));
        }
        self.xb = XbVariant::new(self.ctl.variant());
        if self.mode != Mode::Analyze {
            self.mode = Mode::Plays(Color::Black);
        }
        self.clock.max_depth = None;
        self.clock.nps = None;
        self.draw_offered = false;
        self.lost_searches = 0;
        self.expected_reply = None;
        self.after_position_change();
        self.ctl.clear_hash();
    }

    pub(super) fn variant(&mut self, name: &str, line: &str) {
        if let Err(e) = self.ctl.select_variant(name) {
            self.out.line(&format!("Error ({e}): {line}"));
            return;
        }
        self.xb = XbVariant::new(self.ctl.variant());
        if self.ctl.variant().chess960 {
            self.shuffle_start();
        }
        for l in self.xb.announce.clone() {
            self.out.line(&l);
        }
        if let Mode::Plays(_) = self.mode {
            self.mode = Mode::Plays(self.ctl.position().side_to_move().flip());
        }
        self.expected_reply = None;
        self.after_position_change();
    }

    /// A chess960 variant starts from a shuffled back rank, as the XBoard user who
    /// picks it expects (XBoard itself shuffles and sends the position with
    /// `setboard`; other interfaces may not).
    fn shuffle_start(&mut self) {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let fen = shuffled_start_fen(self.ctl.position().rules(), seed);
        if let Some(fen) = fen {
            // A shuffled start always reads (tested in board/shuffle.rs).
            let _ = self.ctl.set_fen(&fen);
        }
    }

    pub(super) fn set_board(&mut self, fen: &str, line: &str) {
        let ours = self.xb.fen_from_xboard(self.ctl.variant(), fen);
        match self.ctl.set_fen(&ours) {
            Ok(()) => {
                self.expected_reply = None;
                self.lost_searches = 0;
                self.after_position_change();
            }
            Err(e) => {
                self.out
                    .line(&format!("tellusererror Illegal position: {e}"));
                self.out.line(&format!("Error ({e}): {line}"));
            }
        }
    }

    pub(super) fn take_back(&mut self, n: usize, line: &str) {
        for _ in 0..n {
            if !self.ctl.undo() {
                self.out
                    .line(&format!("Error (no move to take back): {line}"));
                break;
            }
        }
        self.expected_reply = None;
        self.after_position_change();
    }

    pub(super) fn user_move(&mut self, text: &str) {
        match wire::cecp_parse(self.ctl.position_mut(), text, &self.xb) {
            Ok(m) => {
                self.ctl.play(m);
                self.after_position_change();
                self.expected_reply = None;
                // The result must be claimed in force mode too.
                if self.mode == Mode::Force {
                    self.claim_if_over();
                }
            }
            Err(why) => self.out.line(&format!("Illegal move ({why}): {text}")),
        }
    }

    /// Print the result if the game is over; true when it is.
    pub(super) fn claim_if_over(&mut self) -> bool {
        match self.ctl.game_end() {
            Some(end) => {
                if !self.claimed {
                    self.out.line(&end.line());
                    self.claimed = true;
                }
                true
            }
            None => false,
        }
    }

    pub(super) fn on_edit_line(&mut self, line: &str) {
        let Some(edit) = self.edit.as_mut() else {
            return;
        };
        match line {
            "." => {
                let edit = self.edit.take().expect("in edit mode");
                self.finish_edit(edit);
            }
            "#" => edit.pieces.clear(),
            "c" => edit.white = !edit.white,
            _ => {
                let g = self.ctl.variant().geometry;
                let mut cs = line.chars();
                let placed = cs.next().and_then(|letter| {
                    let sq = g.parse_square(cs.as_str(), RankNumbering::XBoard)?;
                    letter
                        .is_ascii_alphabetic()
                        .then_some((letter.to_ascii_uppercase(), sq))
                });
                match placed {
                    Some((letter, sq)) => {
                        let color = if edit.white {
                            Color::White
                        } else {
                            Color::Black
                        };
                        edit.pieces.retain(|(s, _, _)| *s != sq);
                        if letter != 'X' {
                            edit.pieces.push((sq, color, letter));
                        }
                    }
                    None => self.out.line(&format!("Error (bad edit line): {line}")),
                }
            }
        }
    }

    /// Build a FEN from the edited board; pieces on their start squares keep their
    /// castling rights (the FEN reader drops rights that do not apply).
    pub(super) fn finish_edit(&mut self, edit: EditBoard) {
        let v = self.ctl.variant().clone();
        let g = v.geometry;
        let mut rows = Vec::new();
        for r in (0..g.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..g.files {
                let sq = g.square(f, r);
                match edit.pieces.iter().find(|(s, _, _)| *s == sq) {
                    Some(&(_, c, letter)) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(if c == Color::White {
                            letter
                        } else {
                            letter.to_ascii_lowercase()
                        });
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = if self.ctl.position().side_to_move() == Color::White {
            "w"
        } else {
            "b"
        };
        let hands = if v.piece_drops { "[]" } else { "" };
        let castling = if v.castling { "KQkq" } else { "-" };
        let fen = format!("{}{hands} {side} {castling} - 0 1", rows.join("/"));
        self.set_board(&fen, "edit");
    }

    pub(super) fn hint(&mut self) {
        let pos = self.ctl.position().clone();
        let legal = self.ctl.legal_moves();
        let hint = self
            .expected_reply
            .filter(|m| legal.contains(m))
            .or_else(|| self.ctl.book_moves().first().map(|(m, _)| *m));
        if let Some(m) = hint {
            self.out
                .line(&format!("Hint: {}", wire::cecp_text(&pos, m, &self.xb)));
        }
    }

    pub(super) fn book(&mut self) {
        let pos = self.ctl.position().clone();
        let moves = self.ctl.book_moves();
        let total: u64 = moves.iter().map(|&(_, w)| w as u64).sum::<u64>().max(1);
        if moves.is_empty() {
            self.out.line(" no book moves");
        }
        for (m, w) in moves {
            self.out.line(&format!(
                " {} {}%",
                wire::cecp_text(&pos, m, &self.xb),
                w as u64 * 100 / total
            ));
        }
        self.out.line("");
    }

    /// `stat01 TIME NODES DEPTH MOVES-LEFT MOVES-TOTAL [MOVE]`: the move being searched
    /// once the search has reported it (after its first second).
    pub(super) fn stat(&mut self) {
        if self.activity != Activity::Analyze {
            return;
        }
        let total = self.ctl.legal_moves().len();
        let (nodes, depth) = self
            .last_info
            .as_ref()
            .map_or((0, 0), |i| (i.nodes, i.depth));
        let cs = self.search_started.elapsed().as_millis() / 10;
        let current = match self.curr_move {
            Some((m, number)) => {
                let text = wire::cecp_text(self.ctl.position(), m, &self.xb);
                format!("{} {total} {text}", total.saturating_sub(number))
            }
            None => format!("0 {total}"),
        };
        self.out
            .line(&format!("stat01 {cs} {nodes} {depth} {current}"));
    }

    /// The opponent changed (`name`, `rating`, `computer`): say so in debug mode.
    pub(super) fn opponent_changed(&mut self) {
        let text = format!("opponent: {}", self.settings.opponent);
        self.debug_line(&text);
    }

    pub(super) fn option(&mut self, name: &str, value: Option<&str>, line: &str) {
        let Some(option) = options::find(name, |o| o.cecp) else {
            self.out.line(&format!("Error (unknown option): {line}"));
            return;
        };
        let applied = option
            .parse(name, value)
            .and_then(|v| options::apply(option, v, &mut self.ctl, &mut self.settings));
        match applied {
            Ok(Applied::Done) => {}
            Ok(Applied::Adjusted(note)) => self.note(&note),
            Ok(Applied::VariantFile(report)) => {
                // One dialog says it all: a second one would replace the first
                // (XBoard shows one error or note dialog at a time).
                let mut said: Vec<String> = report
                    .errors
                    .iter()
                    .map(|e| format!("error: {e}"))
                    .collect();
                said.extend(report.notes.iter().map(|n| format!("note: {n}")));
                if !report.loaded.is_empty() {
                    said.push(format!("loaded: {}", report.loaded.join(", ")));
                }
                if report.errors.is_empty() {
                    for note in &said[..report.notes.len()] {
                        self.note(note);
                    }
                    if !report.loaded.is_empty() {
                        self.out
                            .line(&format!("telluser loaded {}", report.loaded.join(", ")));
                    }
                } else {
                    self.tell_report("Menagerie: the variant file says", &said);
                    self.out.line(&format!(
                        "Error ({} errors in the variant file): {line}",
                        report.errors.len()
                    ));
                }
                if !report.loaded.is_empty() {
                    let variants = self.variants_feature();
                    self.out.line(&variants);
                }
            }
            Err(why) => {
                self.out.line(&format!("Error ({why}): {line}"));
                // A net file that cannot be used deserves a dialog: the engine
                // plays on, but not with the evaluation the user asked for.
                if let OptionError::Control(ControlError::Net(_)) = why {
                    self.out.line(&format!("tellusererror {why}"));
                }
            }
        }
    }

    /// `memory N`: a size the machine cannot give is refused (the old table stays),
    /// and the user is told once per size asked.
    pub(super) fn set_memory(&mut self, mb: usize) {
        match self.ctl.set_hash_mb(mb) {
            Ok(()) => self.refused_memory = None,
            Err(why) => {
                self.out.line(&format!("Error ({why}): memory {mb}"));
                if self.refused_memory != Some(mb) {
                    self.out
                        .line(&format!("tellusererror Hash size {mb} MB refused: {why}"));
                }
                self.refused_memory = Some(mb);
            }
        }
    }

    /// `cores N`: more than the machine runs well is brought down to that.
    pub(super) fn set_cores(&mut self, n: usize) {
        match options::apply_threads(&mut self.ctl, n) {
            Ok(Applied::Adjusted(note)) => self.note(&note),
            Ok(_) => {}
            Err(why) => self.out.line(&format!("Error ({why}): cores {n}")),
        }
    }

    pub(super) fn exclude(&mut self, text: Option<&str>, exclude: bool, line: &str) {
        match text {
            None => {
                self.excluded = if exclude {
                    self.ctl.legal_moves()
                } else {
                    Vec::new()
                };
            }
            Some(t) => match wire::cecp_parse(self.ctl.position_mut(), t, &self.xb) {
                Ok(m) => {
                    self.excluded.retain(|&x| x != m);
                    if exclude {
                        self.excluded.push(m);
                    }
                }
                Err(why) => self.out.line(&format!("Error ({why}): {line}")),
            },
        }
    }
}
