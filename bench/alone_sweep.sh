#!/bin/bash
# bench/alone_sweep.sh -- the solve on one thread (as `remat batch` runs
# each job) on small generated layered graphs (bench/RESULTS.md#one-thread-milp):
# `remat gen layered --nodes N --seed S` for N from 8 to NMAX and
# S = 1 .. K, at 0.9 and 0.8, 10 s each; counts the runs that end with a
# proof (optimal or infeasible) and those that end without a schedule
# within budget and without a proof (over-budget), for one binary or two.
#
#   bench/alone_sweep.sh [--before OLD_REMAT] [--after REMAT] [--count K (8)]
#                        [--nodes NMAX (24)]
set -u
. "$(dirname "$0")/sweep_args.sh"
sweep_args alone_sweep 8 24 "$@"
for bb in $bins; do
  name=${bb%%:*} bin=${bb#*:}
  total=0 proven=0 over=0 list=""
  for n in $(seq 8 "$nodes"); do
    for s in $(seq 1 "$count"); do
      g=$out/layered_n${n}_s$s.json
      [ -f "$g" ] || "$after" gen layered --nodes "$n" --seed "$s" -q -o "$g"
      for b in 0.9 0.8; do
        res=$out/$name.$$.json
        rm -f "$res"
        "$bin" solve "$g" --budget $b --time-limit 10 --threads 1 -q -o "$res" \
          >/dev/null 2>&1
        st=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["status"])' \
          "$res" 2>/dev/null || echo none)
        total=$((total + 1))
        case $st in
          optimal | infeasible) proven=$((proven + 1)) ;;
          over-budget) over=$((over + 1)) list="$list n${n}_s$s@$b" ;;
        esac
      done
    done
  done
  echo "$name: $proven of $total proven (optimal or infeasible) within 10 s on one thread;" \
       "$over without a schedule within budget:$list"
done
