#!/usr/bin/env python3
"""referee.py -- match runner for CECP (XBoard protocol v2) and UCI engines, any pyffish variant.

Every move is checked against pyffish (Fairy-Stockfish rules); pyffish also decides when a game
is over (mate, stalemate as the variant scores it, variant wins such as bare king / 3rd check /
flag, repetition incl. perpetual-check/chase rules, n-move rule, insufficient material).

Engine spec (one --engine per engine, exactly two), shlex-split key=value tokens:
  cmd=PATH_OR_COMMAND   required (quote it if it has arguments)
  proto=cecp|uci        default cecp
  name=NAME             default: myname / id name / basename
  vname=NAME            variant name to send (default: pyffish name, mapped to an alias the engine lists)
  ranks0=auto|yes|no    CECP rank numbering on 10-rank boards (XBoard uses 0..9; default auto)
  option.NAME=VALUE     UCI setoption / CECP 'option NAME=VALUE' (repeatable)
  memory=MB cores=N     CECP memory/cores or UCI Hash/Threads
  tc=[MOVES/]BASE[+INC] this engine's own clock (time odds); default --tc
  usermove=auto|yes|no  force the usermove prefix on/off (default from features)
  restart=yes           restart the engine before every game
  dir=PATH              working directory

Examples
  referee.py --variant chess --games 4 --tc 10+0.1 \\
      --engine "cmd=/usr/games/fairymax" --engine "cmd=/usr/games/fairy-stockfish proto=uci" \\
      --pgn /tmp/fmax-fsf.pgn
  referee.py --variant xiangqi --games 2 --st 1 --engine "cmd=maxqi" --engine "cmd=fairy-stockfish"
  referee.py --variant shogi --openings shogi.txt --games 10 --tc 0/20+0.2 ...

Time controls: --tc [MOVES/]BASE[+INC] (seconds; CECP gets 'level MOVES M:SS INC', UCI
wtime/btime/winc/binc/movestogo) or --st SECONDS (CECP 'st', UCI 'go movetime'). A move later
than the remaining clock (or st) plus --margin forfeits the game.
Openings (--openings FILE): one per line, a FEN (contains '/') or space-separated UCI moves (pyffish
notation) from the start position; '#' comments. Each opening is played twice with colours swapped.
Final line:  'Score of A vs B: W - L - D  [score] N games  Elo: X +/- Y (95%)'

Written for this project in the team's shared tools and brought into the repository, with
engineio.py beside it, so that sprt.py, calibrate.py and match.sh run from a clone.
"""
import argparse
import datetime
import json
import math
import os
import re
import shlex
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from engineio import Engine, EngineDied  # noqa: E402
import pyffish as sf  # noqa: E402

LOG = None
T0 = time.time()


def log(msg):
    if LOG:
        LOG.write("%9.3f %s\n" % (time.time() - T0, msg))
        LOG.flush()


def note(msg):
    print(msg, flush=True)
    log("## " + msg)


# --------------------------------------------------------------------------- notation
SQ = re.compile(r"([a-z])(\d{1,2})")
MOVE_RE = re.compile(r"^(?:(?P<drop>\+?[A-Za-z])@(?P<dto>[a-z]\d{1,2})|(?P<frm>[a-z]\d{1,2})(?P<to>[a-z]\d{1,2})(?P<suf>.*))$")
# XBoard aliases for pyffish variant names (tried in order when the engine lists variants)
VARIANT_ALIASES = {
    "chess": ["normal"], "shoshogi": ["sho", "9x9+0_shogi", "shoshogi"], "minishogi": ["5x5+5_shogi", "minishogi"],
    "torishogi": ["7x7+6_shogi", "torishogi", "tori"], "kingofthehill": ["king-of-the-hill", "kingofthehill"],
    "losalamos": ["los-alamos", "losalamos"], "fischerandom": ["fischerandom", "chess960", "fischerrandom"],
    "caparandom": ["caparandom"], "giveaway": ["giveaway", "suicide"], "antichess": ["giveaway", "suicide"],
}


def parse_move(s):
    """Engine move string -> (kind, a, b, suffix) with ranks as given (strings)."""
    s = s.strip().rstrip("#!?")
    mo = MOVE_RE.match(s)
    if not mo:
        return None
    if mo.group("drop"):
        return ("drop", mo.group("drop").upper(), mo.group("dto"), "")
    suf = mo.group("suf")
    if suf.startswith("="):          # 'e7e8=q' or XBoard shogi defer '='
        suf = suf[1:] or "="
    return ("move", mo.group("frm"), mo.group("to"), suf)


def shift_sq(sq, delta):
    m = SQ.fullmatch(sq)
    return "%s%d" % (m.group(1), int(m.group(2)) + delta)


