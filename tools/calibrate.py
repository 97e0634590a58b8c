#!/usr/bin/env python3
"""calibrate.py -- measure what Menagerie's strength levels are worth in Elo.

The scale is Fairy-Stockfish 11.1's UCI_Elo (UCI_LimitStrength on), at the time control
given (default 10+0.1), in each variant: a level of nominal Elo E should score 50% against
Fairy-Stockfish at UCI_Elo E. Each level plays --pairs game pairs per variant (each opening
twice, colours swapped: sprt.py's runner over tools/referee.py) against the reference of
matching strength, and the score gives the level's Elo:

  anchored  Fairy-Stockfish at UCI_Elo = the level's nominal Elo, brought within its range
            (1350..2850); measured Elo = that Elo + the Elo the score implies.
  chained   levels whose nominal Elo is far below 1350 (where even Fairy-Stockfish's
            weakest setting wins almost every game) play the nearest anchored level of
            Menagerie instead; measured Elo = that level's measured Elo (same variant,
            this run) + the Elo the score implies. (Self-play exaggerates differences a
            little: the chained figures are, if anything, too low.)

The nominal Elo of the levels is read from src/search/skill.rs (NOMINAL_ELO). At the end it
prints the table for the README (level, nominal Elo, opponent, games, W-L-D, score, Elo
with its 95% error bar, measured Elo) and a NOMINAL_ELO table fitted through the measured
chess levels, to copy into skill.rs when the figures disagree with it.

  python3 tools/calibrate.py --dry-run                 # the plan and the cost, no games
  python3 tools/calibrate.py --engine target/release/menagerie \\
      --variants chess,crazyhouse,shogi --levels=-10,0,10,19 --chain=-20 --pairs 20 \\
      --tc 10+0.1 --log /tmp/calibrate.jsonl --out /tmp/calibrate.md

Defaults are the ones above (4 anchored levels, 40 games each per variant, and the weakest
level chained: 600 games, about two hours at two games at a time).
"""
import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import sprt  # noqa: E402

FSF = "/usr/games/fairy-stockfish"
FSF_ELO_MIN, FSF_ELO_MAX = 1350, 2850
# Below this nominal Elo a level is chained to an anchored level instead: Fairy-Stockfish at
# its minimum would score over ~85%, too lopsided to measure in 40 games.
CHAIN_BELOW = FSF_ELO_MIN - 300


def nominal_table(path):
    """NOMINAL_ELO from skill.rs: [(level, elo)] increasing."""
    text = open(path).read()
    m = re.search(r"pub const NOMINAL_ELO: \[\(i32, i32\); \d+\] = \[(.*?)\];", text, re.S)
    if not m:
        raise SystemExit("%s: no NOMINAL_ELO table" % path)
    return [(int(a), int(b)) for a, b in re.findall(r"\((-?\d+),\s*(-?\d+)\)", m.group(1))]


def interpolate(table, level):
    """Piecewise linear through the table (extended linearly beyond its ends)."""
    pts = sorted(table)
    if len(pts) == 1:
        return float(pts[0][1])
    for (l0, e0), (l1, e1) in zip(pts, pts[1:]):
        if level <= l1:
            break
    return e0 + (level - l0) * (e1 - e0) / float(l1 - l0)


def fit(nominal, measured):
    """NOMINAL_ELO through the measured (level, Elo) points: interpolated between them,
    the nominal differences kept beyond them."""
    pts = sorted(measured)
    lo, hi = pts[0], pts[-1]
    out = []
    for lv, _ in nominal:
        if lv < lo[0]:
            e = lo[1] + interpolate(nominal, lv) - interpolate(nominal, lo[0])
        elif lv > hi[0]:
            e = hi[1] + interpolate(nominal, lv) - interpolate(nominal, hi[0])
        else:
            e = interpolate(pts, lv)
        out.append((lv, int(round(e))))
    return out


def fsf_spec(elo):
    return "cmd=%s proto=uci name=fsf-elo%d option.UCI_LimitStrength=true option.UCI_Elo=%d" % (FSF, elo, elo)


def menagerie_spec(engine, level, name):
    return sprt.engine_spec(engine, name, ["Skill Level=%d" % level])


def find_referee(given):
    for p in ([given] if given else []) + [sprt.DEFAULT_REFEREE]:
        if p and os.path.exists(p):
            return os.path.abspath(p)
    raise SystemExit("referee.py not found (use --referee)")


def plan(a, nominal):
    """[(level, kind, opponent level or None, opponent Elo or None)] in the order to play."""
    rows = []
    anchored = sorted(a.levels)
    for lv in anchored:
        e = round(interpolate(nominal, lv))
        rows.append((lv, "anchored", None, min(max(e, FSF_ELO_MIN), FSF_ELO_MAX)))
    for lv in sorted(a.chain):
        # The nearest anchored level above it.
        above = [x for x in anchored if x > lv]
        if not above:
            raise SystemExit("--chain level %d has no anchored level above it" % lv)
        rows.append((lv, "chained", min(above), None))
    return rows


