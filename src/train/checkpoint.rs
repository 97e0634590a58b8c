//! The checkpoint written after every epoch beside the net (`NET.ckpt`): the
//! float weights, Adam's state, the epochs done, the next epoch's shuffle seed,
//! the last losses and the best epoch's weights and losses, so that the same
//! command run again goes on where it stopped and ends with the net an
//! uninterrupted run makes.
//!
//! Little-endian: magic `MNGRCKPT`, version u32, the run's key u64 (a hash of
//! everything that shapes the training but the number of epochs and the
//! patience: a checkpoint of another run is refused), epochs done u32, shuffle
//! seed u64, Adam's step u64, train and held-out loss f64, the best epoch u32
//! and its train and held-out loss f64, parameter count u64, then the
//! parameters, Adam's first and second moments and the best epoch's parameters
//! (f32 each).

use super::TrainError;
use super::gradient::Adam;
use super::model::Model;
use std::path::Path;

const MAGIC: [u8; 8] = *b"MNGRCKPT";
/// Version 2: the linear (PSQT) weights in the model, the best epoch.
const VERSION: u32 = 2;

/// Where a run stands after an epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub key: u64,
    pub epochs_done: u32,
    pub shuffle_seed: u64,
    pub losses: (f64, f64),
    pub model: Model,
    pub adam: Adam,
    /// The epoch (1 = the first) of the lowest held-out loss so far (the last
    /// where nothing is held out; 0 before the first), its losses and weights.
    pub best_epoch: u32,
    pub best_losses: (f64, f64),
    pub best: Model,
}

impl Checkpoint {
    /// Write to `path` through a temporary file renamed over it, so that an
    /// interrupted write leaves the previous checkpoint whole.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        let n = self.model.params.len();
        let mut b = Vec::with_capacity(96 + 16 * n);
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&self.key.to_le_bytes());
        b.extend_from_slice(&self.epochs_done.to_le_bytes());
        b.extend_from_slice(&self.shuffle_seed.to_le_bytes());
        b.extend_from_slice(&self.adam.step.to_le_bytes());
        b.extend_from_slice(&self.losses.0.to_le_bytes());
        b.extend_from_slice(&self.losses.1.to_le_bytes());
        b.extend_from_slice(&self.best_epoch.to_le_bytes());
        b.extend_from_slice(&self.best_losses.0.to_le_bytes());
        b.extend_from_slice(&self.best_losses.1.to_le_bytes());
        b.extend_from_slice(&(n as u64).to_le_bytes());
        for v in [
            &self.model.params,
            &self.adam.m,
            &self.adam.v,
            &self.best.params,
        ] {
            for x in v.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        let io = |source| TrainError::Io {
            file: path.display().to_string(),
            source,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, &b).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// The checkpoint at `path` for a run of `model`'s shape with key `key`, or
    /// `None` where there is no file.
    pub fn load(
        path: &Path,
        key: u64,
        model: &Model,
        lr: f32,
    ) -> Result<Option<Checkpoint>, TrainError> {
        let file = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(TrainError::Io { file, source }),
        };
        let bad = |reason: String| TrainError::Checkpoint {
            file: file.clone(),
            reason,
        };
        let mut r = Fields {
            bytes: &bytes,
            at: 0,
        };
        if r.take(8) != Some(&MAGIC[..]) {
            return Err(bad("not a Menagerie training checkpoint (bad magic)".into()));
        }
        let version = r.u32().ok_or_else(|| bad("truncated header".into()))?;
        if version != VERSION {
            return Err(bad(format!(
                "checkpoint version {version}, this trainer reads version {VERSION}: \
                 delete it to start afresh"
            )));
        }
        let header = (|| {
            Some((
                r.u64()?,
                r.u32()?,
                r.u64()?,
                r.u64()?,
                (r.f64()?, r.f64()?),
                (r.u32()?, (r.f64()?, r.f64()?)),
                r.u64()?,
            ))
        })();
        let Some((found, epochs_done, shuffle_seed, step, losses, best, n)) = header else {
            return Err(bad("truncated header".into()));
        };
        let (best_epoch, best_losses) = best;
        if found != key {
            return Err(bad(
                "made by another training run (other data, variant, sizes, seed or settings); \
                 delete it to start afresh"
                    .into(),
            ));
        }
        let len = model.params.len();
        if n != len as u64 {
            return Err(bad(format!("{n} parameters, this model has {len}")));
        }
        let mut read = || -> Option<Vec<f32>> { (0..len).map(|_| r.f32()).collect() };
        let (Some(params), Some(m), Some(v), Some(best)) = (read(), read(), read(), read()) else {
            return Err(bad("the file ends inside the weights".into()));
        };
        if r.at != bytes.len() {
            return Err(bad(format!("{} bytes after the end", bytes.len() - r.at)));
        }
        Ok(Some(Checkpoint {
            key,
            epochs_done,
            shuffle_seed,
            losses,
            model: Model {
                shape: model.shape,
                params,
            },
            adam: Adam { lr, step, m, v },
            best_epoch,
            best_losses,
            best: Model {
                shape: model.shape,
                params: best,
            },
        }))
    }
}

struct Fields<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }
    fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }
    fn f32(&mut self) -> Option<f32> {
        self.array().map(f32::from_le_bytes)
    }
    fn f64(&mut self) -> Option<f64> {
        self.array().map(f64::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::model::{Bounds, Shape};

    fn checkpoint() -> Checkpoint {
        let shape = Shape {
            inputs: 5,
            hidden: 3,
            buckets: 1,
        };
        let model = Model::new(shape, 9, Bounds::new(4), &[0.5, -0.5, 0.25, -0.25, 0.0]);
        let mut best = model.clone();
        best.params[7] = 0.375;
        let mut adam = Adam::new(shape.len(), 0.5);
        adam.step = 12;
        adam.m[3] = 0.25;
        adam.v[4] = 0.125;
        Checkpoint {
            key: 77,
            epochs_done: 2,
            shuffle_seed: 99,
            losses: (0.5, 0.75),
            model,
            adam,
            best_epoch: 1,
            best_losses: (0.625, 0.5),
            best,
        }
    }

    /// Saved and loaded, a checkpoint is the same; a damaged one is refused
    /// with the file and the reason.
    #[test]
    fn round_trip_and_refusals() {
        let dir = std::env::temp_dir().join(format!("menagerie-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let path = dir.join("net.ckpt");
        let c = checkpoint();
        c.save(&path).expect("saves");
        let loaded = Checkpoint::load(&path, 77, &c.model, 0.5).expect("reads");
        assert_eq!(loaded.as_ref(), Some(&c));
        let other = Checkpoint::load(&path, 78, &c.model, 0.5).expect_err("another run");
        assert!(
            other.to_string().contains("another training run"),
            "{other}"
        );
        let bytes = std::fs::read(&path).expect("bytes");
        std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("truncate");
        let short = Checkpoint::load(&path, 77, &c.model, 0.5).expect_err("truncated");
        assert_eq!(
            short.to_string(),
            format!("{}: the file ends inside the weights", path.display())
        );
        assert!(matches!(
            Checkpoint::load(&dir.join("none"), 77, &c.model, 0.5),
            Ok(None)
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
