#!/usr/bin/env python3
"""sprt.py -- the strength-testing loop: candidate against base (SPRT), and gauntlets.

Games are played by the referee (tools/referee.py: pyffish checks every
move and ends every game), one opening per game pair, each opening played twice with
colours swapped. Several pairs run side by side (--concurrency, default 2: one game per
core on the 2-core machine; a game's two engines think in turn). Openings come from the
balanced suites in tools/openings/ (made by tools/make_openings.py), taken in a seeded
shuffle and cycled; with several variants the pairs go round-robin over them.

  sprt     candidate (--new) against base (--base), sequential probability ratio test on
           game pairs (pentanomial, logistic Elo): H0 elo <= --elo0, H1 elo >= --elo1,
           error rates --alpha/--beta. Stops at a bound or at --max-pairs.
  match    a fixed number of pairs, Elo with its 95% error bar per variant and in total.
  gauntlet one engine against several opponents (fixed pairs each), a table at the end.
  summary  the per-variant and total lines of one or more --log files (runs cut short,
           or played elsewhere and merged), without playing.

Engines: a path to a Menagerie binary (spoken to over UCI), or a referee engine spec
("cmd=... proto=uci option.Skill\\ Level=10"), or a short name:
  fsf          /usr/games/fairy-stockfish at full strength
  fsf-skillN   the same at Skill Level N
  sjeng, sjaakii, fairymax   (CECP)
Options for a Menagerie binary: --new-opt/--base-opt/--engine-opt NAME=VALUE (UCI setoption).
--resign CP shortens candidate-against-base runs: Menagerie binaries then play over CECP
(the options above take CECP names) and resign once three of their searches in a row found
them CP centipawns behind or mated (their `Resign` option). Other engines play every game
out, so leave it off for gauntlets whose scores are quoted.

Examples
  tools/sprt.py sprt --new target/release/menagerie --base /tmp/base \\
      --variants crazyhouse,chess --tc 5+0.05
  tools/sprt.py gauntlet --engine target/release/menagerie --variants chess,crazyhouse \\
      --opponents fsf-skill10,fsf --pairs 30 --tc 10+0.1
  tools/sprt.py summary run1.jsonl run2.jsonl
Every finished pair is appended to --log (JSON lines) so a run can be inspected later; the
final lines are the ones to quote in a commit message.
"""
import argparse
import json
import math
import os
import random
import shlex
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_REFEREE = os.path.join(HERE, "referee.py")
OPENINGS_DIR = os.path.join(HERE, "openings")
BAD_REASONS = ("lost on time", "illegal move", "crashed", "false claim", "rejected the legal move", "exceeded st")


# --------------------------------------------------------------------------- statistics
def elo_to_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / s - 1.0)


def pair_stats(penta):
    """penta[k] = pairs with 2*pair-score == k (k = 0..4). -> (pairs, mean, variance per pair)."""
    n = sum(penta)
    if n == 0:
        return 0, 0.5, 0.0
    xs = [k / 4.0 for k in range(5)]
    mean = sum(c * x for c, x in zip(penta, xs)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(penta, xs)) / n
    return n, mean, var


def llr(penta, elo0, elo1):
    """Generalised SPRT log-likelihood ratio (normal approximation on pair scores)."""
    # A tiny prior keeps the variance positive after a few identical pairs.
    reg = [c + 1e-3 for c in penta]
    n, mean, var = pair_stats(reg)
    if var <= 0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def elo_interval(penta):
    """Elo and the half-width of its 95% interval from pair scores."""
    n, mean, var = pair_stats(penta)
    if n == 0:
        return 0.0, float("inf")
    se = math.sqrt(var / n) if n > 1 else 0.5
    lo, hi = score_to_elo(mean - 1.96 * se), score_to_elo(mean + 1.96 * se)
    return score_to_elo(mean), (hi - lo) / 2


def bad_games(games):
    """(game number, reason) of the referee's games that ended by a fault: a time loss,
    an illegal move, a crash, a false claim."""
    return [(g["game"], g["reason"]) for g in games if any(b in g["reason"] for b in BAD_REASONS)]


