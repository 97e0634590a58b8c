//! A variant's page for designers: one self-contained HTML file (inline SVG and a
//! little plain script, nothing fetched) with the start position and its regions,
//! the hands, a legend of the pieces, each piece's move diagram, and the rules in
//! words.
//!
//! Every diagram is computed here, by the engine's move generator on the variant's
//! own rules (so regions such as a palace apply): the piece alone on the board, and
//! again with an enemy piece on each square where that changes the marks. The
//! script only chooses which precomputed set of marks to show: hovering a square of
//! the diagram puts the enemy there, a click pins it.

use super::marks::{self, Kind, Mark};
use super::rules_text::{piece_name, rules_in_words};
use super::svg::{self, CELL, Drawn, esc};
use crate::board::fen::{self, Setup};
use crate::board::{Position, Ruleset, StepKind};
use crate::types::{Color, Geometry, MoveKind, Piece, PieceType, RankNumbering, Square, SquareSet};
use std::fmt::Write;
use std::sync::Arc;

/// One diagram: a piece of `color` and `kind` on `origin`, alone on the board.
struct DiagramSpec {
    id: String,
    color: Color,
    kind: PieceType,
    origin: Square,
}

/// The page of the ruleset's variant.
pub fn variant_page(rules: &Arc<Ruleset>) -> String {
    let v = &rules.variant;
    let g = v.geometry;
    let start = fen::parse(v, &v.start_fen).unwrap_or_else(|_| Setup::new(Color::White));
    let regions = regions(rules);

    let mut specs: Vec<DiagramSpec> = (0..v.num_types())
        .map(|t| DiagramSpec {
            id: format!("T{t}"),
            color: Color::White,
            kind: t as PieceType,
            origin: home_square(rules, Color::White, t as PieceType),
        })
        .collect();
    for &(sq, p, _) in &start.board {
        if p.is_some() && !p.is_wall() {
            specs.push(DiagramSpec {
                id: format!("S{sq}"),
                color: p.color(),
                kind: p.kind(),
                origin: sq,
            });
        }
    }

    let mut masks: Vec<u32> = Vec::new();
    let mut data = String::from("{");
    for spec in &specs {
        let _ = write!(data, "\"{}\":", spec.id);
        diagram_data(rules, spec, &mut data, &mut masks);
        data.push(',');
    }
    data.push('}');

    let mut html = String::new();
    let title = format!("{} — Menagerie variant page", v.name);
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{}</title><style>{STYLE}</style></head><body>",
        esc(&title)
    );
    let _ = write!(
        html,
        "<h1>{}</h1><p class=\"src\">{}×{} board · defined in {} line {}{}</p>",
        esc(&v.name),
        g.files,
        g.ranks,
        esc(&v.source),
        v.line,
        match &v.parent {
            Some(p) => format!(" · inherits from {}", esc(p)),
            None => String::new(),
        }
    );
    html.push_str("<div class=\"row\"><div class=\"col\"><h2>Start position</h2>");
    start_board(&mut html, rules, &start, &regions);
    let _ = write!(html, "<p class=\"fen\">{}</p>", esc(&v.start_fen));
    hands(&mut html, rules, &start);
    if !regions.is_empty() {
        html.push_str("<h3>Regions</h3><ul class=\"regions\">");
        for (i, r) in regions.iter().enumerate() {
            let _ = write!(
                html,
                "<li><label><input type=\"checkbox\" checked=\"checked\" data-region=\"rg{i}\"/> <span class=\"sw\" style=\"background:{}\"></span> {}</label></li>",
                r.color,
                esc(&r.name)
            );
        }
        html.push_str("</ul>");
    }
    html.push_str(
        "<p class=\"hint\">Click a piece on the board or in the table to see its moves.</p></div>",
    );

    html.push_str("<div class=\"col\"><h2 id=\"dtitle\">Move diagram</h2>");
    diagram_board(&mut html, g);
    html.push_str("<p class=\"hint\">Hover a square to put an enemy piece there (click pins it). The moves are the engine's own, for the piece alone on the board, check not considered.</p>");
    html.push_str("<table class=\"kinds\">");
    let mut used: Vec<Kind> = masks
        .iter()
        .flat_map(|&m| {
            Kind::ALL
                .into_iter()
                .enumerate()
                .filter(move |(i, _)| m & 1 << i != 0)
        })
        .map(|(_, k)| k)
        .collect();
    used.sort();
    used.dedup();
    for k in used {
        let _ = write!(
            html,
            "<tr><td>{}</td><td>{}</td></tr>",
            svg::kind_sample(k),
            esc(k.describe())
        );
    }
    html.push_str("</table></div></div>");

    piece_table(&mut html, rules);

    html.push_str("<h2>Rules</h2>");
    for (heading, sentences) in rules_in_words(v) {
        let _ = write!(html, "<h3>{}</h3><ul>", esc(heading));
        for s in sentences {
            let _ = write!(html, "<li>{}</li>", esc(&s));
        }
        html.push_str("</ul>");
    }

    // The mark of each kind combination, drawn once at the centre of a 1 x 1 board;
    // the script moves copies of it to the target squares.
    let one = Geometry { files: 1, ranks: 1 };
    let mut shapes = String::from("{");
    for &m in &masks {
        let kinds: Vec<Kind> = Kind::ALL
            .into_iter()
            .enumerate()
            .filter(|(i, _)| m & 1 << i != 0)
            .map(|(_, k)| k)
            .collect();
        let mut s = String::new();
        svg::mark(&mut s, one, 0, &Mark::sample(kinds));
        let _ = write!(shapes, "{m}:{},", js_string(&s));
    }
    shapes.push('}');
    let (ox, oy) = svg::centre(one, 0);
    let names: Vec<String> = g
        .squares()
        .map(|s| format!("\"{}\"", g.name(s, RankNumbering::FromOne)))
        .collect();
    let _ = write!(
        html,
        "<script>\nconst FILES={},RANKS={},CELL={CELL},OX={ox},OY={oy};\nconst NAMES=[{}];\nconst SHAPES={shapes};\nconst D={data};\n{SCRIPT}</script></body></html>\n",
        g.files,
        g.ranks,
        names.join(",")
    );
    html
}

