#!/usr/bin/env bash
# perft_speed.sh -- perft speed of Menagerie next to Fairy-Stockfish, same run, one thread.
#
#   tools/perft_speed.sh [FSF_BINARY] [MENAGERIE_BINARY]
#       defaults: /usr/games/fairy-stockfish (Debian's 11.1) and ./target/release/menagerie
#   CASES="chess:6 crazyhouse:6 shogi:5 xiangqi:5" tools/perft_speed.sh
#
# For each variant:depth: the start-position perft by both engines, wall time measured
# around each run. Fairy-Stockfish's start-up time is measured with the same pipe minus
# 'go perft' and subtracted. Prints a markdown table: nodes, seconds, nodes/s, ratio
# (Menagerie nodes/s divided by Fairy-Stockfish nodes/s). Run nothing else meanwhile.
set -euo pipefail
FSF=${1:-/usr/games/fairy-stockfish}
ME=${2:-./target/release/menagerie}
CASES=${CASES:-"chess:6 crazyhouse:6 shogi:5 xiangqi:5"}

now() { date +%s.%N; }

echo "| variant | depth | nodes | Menagerie s | Menagerie nodes/s | FSF s | FSF nodes/s | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for c in $CASES; do
  v=${c%%:*}; d=${c##*:}
  t0=$(now)
  me_nodes=$("$ME" perft "$d" --variant "$v" 2>/dev/null | sed -n 's/^Nodes searched: //p')
  t1=$(now)
  me_s=$(echo "$t1 - $t0" | bc -l)
  base=$(printf 'uci\nsetoption name UCI_Variant value %s\nisready\nposition startpos\nquit\n' "$v")
  t0=$(now); printf '%s\n' "$base" | "$FSF" >/dev/null 2>&1; t1=$(now)
  startup=$(echo "$t1 - $t0" | bc -l)
  t0=$(now)
  fsf_nodes=$(printf 'uci\nsetoption name UCI_Variant value %s\nisready\nposition startpos\ngo perft %s\nquit\n' "$v" "$d" \
      | "$FSF" 2>/dev/null | sed -n 's/^Nodes searched: //p')
  t1=$(now)
  fsf_s=$(echo "$t1 - $t0 - $startup" | bc -l)
  if [ "$me_nodes" != "$fsf_nodes" ]; then
    echo "node counts differ for $v d$d: menagerie $me_nodes, fsf $fsf_nodes" >&2
  fi
  me_nps=$(echo "$me_nodes / $me_s" | bc -l)
  fsf_nps=$(echo "$fsf_nodes / $fsf_s" | bc -l)
  printf '| %s | %s | %s | %.2f | %.0f | %.2f | %.0f | %.2f |\n' "$v" "$d" "$me_nodes" "$me_s" "$me_nps" "$fsf_s" "$fsf_nps" \
    "$(echo "$me_nps / $fsf_nps" | bc -l)"
done