def run_match(a, first, second, variants):
    ns = argparse.Namespace(mode="match", min_pairs=0, seed=a.seed, max_pairs=a.pairs * len(variants), referee=a.referee,
                            hash=a.hash, st=None, depth=None, tc=a.tc, pgn=a.pgn, log=a.log,
                            concurrency=a.concurrency)
    r = sprt.Runner(ns, first, second, variants)
    text = r.run()
    return r, text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default=os.path.join(REPO, "target", "release", "menagerie"))
    ap.add_argument("--variants", default="chess,crazyhouse,shogi")
    ap.add_argument("--levels", default="-10,0,10,19", help="levels anchored against Fairy-Stockfish")
    ap.add_argument("--chain", default="-20", help="levels measured against the nearest anchored level above")
    ap.add_argument("--pairs", type=int, default=20, help="game pairs per level and variant")
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--referee", default=None)
    ap.add_argument("--skill-rs", default=os.path.join(REPO, "src", "search", "skill.rs"))
    ap.add_argument("--log", default=None, help="append one JSON line per game pair (sprt.py's format)")
    ap.add_argument("--pgn", default=None)
    ap.add_argument("--out", default=None, help="also write the final tables here")
    ap.add_argument("--dry-run", action="store_true", help="print the plan only")
    a = ap.parse_args()
    a.levels = [int(x) for x in a.levels.split(",") if x.strip()]
    a.chain = [int(x) for x in a.chain.split(",") if x.strip()]
    variants = a.variants.split(",")
    nominal = nominal_table(a.skill_rs)
    rows = plan(a, nominal)
    games = len(rows) * len(variants) * a.pairs * 2
    print("Calibration plan (%s, %d games per level and variant, tc %s): %d games" % (
        ",".join(variants), 2 * a.pairs, a.tc, games))
    for lv, kind, opp_level, opp_elo in rows:
        opp = ("Fairy-Stockfish UCI_Elo %d" % opp_elo) if kind == "anchored" else ("Menagerie level %d" % opp_level)
        print("  level %3d (nominal %4d): %s against %s" % (lv, round(interpolate(nominal, lv)), kind, opp))
        if kind == "anchored" and round(interpolate(nominal, lv)) < CHAIN_BELOW:
            print("    (nominal Elo below %d: expect a lopsided score; consider --chain)" % CHAIN_BELOW)
    if a.dry_run:
        return 0
    a.referee = find_referee(a.referee)
    if not os.path.exists(a.engine):
        raise SystemExit("engine not found: %s (cargo build --release)" % a.engine)

    measured = {}  # (variant, level) -> Elo
    results = []
    t0 = time.time()
    for lv, kind, opp_level, opp_elo in rows:
        first = menagerie_spec(a.engine, lv, "level%d" % lv)
        if kind == "anchored":
            second, opp_name = fsf_spec(opp_elo), "Fairy-Stockfish %d" % opp_elo
        else:
            second, opp_name = menagerie_spec(a.engine, opp_level, "level%d" % opp_level), "level %d" % opp_level
        print("\n== level %d against %s" % (lv, opp_name), flush=True)
        r, text = run_match(a, first, second, variants)
        print(text, flush=True)
        for v in variants:
            t = r.per_variant[v]
            n = t.w + t.l + t.d
            elo, err = sprt.elo_interval(t.penta)
            if kind == "anchored":
                base = opp_elo
            else:
                # The anchor's measured Elo (its nominal one if it could not be measured).
                base = measured.get((v, opp_level))
                base = interpolate(nominal, opp_level) if base is None else base
            # A clean sweep says only "at least this far apart": half a point less gives
            # the bound, and the row is left out of the fit.
            score = (t.w + t.d / 2.0) / n if n else None
            bound = None
            if n and score in (0.0, 1.0):
                bound = sprt.score_to_elo(abs(score - 0.5 / n))
            m = base + elo if n and bound is None else None
            measured[(v, lv)] = m
            results.append({"variant": v, "level": lv, "nominal": round(interpolate(nominal, lv)), "kind": kind,
                            "opponent": opp_name, "opponent_elo": round(base), "games": n, "w": t.w, "l": t.l,
                            "d": t.d, "score": score, "elo": elo, "err": err, "bound": bound,
                            "measured": m, "bad": t.bad})
    lines = ["", "Calibration, tc %s, %d games per row (%.0f min)" % (a.tc, 2 * a.pairs, (time.time() - t0) / 60), "",
             "| variant | level | nominal Elo | opponent | games | W-L-D | score | Elo vs opponent | measured Elo |",
             "|---|---|---|---|---|---|---|---|---|"]
    for x in results:
        if not x["games"]:
            continue
        if x["bound"] is None:
            vs = "%+.0f +/- %.0f" % (x["elo"], min(x["err"], 9999))
            m = "%.0f" % x["measured"]
        else:
            sign = ">" if x["bound"] > 0 else "<"
            vs = "%s %+.0f" % (sign, x["bound"])
            m = "%s %.0f" % (sign, x["opponent_elo"] + x["bound"])
        lines.append("| %s | %d | %d | %s (%d) | %d | %d-%d-%d | %.1f%% | %s | %s |" % (
            x["variant"], x["level"], x["nominal"], x["opponent"], x["opponent_elo"], x["games"], x["w"], x["l"],
            x["d"], 100 * x["score"], vs, m))
        for b in x["bad"]:
            lines.append("  bad game: %s %s level %d: %s" % (x["variant"], x["opponent"], x["level"], b))
    chess = sorted((lv, e) for (v, lv), e in measured.items() if v == "chess" and e is not None)
    if chess:
        fitted = fit(nominal, chess)
        lines += ["", "NOMINAL_ELO fitted through the measured chess levels (for src/search/skill.rs):",
                  "pub const NOMINAL_ELO: [(i32, i32); %d] = [" % len(fitted)]
        lines += ["    (%d, %d)," % p for p in fitted]
        lines.append("];")
        if any(b[1] <= a_[1] for a_, b in zip(fitted, fitted[1:])):
            lines.append("(not increasing: the figures are too noisy to fit; play more pairs)")
    out = "\n".join(lines)
    print(out)
    if a.out:
        with open(a.out, "w") as f:
            f.write(out + "\n")
        with open(a.out + ".json", "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