/// A string as a JavaScript literal that cannot end the script element.
fn js_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' => out.push_str("\\u003c"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The label of a type: its letter, or `+X` for a type that only the type `X`
/// promotes to and that is not in the start position (a shogi dragon is `+R`; the
/// gold, a start piece and the promotion of several types, keeps its `G`).
fn label(rules: &Ruleset, t: PieceType, color: Color) -> String {
    let v = &rules.variant;
    let from: Vec<usize> = (0..v.num_types())
        .filter(|&u| u != t as usize && v.promoted_piece_type.get(u) == Some(&Some(t)))
        .collect();
    let letter = v.letter(t, color);
    let in_start = v.start_fen.split(' ').next().is_some_and(|board| {
        board.contains(letter.to_ascii_uppercase()) || board.contains(letter.to_ascii_lowercase())
    });
    match from.as_slice() {
        [u] if !in_start => format!("+{}", v.letter(*u as PieceType, color)),
        _ => letter.to_string(),
    }
}

/// Where a type's diagram from the legend stands: the board's centre, or the square
/// of its mobility region nearest the centre (a palace piece).
fn home_square(rules: &Ruleset, color: Color, t: PieceType) -> Square {
    let g = rules.variant.geometry;
    let centre = g.square((g.files - 1) / 2, (g.ranks - 1) / 2);
    let allowed: Option<&SquareSet> = rules.variant.mobility_region[color as usize]
        .get(t as usize)
        .and_then(|r| r.as_ref());
    match allowed {
        Some(set) if !set.contains(centre) => {
            let dist = |s: Square| {
                (g.file(s) as i32 - g.file(centre) as i32).abs()
                    + (g.rank(s) as i32 - g.rank(centre) as i32).abs()
            };
            set.iter().min_by_key(|&s| dist(s)).unwrap_or(centre)
        }
        _ => centre,
    }
}

/// The enemy piece put on the board to show conditional moves: the first non-royal
/// type other than the mover's (a janggi cannon may not hop over a cannon), else
/// the mover's own.
fn enemy_of(rules: &Ruleset, color: Color, kind: PieceType) -> Piece {
    let v = &rules.variant;
    let t = (0..v.num_types())
        .find(|&t| t != kind as usize && !v.pieces[t].royal)
        .map_or(kind, |t| t as PieceType);
    Piece::new(!color, t)
}

