//! The INI reader: sections `[name]` / `[name:parent]` with `key = value` lines.
//! Only syntax is checked here; keys are interpreted by the spec builder.

use super::LoadError;

#[derive(Clone, Debug)]
pub struct Entry {
    pub key: String,
    pub value: String,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    pub line: usize,
    pub entries: Vec<Entry>,
}

/// Split a file into sections. A syntax error inside a section makes that section
/// unusable (reported in `errors`) but never stops the other sections.
pub fn read_sections(file: &str, text: &str) -> (Vec<Section>, Vec<LoadError>) {
    let mut sections: Vec<Section> = Vec::new();
    let mut errors = Vec::new();
    let mut broken: Vec<bool> = Vec::new();
    // Editors on Windows may start a UTF-8 file with a byte-order mark: it is not
    // part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let Some(inner) = rest.strip_suffix(']') else {
                errors.push(LoadError::syntax(
                    file,
                    line_no,
                    line,
                    "a section header must end with ']'",
                ));
                continue;
            };
            let (name, parent) = match inner.split_once(':') {
                Some((n, p)) => (n.trim().to_string(), Some(p.trim().to_string())),
                None => (inner.trim().to_string(), None),
            };
            let valid_name = |n: &str| {
                !n.is_empty()
                    && n.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'
                    })
            };
            sections.push(Section {
                name: name.clone(),
                parent: parent.clone(),
                line: line_no,
                entries: Vec::new(),
            });
            let mut bad = false;
            if !valid_name(&name) {
                errors.push(LoadError::new(
                    file,
                    line_no,
                    &name,
                    "section",
                    &name,
                    "variant names are lower-case letters, digits and '-'",
                ));
                bad = true;
            } else if let Some(p) = &parent
                && !valid_name(p)
            {
                errors.push(LoadError::new(
                    file,
                    line_no,
                    &name,
                    "parent",
                    p,
                    "variant names are lower-case letters, digits and '-'",
                ));
                bad = true;
            }
            broken.push(bad);
            continue;
        }
        let Some(section) = sections.last_mut() else {
            errors.push(LoadError::syntax(
                file,
                line_no,
                line,
                "a key outside of any [section]",
            ));
            continue;
        };
        match line.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => section.entries.push(Entry {
                key: k.trim().to_string(),
                value: v.trim().to_string(),
                line: line_no,
            }),
            _ => {
                let name = section.name.clone();
                errors.push(LoadError::new(
                    file,
                    line_no,
                    &name,
                    line,
                    "",
                    "expected 'key = value'",
                ));
                if let Some(b) = broken.last_mut() {
                    *b = true;
                }
            }
        }
    }
    let sections = sections
        .into_iter()
        .zip(broken)
        .filter_map(|(s, b)| (!b).then_some(s))
        .collect();
    (sections, errors)
}
