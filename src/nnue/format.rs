//! The net file: a little-endian binary format (docs/nnue.md describes it byte
//! by byte). A reader that refuses, with the file and the reason, whatever is not
//! a whole net for the layout at hand, and the writer.

use super::features::Layout;
use super::net::{Net, Weights};
use std::path::Path;
use thiserror::Error;

/// The first 8 bytes of every net file.
pub const MAGIC: [u8; 8] = *b"MNGRNNUE";
/// The format this engine writes and reads. Version 2 added the linear (PSQT)
/// weights; files of version 1 are refused (they have none: train them again).
pub const FORMAT_VERSION: u32 = 2;

/// Bounds on the header's fields, so that a damaged header is refused before
/// anything is allocated from it.
const MAX_VARIANT_NAME: u32 = 256;
const MAX_PROVENANCE: u32 = 1 << 20;
pub const MAX_HIDDEN: u32 = 4096;
pub const MAX_BUCKETS: u32 = 64;

/// Why a net file was refused; each names the file (or other origin).
#[derive(Debug, Error)]
pub enum NetError {
    #[error("{origin}: cannot read: {source}")]
    Io {
        origin: String,
        source: std::io::Error,
    },
    #[error("{origin}: not a Menagerie net file (bad magic)")]
    BadMagic { origin: String },
    #[error(
        "{origin}: net format version {found}, this engine reads version {FORMAT_VERSION}{}",
        if *found < FORMAT_VERSION { " (an older net: train it again)" } else { "" }
    )]
    UnknownVersion { origin: String, found: u32 },
    #[error("{origin}: truncated: the file ends in {field} (byte {at})")]
    Truncated {
        origin: String,
        field: &'static str,
        at: usize,
    },
    #[error(
        "{origin}: {extra} bytes after the last weight (the file is longer than its header says)"
    )]
    TrailingBytes { origin: String, extra: u64 },
    #[error(
        "{origin}: made for another feature layout (fingerprint {found:016x}, this variant's is {expected:016x}): another variant or a changed piece set"
    )]
    WrongFingerprint {
        origin: String,
        found: u64,
        expected: u64,
    },
    #[error("{origin}: {field} is {found}, but this variant's layout has {expected}")]
    SizeMismatch {
        origin: String,
        field: &'static str,
        found: u64,
        expected: u64,
    },
    #[error("{origin}: {field} is {found}, outside {min}..={max}")]
    OutOfRange {
        origin: String,
        field: &'static str,
        found: i64,
        min: i64,
        max: i64,
    },
    #[error("{origin}: {field} is not UTF-8 text")]
    BadText { origin: String, field: &'static str },
}

/// Reads the file's fields in order, naming the field where the bytes run out.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    origin: &'a str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], NetError> {
        match self.bytes.get(self.at..self.at.saturating_add(n)) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => Err(NetError::Truncated {
                origin: self.origin.to_string(),
                field,
                at: self.bytes.len(),
            }),
        }
    }
    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], NetError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N, field)?);
        Ok(a)
    }
    fn u32(&mut self, field: &'static str) -> Result<u32, NetError> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }
    fn u64(&mut self, field: &'static str) -> Result<u64, NetError> {
        Ok(u64::from_le_bytes(self.array(field)?))
    }
    fn i16(&mut self, field: &'static str) -> Result<i16, NetError> {
        Ok(i16::from_le_bytes(self.array(field)?))
    }
    fn i32(&mut self, field: &'static str) -> Result<i32, NetError> {
        Ok(i32::from_le_bytes(self.array(field)?))
    }
    fn text(&mut self, max: u32, field: &'static str) -> Result<String, NetError> {
        let len = self.u32(field)?;
        self.check_range(field, len as i64, 0, max as i64)?;
        let bytes = self.take(len as usize, field)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| NetError::BadText {
            origin: self.origin.to_string(),
            field,
        })
    }
    fn i16s(&mut self, n: usize, field: &'static str) -> Result<Vec<i16>, NetError> {
        let bytes = self.take(n * 2, field)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }
    fn i32s(&mut self, n: usize, field: &'static str) -> Result<Vec<i32>, NetError> {
        let bytes = self.take(n * 4, field)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
    fn check_range(
        &self,
        field: &'static str,
        found: i64,
        min: i64,
        max: i64,
    ) -> Result<(), NetError> {
        if (min..=max).contains(&found) {
            Ok(())
        } else {
            Err(NetError::OutOfRange {
                origin: self.origin.to_string(),
                field,
                found,
                min,
                max,
            })
        }
    }
}