/// Appends one diagram's data: `{o:ORIGIN,l:"LABEL",c:COLOUR,t:"TITLE",b:[MARKS],p:{SQ:[MARKS]}}`
/// where a mark is `[SQ,MASK,PATH...]` (PATH entries `2·SQ + captured`).
fn diagram_data(rules: &Arc<Ruleset>, spec: &DiagramSpec, out: &mut String, masks: &mut Vec<u32>) {
    let v = &rules.variant;
    let g = v.geometry;
    let mover = Piece::new(spec.color, spec.kind);
    // A variant whose players may pass (janggi) has its pass generated as a move of
    // some piece: it is the rules', not this piece's, and the rules' text says it.
    let side = spec.color as usize;
    let variant_passes = v.pass[side] || v.pass_on_stalemate[side];
    let mut setup = Setup::new(spec.color);
    setup.board.push((spec.origin, mover, 0));
    let marks_with = |setup: &Setup| {
        let pos = Position::from_setup_unchecked(rules, setup);
        let moves: Vec<_> = marks::moves_from(rules, &pos, spec.origin)
            .into_iter()
            .filter(|m| m.kind() != MoveKind::Pass || !variant_passes)
            .map(|m| (m, None))
            .collect();
        marks::marks_of(rules, &pos, spec.origin, &moves)
    };
    let enemy = enemy_of(rules, spec.color, spec.kind);
    let mut base = marks_with(&setup);
    marks::settle_captures(rules, &setup, spec.origin, enemy, &mut base);
    let potential = marks::capture_only_marks(rules, &setup, spec.origin, enemy, &base);
    base.extend(potential);
    let title = format!(
        "{:?} {} on {}: {}",
        spec.color,
        piece_name(v, spec.kind),
        g.name(spec.origin, RankNumbering::FromOne),
        v.pieces[spec.kind as usize].betza
    );
    let _ = write!(
        out,
        "{{o:{},l:{},c:{},t:{},e:{},b:",
        spec.origin,
        js_string(&label(rules, spec.kind, spec.color)),
        spec.color as u8,
        js_string(&title),
        js_string(&v.letter(enemy.kind(), enemy.color()).to_string())
    );
    write_marks(out, &base, masks);
    out.push_str(",p:{");
    let real: Vec<Mark> = base.iter().filter(|m| m.is_target).cloned().collect();
    let needs_screen = rules
        .steps(spec.color, spec.kind, spec.origin)
        .any(|s| matches!(s.kind(), StepKind::Hop | StepKind::Multi));
    for sq in g.squares() {
        if sq == spec.origin {
            continue;
        }
        let mut probe = setup.clone();
        probe.board.push((sq, enemy, 0));
        let mut with = marks_with(&probe);
        // What an unsettled mark could do is what it could do on the empty board
        // (asking the generator again for every enemy square would cost squares²).
        for m in with.iter_mut().filter(|m| m.unsettled) {
            if let Some(b) = base
                .iter()
                .find(|b| b.square == m.square && b.path == m.path)
            {
                m.kinds = b.kinds.clone();
            }
            m.unsettled = false;
        }
        if needs_screen {
            // A hopper or a multi-leg piece: the enemy may be a screen or a first
            // victim, so show what a second enemy piece would let it capture.
            let extra = marks::capture_only_marks(rules, &probe, spec.origin, enemy, &with);
            with.extend(extra);
        }
        // Unchanged but for the enemy's own square turning into a capture: the
        // script shows the base marks then, and the page stays small.
        if same_but_capture_at(&real, &with, sq) {
            continue;
        }
        let _ = write!(out, "{sq}:");
        write_marks(out, &with, masks);
        out.push(',');
    }
    out.push_str("}}");
}

/// `with` is `base` with the mark on `sq` (if any) made a capture.
fn same_but_capture_at(base: &[Mark], with: &[Mark], sq: Square) -> bool {
    let simple = |ms: &[Mark]| -> Vec<(Square, Vec<marks::Waypoint>)> {
        ms.iter()
            .filter(|m| m.square != sq || !m.path.is_empty())
            .map(|m| (m.square, m.path.clone()))
            .collect()
    };
    let base_at = base.iter().any(|m| m.square == sq && m.path.is_empty());
    let with_at = with.iter().any(|m| m.square == sq && m.path.is_empty());
    base_at == with_at && simple(base) == simple(with) && {
        let kinds = |ms: &[Mark]| -> Vec<Vec<Kind>> {
            ms.iter()
                .filter(|m| m.square != sq || !m.path.is_empty())
                .map(|m| m.kinds.clone())
                .collect()
        };
        kinds(base) == kinds(with)
    }
}

