//! SVG drawing: a board, its pieces, shaded regions and the marks of a move diagram,
//! with a legend of the kinds shown. Pieces are letters in discs (white discs for
//! White, dark ones for Black; a promoted piece is written `+X`), so no image file is
//! needed and any variant's pieces draw.

use super::marks::{Kind, Mark};
use crate::types::{Color, Geometry, RankNumbering, Square};
use std::fmt::Write;

/// Side of a square in SVG units.
pub const CELL: f64 = 44.0;
/// Room for the coordinates left of and below the board.
const MARGIN: f64 = 22.0;

/// A piece to draw.
#[derive(Clone, Debug)]
pub struct Drawn {
    pub square: Square,
    /// Its letter, `+` first when promoted.
    pub label: String,
    pub color: Color,
}

/// A set of squares shaded with a colour and named in the legend.
#[derive(Clone, Debug)]
pub struct Region {
    pub name: String,
    pub color: &'static str,
    pub squares: Vec<Square>,
}

/// XML text escape.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The colour of a kind's mark (the page's script uses the same table).
pub fn kind_color(k: Kind) -> &'static str {
    match k {
        Kind::MoveOrCapture => "#d4a017",
        Kind::MoveOnly => "#2e8b57",
        Kind::Capture => "#d62020",
        Kind::Destroy => "#000000",
        Kind::CaptureOnly => "#d62020",
        Kind::Initial => "#1e5bd6",
        Kind::Hop => "#8e44ad",
        Kind::MultiLeg => "#0e8a9a",
        Kind::EnPassant => "#d62020",
        Kind::Castling => "#d4a017",
        Kind::Promotion => "#e67e00",
        Kind::Pass => "#555555",
    }
}

/// The centre of a square in SVG units (White at the bottom).
pub fn centre(g: Geometry, sq: Square) -> (f64, f64) {
    let x = MARGIN + (g.file(sq) as f64 + 0.5) * CELL;
    let y = (g.ranks - 1 - g.rank(sq)) as f64 * CELL + CELL / 2.0;
    (x, y)
}

/// Width and height of the board with its coordinates.
pub fn board_size(g: Geometry) -> (f64, f64) {
    (
        MARGIN + g.files as f64 * CELL,
        g.ranks as f64 * CELL + MARGIN,
    )
}

/// The board's squares, region shading and coordinates. With `hoverable` each
/// square's rectangle has a `data-square` attribute (the page's script listens on
/// them).
pub fn board(out: &mut String, g: Geometry, regions: &[Region], hoverable: bool) {
    for sq in g.squares() {
        let (cx, cy) = centre(g, sq);
        let light = (g.file(sq) + g.rank(sq)) % 2 == 1;
        let fill = if light { "#f0f0f0" } else { "#c4c4c4" };
        let name = g.name(sq, RankNumbering::FromOne);
        let _ = write!(
            out,
            r#"<rect class="sq" x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="{fill}"{}/>"#,
            cx - CELL / 2.0,
            cy - CELL / 2.0,
            if hoverable {
                format!(r#" data-square="{name}""#)
            } else {
                String::new()
            }
        );
    }
    for r in regions {
        region(out, g, r);
    }
    coordinates(out, g);
}

/// A region's shading.
pub fn region(out: &mut String, g: Geometry, r: &Region) {
    for &sq in &r.squares {
        let (cx, cy) = centre(g, sq);
        let _ = write!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{CELL}" height="{CELL}" fill="{}" fill-opacity="0.28" pointer-events="none"/>"#,
            cx - CELL / 2.0,
            cy - CELL / 2.0,
            r.color
        );
    }
}

/// File letters below the board, rank numbers left of it.
fn coordinates(out: &mut String, g: Geometry) {
    let font = r#"font-family="sans-serif" font-size="12" fill="dimgray" text-anchor="middle""#;
    for f in 0..g.files {
        let x = MARGIN + (f as f64 + 0.5) * CELL;
        let y = g.ranks as f64 * CELL + 15.0;
        let _ = write!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" {font}>{}</text>"#,
            (b'a' + f) as char
        );
    }
    for r in 0..g.ranks {
        let y = (g.ranks - 1 - r) as f64 * CELL + CELL / 2.0 + 4.0;
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{y:.1}" {font}>{}</text>"#,
            MARGIN / 2.0,
            r + 1
        );
    }
}

