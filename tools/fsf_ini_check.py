#!/usr/bin/env python3
"""fsf_ini_check.py -- load a Fairy-Stockfish variants.ini into Menagerie and into pyffish
(the rules oracle) and compare.

For every section of the file: Menagerie either loads it (then the start-position perft
to --depth must equal pyffish's) or refuses it with an error naming the key (or parent)
it cannot use. Prints one line per section, then a summary.

  tools/fsf_ini_check.py FILE [--engine ./target/release/menagerie] [--depth 3]

Needs python3 with pyffish (pip install pyffish==0.0.90). Optional check, not part of
`cargo test`.
"""
import argparse
import re
import subprocess
import sys


def pyffish_perft(sf, variant, fen, depth):
    def rec(moves, d):
        lm = sf.legal_moves(variant, fen, moves)
        if d == 1:
            return len(lm)
        return sum(rec(moves + [m], d - 1) for m in lm)
    return rec([], depth)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--engine", default="./target/release/menagerie")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--max-nodes", type=int, default=200000,
                    help="lower the depth for a section until pyffish's count stays below this")
    args = ap.parse_args()

    import pyffish as sf
    text = open(args.file).read()
    sf.load_variant_config(text)
    sections = re.findall(r"^\[([^\]:]+)(?::[^\]]*)?\]", text, re.M)

    out = subprocess.run([args.engine, "check", args.file], capture_output=True, text=True).stdout
    loaded = set(re.findall(r"^ok (\S+) ", out, re.M))
    errors = {}
    for line in out.splitlines():
        m = re.match(r"^error \S+:\d+: \[([^\]]+)\] (.*)$", line)
        if m:
            errors.setdefault(m.group(1), []).append(m.group(2))

    agree = disagree = 0
    for name in sections:
        if name in loaded:
            fen = sf.start_fen(name)
            depth = args.depth
            while depth > 1:
                # Keep pyffish (slow) affordable.
                n1 = len(sf.legal_moves(name, fen, []))
                if n1 ** depth <= args.max_nodes:
                    break
                depth -= 1
            want = pyffish_perft(sf, name, fen, depth)
            r = subprocess.run([args.engine, "perft", str(depth), "--variants", args.file,
                                "--variant", name], capture_output=True, text=True)
            got = re.search(r"Nodes searched: (\d+)", r.stdout)
            got = int(got.group(1)) if got else None
            if got == want:
                agree += 1
                print(f"ok       {name}: perft({depth}) = {want}")
            else:
                disagree += 1
                print(f"MISMATCH {name}: perft({depth}) menagerie {got} pyffish {want}")
        else:
            why = "; ".join(errors.get(name, ["(no message)"]))
            print(f"refused  {name}: {why}")
    print(f"\n{len(sections)} sections: {len(loaded)} load, {len(sections) - len(loaded)} refused; "
          f"start-position perft: {agree} agree with pyffish, {disagree} differ")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
