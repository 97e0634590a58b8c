//! XBoard's PIECETOCHAR strings (xboard-variants.md §3): reading one given in a
//! variant file and writing one for a layout of pieces on images.

use super::parents::KING_IMAGE;

/// Image of the promoted Bishop, where a `/` in a table jumps to.
const SLASH_IMAGE: u8 = 46;

/// One entry of the white half of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A piece with this (upper-case) letter.
    Piece(char),
    /// `+`: the shogi-style promoted form of the piece on image − 11.
    Plus,
    /// `^X`: the promoted form of the piece with letter X.
    Caret(char),
    /// `~`: the crazyhouse-style promoted form of the piece on image − 11.
    Tilde,
}

/// A table: the used images with their entries, white half (black mirrors it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub entries: Vec<(u8, Entry)>,
    /// Entries written before the King entry (at least every used image).
    pub width: u8,
}

impl Table {
    pub fn get(&self, image: u8) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|(i, _)| *i == image)
            .map(|(_, e)| e)
    }
    pub fn is_free(&self, image: u8) -> bool {
        self.get(image).is_none()
    }
    pub fn set(&mut self, image: u8, entry: Entry) {
        self.entries.retain(|(i, _)| *i != image);
        self.entries.push((image, entry));
        self.entries.sort_by_key(|(i, _)| *i);
    }

    /// Image of the piece with this letter.
    pub fn image_of(&self, letter: char) -> Option<u8> {
        self.entries
            .iter()
            .find(|(_, e)| *e == Entry::Piece(letter))
            .map(|(i, _)| *i)
    }

    /// Letter of the unpromoted partner of a `+`, `^` or `~` entry.
    pub fn partner_letter(&self, image: u8) -> Option<char> {
        match self.get(image)? {
            Entry::Caret(c) => Some(*c),
            Entry::Plus | Entry::Tilde if (11..=21).contains(&image) => {
                match self.get(image - 11)? {
                    Entry::Piece(c) => Some(*c),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The string XBoard reads: white half then black half.
    pub fn to_xboard(&self) -> String {
        let last = self
            .entries
            .iter()
            .map(|(i, _)| *i)
            .filter(|&i| i != KING_IMAGE)
            .max()
            .unwrap_or(0)
            .max(4)
            .max(self.width.saturating_sub(1));
        let half = |black: bool| {
            let case = |c: char| if black { c.to_ascii_lowercase() } else { c };
            let text = |e: Option<&Entry>| match e {
                None => ".".to_string(),
                Some(Entry::Piece(c)) => case(*c).to_string(),
                Some(Entry::Plus) => "+".to_string(),
                Some(Entry::Caret(c)) => format!("^{}", case(*c)),
                Some(Entry::Tilde) => "~".to_string(),
            };
            let mut s: String = (0..=last).map(|i| text(self.get(i))).collect();
            s.push_str(&text(self.get(KING_IMAGE)));
            s
        };
        format!("{}{}", half(false), half(true))
    }

    /// Read a table string (the white half decides; the black half must have as many
    /// entries). Nicknames (`=Y`) and dressed letters are not supported.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let tokens = tokenize(text)?;
        if tokens.len() < 12 || tokens.len() % 2 != 0 || tokens.len() > 132 {
            return Err(TableError::EntryCount(tokens.len()));
        }
        let white = &tokens[..tokens.len() / 2];
        let mut table = Table::default();
        let mut image = 0u8;
        for (k, tok) in white.iter().enumerate() {
            let is_king = k + 1 == white.len();
            let img = if is_king { KING_IMAGE } else { image };
            let img = if tok.slash && !is_king {
                SLASH_IMAGE
            } else {
                img
            };
            if let Some(e) = &tok.entry {
                table.set(img, e.clone());
            }
            if !is_king {
                image = img + 1;
                table.width = image;
            }
        }
        Ok(table)
    }
}

/// Why a piece table string does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("a table needs an even number of 12 to 132 entries, not {0}")]
    EntryCount(usize),
    #[error("'^' must be followed by a letter")]
    CaretWithoutLetter,
    #[error("'{0}' is not supported in a piece table")]
    Unsupported(char),
    #[error("dressed letters and nicknames are not supported")]
    Dressed,
}

/// One entry as written: `slash` when a `/` came before it.
struct Token {
    slash: bool,
    entry: Option<Entry>,
}

fn tokenize(text: &str) -> Result<Vec<Token>, TableError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut slash = false;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let entry = match c {
            '/' => {
                slash = true;
                continue;
            }
            '.' => None,
            '+' => Some(Entry::Plus),
            '~' => Some(Entry::Tilde),
            '^' => {
                let Some(&x) = chars.get(i).filter(|x| x.is_ascii_alphabetic()) else {
                    return Err(TableError::CaretWithoutLetter);
                };
                i += 1;
                Some(Entry::Caret(x.to_ascii_uppercase()))
            }
            c if c.is_ascii_alphabetic() => Some(Entry::Piece(c.to_ascii_uppercase())),
            c => return Err(TableError::Unsupported(c)),
        };
        if matches!(chars.get(i), Some('\'') | Some('!') | Some('=')) {
            return Err(TableError::Dressed);
        }
        out.push(Token { slash, entry });
        slash = false;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for t in [
            "PNBRQ..AC............Kpnbrq..ac............k",
            "PNBRLS...G.++++++Kpnbrls...g.++++++k",
            "PNBRQ.......~~~~Kpnbrq.......~~~~k",
            "PN.R.QB....Kpn.r.qb....k",
        ] {
            let table = Table::parse(t).unwrap();
            assert_eq!(table.to_xboard(), t, "{t}");
        }
    }

    #[test]
    fn shogi_slots_and_partners() {
        let t = Table::parse("PNBRLS...G.++++++Kpnbrls...g.++++++k").unwrap();
        let letters: Vec<char> = t
            .entries
            .iter()
            .filter_map(|(_, e)| match e {
                Entry::Piece(c) => Some(*c),
                _ => None,
            })
            .collect();
        assert_eq!(letters, vec!['P', 'N', 'B', 'R', 'L', 'S', 'G', 'K']);
        assert_eq!(t.partner_letter(13), Some('B'));
        assert_eq!(t.image_of('G'), Some(9));
    }

    #[test]
    fn caret_and_errors() {
        let t = Table::parse(".N.^N.K.n.^n.k").unwrap();
        assert_eq!(t.get(3), Some(&Entry::Caret('N')));
        assert_eq!(t.partner_letter(3), Some('N'));
        assert_eq!(Table::parse("PNBRQK"), Err(TableError::EntryCount(6)));
        assert_eq!(
            Table::parse("PNBRQ#Kpnbrq#k"),
            Err(TableError::Unsupported('#'))
        );
    }
}
