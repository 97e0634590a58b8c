#!/usr/bin/env bash
# Lazy SMP: time for the bench positions to reach the same depth with 1 and with 2
# threads (same run), the speed-up, and nodes/second at both.
#   tools/bench_smp.sh [DEPTH]
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${MENAGERIE:-$here/target/release/menagerie}
depth=${1:-11}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A ms nps
for t in 1 2; do
  out=$("$bin" bench "$depth" --threads "$t" --hash 64)
  ms[$t]=$(awk '/^Total time/ {print $NF}' <<<"$out")
  nps[$t]=$(awk '/^Nodes\/second/ {print $2}' <<<"$out")
  echo "threads $t: $(grep 'Nodes searched' <<<"$out"), time ${ms[$t]} ms, ${nps[$t]} nodes/s"
done
awk -v a="${ms[1]}" -v b="${ms[2]}" 'BEGIN {printf "time-to-depth speed-up (1 thread / 2 threads): %.2f\n", a / b}'
