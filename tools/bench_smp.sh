#!/usr/bin/env bash
# Lazy SMP: time for the bench positions to reach the same depth with 1 and with 2
# threads (same run), the speed-up, and nodes/second at both.
#   tools/bench_smp.sh [DEPTH]
# On a shared machine the wall clock is noisy: the script also prints the load
# average before each run, the CPU time used (user + system; its ratio to the wall
# time shows how many cores the run really had), nodes per CPU-second, and the
# main thread's node count (fewer main-thread nodes to reach the depth with more
# threads = the time-to-depth gain, free of clock noise). The main thread never
# waits, so on an idle machine (a core per thread) its node ratio times the ratio
# of nodes per CPU-second estimates the time-to-depth speed-up (long runs only: the
# CPU time includes the start-up).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${MENAGERIE:-$here/target/release/menagerie}
depth=${1:-11}
declare -A ms nps main eff
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for t in 1 2; do
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  out=$(/usr/bin/time -f '%U %S' -o "$tmp" "$bin" bench "$depth" --threads "$t" --hash 64)
  ms[$t]=$(awk '/^Total time/ {print $NF}' <<<"$out")
  nps[$t]=$(awk '/^Nodes\/second/ {print $2}' <<<"$out")
  nodes=$(awk '/^Nodes searched/ {print $3}' <<<"$out")
  main[$t]=$(awk '/^Main thread nodes/ {print $4}' <<<"$out")
  # (At one thread the main thread is the search; a binary that does not print
  # the line at two threads gets no estimate.)
  [ "$t" = 1 ] && main[$t]=$nodes
  cpu=$(awk '{print $1 + $2}' "$tmp")
  eff[$t]=$(awk -v n="$nodes" -v c="$cpu" 'BEGIN {printf "%d", n / c}')
  echo "threads $t (load $load): Nodes searched $nodes, main thread ${main[$t]:-n/a}, time ${ms[$t]} ms, ${nps[$t]} nodes/s, CPU ${cpu} s (${eff[$t]} nodes/CPU-s, $(awk -v c="$cpu" -v m="${ms[$t]}" 'BEGIN {printf "%.2f", c * 1000 / m}') cores)"
done
awk -v a="${ms[1]}" -v b="${ms[2]}" 'BEGIN {printf "time-to-depth speed-up (1 thread / 2 threads): %.2f\n", a / b}'
awk -v a="${nps[1]}" -v b="${nps[2]}" 'BEGIN {printf "nodes/second scaling: %.2f\n", b / a}'
[ -n "${main[2]}" ] || exit 0
awk -v a="${main[1]}" -v b="${main[2]}" 'BEGIN {printf "main-thread nodes to depth (1 thread / 2 threads): %.2f\n", a / b}'
awk -v a="${main[1]}" -v b="${main[2]}" -v e1="${eff[1]}" -v e2="${eff[2]}" \
  'BEGIN {printf "idle-machine time-to-depth estimate (main-thread nodes ratio x nodes/CPU-s ratio): %.2f\n", a / b * e2 / e1}'
