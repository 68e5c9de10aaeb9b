#!/bin/bash
# bench/proofs_window.sh -- the window bound inside `remat solve` on the
# random layered graphs (bench/RESULTS.md#window-bound): status, lower bound
# and best TDI, and when the bound or the proof came, for one binary or two.
#
#   bench/proofs_window.sh [--before OLD_REMAT] [--after REMAT] [--quick]
#
# Runs REMAT (default build/remat; and OLD_REMAT, a build of an earlier commit) with one
# thread: n100 at 0.9 and 0.8 with 120 s, n250 at 0.9 and 0.8 with 120 s,
# n1000 at 0.9 and 0.8 with 360 s (--quick: the n100 runs only).  Graphs
# from $REMAT_GRAPHS (default ../shared/graphs).  Prints one Markdown
# row per run; the results go to bench/out/proofs_window/.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
graphs=${REMAT_GRAPHS:-../shared/graphs}
out=$here/bench/out/proofs_window
before= after= quick=0
while [ $# -gt 0 ]; do
  case $1 in
    --before) before=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    --quick) quick=1; shift ;;
    *) echo "usage: $0 [--before OLD_REMAT] [--after REMAT] [--quick]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
runs="n100:0.9:120 n100:0.8:120"
[ $quick = 1 ] || runs="$runs n250:0.9:120 n250:0.8:120 n1000:0.9:360 n1000:0.8:360"
bins="after:${after:-$here/build/remat}"
[ -n "$before" ] && bins="before:$before $bins"
echo "| binary | instance | limit | status | lower bound TDI % (at) | best TDI % | wall s |"
echo "|---|---|---|---|---|---|---|"
for r in $runs; do
  IFS=: read -r g b t <<<"$r"
  for bb in $bins; do
    name=${bb%%:*} bin=${bb#*:}
    res=$out/${name}_${g}_$b.json log=$out/${name}_${g}_$b.log
    /usr/bin/time -f "%e" -o "$out/time" "$bin" solve "$graphs/random_layered_$g.json" \
      --budget "$b" --time-limit "$t" --threads 1 -o "$res" 2>"$log" >/dev/null
    wall=$(cat "$out/time")
    # the last bound line's time, or the covering bound's
    at=$(grep -E "bound +TDI >=" "$log" | tail -1 | sed -E 's/^.*\[ *([0-9.]+)s\].*$/\1/')
    python3 - "$res" "$name" "$g $b" "$t" "${at:--}" "$wall" <<'PY'
import json, sys
res, name, inst, lim, at, wall = sys.argv[1:]
r = json.load(open(res))
lb = r.get("lower_bound_tdi_percent")
lbs = "-" if lb is None else "%.3f (%s s)" % (lb, at)
print("| %s | %s | %s s | %s | %s | %.3f | %s |" % (name, inst, lim, r["status"], lbs,
      r.get("tdi_percent", float("nan")), wall))
PY
  done
done