fn write_marks(out: &mut String, ms: &[Mark], masks: &mut Vec<u32>) {
    out.push('[');
    for m in ms {
        let mask = m
            .kinds
            .iter()
            .map(|k| 1u32 << Kind::ALL.iter().position(|x| x == k).unwrap_or(0))
            .fold(0, |a, b| a | b);
        if !masks.contains(&mask) {
            masks.push(mask);
        }
        let _ = write!(out, "[{},{}", m.square, mask);
        for w in &m.path {
            let _ = write!(out, ",{}", w.square as u32 * 2 + w.captured as u32);
        }
        out.push_str("],");
    }
    out.push(']');
}

/// The regions worth seeing, each with its colour.
fn regions(rules: &Ruleset) -> Vec<svg::Region> {
    let v = &rules.variant;
    let g = v.geometry;
    let full = g.num_squares() as u32;
    let mut out: Vec<svg::Region> = Vec::new();
    // Distinct colours in turn: regions overlap (a palace inside a side's half).
    const PALETTE: [&str; 8] = [
        "#e67e00", "#8e44ad", "#1e5bd6", "#2e8b57", "#d62020", "#0e8a9a", "#999900", "#555555",
    ];
    let mut add = |name: String, set: &SquareSet| {
        let n = set.count();
        if n == 0 || n >= full {
            return;
        }
        let squares: Vec<Square> = set.iter().collect();
        if let Some(r) = out.iter_mut().find(|r| r.squares == squares) {
            r.name.push_str(", ");
            r.name.push_str(&name);
        } else {
            out.push(svg::Region {
                name,
                color: PALETTE[out.len() % PALETTE.len()],
                squares,
            });
        }
    };
    let has_promotion =
        v.promotion_pawn_types[0] != 0 || v.promoted_piece_type.iter().any(|p| p.is_some());
    if has_promotion {
        add("White's promotion zone".into(), &v.promotion_region[0]);
        add("Black's promotion zone".into(), &v.promotion_region[1]);
    }
    for (c, color_name) in [(0, "White"), (1, "Black")] {
        for t in 0..v.num_types() {
            if let Some(Some(set)) = v.mobility_region[c].get(t) {
                add(
                    format!(
                        "where {color_name}'s {} may stand",
                        piece_name(v, t as PieceType)
                    ),
                    set,
                );
            }
        }
    }
    if v.piece_drops {
        add("White's drop region".into(), &v.drop_region[0]);
        add("Black's drop region".into(), &v.drop_region[1]);
    }
    if v.flag_piece[0].is_some() {
        add("White's flag region".into(), &v.flag_region[0]);
    }
    if v.flag_piece[1].is_some() {
        add("Black's flag region".into(), &v.flag_region[1]);
    }
    add("diagonal lines".into(), &v.diagonal_lines);
    if v.walling_rule != crate::variant::WallingRule::None {
        add("White's walling region".into(), &v.walling_region[0]);
        add("Black's walling region".into(), &v.walling_region[1]);
    }
    out
}

/// The start position's board, with its regions (each in a group the region
/// checkboxes show and hide) and walls.
fn start_board(out: &mut String, rules: &Ruleset, start: &Setup, regions: &[svg::Region]) {
    let g = rules.variant.geometry;
    let (w, h) = svg::board_size(g);
    let _ = write!(
        out,
        "<svg id=\"start\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\">"
    );
    svg::board(out, g, &[], true);
    for (i, r) in regions.iter().enumerate() {
        let _ = write!(out, "<g id=\"rg{i}\">");
        svg::region(out, g, r);
        out.push_str("</g>");
    }
    for &(sq, p, promoted) in &start.board {
        if p.is_wall() {
            let (cx, cy) = svg::centre(g, sq);
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#333\" pointer-events=\"none\"/>",
                cx - CELL / 2.0,
                cy - CELL / 2.0
            );
            continue;
        }
        let mut l = label(rules, p.kind(), p.color());
        if promoted != 0 && !l.starts_with('+') {
            l.insert(0, '+');
        }
        svg::piece(
            out,
            g,
            &Drawn {
                square: sq,
                label: l,
                color: p.color(),
            },
        );
    }
    out.push_str("</svg>");
}

