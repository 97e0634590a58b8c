//! A weights file read by the term table: each line of a
//! [`WeightsFile`] interpreted as the weight of a term (of the whole position,
//! of a piece type, or of a piece type on a square) and checked against the
//! term's shape, with every wrong line an error that names its file and line.
//! Also the other way: weights written as a file's text.

use super::terms::{GlobalTerm, PieceTerm, SQUARE_TERM, Shape, square_cell, square_cells};
use crate::types::RankNumbering;
use crate::variant::weights::{WeightLine, WeightsFile};
use crate::variant::{LoadError, LoadReport, Variant, VariantSet};
use std::path::Path;

/// Why a line of a weights file sets no weight.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsProblem {
    #[error("unknown term")]
    UnknownTerm,
    #[error("a key is a term name and at most one piece letter (a square after it for 'square')")]
    TooManyWords,
    #[error("a piece term needs a piece letter")]
    NoLetter,
    #[error("a piece letter is one character")]
    LongLetter,
    #[error("no piece of the variant has that letter")]
    NoSuchPiece,
    #[error("this term takes no piece letter")]
    LetterNotTaken,
    #[error("a piece-square term is 'square LETTER SQUARE', e.g. 'square N c3'")]
    BadSquare,
    #[error("this term takes {}", .0.numbers())]
    Numbers(Shape),
    #[error("set twice (first on line {0})")]
    SetTwice(usize),
}

/// Which weight a line sets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Piece(usize, usize),
    Global(usize),
    /// Type, cell.
    Square(usize, usize),
}

/// The weights a file gives: `None` where it leaves a term out. Single-number
/// terms keep their number in both places of the pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Where the weights come from (a path, or `builtin:weights/NAME.txt`).
    pub file: String,
    /// Per piece type, per [`PieceTerm`].
    pub piece: Vec<[Option<[f64; 2]>; PieceTerm::COUNT]>,
    /// Per [`GlobalTerm`].
    pub global: [Option<[f64; 2]>; GlobalTerm::COUNT],
    /// Per piece type, per cell of its piece-square table (see [`square_cell`]).
    pub square: Vec<Vec<Option<[f64; 2]>>>,
}

/// The errors of the weights file `variant` plays with (none without one): the
/// lines the term table cannot read. (Lines that are not `key = numbers` at all
/// are reported where the file is loaded.)
pub fn weights_errors(variant: &Variant) -> Vec<LoadError> {
    variant
        .weights
        .as_deref()
        .map_or_else(Vec::new, |file| Weights::read(file, variant).1)
}

/// Loads a variant file into `set`, as [`VariantSet::load_file`] does, and adds to
/// its report the errors of the weights files of the variants it loaded: the one way
/// the command line and the protocols load a variant file, since the variant layer
/// reads weights files but does not know the terms.
pub fn load_variant_file(set: &mut VariantSet, path: &Path) -> LoadReport {
    let mut report = set.load_file(path);
    add_weights_errors(set, &mut report);
    super::net_key::add_net_errors(set, &mut report);
    report
}

/// Adds to `report`, what loading a variant file into `set` did, the errors of
/// the weights files of the variants it loaded, each file once (the second half of
/// [`load_variant_file`]).
pub fn add_weights_errors(set: &VariantSet, report: &mut LoadReport) {
    let mut files: Vec<String> = Vec::new();
    let mut errors = Vec::new();
    for name in &report.loaded {
        let Some(variant) = set.get(name) else {
            continue;
        };
        let Some(file) = variant.weights.as_deref() else {
            continue;
        };
        if files.contains(&file.file) {
            continue;
        }
        files.push(file.file.clone());
        errors.extend(weights_errors(&variant));
    }
    report.errors.extend(errors);
}

impl Weights {
    /// No weight given.
    pub fn empty(file: &str, num_types: usize, cells: usize) -> Weights {
        Weights {
            file: file.to_string(),
            piece: vec![[None; PieceTerm::COUNT]; num_types],
            global: [None; GlobalTerm::COUNT],
            square: vec![vec![None; cells]; num_types],
        }
    }

