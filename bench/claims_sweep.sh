#!/bin/bash
# bench/claims_sweep.sh -- the covering bound against Checkmate's MILP on
# small generated layered graphs (bench/RESULTS.md#claims-cbc-preprocessing):
# `remat gen layered --nodes N --seed S` for N from 8 to NMAX and S = 1 .. K,
# at 0.9 and 0.8; for each, `remat info`'s lower bound (the covering bound
# with its inputs' rows; `--copies 1000`, any number in effect, as in the
# MILP) and `remat milp`'s proven optimum (30 s, one thread).  A bound above a proven optimum is a wrong claim; the script
# counts them, and the bounds that meet the optimum, for one binary or two.
# The same at scale: each graph with its sizes times 10^8 and durations
# times 10^6 (sizes near 10^11 to 10^12, durations near 10^8 to 10^9), at
# its budget in bytes times 10^8, must give a bound at most 10^6 times the
# optimum (and the same bound times 10^6: the problem is only rescaled).
#
#   bench/claims_sweep.sh [--before OLD_REMAT] [--after REMAT] [--count K (4)]
#                         [--nodes NMAX (24)]
set -u
. "$(dirname "$0")/sweep_args.sh"
sweep_args claims_sweep 4 24 "$@"
# the instances and their proven optima (the MILP of the binary under
# test; kept in $out between runs)
opt_file=$out/optima.txt
: >"$opt_file"
for n in $(seq 8 "$nodes"); do
  for s in $(seq 1 "$count"); do
    g=$out/layered_n${n}_s$s.json
    [ -f "$g" ] || "$after" gen layered --nodes "$n" --seed "$s" -q -o "$g"
    for b in 0.9 0.8; do
      o=${g%.json}_$b.opt
      [ -s "$o" ] ||
        { rm -f "$out/milp.json"
          "$after" milp "$g" --budget $b --time-limit 30 --threads 1 -q -o "$out/milp.json" \
            >/dev/null 2>&1
          python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], r["status"], r.get("duration", -1))' \
            "$out/milp.json" "$g" $b >"$o" 2>/dev/null; }
      cat "$o" >>"$opt_file"
    done
  done
done
for bb in $bins; do
  name=${bb%%:*} bin=${bb#*:}
  total=0 proven=0 exact=0 wrong=0 big_off=0 list=""
  while read -r g b st opt; do
    total=$((total + 1))
    [ "$st" = optimal ] || continue
    proven=$((proven + 1))
    lb=$("$bin" info "$g" --budget "$b" --copies 1000 2>/dev/null |
         sed -n 's/^lower_bound: duration \([0-9]*\).*/\1/p')
    [ -n "$lb" ] || continue
    if [ "$lb" -gt "$opt" ]; then
      wrong=$((wrong + 1))
      list="$list $(basename "$g" .json)@$b:$lb>$opt"
    elif [ "$lb" -eq "$opt" ]; then
      exact=$((exact + 1))
    fi
    # at scale
    big=${g%.json}_big.json
    [ -f "$big" ] || python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for v in d["nodes"]:
    v["memory"] *= 10**8
    v["duration"] *= 10**6
d["name"] += "_big"
json.dump(d, open(sys.argv[2], "w"))' "$g" "$big"
    mb=$("$bin" info "$g" --budget "$b" 2>/dev/null | sed -n 's/^budget: \([0-9]*\)$/\1/p')
    lbb=$("$bin" info "$big" --budget "${mb}00000000" --copies 1000 2>/dev/null |
          sed -n 's/^lower_bound: duration \([0-9]*\).*/\1/p')
    [ -n "$lbb" ] || continue
    if [ "$lbb" -gt $((opt * 1000000)) ]; then
      wrong=$((wrong + 1))
      list="$list $(basename "$big" .json)@$b:$lbb>$((opt * 1000000))"
    fi
    [ "$lbb" -eq $((lb * 1000000)) ] || big_off=$((big_off + 1))
  done <"$opt_file"
  echo "$name: $total instances, $proven proven optimal by the MILP; the covering bound" \
       "meets $exact of them; above the optimum: $wrong${list:+:$list}; at scale not" \
       "10^6 times the bound: $big_off"
done