/// The pieces in hand at the start, when the variant has hands.
fn hands(out: &mut String, rules: &Ruleset, start: &Setup) {
    let v = &rules.variant;
    if !v.has_hands() {
        return;
    }
    for c in [Color::White, Color::Black] {
        let held: Vec<String> = (0..v.num_types())
            .filter(|&t| start.hands[c as usize][t] > 0)
            .map(|t| {
                let n = start.hands[c as usize][t];
                let l = v.letter(t as PieceType, c);
                if n > 1 {
                    format!("{l}×{n}")
                } else {
                    l.to_string()
                }
            })
            .collect();
        let _ = write!(
            out,
            "<p class=\"hand\">{c:?}'s hand: {}</p>",
            if held.is_empty() {
                "empty".to_string()
            } else {
                esc(&held.join(" "))
            }
        );
    }
}

/// The board of the move diagram: squares the script listens on, and groups for the
/// enemy piece, the marks and the moving piece, filled by the script.
fn diagram_board(out: &mut String, g: Geometry) {
    let (w, h) = svg::board_size(g);
    let _ = write!(
        out,
        "<svg id=\"diagram\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\">"
    );
    svg::board(out, g, &[], true);
    // The enemy under the marks (a promotion's + sits on its disc's edge), the
    // moving piece over them (a move that ends where it began rings it).
    out.push_str("<g id=\"dpieces\"></g><g id=\"dmarks\"></g><g id=\"dorigin\"></g></svg>");
}

/// The legend of the pieces: letter, name, XBetza, royal, promotions.
fn piece_table(out: &mut String, rules: &Ruleset) {
    let v = &rules.variant;
    out.push_str("<h2>Pieces</h2><table class=\"pieces\"><tr><th></th><th>Letter</th><th>Name</th><th>XBetza</th><th>Promotes to</th><th>Notes</th></tr>");
    for t in 0..v.num_types() {
        let pt = t as PieceType;
        let p = &v.pieces[t];
        let mut promotes: Vec<String> = Vec::new();
        if let Some(Some(to)) = v.promoted_piece_type.get(t) {
            promotes.push(label(rules, *to, Color::White));
        }
        if v.promotion_pawn_types[0] & 1 << t != 0 {
            promotes.extend(
                (0..v.num_types())
                    .filter(|&u| v.promotion_piece_types[0] & 1 << u != 0)
                    .map(|u| label(rules, u as PieceType, Color::White)),
            );
        }
        let mut notes: Vec<String> = Vec::new();
        if p.royal {
            notes.push("royal".into());
        }
        for (u, q) in v.promoted_piece_type.iter().enumerate() {
            if *q == Some(pt) && u != t {
                notes.push(format!("promoted {}", piece_name(v, u as PieceType)));
            }
        }
        let mut disc = String::new();
        let one = Geometry { files: 1, ranks: 1 };
        svg::piece(
            &mut disc,
            one,
            &Drawn {
                square: 0,
                label: label(rules, pt, Color::White),
                color: Color::White,
            },
        );
        let (cx, cy) = svg::centre(one, 0);
        let _ = write!(
            out,
            "<tr data-diagram=\"T{t}\"><td><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"34\" height=\"34\" viewBox=\"{:.1} {:.1} {CELL} {CELL}\">{disc}</svg></td><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            cx - CELL / 2.0,
            cy - CELL / 2.0,
            esc(&p.letter.to_string()),
            esc(&piece_name(v, pt)),
            esc(if p.betza.is_empty() {
                "(none)"
            } else {
                &p.betza
            }),
            esc(&promotes.join(", ")),
            esc(&notes.join("; "))
        );
    }
    out.push_str("</table>");
}

const STYLE: &str = "body{font-family:sans-serif;margin:16px;color:#222}\
h1{margin:0 0 4px}h2{margin:14px 0 6px}h3{margin:10px 0 4px;font-size:15px}\
.src,.fen,.hint{color:#666;font-size:13px}.fen{font-family:monospace;word-break:break-all}.col{max-width:max(420px,46vw)}\
.row{display:flex;flex-wrap:wrap;gap:28px}.col{flex:0 1 auto}\
.regions{list-style:none;padding:0}.sw{display:inline-block;width:14px;height:14px;opacity:.5;vertical-align:middle}\
table.pieces{border-collapse:collapse}table.pieces td,table.pieces th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left}\
table.pieces tr[data-diagram]{cursor:pointer}table.pieces tr.sel{background:#fff3c4}\
table.kinds td{padding:0 6px;font-size:13px}#start rect.sq{cursor:pointer}\
#diagram rect.sq{cursor:crosshair}";

