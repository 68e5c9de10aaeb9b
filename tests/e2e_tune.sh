#!/usr/bin/env bash
# e2e_tune.sh -- remat tune-copies from the command line: the adaptive mode
# prints its table and writes a map that "remat solve --copies" accepts;
# the uniform sweep; bad lists.
# Usage: REMAT=build/remat bash tests/e2e_tune.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t_diamond g.json

# ------------------------------------------------ adaptive from C_v = 1
t_case "adaptive from C_v = 1"
run "$REMAT" tune-copies g.json --budget 13 --time-limit 4 --threads 1 -o map.json
[ "$rc" = 0 ] || fail "tune-copies: exit $rc ($err)"
grep -q "^round  *C_v>1  *total C  *TDI  *peak  *time (s)$" <<<"$out" || fail "no table header: $out"
grep -q "^0  *0  *6  *over budget  *16 " <<<"$out" || fail "round 0 (C_v = 1) row: $out"
grep -q "^best: round [0-9]*, .*TDI 29.41%" <<<"$out" || fail "best line (the optimum is 29.41%): $out"
[ "$(echo "$out" | grep -c '^[0-9]')" -ge 2 ] || fail "fewer than 2 rounds: $out"
grep -qx "map: map.json" <<<"$out" || fail "map not written: $out"
for id in in a b c d out; do
  grep -q "^ *\"$id\": [1-9][0-9]*,\{0,1\}$" map.json || fail "map.json has no C_v for $id: $(cat map.json)"
done
run "$REMAT" solve g.json --budget 13 --copies map.json -q --time-limit 4 -o s.json
[ "$rc" = 0 ] || fail "solve with the map: exit $rc ($err)"
grep -q "TDI 29.41%" <<<"$out" || fail "solve with the map: $out"

# -------------------------------------------------- a start map
t_case "a start map"
echo '{"a": 2}' >start.json
run "$REMAT" tune-copies g.json --budget 13 --time-limit 2 --threads 1 --copies start.json -o map2.json
[ "$rc" = 0 ] || fail "tune-copies from a map: exit $rc ($err)"
grep -q "^0  *1  *7 " <<<"$out" || fail "round 0 from the start map: $out"

# ------------------------------------ C_v the solve raised, in the map
t_case "the map holds the best schedule, C_v raised by the solve"
# the solve raises u's C_v from 2 to 4 where Echo's schedule fits: the
# map said 2 (the C_v tune-copies asked for), which the schedule passes
t_cheap_u cheap.json
for mode in "" "--copies 2"; do
  run "$REMAT" tune-copies cheap.json --budget 80 --time-limit 4 --threads 1 $mode -o cheap-map.json
  [ "$rc" = 0 ] && grep -q "^best: round [0-9]*, .*TDI 1.49%" <<<"$out" ||
    fail "tune-copies $mode: exit $rc ($err) $out"
  [ "$(jq .u cheap-map.json)" -ge 4 ] || fail "tune-copies $mode: u's C_v $(jq .u cheap-map.json)"
done

# ---------------------------------------------------- uniform sweep
t_case "uniform sweep"
run "$REMAT" tune-copies g.json --budget 13 --time-limit 3 --threads 1 --copies 1,3 -o sweep.json
[ "$rc" = 0 ] || fail "sweep: exit $rc ($err)"
grep -q "^C=1  *0  *6  *over budget" <<<"$out" || fail "sweep C=1 row: $out"
grep -q "^C=3  *6  *18  *29.41%" <<<"$out" || fail "sweep C=3 row: $out"
grep -q '"a": 3' sweep.json || fail "sweep map: $(cat sweep.json)"

# ------------------------------------------------------- bad input
t_case "bad input"
run "$REMAT" tune-copies g.json --budget 13 --copies 1,x
[ "$rc" = 2 ] && grep -q "a comma list of them" <<<"$err" || fail "bad list: $rc '$err'"
run "$REMAT" tune-copies g.json --time-limit 1
[ "$rc" = 2 ] && grep -q -- "--budget is required" <<<"$err" || fail "no budget: $rc '$err'"
run "$REMAT" tune-copies g.json --budget 10 --time-limit 1 -o none.json
[ "$rc" = 3 ] || fail "infeasible budget: exit $rc"

t_done
