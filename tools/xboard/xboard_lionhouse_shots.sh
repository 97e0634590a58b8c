#!/usr/bin/env bash
# Screenshots of Menagerie's move-entry highlighting in real XBoard 4.9.1 (under Xvfb),
# in the engine-defined variant `lionhouse` (tests/data/protocol/variants.ini):
# a slider, a capture, a drop from the hand, a promoting pawn (choice on put, shown while
# the button is held) and a multi-leg Lion capture entered in two clicks. XBoard runs in EditGame mode (the
# user moves both sides) with legality testing off, so that it relies on the
# engine's highlight and `choice`.
#
#   tools/xboard/xboard_lionhouse_shots.sh ENGINE_BINARY [OUT_DIR]
#
# Uses xboard_session.sh and xboard_lift.sh beside it (XBoard, Xvfb, xdotool,
# ImageMagick). Prints the lift/highlight
# traffic; the screenshots are OUT_DIR/shot-*.png.
set -u
ENGINE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${2:-/tmp/xboard-lionhouse}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOOLS=$HERE
L=$TOOLS/xboard_lift.sh
rm -rf "$OUT"
"$TOOLS/xboard_session.sh" start -e "$ENGINE --variants $HERE/../../tests/data/protocol/variants.ini" -v lionhouse -o "$OUT" \
  -m EditGame -x '-testLegality false' -s 64 >/dev/null || exit 1
trap '"$TOOLS/xboard_session.sh" stop "$OUT" >/dev/null' EXIT
move() { "$L" "$OUT" "$1" --to "$2" -o "$OUT/move-$1-$2.png" >/dev/null 2>&1; }
shot() { echo "== $2"; "$L" "$OUT" "$1" -o "$OUT/shot-$2.png" 2>/dev/null | grep -E 'lift|highlight|put|choice|usermove'; }
move e2 e4; move d7 d5
shot f1 slider                                    # bishop: the diagonal up to a6
shot e4 capture                                   # pawn: e5 (move), d5 (capture, red)
move e4 d5; move c7 c6
shot W@1 drop                                     # the pawn in hand: every empty square of ranks 2-7
move W@1 c7; move a7 a6
shot c7 promotion                                 # pawn on c7: b8 and d8 promote with a choice (magenta)
echo "== promotion-put"                            # press on b8 and hold: XBoard sends 'put', the
# engine answers 'choice LRBN' and XBoard previews the first choice (the Lion) on b8; the
# shot is taken while the button is still down (a scripted click would release before the
# 'choice' arrives), then the release completes the move.
. "$OUT/session.env"; export DISPLAY
N0=$(wc -l < "$DEBUG_LOG")
read -r _ X Y <<<"$("$L" "$OUT" b8 --xy)"
xdotool mousemove "$X" "$Y" sleep 0.2 mousedown 1
for _ in $(seq 1 30); do tail -n +"$((N0 + 1))" "$DEBUG_LOG" | grep -q '<first : choice' && break; sleep 0.1; done
sleep 0.5; import -window "$WINDOW_ID" "$OUT/shot-promotion-put.png"
xdotool mouseup 1; sleep 1.5; import -window "$WINDOW_ID" "$OUT/shot-promotion-done.png"
tail -n +"$((N0 + 1))" "$DEBUG_LOG" | grep -E 'put|choice|usermove|Illegal|Error'
move a6 a5
shot b8 multileg                                  # Lion on b8: adjacent enemies are relay squares (cyan)
echo "== multileg-relay"                          # click the relay square c8: the continuations
"$L" "$OUT" c8 --at -o "$OUT/shot-multileg-relay.png" 2>/dev/null | grep -E 'put|lift|highlight'
echo "== multileg-end"                            # click d7: the two-leg move b8c8,c8d7
"$L" "$OUT" d7 --at -o "$OUT/shot-multileg-end.png" 2>/dev/null | grep -E 'put|usermove|Illegal|Error'
grep -c -E 'Illegal|Error' "$OUT/xboard.debug" | sed 's/^/errors in the debug log: /'
