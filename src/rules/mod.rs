//! Game end: every rule that decides a game is over, in one layer that legality
//! (the legal move list is empty once the game is over), the search and the
//! protocols use.
//!
//! - [`immediate_result`]: results decided before the side to move plays
//!   (extinction, flag, check counting, castling wins, connections, a full board,
//!   both sides passing); the game is over, so there are no legal moves.
//! - [`no_moves_value`]: the value of having no legal move (checkmate, stalemate).
//! - [`optional_result`]: results that apply with moves left (the n-move rule,
//!   counting rules, n-fold repetition with perpetual-check and move-repetition
//!   illegality); [`bare_royals`], the draw the protocols adjudicate when only
//!   royal pieces are left.
//!
//! Every value is for the side to move. A draw by stalemate, the n-move rule or
//! repetition goes through the variant's material counting ([`counted`]).

mod claims;
mod connect;
mod counting;
mod immediate;
mod no_moves;
mod repetition;

pub use claims::{bare_royals, counting_over, n_move_rule_over, optional_result};
pub use connect::{connection_result, full_board_result};
pub use counting::counted;
pub use immediate::{ended_by_passes, flag_reached, immediate_result};
pub use no_moves::no_moves_value;
pub use repetition::{lost_by_move_repetition, repetition_result};