    /// The text of a weights file for `variant`, read: every bad line is one
    /// error (file:line, the key, the value, why), in the order of the lines; the
    /// lines that are right still count.
    pub fn parse(file: &str, text: &str, variant: &Variant) -> (Weights, Vec<LoadError>) {
        let (lines, mut errors) = WeightsFile::parse(file, text, variant);
        let (weights, more) = Weights::read(&lines, variant);
        errors.extend(more);
        errors.sort_by_key(|e| e.line);
        (weights, errors)
    }

    /// The weights the lines of a file give for `variant`, and the errors of the
    /// lines that give none.
    pub fn read(file: &WeightsFile, variant: &Variant) -> (Weights, Vec<LoadError>) {
        let g = &variant.geometry;
        let mut w = Weights::empty(&file.file, variant.num_types(), square_cells(g));
        let mut errors = Vec::new();
        let mut seen: Vec<(Slot, usize)> = Vec::new();
        for line in &file.lines {
            let err = |problem: WeightsProblem| {
                LoadError::new(
                    &file.file,
                    line.line,
                    &variant.name,
                    &line.key,
                    &line.value,
                    &problem.to_string(),
                )
            };
            let (slot, numbers) = match slot_of(line, variant) {
                Ok(x) => x,
                Err(problem) => {
                    errors.push(err(problem));
                    continue;
                }
            };
            if let Some((_, first)) = seen.iter().find(|(s, _)| *s == slot) {
                errors.push(err(WeightsProblem::SetTwice(*first)));
                continue;
            }
            seen.push((slot, line.line));
            match slot {
                Slot::Piece(t, k) => w.piece[t][k] = Some(numbers),
                Slot::Global(k) => w.global[k] = Some(numbers),
                Slot::Square(t, cell) => w.square[t][cell] = Some(numbers),
            }
        }
        (w, errors)
    }

    /// The file text for these weights (every term given), after `header` lines
    /// (written as comments).
    pub fn to_text(&self, variant: &Variant, header: &[String]) -> String {
        let mut out = String::new();
        for h in header {
            if h.is_empty() {
                out.push_str("#\n");
            } else {
                out.push_str(&format!("# {h}\n"));
            }
        }
        out.push('\n');
        for term in GlobalTerm::ALL {
            if let Some([m, e]) = self.global[term as usize] {
                if term.is_single() {
                    out.push_str(&format!("{} = {}\n", term.name(), number(m)));
                } else {
                    out.push_str(&format!("{} = {} {}\n", term.name(), number(m), number(e)));
                }
            }
        }
        for term in PieceTerm::ALL {
            out.push('\n');
            for (t, p) in self.piece.iter().enumerate() {
                if let Some([m, e]) = p[term as usize] {
                    let letter = variant.pieces[t].letter;
                    if term.is_danger() {
                        out.push_str(&format!("{} {letter} = {}\n", term.name(), number(m)));
                    } else {
                        out.push_str(&format!(
                            "{} {letter} = {} {}\n",
                            term.name(),
                            number(m),
                            number(e)
                        ));
                    }
                }
            }
        }
        let g = &variant.geometry;
        for (t, cells) in self.square.iter().enumerate() {
            if cells.iter().all(Option::is_none) {
                continue;
            }
            out.push('\n');
            let letter = variant.pieces[t].letter;
            for rank in 0..g.ranks {
                for file in 0..g.files.div_ceil(2) {
                    if let Some([m, e]) = cells[square_cell(g, file, rank)] {
                        let name = g.name(g.square(file, rank), RankNumbering::FromOne);
                        out.push_str(&format!(
                            "{SQUARE_TERM} {letter} {name} = {} {}\n",
                            number(m),
                            number(e)
                        ));
                    }
                }
            }
        }
        out
    }
}

