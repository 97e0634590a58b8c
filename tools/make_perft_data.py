#!/usr/bin/env python3
"""make_perft_data.py -- regenerate the perft test data in tests/data/perft/.

Exact invocation (from the repository root; takes ~15-30 min on 2 cores):

    python3 tools/make_perft_data.py /path/to/fairy-stockfish tests/data/perft
    python3 tools/make_perft_data.py /path/to/fairy-stockfish tests/data/perft shogi xiangqi   # subset
    python3 tools/make_perft_data.py pyffish tests/data/perft mini fairy   # no binary: see below

With `pyffish` in place of the binary the counts come from pyffish.legal_moves alone
(about 1000 positions a second): depth 3, and depth 4 where pyffish counts it in under
PYFFISH_SECONDS; random-positions.epd is left alone. PYFFISH_DEPTH=2 in the environment
lowers that depth, for variants whose depth 3 pyffish cannot count in reasonable time (the
walling games: duck, amazons, isolation, isolation7x7). Used for the variants added
without a matching binary at hand.

Needs only python3, pyffish (the rules oracle; data was made with 0.0.90) and a
Fairy-Stockfish binary built from the same sources as the installed pyffish (it answers
`go perft N`).  It is NOT used by `cargo test`; the .epd files are committed.

Outputs
  <out>/<variant>.epd        one position per line:
                               FEN ;D1 n ;D2 n ... ;label NAME
                             - the start position,
                             - every position of the perft reference (tools/perft-reference.json,
                               --reference) for that variant, with its counts for the depths whose
                               count is <= 20,000,000 (re-verified with the binary),
                             - 3 positions from seeded random playouts (8-60 plies, MAIN_SEED),
                               chosen among 50 candidates for "interesting" features (side to
                               move in check, captures / promotions / drops / gating / castling
                               moves available, castling rights, e.p. square), mutually distinct.
                             Counts of generated positions: depth 1, 2, ... up to the largest depth
                             whose count is <= 3,000,000 (depth 2 always, if it is <= 20,000,000).
  <out>/random-positions.epd for every variant 5 further playout positions (RANDOM_SEED) as
                               VARIANT;FEN ;D2 n ;D3 n ;D4 n
                             with only the depths whose count is <= 5,000,000 (D2 always present).
                             Meant for a separate "perft equals the oracle" check, not cargo test.
                             With a variant subset only that variant's lines are replaced.

FENs are written exactly as pyffish/FSF writes them (pyffish.get_fen), e.g. pockets `[...]`,
3check counters `3+3`, seirawan gating rights in the castling field.

Checks done while generating (reported on stderr and in the summary; exit status 1 on any):
  * depth 1 and 2 of every written position recomputed with pyffish.legal_moves (must agree),
  * reference counts recomputed with the binary (must agree),
  * playout positions: perft from `position fen FEN` equals perft from
    `position startpos moves ...` (the FEN loses no state) at depth <= 3.
Positions where the game is already over (pyffish immediate/optional game end, no legal
moves) are never used; playouts that pass through a finished game are discarded.
"""
import argparse
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

MAIN_SEED = 12345          # playouts written to <variant>.epd
RANDOM_SEED = 67890        # playouts written to random-positions.epd
N_CANDIDATES = 50          # playout candidates per variant for <variant>.epd
N_KEEP = 3                 # playout positions kept per variant in <variant>.epd
N_RANDOM = 5               # positions per variant in random-positions.epd
PLY_MIN, PLY_MAX = 8, 60   # playout length range (plies), inclusive
MAIN_LIMIT = 3_000_000     # generated positions: deepest depth with count <= this
DEPTH2_LIMIT = 20_000_000  # ... but depth 1-2 always if depth 2 <= this
REF_LIMIT = 20_000_000     # reference positions: depths with count <= this
RANDOM_LIMIT = 5_000_000   # random-positions.epd: depths 2-4 with count <= this
MAX_DEPTH = 20
PYFFISH_DEPTH = int(os.environ.get("PYFFISH_DEPTH", 3))  # pyffish backend: this depth ...
PYFFISH_SECONDS = 10.0     # ... and one more where pyffish is expected to take less than this