class Notation:
    """Translate between pyffish UCI-style moves and one engine's dialect."""

    def __init__(self, variant_ranks, ranks0, proto):
        self.ranks = variant_ranks
        if proto == "uci":
            self.base0 = False
            self.auto = False
        else:
            self.base0 = (variant_ranks == 10) if ranks0 == "auto" else (ranks0 == "yes")
            self.auto = (ranks0 == "auto" and variant_ranks == 10)
        self.quirks = set()

    def to_engine(self, m):
        if not self.base0:
            return m
        if "@" in m:
            p, sq = m.split("@")
            return p + "@" + shift_sq(sq, -1)
        mo = MOVE_RE.match(m)
        return shift_sq(mo.group("frm"), -1) + shift_sq(mo.group("to"), -1) + mo.group("suf")

    def _match(self, pm, legal, delta):
        kind, a, b, suf = pm
        if kind == "drop":
            to = shift_sq(b, delta)
            c = [m for m in legal if "@" in m and m.split("@")[1] == to and m.split("@")[0].upper() == a]
            return c[0] if c else None
        try:
            frm, to = shift_sq(a, delta), shift_sq(b, delta)
        except AttributeError:
            return None
        cands = [m for m in legal if "@" not in m and MOVE_RE.match(m).group("frm") == frm
                 and MOVE_RE.match(m).group("to") == to]
        if not cands:
            return None
        sufs = {MOVE_RE.match(m).group("suf"): m for m in cands}
        if suf in sufs:
            return sufs[suf]
        if suf.lower() in {k.lower(): v for k, v in sufs.items()}:
            return {k.lower(): v for k, v in sufs.items()}[suf.lower()]
        if suf in ("", "=") and "" in sufs:
            return sufs[""]
        if len(cands) == 1:
            self.quirks.add("suffix %r accepted for %s" % (suf, cands[0]))
            return cands[0]
        if suf == "" and len(cands) > 1:
            return None
        return None

    def from_engine(self, s, legal, variant=None, fen=None, moves=None):
        pm = parse_move(s)
        if pm is None:
            if s.upper().startswith("O-O") or s.startswith("0-0"):
                return self._castle(s, legal, variant, fen, moves)
            return self._san(s, variant, fen, moves, legal)
        m = self._match(pm, legal, 1 if self.base0 else 0)
        if m is None and self.auto:
            m2 = self._match(pm, legal, 0 if self.base0 else 1)
            if m2 is not None:
                self.base0 = not self.base0
                self.quirks.add("rank numbering switched to %s-based after move %r" % ("0" if self.base0 else "1", s))
                return m2
        if m is None and s in legal:
            return s
        return m

    def _castle(self, s, legal, variant, fen, moves):
        long_ = s.upper().count("O") + s.count("0") >= 3
        ks = [m for m in legal if "@" not in m and self._is_castle(m, variant, fen, moves)]
        for m in ks:
            fr, to = MOVE_RE.match(m).group("frm"), MOVE_RE.match(m).group("to")
            if (to[0] < fr[0]) == long_:
                return m
        return None

    def _is_castle(self, m, variant, fen, moves):
        return sf.get_san(variant, sf.get_fen(variant, fen, moves), m, False, sf.NOTATION_SAN).startswith("O-O")

    def _san(self, s, variant, fen, moves, legal):
        if variant is None:
            return None
        cur = sf.get_fen(variant, fen, moves)
        for m in legal:
            for nt in (sf.NOTATION_SAN, sf.NOTATION_DEFAULT):
                if sf.get_san(variant, cur, m, False, nt).rstrip("+#") == s.rstrip("+#"):
                    self.quirks.add("SAN move %r" % s)
                    return m
        return None


# --------------------------------------------------------------------------- players
class Player:
    proto = "?"

    def __init__(self, spec, variant, tc, ranks, idx):
        self.spec = spec
        self.variant = variant
        self.tc = tc
        self.idx = idx
        self.name = spec.get("name")
        self.quirks = []
        self.notation = Notation(ranks, spec.get("ranks0", "auto"), self.proto)
        self.e = None
        self.last_info = None

    def qk(self, msg):
        if msg not in self.quirks:
            self.quirks.append(msg)
            note("quirk[%s]: %s" % (self.name, msg))

    def launch(self):
        cmd = self.spec["cmd"]
        self.e = Engine(cmd, name=self.name or os.path.basename(shlex.split(cmd)[0]),
                        log=log, cwd=self.spec.get("dir"))

    def close(self):
        if self.e:
            self.e.close(quit_cmd="quit")
            self.e = None