/// A net from the bytes of a net file for `layout`; `origin` (the file's path)
/// names it in errors.
pub fn read_net(bytes: &[u8], layout: &Layout, origin: &str) -> Result<Net, NetError> {
    let mut r = Reader {
        bytes,
        at: 0,
        origin,
    };
    let own = |s: &str| s.to_string();
    if r.array::<8>("the magic")? != MAGIC {
        return Err(NetError::BadMagic {
            origin: own(origin),
        });
    }
    let version = r.u32("the format version")?;
    if version != FORMAT_VERSION {
        return Err(NetError::UnknownVersion {
            origin: own(origin),
            found: version,
        });
    }
    let fingerprint = r.u64("the layout fingerprint")?;
    if fingerprint != layout.fingerprint() {
        return Err(NetError::WrongFingerprint {
            origin: own(origin),
            found: fingerprint,
            expected: layout.fingerprint(),
        });
    }
    let inputs = r.u32("the input count")?;
    if inputs as usize != layout.inputs() {
        return Err(NetError::SizeMismatch {
            origin: own(origin),
            field: "the input count",
            found: inputs as u64,
            expected: layout.inputs() as u64,
        });
    }
    let variant = r.text(MAX_VARIANT_NAME, "the variant name")?;
    let hidden = r.u32("the accumulator width")?;
    r.check_range("the accumulator width", hidden as i64, 1, MAX_HIDDEN as i64)?;
    let buckets = r.u32("the bucket count")?;
    r.check_range("the bucket count", buckets as i64, 1, MAX_BUCKETS as i64)?;
    let qa = r.i16("QA")?;
    r.check_range("QA", qa as i64, 1, i16::MAX as i64)?;
    let qb = r.i16("QB")?;
    r.check_range("QB", qb as i64, 1, i16::MAX as i64)?;
    let scale = r.i32("the output scale")?;
    r.check_range("the output scale", scale as i64, 1, i32::MAX as i64)?;
    let provenance = r.text(MAX_PROVENANCE, "the provenance")?;
    let (n, h, b) = (inputs as u64, hidden as u64, buckets as u64);
    // The whole length is known now: refuse a wrong one before allocating.
    let expected = r.at as u64 + 2 * (n * h + h + b * 2 * h) + 4 * (n * b + b);
    let len = bytes.len() as u64;
    if len > expected {
        return Err(NetError::TrailingBytes {
            origin: own(origin),
            extra: len - expected,
        });
    }
    let (n, h, b) = (n as usize, h as usize, b as usize);
    let feature_weights = r.i16s(n * h, "the feature weights")?;
    let feature_bias = r.i16s(h, "the feature biases")?;
    let psqt_weights = r.i32s(n * b, "the PSQT weights")?;
    let output_weights = r.i16s(b * 2 * h, "the output weights")?;
    let output_bias = r.i32s(b, "the output biases")?;
    Ok(Net::from_parts(
        fingerprint,
        n,
        variant,
        h,
        b,
        (qa, qb, scale),
        provenance,
        Weights {
            feature_weights,
            feature_bias,
            psqt_weights,
            output_weights,
            output_bias,
        },
    ))
}

/// The bytes of `net`'s file.
pub fn write_net(net: &Net) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(64 + net.feature_weights.len() * 2 + net.psqt_weights.len() * 4);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&net.fingerprint.to_le_bytes());
    out.extend_from_slice(&(net.inputs as u32).to_le_bytes());
    out.extend_from_slice(&(net.variant.len() as u32).to_le_bytes());
    out.extend_from_slice(net.variant.as_bytes());
    out.extend_from_slice(&(net.hidden as u32).to_le_bytes());
    out.extend_from_slice(&(net.buckets as u32).to_le_bytes());
    out.extend_from_slice(&net.qa.to_le_bytes());
    out.extend_from_slice(&net.qb.to_le_bytes());
    out.extend_from_slice(&net.scale.to_le_bytes());
    out.extend_from_slice(&(net.provenance.len() as u32).to_le_bytes());
    out.extend_from_slice(net.provenance.as_bytes());
    for w in net.feature_weights.iter().chain(&net.feature_bias) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for w in &net.psqt_weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for w in &net.output_weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.output_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    out
}

impl Net {
    /// The net in the file at `path`, for `layout`.
    pub fn load(path: &Path, layout: &Layout) -> Result<Net, NetError> {
        let origin = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| NetError::Io {
            origin: origin.clone(),
            source,
        })?;
        read_net(&bytes, layout, &origin)
    }

    /// Write the net to `path`.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        std::fs::write(path, write_net(self)).map_err(|source| NetError::Io {
            origin: path.display().to_string(),
            source,
        })
    }
}