/// Draws the chosen diagram's marks for the enemy square under the pointer.
const SCRIPT: &str = r##"
const NS="http://www.w3.org/2000/svg";
function xy(s){return [22+(s%FILES+0.5)*CELL,(RANKS-1-Math.floor(s/FILES))*CELL+CELL/2];}
function disc(s,label,white){
  const [x,y]=xy(s);const size=label.length>1?15:20;
  return `<circle cx="${x}" cy="${y}" r="${CELL*0.38}" fill="${white?'#fff':'#2b2b2b'}" stroke="#000" stroke-width="1.5"/>`+
   `<text x="${x}" y="${y+size*0.35}" font-family="sans-serif" font-weight="bold" font-size="${size}" fill="${white?'#000':'#fff'}" text-anchor="middle">${label}</text>`;
}
let cur=null,pinned=null;
function draw(enemy){
  const d=D[cur];if(!d)return;
  const ms=(enemy!==null&&d.p[enemy])?d.p[enemy]:d.b;
  let m="";
  for(const mk of ms){
    const s=mk[0],mask=mk[1];
    if(mk.length>2){
      let pts=[xy(d.o)];
      for(const w of mk.slice(2))pts.push(xy(w>>1));
      pts.push(xy(s));
      m+=`<polyline points="${pts.map(p=>p.join(',')).join(' ')}" fill="none" stroke="#0e8a9a" stroke-width="2" stroke-opacity="0.6"/>`;
      for(const w of mk.slice(2)){const [x,y]=xy(w>>1);
        m+=(w&1)?`<path d="M${x-8},${y-8}L${x+8},${y+8}M${x-8},${y+8}L${x+8},${y-8}" stroke="#d62020" stroke-width="3"/>`:`<circle cx="${x}" cy="${y}" r="3.5" fill="#0e8a9a"/>`;}
    }
    const [x,y]=xy(s);
    m+=`<g transform="translate(${x-OX},${y-OY})">${SHAPES[mask]}</g>`;
  }
  document.getElementById("dpieces").innerHTML=(enemy!==null&&enemy!==d.o)?disc(enemy,d.e,d.c!==0):"";
  document.getElementById("dorigin").innerHTML=disc(d.o,d.l,d.c===0);
  document.getElementById("dmarks").innerHTML=m;
  document.getElementById("dtitle").textContent=d.t+(enemy!==null&&enemy!==d.o?` (enemy on ${NAMES[enemy]})`:"");
}
function show(id,enemy){
  if(!D[id])return;cur=id;pinned=enemy;
  for(const r of document.querySelectorAll("tr[data-diagram]"))r.classList.toggle("sel",r.dataset.diagram===id);
  draw(enemy);
}
function sq(e){const s=e.target.dataset?e.target.dataset.square:undefined;return s===undefined?null:NAMES.indexOf(s);}
for(const r of document.querySelectorAll("tr[data-diagram]"))r.addEventListener("click",()=>show(r.dataset.diagram,null));
document.getElementById("start").addEventListener("click",e=>{const s=sq(e);if(s!==null&&D["S"+s])show("S"+s,null);});
const dia=document.getElementById("diagram");
dia.addEventListener("mouseover",e=>{if(pinned===null){const s=sq(e);if(s!==null)draw(s);}});
dia.addEventListener("mouseleave",()=>draw(pinned));
dia.addEventListener("click",e=>{const s=sq(e);if(s===null)return;pinned=(pinned===s?null:s);draw(pinned);});
for(const c of document.querySelectorAll("input[data-region]"))c.addEventListener("change",()=>{document.getElementById(c.dataset.region).style.display=c.checked?"":"none";});
// A link may name a diagram and an enemy square: page.html#T3@e5 (used for screenshots).
const h=decodeURIComponent(location.hash.slice(1)).split("@");
if(D[h[0]])show(h[0],h.length>1&&NAMES.indexOf(h[1])>=0?NAMES.indexOf(h[1]):null);else show("T0",null);
"##;