/// A piece disc with its letter.
pub fn piece(out: &mut String, g: Geometry, p: &Drawn) {
    let (cx, cy) = centre(g, p.square);
    let (fill, ink) = match p.color {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#2b2b2b", "#ffffff"),
    };
    let size = if p.label.chars().count() > 1 { 15 } else { 20 };
    let _ = write!(
        out,
        r##"<g class="piece" pointer-events="none"><circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{fill}" stroke="#000" stroke-width="1.5"/><text x="{cx:.1}" y="{:.1}" font-family="sans-serif" font-weight="bold" font-size="{size}" fill="{ink}" text-anchor="middle">{}</text></g>"##,
        CELL * 0.38,
        cy + size as f64 * 0.35,
        esc(&p.label)
    );
}

/// One mark: a dot coloured by its main kind, rings for the kinds that qualify it,
/// the path of a multi-leg move.
pub fn mark(out: &mut String, g: Geometry, origin: Square, m: &Mark) {
    let name = g.name(m.square, RankNumbering::FromOne);
    let codes: Vec<&str> = m.kinds.iter().map(|k| k.code()).collect();
    let _ = write!(
        out,
        r#"<g class="mark" pointer-events="none" data-square="{name}" data-kinds="{}"{}>"#,
        codes.join(" "),
        match &m.text {
            Some(t) if m.is_target => format!(r#" data-target="{}""#, esc(t)),
            _ => String::new(),
        }
    );
    let (cx, cy) = centre(g, m.square);
    if !m.path.is_empty() {
        let mut points = vec![centre(g, origin)];
        points.extend(m.path.iter().map(|w| centre(g, w.square)));
        points.push((cx, cy));
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = write!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2" stroke-opacity="0.6"/>"#,
            pts.join(" "),
            kind_color(Kind::MultiLeg)
        );
        for w in &m.path {
            let (x, y) = centre(g, w.square);
            if w.captured {
                cross(out, x, y, CELL * 0.18, kind_color(Kind::Capture));
            } else {
                let _ = write!(
                    out,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="3.5" fill="{}"/>"#,
                    kind_color(Kind::MultiLeg)
                );
            }
        }
    }
    let has = |k| m.kinds.contains(&k);
    let r = CELL * 0.2;
    if has(Kind::Capture) || has(Kind::Destroy) {
        let k = if has(Kind::Capture) {
            Kind::Capture
        } else {
            Kind::Destroy
        };
        let _ = write!(
            out,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="4"/>"#,
            CELL * 0.45,
            kind_color(k)
        );
    } else {
        let main = [
            Kind::Castling,
            Kind::EnPassant,
            Kind::Pass,
            Kind::CaptureOnly,
            Kind::MoveOrCapture,
            Kind::MoveOnly,
            Kind::MultiLeg,
        ]
        .into_iter()
        .find(|&k| has(k))
        .unwrap_or(Kind::MoveOnly);
        if main == Kind::Pass {
            let _ = write!(
                out,
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="3" stroke-dasharray="4 3"/>"#,
                CELL * 0.46,
                kind_color(main)
            );
        } else if has(Kind::Hop) {
            // A hop's mark is a diamond, so that it reads apart from a slide's dot.
            let _ = write!(
                out,
                r#"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{}" stroke="{}" stroke-width="2"/>"#,
                cx,
                cy - r * 1.3,
                cx + r * 1.3,
                cy,
                cx,
                cy + r * 1.3,
                cx - r * 1.3,
                cy,
                kind_color(main),
                kind_color(Kind::Hop)
            );
        } else {
            let _ = write!(
                out,
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{}"/>"#,
                kind_color(main)
            );
        }
        let letter = match main {
            Kind::Castling => "O",
            Kind::EnPassant => "e",
            _ => "",
        };
        if !letter.is_empty() {
            let _ = write!(
                out,
                r#"<text x="{cx:.1}" y="{:.1}" font-family="sans-serif" font-weight="bold" font-size="11" fill="white" text-anchor="middle">{letter}</text>"#,
                cy + 4.0
            );
        }
    }
    if has(Kind::Initial) {
        let _ = write!(
            out,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{}" stroke-width="2.5" stroke-dasharray="3 2"/>"#,
            CELL * 0.32,
            kind_color(Kind::Initial)
        );
    }
    if has(Kind::Promotion) {
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-family="sans-serif" font-weight="bold" font-size="19" fill="{}" stroke="white" stroke-width="3" paint-order="stroke" text-anchor="middle">+</text>"#,
            cx + CELL * 0.36,
            cy - CELL * 0.16,
            kind_color(Kind::Promotion)
        );
    }
    out.push_str("</g>");
}

