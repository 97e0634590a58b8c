#!/usr/bin/env bash
# One match through the referee (tools/referee.py): menagerie against a reference
# engine, one thread each, each opening of tools/openings/VARIANT.txt (when there is
# one) played twice with colours swapped; PGN, log and JSON result kept under OUT.
#   tools/match.sh VARIANT OPPONENT [GAMES] [TC] [extra referee args...]
# OPPONENT: fairymax | sjeng | sjaakii | fairy-stockfish
# Environment: MENAGERIE (binary, default target/release/menagerie),
#              VARIANTS (extra variant file for the engine, optional),
#              OUT (directory for PGN/log/JSON, default /tmp/menagerie-matches).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
variant=$1; opp=$2; games=${3:-60}; tc=${4:-10+0.1}; shift $(( $# < 4 ? $# : 4 ))
bin=${MENAGERIE:-$here/target/release/menagerie}
out=${OUT:-/tmp/menagerie-matches}; mkdir -p "$out"
spec="cmd=$bin name=menagerie"
if [ -n "${VARIANTS:-}" ]; then spec="$spec vname=$variant option.VariantPath=$VARIANTS"; fi
case $opp in
  fairymax) ospec="cmd=/usr/games/fairymax" ;;
  sjeng) ospec="cmd=/usr/games/sjeng" ;;
  sjaakii) ospec="cmd=/usr/games/sjaakii" ;;
  fairy-stockfish) ospec="cmd=/usr/games/fairy-stockfish proto=uci" ;;
  *) ospec="$opp" ;;
esac
book="$here/tools/openings/$variant.txt"
openings=(); [ -f "$book" ] && openings=(--openings "$book")
tag="$variant-$opp-$(date +%Y%m%d-%H%M%S)"
exec python3 "$here/tools/referee.py" --variant "$variant" --games "$games" --tc "$tc" \
  --engine "$spec" --engine "$ospec" "${openings[@]}" \
  --pgn "$out/$tag.pgn" --log "$out/$tag.log" --json "$out/$tag.json" "$@"