/// The weight a line sets and its numbers (a single number in both places).
fn slot_of(line: &WeightLine, variant: &Variant) -> Result<(Slot, [f64; 2]), WeightsProblem> {
    let g = &variant.geometry;
    let mut words = line.words.iter().map(String::as_str);
    let name = words.next().unwrap_or("");
    let letter = words.next();
    let square = if name == SQUARE_TERM {
        words.next()
    } else {
        None
    };
    if words.next().is_some() {
        return Err(WeightsProblem::TooManyWords);
    }
    let numbers = |shape: Shape| match (shape, line.numbers.as_slice()) {
        (Shape::One, [x]) => Ok([*x, *x]),
        (Shape::Pair | Shape::Scale, [m, e]) => Ok([*m, *e]),
        _ => Err(WeightsProblem::Numbers(shape)),
    };
    let letter_type = |letter: Option<&str>| {
        let mut chars = letter.unwrap_or("").chars();
        match (chars.next(), chars.next()) {
            (None, _) => Err(WeightsProblem::NoLetter),
            (Some(c), None) => variant
                .type_of_letter(c)
                .map(|t| t as usize)
                .ok_or(WeightsProblem::NoSuchPiece),
            _ => Err(WeightsProblem::LongLetter),
        }
    };
    if name == SQUARE_TERM {
        let t = letter_type(letter)?;
        let sq = square
            .and_then(|s| g.parse_square(s, RankNumbering::FromOne))
            .ok_or(WeightsProblem::BadSquare)?;
        let cell = square_cell(g, g.file(sq), g.rank(sq));
        Ok((Slot::Square(t, cell), numbers(Shape::Pair)?))
    } else if let Some(term) = PieceTerm::ALL.iter().find(|t| t.name() == name) {
        let t = letter_type(letter)?;
        Ok((Slot::Piece(t, *term as usize), numbers(term.spec().shape)?))
    } else if let Some(term) = GlobalTerm::ALL.iter().find(|t| t.name() == name) {
        if letter.is_some() {
            return Err(WeightsProblem::LetterNotTaken);
        }
        Ok((Slot::Global(*term as usize), numbers(term.spec().shape)?))
    } else {
        Err(WeightsProblem::UnknownTerm)
    }
}

