//! Who the engine plays, as the GUI tells it: UCI's `UCI_Opponent` option, CECP's
//! `name`, `rating` and `computer` commands. Kept for a contempt choice (a draw is
//! worth less against a weaker opponent, more against a stronger one); until such a
//! choice is measured in matches, contempt stays 0 and this only shows in debug output.

use std::fmt;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opponent {
    /// GM, IM, FM, WGM, WIM, ... (None: `none` or not said).
    pub title: Option<String>,
    pub elo: Option<u32>,
    /// True: a computer, false: a human, None: not said.
    pub computer: Option<bool>,
    pub name: String,
}

impl Opponent {
    /// `[title|none] [elo|none] [computer|human] name...` (the UCI specification's
    /// format); an empty value forgets the opponent.
    pub fn parse_uci(text: &str) -> Result<Opponent, OpponentError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            return Ok(Opponent::default());
        }
        let bad = || OpponentError(text.to_string());
        if words.len() < 3 {
            return Err(bad());
        }
        let title = (!words[0].eq_ignore_ascii_case("none")).then(|| words[0].to_string());
        let elo = match words[1] {
            w if w.eq_ignore_ascii_case("none") => None,
            w => Some(w.parse::<u32>().map_err(|_| bad())?),
        };
        let computer = match words[2].to_ascii_lowercase().as_str() {
            "computer" => true,
            "human" => false,
            _ => return Err(bad()),
        };
        Ok(Opponent {
            title,
            elo,
            computer: Some(computer),
            name: words[3..].join(" "),
        })
    }
}

/// A `UCI_Opponent` value not in the specification's format (the value as sent).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("UCI_Opponent must be '[title|none] [elo|none] [computer|human] name', not '{0}'")]
pub struct OpponentError(pub String);

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let or_unknown = |s: Option<String>| s.unwrap_or_else(|| "unknown".to_string());
        write!(
            f,
            "{} (title {}, Elo {}, {})",
            if self.name.is_empty() {
                "unnamed"
            } else {
                &self.name
            },
            or_unknown(self.title.clone()),
            or_unknown(self.elo.map(|e| e.to_string())),
            match self.computer {
                Some(true) => "computer",
                Some(false) => "human",
                None => "computer or human",
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_uci_format() {
        let o = Opponent::parse_uci("GM 2800 human Gary Kasparow").unwrap();
        assert_eq!(o.title.as_deref(), Some("GM"));
        assert_eq!((o.elo, o.computer), (Some(2800), Some(false)));
        assert_eq!(o.name, "Gary Kasparow");
        let o = Opponent::parse_uci("none none computer Shredder").unwrap();
        assert_eq!(
            (o.title.clone(), o.elo, o.computer),
            (None, None, Some(true))
        );
        assert_eq!(
            o.to_string(),
            "Shredder (title unknown, Elo unknown, computer)"
        );
        assert_eq!(Opponent::parse_uci(" "), Ok(Opponent::default()));
        assert!(Opponent::parse_uci("GM strong human X").is_err());
        assert!(Opponent::parse_uci("GM 2800 alien X").is_err());
        assert!(Opponent::parse_uci("GM 2800").is_err());
    }
}
