#!/usr/bin/env bash
# Search speed next to Fairy-Stockfish, same run: for each variant's start position,
# menagerie's nodes/second over MOVETIME ms (one thread) and Fairy-Stockfish's
# `go movetime MOVETIME` nps; then menagerie's bench nodes/second (depth run).
#   tools/bench_vs_fsf.sh [MOVETIME_MS] [VARIANT...]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${MENAGERIE:-$here/target/release/menagerie}
fsf=${FSF:-/usr/games/fairy-stockfish}
ms=${1:-5000}; shift || true
variants=${*:-chess crazyhouse shogi xiangqi}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "fsf: $(echo quit | $fsf | head -1)"
printf "%-12s %14s %14s %8s\n" variant menagerie_nps fsf_nps ratio
for v in $variants; do
  ours=$("$bin" bench --movetime "$ms" --variant "$v" | awk '/^Nodes\/second/ {print $2}')
  theirs=$( (printf 'uci\nsetoption name UCI_Variant value %s\nsetoption name Threads value 1\nposition startpos\ngo movetime %s\n' "$v" "$ms"; sleep $(( ms / 1000 + 2 )); echo quit) \
    | "$fsf" | awk '/^info .* nps / {for (i = 1; i <= NF; i++) if ($i == "nps") n = $(i + 1)} END {print n}')
  ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}')
  printf "%-12s %14s %14s %8s\n" "$v" "$ours" "$theirs" "$ratio"
done
"$bin" bench | tail -2