def tally_lines(per_variant, total):
    """A line per (variant, Tally), its bad games under it, and the total's line."""
    lines = []
    for v, t in per_variant:
        lines.append("  %-12s %s" % (v, t.line()))
        lines += ["    bad game: %s" % (b,) for b in t.bad]
    lines.append("  %-12s %s" % ("total", total.line()))
    return lines


class Tally:
    def __init__(self):
        self.w = self.l = self.d = 0
        self.penta = [0] * 5
        self.bad = []  # (game number, reason)

    def add_pair(self, g1, g2):
        pts = 0
        for g in (g1, g2):
            self.w += g == 1
            self.l += g == 0
            self.d += g == 0.5
            pts += int(g * 2)
        self.penta[pts] += 1

    def line(self):
        n = self.w + self.l + self.d
        elo, err = elo_interval(self.penta)
        score = (self.w + self.d / 2) / n if n else 0.0
        return "%d games W-L-D %d-%d-%d (%.1f%%) Elo %+.1f +/- %.1f  pentanomial %s" % (
            n, self.w, self.l, self.d, 100 * score, elo, err, self.penta)


# --------------------------------------------------------------------------- engines
def engine_spec(arg, name, opts, resign=0):
    """Turn a binary path, short name or referee spec into a referee engine spec. With
    `resign` (centipawns), a Menagerie binary is spoken to over CECP with that Resign
    option instead of over UCI."""
    if arg.startswith("fsf"):
        spec = "cmd=/usr/games/fairy-stockfish proto=uci name=%s" % arg
        if arg.startswith("fsf-skill"):
            spec += " option.Skill\\ Level=%s" % arg[len("fsf-skill"):]
        return spec
    short = {"sjeng": "cmd=/usr/games/sjeng", "sjaakii": "cmd=/usr/games/sjaakii",
             "fairymax": "cmd=/usr/games/fairymax"}
    if arg in short:
        return short[arg] + " name=" + arg
    if "cmd=" in arg:
        return arg
    proto = "cecp" if resign else "uci"
    spec = "cmd=%s proto=%s name=%s" % (shlex.quote(os.path.abspath(arg)), proto, name)
    if resign:
        spec += " option.Resign=%d" % resign
    for o in opts:
        k, _, v = o.partition("=")
        spec += " " + shlex.quote("option.%s=%s" % (k, v))
    return spec


def load_openings(variant, seed):
    path = os.path.join(OPENINGS_DIR, variant + ".txt")
    if not os.path.exists(path):
        return [""]
    lines = [ln.strip() for ln in open(path) if ln.strip() and not ln.startswith("#")]
    random.Random(seed).shuffle(lines)
    return lines