fn cross(out: &mut String, x: f64, y: f64, d: f64, color: &str) {
    let _ = write!(
        out,
        r#"<path d="M{:.1},{:.1}L{:.1},{:.1}M{:.1},{:.1}L{:.1},{:.1}" stroke="{color}" stroke-width="3"/>"#,
        x - d,
        y - d,
        x + d,
        y + d,
        x - d,
        y + d,
        x + d,
        y - d
    );
}

/// A legend sample of one kind, as a small SVG.
pub fn kind_sample(k: Kind) -> String {
    let g = Geometry { files: 1, ranks: 1 };
    let mut out = String::new();
    let (w, h) = (CELL + MARGIN, CELL);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{:.0}" height="{:.0}" viewBox="{MARGIN} 0 {CELL} {CELL}"><rect x="{MARGIN}" y="0" width="{CELL}" height="{CELL}" fill="whitesmoke"/>"#,
        w * 0.6,
        h * 0.6
    );
    let mut kinds = vec![k];
    if matches!(k, Kind::Initial | Kind::Hop | Kind::Promotion) {
        kinds.insert(0, Kind::MoveOrCapture);
    }
    if k == Kind::Capture || k == Kind::Destroy {
        piece(
            &mut out,
            g,
            &Drawn {
                square: 0,
                label: "?".into(),
                color: if k == Kind::Capture {
                    Color::Black
                } else {
                    Color::White
                },
            },
        );
    }
    mark(&mut out, g, 0, &Mark::sample(kinds));
    out.push_str("</svg>");
    out
}

/// A whole move diagram: board, pieces, marks, and a legend of the kinds shown.
pub fn diagram(
    g: Geometry,
    title: &str,
    pieces: &[Drawn],
    origin: Square,
    marks: &[Mark],
) -> String {
    let (w, h) = board_size(g);
    let mut kinds: Vec<Kind> = marks.iter().flat_map(|m| m.kinds.iter().copied()).collect();
    kinds.sort();
    kinds.dedup();
    let legend_h = 26.0 + kinds.len() as f64 * 22.0;
    let width = w.max(420.0);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{:.0}" viewBox="0 0 {width:.0} {:.0}">"#,
        h + legend_h + 30.0,
        h + legend_h + 30.0
    );
    let _ = write!(
        out,
        r#"<rect width="100%" height="100%" fill="white"/><g transform="translate(0,26)"><text x="{MARGIN}" y="-8" font-family="sans-serif" font-size="15" font-weight="bold">{}</text>"#,
        esc(title)
    );
    board(&mut out, g, &[], false);
    for p in pieces.iter().filter(|p| p.square != origin) {
        piece(&mut out, g, p);
    }
    for m in marks {
        mark(&mut out, g, origin, m);
    }
    // The moving piece last: marks of moves that end where they began (igui, a
    // pass) must not hide it.
    for p in pieces.iter().filter(|p| p.square == origin) {
        piece(&mut out, g, p);
    }
    let mut y = h + 16.0;
    for k in kinds {
        let _ = write!(
            out,
            r#"<g transform="translate({MARGIN},{:.1}) scale(0.5)" data-legend="{}">"#,
            y - 14.0,
            k.code()
        );
        let sample = kind_sample(k);
        // The sample's inner drawing, without its own <svg> wrapper.
        let inner = sample
            .split_once('>')
            .map(|(_, rest)| rest.trim_end_matches("</svg>"))
            .unwrap_or("");
        let _ = write!(
            out,
            r#"<g transform="translate(-{MARGIN},0)">{inner}</g></g>"#
        );
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" font-family="sans-serif" font-size="13">{}</text>"#,
            MARGIN + 26.0,
            y + 1.0,
            esc(k.describe())
        );
        y += 22.0;
    }
    out.push_str("</g></svg>\n");
    out
}
