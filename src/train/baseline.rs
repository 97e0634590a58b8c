//! Where a net starts and what it has to beat: the linear (PSQT) path's start
//! from the variant's piece values, and the held-out loss of the hand-crafted
//! evaluation and of that material start, through the same logistic and label
//! as the net's loss. A net whose held-out loss is not below the hand-crafted
//! one's is not worth games.

use super::data::Dataset;
use super::gradient::{mean_loss, sigmoid, target};
use super::model::{K_CP, Model};
use crate::eval::Evaluator;
use crate::eval::values::piece_values;
use crate::nnue::net::DEFAULT_SCALE;
use crate::nnue::{InputKind, Layout};

/// Per input, the linear weight of the material start in net units: the value
/// of its piece type (the mean of the hand-crafted middlegame and endgame
/// values, over the net's `scale`), + for the perspective's own pieces on the
/// board or in hand (each slot of the cumulative count is one piece), - for the
/// enemy's, 0 for walls; the sign turned where material counts against its
/// owner. Half the side to move's sum minus the other's is then the material
/// difference.
pub fn material_start(eval: &Evaluator, layout: &Layout) -> Vec<f32> {
    let (mg, eg) = piece_values(eval.rules());
    let sign = eval.material_sign() as f32;
    let value = |t: u8| {
        let t = t as usize;
        let cp = (mg[t] + eg[t]) as f32 / 2.0;
        sign * cp / DEFAULT_SCALE as f32
    };
    (0..layout.inputs())
        .map(|i| match layout.kind_of(i) {
            InputKind::Square { own, piece_type } | InputKind::Hand { own, piece_type } => {
                if own {
                    value(piece_type)
                } else {
                    -value(piece_type)
                }
            }
            InputKind::Wall => 0.0,
        })
        .collect()
}

/// The held-out losses a net should beat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Baselines {
    /// The hand-crafted static evaluation's.
    pub hand_crafted: f64,
    /// The material start's (a new model's linear path).
    pub material: f64,
}

impl Baselines {
    /// Of the held-out positions of `data` (`None` where there are none), with
    /// `start` a new model.
    pub fn of(data: &Dataset, start: &Model, lambda: f32) -> Option<Baselines> {
        if data.held_out.is_empty() {
            return None;
        }
        let sum: f64 = data
            .held_out
            .iter()
            .zip(&data.held_out_hand_crafted)
            .map(|(s, &cp)| {
                let err = sigmoid(cp / K_CP) - target(s, lambda);
                (err * err) as f64
            })
            .sum();
        Some(Baselines {
            hand_crafted: sum / data.held_out.len() as f64,
            material: mean_loss(&start.linear_only(), data, &data.held_out, lambda),
        })
    }
}
