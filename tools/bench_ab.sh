#!/bin/bash
# Speed of two builds that search the same nodes: `menagerie bench` of both at once, one
# per core (taskset), swapping cores each round, so that both meet the same machine
# load. Prints each round's milliseconds (A, B) and B's time as a share of A's; an A/A
# run on the project's 2-core machine stays within about 2.5 %.
#
#   tools/bench_ab.sh BASE_BINARY CANDIDATE_BINARY [ROUNDS]
set -eu
a=$1
b=$2
rounds=${3:-6}
ms() { taskset -c "$1" "$2" bench 2>&1 | awk '/Total time/ {print $NF}'; }
for i in $(seq "$rounds"); do
    if [ $((i % 2)) = 1 ]; then ca=0 cb=1; else ca=1 cb=0; fi
    ta=$(mktemp)
    tb=$(mktemp)
    ms $ca "$a" >"$ta" &
    ms $cb "$b" >"$tb" &
    wait
    awk -v x="$(cat "$ta")" -v y="$(cat "$tb")" 'BEGIN {printf "%d %d %.3f\n", x, y, y / x}'
    rm -f "$ta" "$tb"
done