# --------------------------------------------------------------------------- the runner
class Runner:
    def __init__(self, a, first, second, variants):
        self.a = a
        self.first, self.second = first, second
        self.variants = variants
        self.openings = {v: load_openings(v, a.seed) for v in variants}
        self.lock = threading.Lock()
        self.next_pair = 0
        self.total = Tally()
        self.per_variant = {v: Tally() for v in variants}
        self.stop = threading.Event()
        self.t0 = time.time()

    def job(self):
        with self.lock:
            if self.stop.is_set() or self.next_pair >= self.a.max_pairs:
                return None
            i = self.next_pair
            self.next_pair += 1
        v = self.variants[i % len(self.variants)]
        ops = self.openings[v]
        return i, v, ops[(i // len(self.variants)) % len(ops)]

    def play_pair(self, i, variant, opening):
        with tempfile.TemporaryDirectory() as tmp:
            args = [sys.executable, self.a.referee, "--variant", variant, "--games", "2",
                    "--engine", self.first, "--engine", self.second,
                    "--hash", str(self.a.hash), "--json", os.path.join(tmp, "r.json")]
            args += ["--st", str(self.a.st)] if self.a.st else ["--tc", self.a.tc]
            if self.a.depth:
                args += ["--depth", str(self.a.depth)]
            if opening:
                with open(os.path.join(tmp, "o.txt"), "w") as f:
                    f.write(opening + "\n")
                args += ["--openings", os.path.join(tmp, "o.txt")]
            if self.a.pgn:
                args += ["--pgn", self.a.pgn]
            p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
            try:
                r = json.load(open(os.path.join(tmp, "r.json")))
            except (OSError, ValueError):
                sys.stderr.write("pair %d (%s) failed:\n%s\n" % (i, variant, p.stdout[-2000:]))
                return None
        names = r["players"]
        results = []
        for g in r["games"]:
            first_white = g["white"] == names[0]
            res = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
            results.append(res if first_white else 1.0 - res)
        if len(results) != 2:
            return None
        return results, bad_games(r["games"]), r

    def worker(self):
        while True:
            j = self.job()
            if j is None:
                return
            i, v, opening = j
            out = self.play_pair(i, v, opening)
            if out is None:
                continue
            (g1, g2), bad, r = out
            with self.lock:
                for t in (self.total, self.per_variant[v]):
                    t.add_pair(g1, g2)
                    t.bad += bad
                if self.a.log:
                    with open(self.a.log, "a") as f:
                        f.write(json.dumps({"pair": i, "variant": v, "opening": opening, "scores": [g1, g2],
                                            "games": r["games"]}) + "\n")
                self.progress(i, v, g1 + g2, bad)
                self.check_stop()

    def progress(self, i, v, pts, bad):
        if self.a.mode == "sprt":
            extra = "LLR %.2f [%.2f, %.2f]" % (llr(self.total.penta, self.a.elo0, self.a.elo1),
                                               self.lower, self.upper)
        else:
            extra = ""
        print("[%5.0fs] pair %d %s %.1f  | %s %s%s" % (
            time.time() - self.t0, i, v, pts, self.total.line(), extra,
            ("  BAD: %s" % bad) if bad else ""), flush=True)

    def check_stop(self):
        # The normal approximation behind the LLR needs a sample: with a handful of
        # pairs the variance estimate is near zero and the ratio meaningless.
        if self.a.mode != "sprt" or sum(self.total.penta) < self.a.min_pairs:
            return
        x = llr(self.total.penta, self.a.elo0, self.a.elo1)
        if x >= self.upper or x <= self.lower:
            self.stop.set()

    def run(self):
        if self.a.mode == "sprt":
            self.lower = math.log(self.a.beta / (1 - self.a.alpha))
            self.upper = math.log((1 - self.a.beta) / self.a.alpha)
        threads = [threading.Thread(target=self.worker, daemon=True) for _ in range(self.a.concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return self.summary()

    def summary(self):
        lines = tally_lines([(v, self.per_variant[v]) for v in self.variants], self.total)
        if self.a.mode == "sprt":
            x = llr(self.total.penta, self.a.elo0, self.a.elo1)
            verdict = "H1 accepted (PASS)" if x >= self.upper else "H0 accepted (FAIL)" if x <= self.lower \
                else "no decision"
            lines.append("  SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.2f [%.2f, %.2f] -> %s" % (
                self.a.elo0, self.a.elo1, self.a.alpha, self.a.beta, x, self.lower, self.upper, verdict))
        lines.append("  tc %s, %d pairs in %.0f s" % (self.a.st and ("st %s" % self.a.st) or self.a.tc,
                                                       sum(self.total.penta), time.time() - self.t0))
        return "\n".join(lines)


def summarize(logs):
    """The Tally lines of the pairs logged in `logs`, per variant and in total, with
    the bad games (time losses, illegal moves, ...) as the other modes list them."""
    total, per_variant = Tally(), {}
    for path in logs:
        try:
            lines = open(path).read().splitlines()
        except OSError as e:
            raise SystemExit("%s: %s" % (path, e.strerror))
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                g1, g2 = r["scores"]
                v = r["variant"]
                bad = bad_games(r.get("games", []))
            except (ValueError, KeyError, TypeError):
                raise SystemExit("%s:%d: not a pair record" % (path, n))
            if g1 not in (0, 0.5, 1) or g2 not in (0, 0.5, 1):
                raise SystemExit("%s:%d: scores %s are not game results" % (path, n, r["scores"]))
            for t in (total, per_variant.setdefault(v, Tally())):
                t.add_pair(g1, g2)
                t.bad += bad
    if sum(total.penta) == 0:
        raise SystemExit("no pairs in %s" % ", ".join(logs))
    return "\n".join(tally_lines(list(per_variant.items()), total))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--variants", default="crazyhouse,chess", help="comma-separated, played round-robin")
    common.add_argument("--tc", default="5+0.05")
    common.add_argument("--st", type=float, default=None)
    common.add_argument("--depth", type=int, default=None,
                        help="also stop every search at this depth (fixed-depth games: the "
                             "evaluation and the tree compared without the speed)")
    common.add_argument("--hash", type=int, default=16)
    common.add_argument("--concurrency", type=int, default=2)
    common.add_argument("--seed", type=int, default=1, help="opening order")
    common.add_argument("--referee", default=DEFAULT_REFEREE)
    common.add_argument("--log", default=None, help="append one JSON line per pair here")
    common.add_argument("--pgn", default=None)
    common.add_argument("--resign", type=int, default=0,
                        help="Menagerie binaries play over CECP and resign at this many centipawns behind")
    s = sub.add_parser("sprt", parents=[common])
    s.add_argument("--new", required=True)
    s.add_argument("--base", required=True)
    s.add_argument("--new-opt", action="append", default=[])
    s.add_argument("--base-opt", action="append", default=[])
    s.add_argument("--elo0", type=float, default=0.0)
    s.add_argument("--elo1", type=float, default=10.0)
    s.add_argument("--alpha", type=float, default=0.05)
    s.add_argument("--beta", type=float, default=0.05)
    s.add_argument("--max-pairs", type=int, default=1500)
    s.add_argument("--min-pairs", type=int, default=20, help="no decision before this many pairs")
    m = sub.add_parser("match", parents=[common])
    m.add_argument("--engine", required=True)
    m.add_argument("--opponent", required=True)
    m.add_argument("--engine-opt", action="append", default=[])
    m.add_argument("--opponent-opt", action="append", default=[])
    m.add_argument("--pairs", type=int, default=50, help="game pairs per variant")
    g = sub.add_parser("gauntlet", parents=[common])
    g.add_argument("--engine", required=True)
    g.add_argument("--engine-opt", action="append", default=[])
    g.add_argument("--opponents", required=True, help="comma-separated engines (fsf, fsf-skill10, sjeng, ...)")
    g.add_argument("--pairs", type=int, default=30, help="game pairs per variant and opponent")
    su = sub.add_parser("summary")
    su.add_argument("logs", nargs="+", help="--log files of earlier runs")
    a = ap.parse_args()
    if a.mode == "summary":
        print(summarize(a.logs))
        return 0
    variants = a.variants.split(",")
    if not os.path.exists(a.referee):
        raise SystemExit("referee not found: %s (use --referee)" % a.referee)
    if a.mode == "sprt":
        first = engine_spec(a.new, "new", a.new_opt, a.resign)
        second = engine_spec(a.base, "base", a.base_opt, a.resign)
        print(Runner(a, first, second, variants).run())
    elif a.mode == "match":
        a.max_pairs = a.pairs * len(variants)
        first = engine_spec(a.engine, "engine", a.engine_opt, a.resign)
        second = engine_spec(a.opponent, "opponent", a.opponent_opt, a.resign)
        print(Runner(a, first, second, variants).run())
    else:
        table = []
        for opp in a.opponents.split(","):
            a.max_pairs = a.pairs * len(variants)
            r = Runner(a, engine_spec(a.engine, "menagerie", a.engine_opt, a.resign), engine_spec(opp, opp, []), variants)
            text = r.run()
            print("vs %s:\n%s" % (opp, text), flush=True)
            table.append((opp, text))
        print("\nGauntlet summary")
        for opp, text in table:
            print("vs %s:\n%s" % (opp, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
