//! Legal moves: the legality tests (a fast proof for most moves, playing the move for
//! the rest), the legal move list, results that leave no move at all, move notation
//! and perft.

pub mod bench_piece;
mod connect;
mod decided;
mod legal;
pub mod notation;
mod perft;

pub use connect::{connection_result, full_board_result};
pub use decided::{counted, ended_by_passes, flag_reached, immediate_result};
pub use legal::NodeInfo;
pub use perft::{perft, perft_divide, perft_divide_until, perft_until};
