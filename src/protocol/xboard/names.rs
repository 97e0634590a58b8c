//! Which variant names XBoard 4.9.1 takes for one of its built-in variants
//! (xboard-variants.md §1). A name that is not built in is "engine-defined": XBoard
//! then needs a `setup` command before it can play it.

/// Built-in variants recognised when the name contains one of these anywhere.
const CONTAINS: &[(&str, &str)] = &[
    ("normal", "normal"),
    ("wildcastle", "wildcastle"),
    ("nocastle", "nocastle"),
    ("fischerandom", "fischerandom"),
    ("bughouse", "bughouse"),
    ("crazyhouse", "crazyhouse"),
    ("losers", "losers"),
    ("suicide", "suicide"),
    ("giveaway", "giveaway"),
    ("twokings", "twokings"),
    ("kriegspiel", "kriegspiel"),
    ("atomic", "atomic"),
    ("3check", "3check"),
    ("shatranj", "shatranj"),
];

/// Built-in variants recognised when the name starts with one of these and the next
/// character is not a letter.
const PREFIXES: &[&str] = &[
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "fairy",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "lion",
    "elven",
    "unknown",
];

/// `name` as the static string of the built-in variant it is exactly (the tables
/// above are the one list of XBoard's built-in names).
pub fn static_name(name: &str) -> Option<&'static str> {
    CONTAINS
        .iter()
        .map(|&(_, v)| v)
        .chain(PREFIXES.iter().copied())
        .find(|&v| v == name)
}

/// The built-in XBoard variant a name stands for, or None when XBoard treats it as
/// engine-defined.
pub fn builtin_variant(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let name = strip_size_prefix(&lower);
    if let Some(&(_, v)) = CONTAINS.iter().find(|(pat, _)| name.contains(pat)) {
        return Some(v);
    }
    for &p in PREFIXES {
        if let Some(rest) = name.strip_prefix(p)
            && !rest.starts_with(|c: char| c.is_ascii_alphabetic())
        {
            return Some(p);
        }
    }
    if name.contains("fischer") && name.contains("random")
        || name.contains("frc")
        || name.contains("960")
        || name.contains("wild/fr")
    {
        return Some("fischerandom");
    }
    // ICC wild variants (wild 5, wild 29...) are all built in; which one does not
    // matter here.
    if wild_number(name).is_some() {
        return Some("normal");
    }
    None
}

/// `WxH_` or `WxH+S_` at the start of a name.
fn strip_size_prefix(name: &str) -> &str {
    let Some(us) = name.find('_') else {
        return name;
    };
    let head = &name[..us];
    let Some((w, rest)) = head.split_once('x') else {
        return name;
    };
    let h = rest.split('+').next().unwrap_or("");
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let holdings_ok = rest.split_once('+').is_none_or(|(_, s)| digits(s));
    if digits(w) && digits(h) && holdings_ok {
        &name[us + 1..]
    } else {
        name
    }
}

/// ICC "wild N": the first `w` (or the word `wild`) followed by a number.
fn wild_number(name: &str) -> Option<u32> {
    let i = name.find('w')?;
    let mut rest = &name[i + 1..];
    if let Some(r) = rest.strip_prefix("ild") {
        rest = r;
    }
    let rest = rest.trim_start_matches([' ', '(', '/']);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::builtin_variant;

    #[test]
    fn builtin_names() {
        assert_eq!(builtin_variant("normal"), Some("normal"));
        assert_eq!(builtin_variant("crazyhouse"), Some("crazyhouse"));
        assert_eq!(builtin_variant("shogi"), Some("shogi"));
        assert_eq!(builtin_variant("xiangqi"), Some("xiangqi"));
        assert_eq!(builtin_variant("capablanca"), Some("capablanca"));
        assert_eq!(builtin_variant("nocheckatomic"), Some("atomic"));
        assert_eq!(builtin_variant("10x8+0_capablanca"), Some("capablanca"));
        assert_eq!(builtin_variant("grand-x"), Some("grand"));
        assert_eq!(builtin_variant("chess960"), Some("fischerandom"));
        assert_eq!(builtin_variant("sw3"), Some("normal"));
    }

    #[test]
    fn engine_defined_names() {
        for name in [
            "chess",
            "minishogi",
            "grandhouse",
            "kirinshogi",
            "lionheart",
            "shogun",
            "minixiangqi",
            "chessgi",
        ] {
            assert_eq!(builtin_variant(name), None, "{name}");
        }
    }
}
