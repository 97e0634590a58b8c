#!/usr/bin/env bash
# Screenshots of crazyhouse drops and shogi promotions in real XBoard 4.9.1 (under Xvfb),
# as a user sees them with XBoard's default settings ("Test Legality" on) and with legality
# testing off. XBoard plays both variants natively: with legality testing on it ignores
# the engine's `highlight` and `choice` (backend.c, HandleMachineMove: "highlight" is
# dropped when testLegality && !*engineVariant && markers; "choice" is read only when
# !testLegality) and draws its own markers; with it off, the engine's are shown.
#
#   tools/xboard/xboard_legality_shots.sh ENGINE_BINARY [OUT_DIR]
#
# Uses xboard_session.sh and xboard_lift.sh beside it (XBoard, Xvfb, xdotool,
# ImageMagick). Prints the lift/highlight and
# move traffic; the screenshots are OUT_DIR/{legal,nolegal}-{zh-drop,shogi-lift,shogi-move}.png.
set -u
ENGINE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${2:-/tmp/xboard-legality}
TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
L=$TOOLS/xboard_lift.sh
rm -rf "$OUT"; mkdir -p "$OUT"
for mode in legal nolegal; do
  extra=(); [ "$mode" = nolegal ] && extra=(-x '-testLegality false')
  # Crazyhouse: after 1. e4 d5 2. exd5 Qxd5 each side holds a pawn; White lifts it.
  S=$OUT/$mode-zh
  "$TOOLS/xboard_session.sh" start -e "$ENGINE" -v crazyhouse -o "$S" -m EditGame -s 64 \
    "${extra[@]}" >/dev/null || exit 1
  for m in "e2 e4" "d7 d5" "e4 d5" "d8 d5"; do
    set -- $m; "$L" "$S" "$1" --to "$2" -o "$S/move-$1-$2.png" >/dev/null 2>&1
  done
  echo "== $mode: crazyhouse, White lifts the pawn in hand"
  "$L" "$S" W@1 -o "$OUT/$mode-zh-drop.png" 2>/dev/null | grep -E 'lift|highlight'
  "$TOOLS/xboard_session.sh" stop "$S" >/dev/null
  # Shogi: 1. c3c4 a7a6; the bishop on b2 can take on g7 and promote (or not).
  S=$OUT/$mode-shogi
  "$TOOLS/xboard_session.sh" start -e "$ENGINE" -v shogi -o "$S" -m EditGame -s 54 \
    "${extra[@]}" >/dev/null || exit 1
  for m in "c3 c4" "a7 a6"; do
    set -- $m; "$L" "$S" "$1" --to "$2" -o "$S/move-$1-$2.png" >/dev/null 2>&1
  done
  echo "== $mode: shogi, the bishop on b2 lifted, then click-click b2 g7"
  "$L" "$S" b2 -o "$OUT/$mode-shogi-lift.png" 2>/dev/null | grep -E 'lift|highlight'
  "$L" "$S" g7 --at -o "$OUT/$mode-shogi-move.png" 2>/dev/null |
    grep -E 'put|choice|usermove|Illegal|Error'
  sleep 1; "$TOOLS/xboard_session.sh" shot "$S" "$OUT/$mode-shogi-after.png" >/dev/null
  grep -E 'usermove|choice|Illegal' "$S/xboard.debug" | tail -3
  "$TOOLS/xboard_session.sh" stop "$S" >/dev/null
done