class CecpPlayer(Player):
    proto = "cecp"

    def start(self):
        self.launch()
        self.features = {}
        self.e.send("xboard")
        self.e.send("protover 2")
        deadline = time.time() + 2.0
        done = False
        while time.time() < deadline:
            line = self.e.readline(deadline - time.time())
            if line is None:
                break
            if line.startswith("feature"):
                for k, v in re.findall(r'(\w+)=("[^"]*"|\S+)', line):
                    v = v.strip('"')
                    if k == "option":
                        self.features.setdefault("options", []).append(v)
                    else:
                        self.features[k] = v
                    if k == "done":
                        if v == "0":
                            deadline = time.time() + 10.0
                        else:
                            done = True
                    else:
                        self.e.send("accepted " + k)   # we implement every v2 feature we are offered
                if done:
                    break
        if not done:
            self.qk("no 'feature done=1' within the timeout (protover 1 engine?)")
        f = self.features
        if not self.name:
            self.name = f.get("myname") or self.e.name
        self.e.name = self.name
        self.ping = f.get("ping") == "1"
        um = self.spec.get("usermove", "auto")
        self.usermove = (f.get("usermove") == "1") if um == "auto" else (um == "yes")
        self.setboard = f.get("setboard") == "1"
        self.timecmd = f.get("time", "1") == "1"
        self.reuse = f.get("reuse", "1") == "1"
        self.san = f.get("san") == "1"
        self.variants = [v.strip() for v in f.get("variants", "").split(",") if v.strip()]
        # like XBoard, always send memory/cores to engines that claim the feature
        # (HaChu 0.21 segfaults on its first search if it never got 'memory')
        if f.get("memory") == "1":
            self.e.send("memory %s" % self.spec.get("memory", 64))
        if f.get("smp") == "1":
            self.e.send("cores %s" % self.spec.get("cores", 1))
        for k, v in self.spec.items():
            if k.startswith("option."):
                self.e.send("option %s=%s" % (k[7:], v))
        self.vname = self.spec.get("vname") or self._pick_variant()
        self.sync(10)

    def _pick_variant(self):
        v = self.variant
        if v == "chess":
            return "normal"
        if not self.variants or v in self.variants:
            return v
        for a in VARIANT_ALIASES.get(v, []):
            if a in self.variants:
                return a
        raise SystemExit("%s does not list variant %r (it has: %s); pass vname=..." % (self.name, v, ",".join(self.variants)))

    def sync(self, timeout=5.0):
        """ping/pong barrier; discards stale output. Returns False if the engine did not answer."""
        if not self.ping:
            self.e.collect(0.2)
            return True
        self.pingno = getattr(self, "pingno", 0) + 1
        self.e.send("ping %d" % self.pingno)
        lines, hit = self.e.read_until(lambda l: l.strip() == "pong %d" % self.pingno, timeout)
        return hit is not None

    def new_game(self, start_fen, is_std_start, white_name, black_name):
        if self.e is None or not self.e.alive() or self.spec.get("restart") == "yes" or not self.reuse:
            self.close()
            self.start()
        self.e.send("new")
        if self.vname != "normal":
            self.e.send("variant %s" % self.vname)
        self.e.send("force")
        if not is_std_start:
            if not self.setboard:
                raise SystemExit("%s has setboard=0: give openings as move lists, not FENs" % self.name)
            self.e.send("setboard %s" % start_fen)
        if self.tc.st:
            self.e.send("st %s" % _num(self.tc.st))
        else:
            base = int(round(self.tc.base))
            self.e.send("level %d %d:%02d %s" % (self.tc.moves, base // 60, base % 60, _num(self.tc.inc)))
        if self.tc.depth:
            self.e.send("sd %d" % self.tc.depth)
        self.e.send("easy")
        self.e.send("post")
        self.forced = True
        self.synced = 0
        if not self.sync(10):
            self.qk("no pong after game setup; restarting")
            self.close()
            self.start()
            return self.new_game(start_fen, is_std_start, white_name, black_name)

    def _mv(self, m):
        s = self.notation.to_engine(m)
        if self.san:
            s = sf.get_san(self.variant, self.cur_fen, m, False, sf.NOTATION_SAN)
        return ("usermove " + s) if self.usermove else s

    def go(self, start_fen, moves, my_ms, opp_ms):
        pending = moves[self.synced:]
        if not self.forced and len(pending) != 1:
            self.e.send("force")
            self.forced = True
        if self.forced:
            for i, m in enumerate(pending):
                self.cur_fen = sf.get_fen(self.variant, start_fen, moves[:self.synced + i]) if self.san else None
                self.e.send(self._mv(m))
            if self.timecmd:
                self.e.send("time %d" % max(1, my_ms // 10))
                self.e.send("otim %d" % max(1, opp_ms // 10))
            self.e.send("go")
            self.forced = False
        else:
            if self.timecmd:
                self.e.send("time %d" % max(1, my_ms // 10))
                self.e.send("otim %d" % max(1, opp_ms // 10))
            self.cur_fen = sf.get_fen(self.variant, start_fen, moves[:-1]) if self.san else None
            self.e.send(self._mv(pending[0]))
        self.synced = len(moves)

    def wait(self, deadline):
        """-> (kind, payload): ('move', str) ('resign',) ('claim', result, comment) ('illegal', line)
        ('timeout',) ('died',)"""
        self.last_info = None
        while True:
            rem = deadline - time.time()
            if rem <= 0:
                return ("timeout",)
            try:
                line = self.e.readline(rem)
            except EngineDied:
                return ("died",)
            if line is None:
                return ("timeout",)
            s = line.strip()
            mo = re.match(r"^(?:move\s+|My move is\s*:\s*|\d+\.\s*\.\.\.\s*)(\S+)", s)
            if mo:
                self.synced += 1
                return ("move", mo.group(1))
            if s == "resign" or s.startswith("resign"):
                return ("resign",)
            mo = re.match(r"^(1-0|0-1|1/2-1/2)\s*(\{.*\})?", s)
            if mo:
                return ("claim", mo.group(1), (mo.group(2) or "").strip("{}"))
            if s.startswith("Illegal move"):
                return ("illegal", s)
            if s.startswith("Error"):
                self.qk("engine said: %s" % s)
                continue
            if s.startswith("offer draw"):
                continue
            mo = re.match(r"^(\d+)\s+(-?\d+)\s+(\d+)\s+(\d+)", s)
            if mo:
                self.last_info = (int(mo.group(1)), int(mo.group(2)))  # depth, score(cp)

    def late_messages(self):
        """Claims/resignations that arrived after the engine's last move (checked before its next turn)."""
        for line in self.e.drain():
            s = line.strip()
            if s.startswith("resign"):
                return ("resign",)
            mo = re.match(r"^(1-0|0-1|1/2-1/2)\s*(\{.*\})?", s)
            if mo:
                return ("claim", mo.group(1), (mo.group(2) or "").strip("{}"))
            if s.startswith("Illegal move") or s.startswith("Error"):
                self.qk("late message: %s" % s)
        return None

    def stop_thinking(self):
        if self.e and self.e.alive() and not self.forced:
            self.e.send("force")
            self.forced = True

    def game_over(self, result, reason):
        if self.e and self.e.alive():
            self.e.send("result %s {%s}" % (result, reason))
            self.e.send("force")
            self.forced = True


class UciPlayer(Player):
    proto = "uci"

    def start(self):
        self.launch()
        self.e.send("uci")
        lines, hit = self.e.read_until(lambda l: l.strip() == "uciok", 10)
        if hit is None:
            raise SystemExit("%s: no uciok" % self.spec["cmd"])
        idn = [l[8:].strip() for l in lines if l.startswith("id name")]
        if not self.name:
            self.name = idn[0] if idn else self.e.name
        self.e.name = self.name
        self.options = [l for l in lines if l.startswith("option name")]
        have = " ".join(self.options)
        if "name Hash " in have:
            self.e.send("setoption name Hash value %s" % self.spec.get("memory", 64))
        if "name Threads " in have:
            self.e.send("setoption name Threads value %s" % self.spec.get("cores", 1))
        if self.spec.get("config"):
            self.e.send("setoption name VariantPath value %s" % self.spec["config"])
        for k, v in self.spec.items():
            if k.startswith("option."):
                self.e.send("setoption name %s value %s" % (k[7:], v))
        vname = self.spec.get("vname") or self.variant
        if vname != "chess":
            self.e.send("setoption name UCI_Variant value %s" % vname)
        self.ready(10)

    def ready(self, timeout):
        self.e.send("isready")
        return self.e.read_until(lambda l: l.strip() == "readyok", timeout)[1] is not None

    def new_game(self, start_fen, is_std_start, white_name, black_name):
        if self.e is None or not self.e.alive() or self.spec.get("restart") == "yes":
            self.close()
            self.start()
        self.e.send("ucinewgame")
        if not self.ready(10):
            self.qk("no readyok after ucinewgame; restarting")
            self.close()
            self.start()
        self.thinking = False

    def go(self, start_fen, moves, my_ms, opp_ms):
        mv = " ".join(self.notation.to_engine(m) for m in moves)
        pos = "startpos" if start_fen == sf.start_fen(self.variant) else ("fen " + start_fen)
        self.e.send("position %s%s" % (pos, (" moves " + mv) if mv else ""))
        if self.tc.st:
            cmd = "go movetime %d" % int(self.tc.st * 1000)
        else:
            w, b = (my_ms, opp_ms) if self.stm_white else (opp_ms, my_ms)
            inc = int(self.tc.inc * 1000)
            cmd = "go wtime %d btime %d winc %d binc %d" % (max(1, w), max(1, b), inc, inc)
            if self.tc.moves:
                left = self.tc.moves - (self.moveno % self.tc.moves)
                cmd += " movestogo %d" % left
        if self.tc.depth:
            cmd += " depth %d" % self.tc.depth
        self.e.send(cmd)
        self.thinking = True

    def wait(self, deadline):
        self.last_info = None
        while True:
            rem = deadline - time.time()
            if rem <= 0:
                return ("timeout",)
            try:
                line = self.e.readline(rem)
            except EngineDied:
                return ("died",)
            if line is None:
                return ("timeout",)
            if line.startswith("bestmove"):
                self.thinking = False
                parts = line.split()
                if len(parts) < 2 or parts[1] in ("(none)", "0000"):
                    return ("resign",)
                return ("move", parts[1])
            if line.startswith("info"):
                d = re.search(r"\bdepth (\d+)", line)
                cp = re.search(r"\bscore cp (-?\d+)", line)
                mt = re.search(r"\bscore mate (-?\d+)", line)
                if d and (cp or mt):
                    sc = int(cp.group(1)) if cp else (100000 - abs(int(mt.group(1)))) * (1 if int(mt.group(1)) > 0 else -1)
                    self.last_info = (int(d.group(1)), sc)

    def stop_thinking(self):
        if self.e and self.e.alive() and self.thinking:
            self.e.send("stop")
            self.e.read_until(lambda l: l.startswith("bestmove"), 2.0)
            self.thinking = False

    def game_over(self, result, reason):
        self.stop_thinking()


def _num(x):
    return ("%d" % x) if float(x).is_integer() else ("%g" % x)


class TC:
    def __init__(self, tc=None, st=None, depth=None):
        self.st = st
        self.depth = depth
        self.moves, self.base, self.inc = 0, 0.0, 0.0
        if tc:
            mo = re.fullmatch(r"(?:(\d+)/)?([\d.]+)(?:\+([\d.]+))?", tc)
            if not mo:
                raise SystemExit("bad --tc %r (want [MOVES/]BASE[+INC] in seconds)" % tc)
            self.moves = int(mo.group(1) or 0)
            self.base = float(mo.group(2))
            self.inc = float(mo.group(3) or 0)

    def pgn(self):
        if self.st:
            return "%s/move" % _num(self.st)
        s = "%s+%s" % (_num(self.base), _num(self.inc))
        return ("%d/%s" % (self.moves, s)) if self.moves else s


# --------------------------------------------------------------------------- rules
def board_ranks(variant, fen):
    board = fen.split()[0].split("[")[0]
    return len([r for r in board.split("/") if r != ""]) if "/" in board else 8


def game_status(variant, start_fen, moves, max_plies, n_opening):
    """-> (legal_moves, None) or ([], (result_for_white ('1-0','0-1','1/2-1/2'), reason))."""
    fen = sf.get_fen(variant, start_fen, moves)
    white = fen.split()[1] == "w"

    def res(val, reason):
        if val == 0:
            return "1/2-1/2", reason
        stm_wins = val > 0
        return ("1-0" if stm_wins == white else "0-1"), reason

    legal = sf.legal_moves(variant, start_fen, moves)
    if not legal:
        val = sf.game_result(variant, start_fen, moves)
        imm, _ = sf.is_immediate_game_end(variant, start_fen, moves)
        if imm:
            kind = "variant end"
        elif sf.gives_check(variant, start_fen, moves):   # (= side to move is in check)
            kind = "checkmate"
        else:
            kind = "stalemate" + (" (scored as a win/loss in %s)" % variant if val != 0 else "")
        return [], res(val, kind)
    imm, val = sf.is_immediate_game_end(variant, start_fen, moves)
    if imm:
        return [], res(val, "variant end")
    opt, val = sf.is_optional_game_end(variant, start_fen, moves)
    if opt:
        f = fen.split()
        hm = int(f[4]) if len(f) >= 6 and f[4].isdigit() else 0
        why = ("n-move rule (halfmove clock %d)" % hm) if hm >= 100 else "repetition"
        if val != 0:
            why += " (decisive by the variant's perpetual-check/chase/repetition rule)"
        return [], res(val, why)
    wi, bi = sf.has_insufficient_material(variant, start_fen, moves)
    if wi and bi:
        return [], ("1/2-1/2", "insufficient material")
    if max_plies and len(moves) - n_opening >= max_plies:
        return [], ("1/2-1/2", "adjudication: max plies %d" % max_plies)
    return legal, None


# --------------------------------------------------------------------------- games
def play_game(players, white_idx, variant, start_fen, opening_moves, tc, margin, max_plies, deadline_all, gno):
    std_start = start_fen == sf.start_fen(variant)
    wp, bp = players[white_idx], players[1 - white_idx]
    for p in (wp, bp):
        try:
            p.new_game(start_fen, std_start, wp.name, bp.name)
        except EngineDied as ex:
            note("%s died while setting up game %d: %s" % (p.name, gno, ex))
            p.close()
            for q in (wp, bp):
                if q is not p:
                    q.stop_thinking()
            return list(opening_moves), [""] * len(opening_moves), \
                (("0-1" if p is wp else "1-0"), "%s crashed during game setup" % p.name)
    moves = list(opening_moves)
    comments = [""] * len(moves)
    first_white = start_fen.split()[1] == "w"
    clocks = {i: players[i].tc.base * 1000.0 for i in (0, 1)}   # by player index (each its own tc)
    per_player_moves = {0: 0, 1: 0}
    result = None
    while True:
        legal, end = game_status(variant, start_fen, moves, max_plies, len(opening_moves))
        if end:
            result = end
            break
        if time.time() > deadline_all:
            result = ("*", "match time limit reached")
            break
        white_to_move = (len(moves) % 2 == 0) == first_white
        p = wp if white_to_move else bp
        o = bp if white_to_move else wp
        pi = players.index(p)
        tc = p.tc
        my_ms, opp_ms = int(clocks[pi]), int(clocks[1 - pi])
        if isinstance(p, UciPlayer):
            p.stm_white = white_to_move
            p.moveno = per_player_moves[pi]
        late = p.late_messages() if hasattr(p, "late_messages") else None
        if late:
            lose = "0-1" if white_to_move else "1-0"
            if late[0] == "resign" or (late[0] == "claim" and late[1] == lose):
                result = (lose, "%s resigns (%s)" % (p.name, " ".join(late[1:]) or "resign"))
            else:
                result = (lose, "%s made a false claim %s {%s} (the oracle saw no game end)" % (p.name, late[1], late[2]))
            break
        t_start = time.time()
        try:
            p.go(start_fen, moves, my_ms, opp_ms)
        except EngineDied:
            result = (("0-1" if white_to_move else "1-0"), "%s crashed" % p.name)
            break
        allowed = (tc.st if tc.st else max(0.0, clocks[pi] / 1000.0)) + margin
        if tc.depth and not tc.st and not tc.base:
            allowed = 3600.0
        ans = p.wait(t_start + allowed)
        elapsed = time.time() - t_start
        lose = "0-1" if white_to_move else "1-0"
        if ans[0] == "timeout":
            result = (lose, "%s lost on time (no move after %.2fs)" % (p.name, elapsed))
            p.stop_thinking()
            p.hung = True
            break
        if ans[0] == "died":
            result = (lose, "%s crashed / exited" % p.name)
            break
        if ans[0] == "resign":
            result = (lose, "%s resigns" % p.name)
            break
        if ans[0] == "illegal":
            # the engine that says 'Illegal move' is the one we just sent a move to (p)
            result = (lose, "%s rejected the legal move %s (%s)" % (p.name, moves[-1] if moves else "?", ans[1]))
            break
        if ans[0] == "claim":
            claimed, why = ans[1], ans[2]
            result = (lose, "%s made a false claim %s {%s}" % (p.name, claimed, why))
            # a claim where the oracle sees no game end: resignation if it claims its own loss
            if claimed == lose:
                result = (lose, "%s resigns (claims %s {%s})" % (p.name, claimed, why))
            break
        raw = ans[1]
        m = p.notation.from_engine(raw, legal, variant, start_fen, moves)
        if m is None:
            result = (lose, "%s played illegal move %r" % (p.name, raw))
            break
        for q in p.notation.quirks - set(getattr(p, "_seen_q", set())):
            p.qk(q)
        p._seen_q = set(p.notation.quirks)
        if not tc.st:
            clocks[pi] -= elapsed * 1000.0
            if clocks[pi] < -margin * 1000.0:
                result = (lose, "%s lost on time (clock %.2fs)" % (p.name, clocks[pi] / 1000.0))
                moves.append(m)
                comments.append("%.2fs" % elapsed)
                break
            clocks[pi] += tc.inc * 1000.0
            per_player_moves[pi] += 1
            if tc.moves and per_player_moves[pi] % tc.moves == 0:
                clocks[pi] += tc.base * 1000.0
        elif elapsed > tc.st + margin:
            result = (lose, "%s exceeded st (%.2fs)" % (p.name, elapsed))
            break
        info = p.last_info
        if info:
            sc = info[1]
            scs = ("%+.2f" % (sc / 100.0)) if abs(sc) < 90000 else ("%sM%d" % ("+" if sc > 0 else "-", abs(abs(sc) - 100000)))
            comments.append("%s/%d %.2fs" % (scs, info[0], elapsed))
        else:
            comments.append("%.2fs" % elapsed)
        moves.append(m)
    for p in (wp, bp):
        try:
            if result[0] != "*":
                p.game_over(result[0], result[1])
            else:
                p.stop_thinking()
        except EngineDied:
            pass
        if getattr(p, "hung", False) or (p.e is not None and not p.e.alive()):
            p.close()
            p.hung = False
    return moves, comments, result


def pgn_text(variant, start_fen, wname, bname, moves, comments, result, tc, rnd, n_opening):
    date = datetime.date.today().strftime("%Y.%m.%d")
    tags = [("Event", "referee.py match"), ("Site", os.uname().nodename), ("Date", date), ("Round", str(rnd)),
            ("White", wname), ("Black", bname), ("Result", result[0])]
    if variant != "chess":
        tags.append(("Variant", variant))
    if start_fen != sf.start_fen(variant):
        tags += [("SetUp", "1"), ("FEN", start_fen)]
    tags += [("TimeControl", tc.pgn()), ("Termination", result[1]), ("PlyCount", str(len(moves)))]
    out = ["[%s \"%s\"]" % (k, v.replace('"', "'")) for k, v in tags]
    try:
        sans = sf.get_san_moves(variant, start_fen, moves, False, sf.NOTATION_SAN)
    except Exception:
        sans = moves
    white_first = start_fen.split()[1] == "w"
    body = []
    fullmove = int(start_fen.split()[-1]) if start_fen.split()[-1].isdigit() else 1
    for i, s in enumerate(sans):
        wtm = (i % 2 == 0) == white_first
        if wtm:
            body.append("%d." % fullmove)
        elif i == 0:
            body.append("%d..." % fullmove)
        body.append(s)
        if i < n_opening:
            body.append("{book}")
        elif comments[i]:
            body.append("{%s}" % comments[i])
        if not wtm:
            fullmove += 1
    body.append("{%s}" % result[1])
    body.append(result[0])
    lines, cur = [], ""
    for tok in body:
        if len(cur) + len(tok) + 1 > 79:
            lines.append(cur)
            cur = tok
        else:
            cur = (cur + " " + tok) if cur else tok
    lines.append(cur)
    return "\n".join(out) + "\n\n" + "\n".join(lines) + "\n\n"


def elo_stats(w, l, d):
    n = w + l + d
    if n == 0:
        return 0.5, float("nan"), float("nan"), float("nan")
    p = (w + d / 2.0) / n

    def elo(x):
        if x <= 0:
            return float("-inf")
        if x >= 1:
            return float("inf")
        return -400.0 * math.log10(1.0 / x - 1.0)

    var = (w * (1 - p) ** 2 + l * (0 - p) ** 2 + d * (0.5 - p) ** 2) / n
    sd = math.sqrt(var / n)
    lo, hi = p - 1.959964 * sd, p + 1.959964 * sd
    err = (elo(hi) - elo(lo)) / 2.0 if 0 < lo and hi < 1 else float("nan")
    # likelihood of superiority
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2.0 * (w + l)))) if (w + l) else 0.5
    return p, elo(p), err, los, elo(max(lo, 0.0)), elo(min(hi, 1.0))


def load_openings(path, variant):
    ops = []
    for line in open(path):
        line = line.split("#")[0].strip() if not line.strip().startswith("[") else ""
        if not line:
            continue
        if "/" in line:
            if sf.validate_fen(line, variant) != 1:
                raise SystemExit("invalid FEN for %s in %s: %s" % (variant, path, line))
            ops.append((line, []))
        else:
            mv = line.split()
            st = sf.start_fen(variant)
            for i in range(len(mv)):
                if mv[i] not in sf.legal_moves(variant, st, mv[:i]):
                    raise SystemExit("illegal opening move %s in line %r" % (mv[i], line))
            ops.append((st, mv))
    if not ops:
        raise SystemExit("no openings in %s" % path)
    return ops


def parse_spec(s):
    spec = {}
    for tok in shlex.split(s):
        if "=" not in tok:
            raise SystemExit("engine spec token %r is not key=value" % tok)
        k, v = tok.split("=", 1)
        spec[k] = v
    if "cmd" not in spec:
        raise SystemExit("engine spec needs cmd=...")
    return spec


def main(argv=None):
    global LOG
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--config", default=None, help="variants.ini for custom variants (pyffish + UCI VariantPath)")
    ap.add_argument("--engine", action="append", required=True, help="engine spec (twice)")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--tc", default=None, help="[MOVES/]BASE[+INC] seconds, e.g. 10+0.1 or 40/60")
    ap.add_argument("--st", type=float, default=None, help="fixed seconds per move")
    ap.add_argument("--depth", type=int, default=None, help="also limit depth (sd / go depth)")
    ap.add_argument("--margin", type=float, default=0.5, help="seconds of grace before a time forfeit")
    ap.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this many plies")
    ap.add_argument("--max-seconds", type=float, default=3600, help="wall-clock bound for the whole match")
    ap.add_argument("--hash", type=int, default=64, help="MB for every engine (CECP memory / UCI Hash) unless memory= given")
    ap.add_argument("--threads", type=int, default=1, help="CECP cores / UCI Threads unless cores= given")
    ap.add_argument("--openings", default=None)
    ap.add_argument("--pgn", default=None, help="append games to this PGN file")
    ap.add_argument("--log", default=None, help="full engine I/O log")
    ap.add_argument("--json", default=None, help="write a JSON summary here")
    a = ap.parse_args(argv)
    if len(a.engine) != 2:
        raise SystemExit("need exactly two --engine specs")
    if not a.tc and not a.st and not a.depth:
        a.tc = "10+0.1"
    if a.log:
        LOG = open(a.log, "w")
    if a.config:
        sf.load_variant_config(open(a.config).read())
    if a.variant not in sf.variants():
        raise SystemExit("pyffish does not know variant %r" % a.variant)
    tc = TC(a.tc, a.st, a.depth)
    openings = load_openings(a.openings, a.variant) if a.openings else [(sf.start_fen(a.variant), [])]
    ranks = board_ranks(a.variant, sf.start_fen(a.variant))
    players = []
    try:
        for i, s in enumerate(a.engine):
            spec = parse_spec(s)
            spec.setdefault("memory", str(a.hash))
            spec.setdefault("cores", str(a.threads))
            if a.config:
                spec.setdefault("config", os.path.abspath(a.config))
            cls = UciPlayer if spec.get("proto", "cecp") == "uci" else CecpPlayer
            p = cls(spec, a.variant, TC(spec["tc"], None, a.depth) if "tc" in spec else tc, ranks, i)
            players.append(p)
            p.start()
    except BaseException:
        for p in players:
            try:
                p.close()
            except Exception:
                pass
        raise
    note("match: %s (%s) vs %s (%s), variant %s, %d games, tc %s, margin %.2fs" % (
        players[0].name, players[0].proto, players[1].name, players[1].proto, a.variant, a.games, tc.pgn(), a.margin))
    if len(set(p.name for p in players)) == 1:
        players[1].name += " (2)"
    deadline_all = time.time() + a.max_seconds
    score = {"w": 0, "l": 0, "d": 0}   # from players[0]'s point of view
    games = []
    try:
        for g in range(a.games):
            if time.time() > deadline_all:
                note("match time limit reached; stopping before game %d" % (g + 1))
                break
            fen, opmoves = openings[(g // 2) % len(openings)]
            white_idx = g % 2
            t0 = time.time()
            moves, comments, result = play_game(players, white_idx, a.variant, fen, opmoves, tc, a.margin,
                                                a.max_plies, deadline_all, g + 1)
            wn, bn = players[white_idx].name, players[1 - white_idx].name
            if result[0] == "1/2-1/2":
                score["d"] += 1
            elif result[0] in ("1-0", "0-1"):
                p0_white = white_idx == 0
                if (result[0] == "1-0") == p0_white:
                    score["w"] += 1
                else:
                    score["l"] += 1
            games.append({"game": g + 1, "white": wn, "black": bn, "result": result[0], "reason": result[1],
                          "plies": len(moves), "seconds": round(time.time() - t0, 1)})
            note("game %d: %s - %s  %s {%s}  %d plies  %.1fs" % (g + 1, wn, bn, result[0], result[1], len(moves),
                                                                 time.time() - t0))
            if a.pgn:
                with open(a.pgn, "a") as f:
                    f.write(pgn_text(a.variant, fen, wn, bn, moves, comments, result, tc, g + 1, len(opmoves)))
    finally:
        for p in players:
            try:
                p.close()
            except Exception:
                pass
    w, l, d = score["w"], score["l"], score["d"]
    p, elo, err, los, elo_lo, elo_hi = elo_stats(w, l, d)

    def fe(x):
        return ("%.1f" % x) if math.isfinite(x) else ("%sinf" % ("+" if x > 0 else "-"))
    summary = "Score of %s vs %s: %d - %d - %d  [%.3f] %d games  Elo: %s +/- %s (95%% CI %s..%s)  LOS: %.1f%%" % (
        players[0].name, players[1].name, w, l, d, p, w + l + d, fe(elo),
        ("%.1f" % err) if math.isfinite(err) else "n/a", fe(elo_lo), fe(elo_hi), los * 100)
    quirks = {pl.name: pl.quirks for pl in players}
    for n, qs in quirks.items():
        for q in qs:
            print("quirk[%s]: %s" % (n, q))
    print(summary, flush=True)
    if a.json:
        json.dump({"variant": a.variant, "tc": tc.pgn(), "players": [pl.name for pl in players], "wins": w,
                   "losses": l, "draws": d, "score": p, "elo": elo if math.isfinite(elo) else None,
                   "elo_err95": err if math.isfinite(err) else None,
                   "elo_ci95": [x if math.isfinite(x) else None for x in (elo_lo, elo_hi)], "los": los, "games": games, "quirks": quirks},
                  open(a.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