VARIANTS = """chess crazyhouse shogi minishogi xiangqi minixiangqi capablanca gothic janus grand
shatranj makruk courier knightmate seirawan shouse chessgi atomic nocheckatomic 3check 5check
kingofthehill antichess giveaway losers suicide racingkings horde placement gardner losalamos
extinction pocketknight breakthrough almost chigorin nocastle torpedo berolina pawnsideways
grasshopper nightrider kinglet threekings codrus loop gorogoro euroshogi judkins chancellor
embassy centaur amazon coregal newzealand shako cannonshogi""".split()

# The team's perft reference, kept beside this script (tools/README.md says where it came from).
DEFAULT_REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "perft-reference.json")


# --------------------------------------------------------------------------- engine
class Engine:
    """Minimal UCI driver for Fairy-Stockfish `go perft`."""

    def __init__(self, path, timeout=900):
        self.timeout = timeout
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._reader, daemon=True).start()
        self.send("uci")
        lines = self.read_until(lambda l: l == "uciok", 30)
        self.variants = set()
        for l in lines:
            if l.startswith("option name UCI_Variant"):
                self.variants = set(re.findall(r"\bvar (\S+)", l))

    def _reader(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def read_until(self, pred, timeout):
        out = []
        end = time.time() + timeout
        while True:
            try:
                l = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                raise TimeoutError("engine timeout")
            if l is None:
                raise RuntimeError("engine died")
            out.append(l.strip())
            if pred(out[-1]):
                return out

    def set_variant(self, variant):
        self.send("setoption name UCI_Variant value " + variant)
        self.send("isready")
        self.read_until(lambda l: l == "readyok", 60)

    def perft(self, depth, fen=None, moves=()):
        pos = ("position fen " + fen) if fen else "position startpos"
        if moves:
            pos += " moves " + " ".join(moves)
        self.send(pos)
        self.send("go perft %d" % depth)
        lines = self.read_until(lambda l: l.startswith("Nodes searched"), self.timeout)
        return int(lines[-1].split(":")[1])

    def close(self):
        try:
            self.send("quit")
            self.p.wait(10)
        except Exception:
            self.p.kill()


class PyffishPerft:
    """Engine's interface with the counts from pyffish.legal_moves (no binary needed)."""

    def __init__(self):
        import pyffish
        self.pf = pyffish
        self.variants = set(pyffish.variants())
        self.variant = None
        self.cache = {}

    def set_variant(self, variant):
        self.variant = variant

    def _levels(self, fen, moves, depth):
        """[n1..n_depth] below (fen, moves), and the legal_moves calls it took."""
        levels = [0] * depth
        stack = [(list(moves), 0)]
        calls = 0
        while stack:
            mv, ply = stack.pop()
            lm = self.pf.legal_moves(self.variant, fen, mv)
            calls += 1
            levels[ply] += len(lm)
            if ply + 1 < depth:
                for m in lm:
                    stack.append((mv + [m], ply + 1))
        return levels, calls

    def perft(self, depth, fen=None, moves=()):
        fen = fen or self.pf.start_fen(self.variant)
        key = (fen, tuple(moves))
        levels = self.cache.get(key, [])
        if len(levels) < depth:
            levels, _ = self._levels(fen, moves, depth)
            self.cache[key] = levels
        return levels[depth - 1]

    def depth_cap(self, fen):
        """PYFFISH_DEPTH, or one more where that is expected to take < PYFFISH_SECONDS."""
        t0 = time.time()
        levels, calls = self._levels(fen, (), PYFFISH_DEPTH)
        self.cache[(fen, ())] = levels
        per_call = (time.time() - t0) / max(calls, 1)
        deeper = calls + levels[-1]
        return PYFFISH_DEPTH + (deeper * per_call < PYFFISH_SECONDS)

    def close(self):
        pass


# --------------------------------------------------------------------------- helpers
def norm_fen(pf, variant, fen):
    return pf.get_fen(variant, fen, [])


def fen_key(fen):
    """FEN without the move counters (distinctness test)."""
    parts = fen.split(" ")
    return " ".join(parts[:-2]) if len(parts) > 3 else fen


def game_over(pf, variant, fen, moves):
    if not pf.legal_moves(variant, fen, moves):
        return True
    if pf.is_immediate_game_end(variant, fen, moves)[0]:
        return True
    if pf.is_optional_game_end(variant, fen, moves)[0]:
        return True
    return False


def playout(pf, variant, start, rng, plies):
    """Random legal playout; returns the move list or None if the game ended on the way."""
    moves = []
    for _ in range(plies):
        lm = pf.legal_moves(variant, start, moves)
        if not lm or pf.is_immediate_game_end(variant, start, moves)[0]:
            return None
        moves.append(rng.choice(sorted(lm)))
    if game_over(pf, variant, start, moves):
        return None
    return moves


def parse_board(fen):
    """{square_name: piece_char} from the board field of a FEN (handles a10, +P, P~, pockets)."""
    board = fen.split(" ")[0].split("[")[0]
    ranks = board.split("/")
    nr = len(ranks)
    sq = {}
    for i, row in enumerate(ranks):
        r = nr - i
        f = 0
        j = 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            if c == "+":
                j += 1
                continue
            if c == "~":
                j += 1
                continue
            if c.isalpha() or c == "*":
                sq["%s%d" % (chr(ord("a") + f), r)] = c
                f += 1
            j += 1
    return sq


MOVE_RE = re.compile(r"^([a-z]\d+)([a-z]\d+)(.*)$")


def features(pf, variant, fen):
    """Interesting features of a (non-final) position, as a set of names."""
    feats = set()
    lm = pf.legal_moves(variant, fen, [])
    fields = fen.split(" ")
    if pf.gives_check(variant, fen, []):
        feats.add("check")
    if len(fields) > 2 and fields[2] not in ("-",) and "[" not in fields[2]:
        feats.add("castlingrights")
    if len(fields) > 3 and re.match(r"^[a-z]\d+", fields[3]):
        feats.add("ep")
    board = parse_board(fen)
    for m in lm:
        if "@" in m:
            feats.add("drop")
            continue
        mm = MOVE_RE.match(m)
        if not mm:
            continue
        frm, to, suffix = mm.groups()
        piece = board.get(frm, "")
        if suffix:
            if suffix == "+" or piece.lower() == "p":
                feats.add("promotion")
            else:
                feats.add("gating")
        if piece.lower() == "k" and abs(ord(frm[0]) - ord(to[0])) >= 2 and to[1:] == frm[1:]:
            feats.add("castling")
        if "capture" not in feats and pf.is_capture(variant, fen, [], m):
            feats.add("capture")
    return feats


WEIGHTS = {"check": 3, "ep": 3, "promotion": 3, "castling": 2, "gating": 2, "drop": 1,
           "capture": 1, "castlingrights": 1}


def pick_interesting(cands, n, exclude_keys):
    """Greedy: best weighted score, bonus for features not yet covered; distinct FENs."""
    chosen, covered, keys = [], set(), set(exclude_keys)
    pool = list(cands)
    while pool and len(chosen) < n:
        def score(c):
            f = c["features"]
            return (sum(WEIGHTS[x] for x in f) + 2 * sum(WEIGHTS[x] for x in f - covered), -c["index"])
        pool.sort(key=score, reverse=True)
        c = pool.pop(0)
        if fen_key(c["fen"]) in keys:
            continue
        chosen.append(c)
        covered |= c["features"]
        keys.add(fen_key(c["fen"]))
    return chosen


def perft_levels(eng, fen, limit, depth2_limit=None, max_depth=MAX_DEPTH):
    """[n1, n2, ...] up to the deepest depth with count <= limit (depth 2 kept if <= depth2_limit)."""
    if hasattr(eng, "depth_cap"):
        max_depth = min(max_depth, eng.depth_cap(fen))
    levels = []
    for d in range(1, max_depth + 1):
        n = eng.perft(d, fen)
        if n <= limit or (d <= 2 and depth2_limit is not None and n <= depth2_limit):
            levels.append(n)
            if n > limit or n == 0:
                break
        else:
            break
    return levels


def pyffish_d12(pf, variant, fen):
    root = pf.legal_moves(variant, fen, [])
    return [len(root), sum(len(pf.legal_moves(variant, fen, [m])) for m in root)]


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def fmt_counts(levels, first=1):
    return " ".join(";D%d %d" % (d, n) for d, n in enumerate(levels, first))


# --------------------------------------------------------------------------- per variant
def do_variant(args):
    variant, engine_path, refs = args
    import pyffish as pf
    problems, log = [], []
    t0 = time.time()
    eng = PyffishPerft() if engine_path == "pyffish" else Engine(engine_path)
    try:
        if variant not in pf.variants() or variant not in eng.variants:
            return {"variant": variant, "unknown": True}
        eng.set_variant(variant)
        start = norm_fen(pf, variant, pf.start_fen(variant))
        entries = []   # dicts: fen, levels, label, comment, check_d12

        def crosscheck(fen, levels, what):
            want = levels[:2]
            got = pyffish_d12(pf, variant, fen)[:len(want)]
            if got != want:
                problems.append("%s %s: pyffish d1-2 %s != binary %s (%s)" % (variant, what, got, want, fen))

        # reference positions (start first if it is among them)
        ref_by_fen = {}
        for r in refs:
            fen = norm_fen(pf, variant, r["fen"])
            lv = []
            for n in r["levels"]:
                if n > REF_LIMIT:
                    break
                lv.append(n)
            got = [eng.perft(d, fen) for d in range(1, len(lv) + 1)]
            if got != lv:
                problems.append("%s ref %r: binary %s != reference %s" % (variant, r["label"], got, lv))
            note = "" if fen == r["fen"] else " (reference FEN %s)" % r["fen"]
            ref_by_fen[fen] = {"fen": fen, "levels": lv, "label": "ref-" + slug(r["label"]),
                               "comment": "perft-reference.json: %s%s" % (r["label"], note)}
        if start in ref_by_fen:
            e = ref_by_fen.pop(start)
            e["label"] = "start"
            entries.append(e)
        else:
            entries.append({"fen": start, "levels": perft_levels(eng, start, MAIN_LIMIT, DEPTH2_LIMIT),
                            "label": "start", "comment": "start position"})
        entries.extend(ref_by_fen.values())
        known = {fen_key(e["fen"]) for e in entries}

        # seeded playouts for the interesting positions
        rng = random.Random("%d:%s" % (MAIN_SEED, variant))
        cands = []
        attempts = 0
        while len(cands) < N_CANDIDATES and attempts < 20 * N_CANDIDATES:
            attempts += 1
            plies = rng.randint(PLY_MIN, PLY_MAX)
            moves = playout(pf, variant, start, rng, plies)
            if moves is None:
                continue
            fen = pf.get_fen(variant, start, moves)
            cands.append({"index": attempts, "moves": moves, "fen": fen,
                          "features": features(pf, variant, fen)})
        for c in pick_interesting(cands, N_KEEP, known):
            lv = perft_levels(eng, c["fen"], MAIN_LIMIT, DEPTH2_LIMIT)
            for d in range(1, min(3, len(lv)) + 1):
                n = eng.perft(d, None, c["moves"])
                if n != lv[d - 1]:
                    problems.append("%s playout %d: perft(%d) from FEN %d != from startpos+moves %d"
                                    % (variant, c["index"], d, lv[d - 1], n))
            feats = ",".join(sorted(c["features"])) or "none"
            entries.append({"fen": c["fen"], "levels": lv,
                            "label": "playout-%d-%dply" % (c["index"], len(c["moves"])),
                            "comment": "playout seed %d:%s #%d, %d plies, features %s: %s"
                            % (MAIN_SEED, variant, c["index"], len(c["moves"]), feats, " ".join(c["moves"]))})
            known.add(fen_key(c["fen"]))
        if len(cands) < N_CANDIDATES:
            log.append("%s: only %d playout candidates" % (variant, len(cands)))

        for e in entries:
            crosscheck(e["fen"], e["levels"], e["label"])

        # random-positions.epd (not with the slow pyffish backend)
        if engine_path == "pyffish":
            log.append("%s: %d positions, %.0f s" % (variant, len(entries), time.time() - t0))
            return {"variant": variant, "entries": entries, "random": None, "counter": "pyffish",
                    "problems": problems, "log": log}
        rng = random.Random("%d:%s" % (RANDOM_SEED, variant))
        rand_lines = []
        attempts = 0
        while len(rand_lines) < N_RANDOM and attempts < 200:
            attempts += 1
            plies = rng.randint(PLY_MIN, PLY_MAX)
            moves = playout(pf, variant, start, rng, plies)
            if moves is None:
                continue
            fen = pf.get_fen(variant, start, moves)
            if fen_key(fen) in known:
                continue
            lv = []
            for d in (2, 3, 4):
                n = eng.perft(d, fen)
                if n > RANDOM_LIMIT:
                    break
                lv.append(n)
            if not lv:
                continue
            got = pyffish_d12(pf, variant, fen)[1]
            if got != lv[0]:
                problems.append("%s random %s: pyffish d2 %d != binary %d" % (variant, fen, got, lv[0]))
            known.add(fen_key(fen))
            rand_lines.append("%s;%s %s" % (variant, fen, fmt_counts(lv, 2)))
        if len(rand_lines) < N_RANDOM:
            log.append("%s: only %d random positions" % (variant, len(rand_lines)))
        log.append("%s: %d positions, %d random, %.0f s" % (variant, len(entries), len(rand_lines), time.time() - t0))
        return {"variant": variant, "entries": entries, "random": rand_lines,
                "problems": problems, "log": log}
    finally:
        eng.close()


def write_variant(outdir, res, pf_version):
    v = res["variant"]
    lines = ["# variant: %s" % v,
             "# generated by tools/make_perft_data.py (seed %d); counts from %s "
             "(pyffish %s rules)" % (MAIN_SEED, res.get("counter", "Fairy-Stockfish"), pf_version),
             "# format: FEN ;D<depth> <perft count> ... ;label NAME"]
    for e in res["entries"]:
        lines.append("# " + e["comment"])
        lines.append("%s %s ;label %s" % (e["fen"], fmt_counts(e["levels"]), e["label"]))
    with open(os.path.join(outdir, v + ".epd"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="Fairy-Stockfish binary (same sources as installed pyffish), "
                    "or 'pyffish' to count with pyffish alone")
    ap.add_argument("outdir", help="output directory, normally tests/data/perft")
    ap.add_argument("variants", nargs="*", help="variants to regenerate (default: all)")
    ap.add_argument("--reference", default=DEFAULT_REFERENCE, help="perft-reference.json")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args(argv)

    import pyffish as pf
    pf_version = ".".join(str(x) for x in pf.version())
    variants = a.variants or VARIANTS
    refs = json.load(open(a.reference))["positions"] if a.reference and os.path.exists(a.reference) else []
    if not refs:
        print("warning: no reference file %s" % a.reference, file=sys.stderr)
    os.makedirs(a.outdir, exist_ok=True)
    engine = a.engine if a.engine == "pyffish" else os.path.abspath(a.engine)
    tasks = [(v, engine, [r for r in refs if r["variant"] == v]) for v in variants]
    if a.jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(a.jobs) as pool:
            results = list(pool.imap(do_variant, tasks, chunksize=1))
    else:
        results = [do_variant(t) for t in tasks]

    unknown, problems, rand = [], [], {}
    for res in results:
        if res.get("unknown"):
            unknown.append(res["variant"])
            continue
        write_variant(a.outdir, res, pf_version)
        problems += res["problems"]
        if res["random"] is not None:
            rand[res["variant"]] = res["random"]
        for l in res["log"]:
            print(l, file=sys.stderr)

    # random-positions.epd (merge: keep lines of variants not regenerated)
    if a.engine == "pyffish":
        rand = {}
    rpath = os.path.join(a.outdir, "random-positions.epd")
    old = {}
    if os.path.exists(rpath):
        for l in open(rpath):
            if l.strip() and not l.startswith("#"):
                old.setdefault(l.split(";")[0], []).append(l.rstrip("\n"))
    old.update(rand)
    order = [v for v in VARIANTS if v in old] + sorted(v for v in old if v not in VARIANTS)
    with open(rpath, "w") as f:
        f.write("# random playout positions for a 'perft equals the oracle' check (not cargo test)\n")
        f.write("# generated by tools/make_perft_data.py (seed %d); counts from Fairy-Stockfish "
                "(pyffish %s rules)\n" % (RANDOM_SEED, pf_version))
        f.write("# format: VARIANT;FEN ;D2 n ;D3 n ;D4 n  (only depths with count <= %d)\n" % RANDOM_LIMIT)
        for v in order:
            for l in old[v]:
                f.write(l + "\n")

    if unknown:
        print("skipped (unknown to pyffish/binary): " + " ".join(unknown), file=sys.stderr)
    for p in problems:
        print("PROBLEM: " + p, file=sys.stderr)
    print("done: %d variants, %d problems" % (len(results) - len(unknown), len(problems)), file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
