//! Legal move lists (none once the game is over), move notation and perft. The
//! legality test of one move is the board's; whether the game is over is
//! [`rules`](crate::rules)'.

pub mod bench_piece;
pub mod labelled;
mod list;
pub mod notation;
mod perft;

pub use perft::{perft, perft_divide, perft_divide_until, perft_until};