/// A weight as written: whole numbers without a point, others to a tenth.
fn number(x: f64) -> String {
    let tenth = (x * 10.0).round() / 10.0;
    if tenth == tenth.trunc() {
        format!("{}", tenth as i64)
    } else {
        format!("{tenth:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::VariantSet;

    fn chess() -> std::sync::Arc<Variant> {
        // (The layers above check variants; this one only reads them.)
        let set = VariantSet::builtin(|_| Ok(()));
        set.get("chess").unwrap()
    }

    #[test]
    fn a_good_file_sets_the_weights_it_names() {
        let v = chess();
        let text = "# a comment\ntempo = 18 9\nvalue N = 310 295  # knight\nattacker Q = 40\n\n";
        let (w, errors) = Weights::parse("w.txt", text, &v);
        assert!(errors.is_empty(), "{errors:?}");
        let n = v.type_of_letter('n').unwrap() as usize;
        let q = v.type_of_letter('q').unwrap() as usize;
        assert_eq!(w.global[GlobalTerm::Tempo as usize], Some([18.0, 9.0]));
        assert_eq!(w.piece[n][PieceTerm::Value as usize], Some([310.0, 295.0]));
        assert_eq!(w.piece[q][PieceTerm::Attacker as usize], Some([40.0, 40.0]));
        assert_eq!(w.piece[n][PieceTerm::Mobility as usize], None);
        // What the file says, written back, reads the same.
        let (again, errors) = Weights::parse("w.txt", &w.to_text(&v, &["h".to_string()]), &v);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again, w);
    }

    #[test]
    fn every_bad_line_is_an_error_with_file_and_line() {
        let v = chess();
        let text = "\
tempo = 18 9
tempo 18
value Z = 100 100
value N = 300
attacker N = 1 2
bishop_pair = 30 30
tempo = 1 1
value N = abc 3
value = 1 2
value N B = 1 2
tempo N = 1 2
value N = inf 1
mobility B = 4 3
scale_pawns = 36
";
        let (w, errors) = Weights::parse("my/weights.txt", text, &v);
        let got: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        let want = [
            "my/weights.txt:2: tempo 18: expected 'term = numbers' or 'term LETTER = numbers'",
            "my/weights.txt:3: [chess] value Z = 100 100: no piece of the variant has that letter",
            "my/weights.txt:4: [chess] value N = 300: this term takes two numbers (middlegame, endgame)",
            "my/weights.txt:5: [chess] attacker N = 1 2: this term takes one number",
            "my/weights.txt:6: [chess] bishop_pair = 30 30: unknown term",
            "my/weights.txt:7: [chess] tempo = 1 1: set twice (first on line 1)",
            "my/weights.txt:8: [chess] value N = abc 3: the values must be numbers (like 12, -3.5)",
            "my/weights.txt:9: [chess] value = 1 2: a piece term needs a piece letter",
            "my/weights.txt:10: [chess] value N B = 1 2: a key is a term name and at most one piece letter (a square after it for 'square')",
            "my/weights.txt:11: [chess] tempo N = 1 2: this term takes no piece letter",
            "my/weights.txt:12: [chess] value N = inf 1: the values must be numbers (like 12, -3.5)",
            "my/weights.txt:14: [chess] scale_pawns = 36: this term takes two numbers (a scale in 64ths, and per pawn)",
        ];
        assert_eq!(got, want);
        // The good lines still count.
        let b = v.type_of_letter('b').unwrap() as usize;
        assert_eq!(w.global[GlobalTerm::Tempo as usize], Some([18.0, 9.0]));
        assert_eq!(w.piece[b][PieceTerm::Mobility as usize], Some([4.0, 3.0]));
    }
    #[test]
    fn a_square_term_sets_one_cell_of_a_left_right_symmetric_table() {
        let v = chess();
        let g = &v.geometry;
        let text = "square N c3 = 12 -4\nsquare P h2 = -3 1\nsquare N f3 = 1 1\nsquare N z9 = 1 1\nsquare N = 1 1\nsquare N e4 = 5\n";
        let (w, errors) = Weights::parse("w.txt", text, &v);
        let got: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        let want = [
            "w.txt:3: [chess] square N f3 = 1 1: set twice (first on line 1)",
            "w.txt:4: [chess] square N z9 = 1 1: a piece-square term is 'square LETTER SQUARE', e.g. 'square N c3'",
            "w.txt:5: [chess] square N = 1 1: a piece-square term is 'square LETTER SQUARE', e.g. 'square N c3'",
            "w.txt:6: [chess] square N e4 = 5: this term takes two numbers (middlegame, endgame)",
        ];
        assert_eq!(got, want);
        assert_eq!(square_cells(g), 32);
        let n = v.type_of_letter('n').unwrap() as usize;
        let p = v.type_of_letter('p').unwrap() as usize;
        // c3 and f3 share a cell; h2 is a2's.
        assert_eq!(square_cell(g, 2, 2), square_cell(g, 5, 2));
        assert_eq!(w.square[n][square_cell(g, 2, 2)], Some([12.0, -4.0]));
        assert_eq!(w.square[p][square_cell(g, 0, 1)], Some([-3.0, 1.0]));
        assert_eq!(w.square[n].iter().flatten().count(), 1);
        // Written back (left half only), it reads the same.
        let text = w.to_text(&v, &[]);
        assert!(text.contains("square N c3 = 12 -4\n") && text.contains("square P a2 = -3 1\n"));
        let (again, errors) = Weights::parse("w.txt", &text, &v);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(again, w);
    }

    /// The weights files compiled in read without an error (loading reports only
    /// the lines that are not `key = numbers`: the term table checks the rest).
    #[test]
    fn the_builtin_weights_files_have_no_errors() {
        let set = VariantSet::builtin(|_| Ok(()));
        for (name, _) in crate::variant::BUILTIN_WEIGHTS {
            let v = set.get(name).expect("a built-in variant");
            assert!(v.weights.is_some(), "{name}");
            assert_eq!(weights_errors(&v), [], "{name}");
        }
    }
}
