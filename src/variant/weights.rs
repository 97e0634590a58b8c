//! A weights file as this layer reads it: its lines, each with where it stands.
//!
//! A weights file belongs to one variant (`variants/weights/NAME.txt` for the
//! built-in ones, `weights/NAME.txt` beside a user's variant file). Each line sets
//! one weight of the evaluation, `NAME [LETTER [SQUARE]] = NUMBERS`:
//!
//! ```text
//! # comment
//! tempo = 18 9
//! value N = 310 295
//! square N c3 = 12 -4
//! ```
//!
//! What the names mean, which numbers each takes and what a letter or a square
//! is for are the evaluation's business: its term table
//! (`crate::eval::terms`) interprets these lines and says which are wrong. This
//! layer only splits each line into its key's words and its numbers, and reports
//! the lines that are not `key = numbers` at all, with file and line.

use super::{LoadError, Variant};

/// The lines of a weights file that have the form `key = numbers`.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsFile {
    /// Where the lines come from (a path, or `builtin:weights/NAME.txt`).
    pub file: String,
    pub lines: Vec<WeightLine>,
}

/// One line that sets a weight.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightLine {
    /// Its line number in the file (from 1).
    pub line: usize,
    /// The key and the value as written (trimmed), for error messages.
    pub key: String,
    pub value: String,
    /// The key's words: the term's name, then a piece letter and a square, if given.
    pub words: Vec<String>,
    /// The numbers after `=`.
    pub numbers: Vec<f64>,
}

impl WeightsFile {
    /// Read the lines of a weights file for `variant`. Every line that is not
    /// `key = numbers` is one error (file:line, the text, why); the others count.
    pub fn parse(file: &str, text: &str, variant: &Variant) -> (WeightsFile, Vec<LoadError>) {
        let mut lines = Vec::new();
        let mut errors = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = if i == 0 {
                raw.trim_start_matches('\u{feff}')
            } else {
                raw
            };
            let text = raw.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            let Some((key, value)) = text.split_once('=') else {
                errors.push(LoadError::syntax(
                    file,
                    line,
                    text,
                    "expected 'term = numbers' or 'term LETTER = numbers'",
                ));
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            let numbers: Option<Vec<f64>> = value
                .split_whitespace()
                .map(|x| {
                    x.parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && x.abs() < 1e6)
                })
                .collect();
            let Some(numbers) = numbers else {
                errors.push(LoadError::new(
                    file,
                    line,
                    &variant.name,
                    key,
                    value,
                    "the values must be numbers (like 12, -3.5)",
                ));
                continue;
            };
            lines.push(WeightLine {
                line,
                key: key.to_string(),
                value: value.to_string(),
                words: key.split_whitespace().map(str::to_string).collect(),
                numbers,
            });
        }
        let file = file.to_string();
        (WeightsFile { file, lines }, errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::VariantSet;

    #[test]
    fn lines_are_split_into_words_and_numbers_and_the_rest_are_errors() {
        // (The layers above check variants; this one only reads them.)
        let set = VariantSet::builtin(|_| Ok(()));
        let chess = set.get("chess").unwrap();
        let text = "\u{feff}# a comment\ntempo = 18 9  # why\nsquare N c3 = 12 -4\ntempo 18\nvalue N = abc 3\nvalue N = inf 1\nunknown = 1\n";
        let (w, errors) = WeightsFile::parse("w.txt", text, &chess);
        let got: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            got,
            [
                "w.txt:4: tempo 18: expected 'term = numbers' or 'term LETTER = numbers'",
                "w.txt:5: [chess] value N = abc 3: the values must be numbers (like 12, -3.5)",
                "w.txt:6: [chess] value N = inf 1: the values must be numbers (like 12, -3.5)",
            ]
        );
        let lines: Vec<(usize, Vec<&str>, &[f64])> = w
            .lines
            .iter()
            .map(|l| {
                let words = l.words.iter().map(String::as_str).collect();
                (l.line, words, l.numbers.as_slice())
            })
            .collect();
        assert_eq!(
            lines,
            [
                (2, vec!["tempo"], &[18.0, 9.0][..]),
                (3, vec!["square", "N", "c3"], &[12.0, -4.0][..]),
                (7, vec!["unknown"], &[1.0][..]),
            ]
        );
    }
}
