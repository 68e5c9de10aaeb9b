#!/bin/bash
# bench/proofs_sweep.sh -- proofs on small generated layered graphs
# (bench/RESULTS.md#window-bound): `remat gen layered --nodes N --seed S`
# for S = 500 .. 500 + K - 1 with N from 20 to 60, each solved at 0.8 with
# 10 s and one thread; counts the runs that end with a proof (optimal or
# infeasible), for one binary or two.
#
#   bench/proofs_sweep.sh [--before OLD_REMAT] [--after REMAT] [--count K (60)]
set -u
. "$(dirname "$0")/sweep_args.sh"
sweep_args proofs_sweep 60 "" "$@"
for bb in $bins; do
  name=${bb%%:*} bin=${bb#*:}
  proven=0 total=0 line=""
  for i in $(seq 0 $((count - 1))); do
    n=$((20 + (7 * (i % 6) + i / 6) % 41)) s=$((500 + i))
    g=$out/layered_n${n}_s$s.json
    [ -f "$g" ] || "$after" gen layered --nodes $n --seed $s -q -o "$g"
    "$bin" solve "$g" --budget 0.8 --time-limit 10 --threads 1 -q -o "$out/${name}_$i.json" \
      >/dev/null 2>&1
    st=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' \
      "$out/${name}_$i.json" 2>/dev/null || echo none)
    total=$((total + 1))
    case $st in optimal | infeasible) proven=$((proven + 1)) ;; esac
    line="$line $i:${st:0:3}"
  done
  echo "$name: $proven of $total proven (optimal or infeasible) within 10 s"
  echo "  $line"
done
