#!/usr/bin/env bash
# The strength options in real XBoard 4.9.1 (under Xvfb): open Engine > Engine #1
# Settings, set Skill Level to -20 there, play a few opening moves as White against the
# engine and take screenshots (the dialog, the board after each few moves). Then turn
# on Limit Strength with Elo 800 in the same dialog. Prints the options XBoard sends and
# the engine's thinking and moves (from XBoard's debug log).
#
#   tools/xboard/xboard_strength_shots.sh ENGINE_BINARY [OUT_DIR] [DISPLAY]
#
# Uses xboard_session.sh and xboard_lift.sh beside it (XBoard, Xvfb, xdotool,
# ImageMagick). The menu and dialog
# positions are those of XBoard 4.9.1 with the session script's defaults (square size
# 49); the dialog is found by its title. Screenshots: OUT_DIR/*.png.
set -u
ENGINE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${2:-/tmp/xboard-strength}
DISP=${3:-:99}
TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
L=$TOOLS/xboard_lift.sh
rm -rf "$OUT"
"$TOOLS/xboard_session.sh" start -e "$ENGINE" -o "$OUT" -D "$DISP" -t 2 -i 0 -T 900 >/dev/null || exit 1
trap '"$TOOLS/xboard_session.sh" stop "$OUT" >/dev/null' EXIT
. "$OUT/session.env"; export DISPLAY
# Engine > Engine #1 Settings...
settings() {
  xdotool mousemove $((WIN_X + 272)) $((WIN_Y + 14)) click 1; sleep 0.8
  xdotool mousemove $((WIN_X + 340)) $((WIN_Y + 118)) click 1; sleep 1.5
  DLG=$(xdotool search --name '^Engine Settings$' | head -1)
  [ -n "$DLG" ] || { echo "no Engine Settings dialog"; exit 1; }
  eval "$(xwininfo -id "$DLG" | awk '/Absolute upper-left X/{print "DX=" $4} /Absolute upper-left Y/{print "DY=" $4}')"
}
# Replace the text of the spin box in the row at dialog height Y.
spin() { xdotool mousemove $((DX + 200)) $((DY + $1)) click --repeat 3 1; sleep 0.2; xdotool key ctrl+a; xdotool type --delay 80 -- "$2"; }
ok() { xdotool mousemove $((DX + 172)) $((DY + 203)) click 1; sleep 1; }
move() { "$L" "$OUT" "$1" --to "$2" >/dev/null 2>&1; sleep 2.5; }
settings
spin 121 -20                                   # Skill Level
import -window root -crop 430x250+0+0 "$OUT/settings-skill.png"
ok
move e2 e4; move d2 d4; move g1 f3
import -window "$WINDOW_ID" "$OUT/board-3.png"
move f1 c4; move e1 g1; move b1 c3
import -window "$WINDOW_ID" "$OUT/board-6.png"
settings
xdotool mousemove $((DX + 13)) $((DY + 145)) click 1; sleep 0.3   # Limit Strength
spin 169 800                                   # Elo
import -window root -crop 430x250+0+0 "$OUT/settings-elo.png"
ok
move c1 g5
import -window "$WINDOW_ID" "$OUT/board-7.png"
grep -E '>first : option|<first : move|<first : [0-9]+ -?[0-9]+ [0-9]+ [0-9]+ ' "$DEBUG_LOG"
