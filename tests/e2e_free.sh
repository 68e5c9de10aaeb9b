#!/usr/bin/env bash
# e2e_free.sh -- free order, the Echo baseline and the budget/overhead
# picture from the command line: --free-order on solve, compare, batch and
# emit (the result says order: free; an order without recomputation that
# fits ends the solve; the free-order MiniZinc model agrees with our
# FlatZinc); baseline --method echo; remat plot tradeoff.
# Usage: REMAT=build/remat bash tests/e2e_free.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# two branches from s joined at j; in the input order they interleave
cat >two.json <<'EOF'
{"name": "two-branches",
 "nodes": [{"id": "s", "duration": 1, "memory": 1},
           {"id": "a1", "duration": 2, "memory": 10}, {"id": "b1", "duration": 2, "memory": 10},
           {"id": "a2", "duration": 3, "memory": 10}, {"id": "b2", "duration": 3, "memory": 10},
           {"id": "a3", "duration": 4, "memory": 2}, {"id": "b3", "duration": 4, "memory": 2},
           {"id": "j", "duration": 1, "memory": 1}],
 "edges": [["s", "a1"], ["s", "b1"], ["a1", "a2"], ["b1", "b2"], ["a2", "a3"], ["b2", "b3"],
           ["a3", "j"], ["b3", "j"]]}
EOF

t_case "free order: an order without recomputation fits"
run "$REMAT" solve two.json --budget 0.8 --free-order -q -o free.json
[ "$rc" = 0 ] || fail "exit $rc: $err"
[ "$(jq -r '.order, .status, .recomputations' free.json | tr '\n' ' ')" = "free optimal 0 " ] ||
  fail "free.json: $(jq -c '[.order, .status, .recomputations]' free.json)"
run "$REMAT" eval two.json free.json --budget 0.8
[ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval: $rc '$out'"
run "$REMAT" solve two.json --budget 0.8 -q -o fixed.json
[ "$(jq -r .order fixed.json)" = input ] || fail "fixed order: $(jq -r .order fixed.json)"
[ "$(jq .duration fixed.json)" -ge "$(jq .duration free.json)" ] ||
  fail "free order is longer than the fixed order"

t_case "a solve on the input order says when another order does better"
# fixed.json: optimal on the input order's stages with 5 recomputations;
# the hint's annealing finds the free order's schedule without any
[ "$(jq -r .status fixed.json)" = optimal ] && [ "$(jq .recomputations fixed.json)" = 5 ] ||
  fail "fixed.json: $(jq -c '[.status, .recomputations]' fixed.json)"
[ "$(jq -c .other_order fixed.json)" = '{"peak":22,"duration":20,"tdi_percent":0}' ] &&
  [ "$(jq .other_order.duration fixed.json)" = "$(jq .duration free.json)" ] ||
  fail "other_order: $(jq -c .other_order fixed.json), free order: $(jq .duration free.json)"
[ "$(jq -r .message fixed.json)" = "the free order (--free-order) does better: a schedule in another order peaks at 22 with TDI 0.00%" ] ||
  fail "message: $(jq -r .message fixed.json)"
run "$REMAT" solve two.json --budget 0.8 --time-limit 10
[ "$rc" = 0 ] && grep -qx "other order: peak 22  TDI 0.00%  (remat solve --free-order searches every order)" <<<"$out" ||
  fail "exit $rc: $out"
# none where the schedule has no recomputation (and none where a proof
# covers every order: r47 at 21 below)
run "$REMAT" solve two.json --budget 1.0 -q -o fits.json
[ "$rc" = 0 ] && [ "$(jq -c '[.recomputations, .other_order // "none"]' fits.json)" = '[0,"none"]' ] ||
  fail "budget 1.0: exit $rc: $(jq -c '[.recomputations, .other_order]' fits.json)"

t_case "free order: proven infeasible over every sequence"
# within 20 (max_v: a1 and a2) the branch left for later holds a3 or b3
# across its widest step, and s cannot be kept across a2: the pebbling
# proof says so for any number of copies
run "$REMAT" solve two.json --budget 20 --free-order -q --copies 2
[ "$rc" = 3 ] && [ "$err" = "remat solve: proven infeasible (by the pebbling bound): no sequence fits 20, in any order and with any number of recomputations: not even node j can be computed within it; best peak 30" ] ||
  fail "exit $rc: $err"

t_case "the input order cannot reach the budget, another order can: the message says so"
# 7 nodes from a random sweep (random DAGs, 7 nodes): within 23 the input
# order's stages fit nothing (Checkmate's MILP proves it; out of time before
# that) while an order without recomputation peaks at 22
cat >r47.json <<'EOF'
{"name": "r47", "nodes": [{"id": "v0", "duration": 3, "memory": 2}, {"id": "v1", "duration": 4, "memory": 9}, {"id": "v2", "duration": 4, "memory": 10}, {"id": "v3", "duration": 3, "memory": 5}, {"id": "v4", "duration": 5, "memory": 7}, {"id": "v5", "duration": 4, "memory": 10}, {"id": "v6", "duration": 1, "memory": 7}],
 "edges": [["v0", "v1"], ["v0", "v2"], ["v2", "v3"], ["v1", "v4"], ["v3", "v4"], ["v2", "v5"], ["v1", "v6"], ["v3", "v6"]]}
EOF
hint="; the free order (--free-order) reaches it: an order without recomputation peaks at 22"
run "$REMAT" solve r47.json --budget 23 --copies 3 --time-limit 0.1 --threads 1 -q
[ "$rc" = 3 ] && [ "${err%"$hint"}" != "$err" ] &&
  grep -Eqx "remat solve: out of time: no schedule within 23 found with at most 3 copies per node; best peak [0-9]+ \([0-9.]+% of budget\); more time or more copies \(--copies 6\) may reach it" <<<"${err%"$hint"}" ||
  fail "out of time: exit $rc: $err"
run "$REMAT" solve r47.json --budget 23 --copies 3 --time-limit 20 -q
[ "$rc" = 3 ] && [ "$err" = "remat solve: proven infeasible (by Checkmate's MILP): no schedule on the input order's stages fits 23, with any number of recomputations (the stage model; other sequences may fit); best peak 24$hint" ] ||
  fail "proven on the stages: exit $rc: $err"
run "$REMAT" solve r47.json --budget 23 --copies 3 --free-order -q -o r47-free.json
[ "$rc" = 0 ] && [ "$(jq -r '.status, .recomputations' r47-free.json | tr '\n' ' ')" = "optimal 0 " ] ||
  fail "free order: exit $rc: $err"
# within 21 (max_v) no order fits without recomputation; the hint's
# annealing finds one with, the free order's optimum
run "$REMAT" solve r47.json --budget 21 --copies 3 --time-limit 20 -q -o r47-21.json
[ "$rc" = 3 ] && [ "$err" = "remat solve: proven infeasible (by Checkmate's MILP): no schedule on the input order's stages fits 21, with any number of recomputations (the stage model; other sequences may fit); best peak 24; the free order (--free-order) reaches it: a schedule in another order peaks at 21 with TDI 12.50%" ] ||
  fail "budget 21: exit $rc: $err"
run "$REMAT" solve r47.json --budget 21 --copies 3 --free-order -q -o r47-21-free.json
[ "$rc" = 0 ] && [ "$(jq -r .status r47-21-free.json)" = optimal ] &&
  [ "$(jq .duration r47-21-free.json)" = "$(jq .other_order.duration r47-21.json)" ] ||
  fail "budget 21, free order: exit $rc: $(jq -c '[.status, .duration]' r47-21-free.json)"
# no hint where a proof covers every order (the pebbling proof)
run "$REMAT" solve two.json --budget 20 --copies 2 --time-limit 20 -q -o two-20.json
[ "$rc" = 3 ] && [ "$(jq -r .proof_covers two-20.json)" = any-order ] &&
  ! grep -q -- "--free-order" <<<"$err" && [ "$(jq -c .other_order two-20.json)" = null ] ||
  fail "budget 20: exit $rc: $err"

t_case "a chain rebuilt from its start: the walk on demand, free order too"
# a forward chain f0..f39, aux (reads f0), then the backward b39..b0 (b_i
# reads f_i and b_{i+1}); sizes near 10^12, durations near 10^9.  Within
# three values each b_i needs the chain rebuilt from f0 while b_{i+1} is
# held: hundreds of recomputations, which the stage model's C_v and the
# annealing from a schedule above the budget do not reach; the walk on
# demand does, on the input order's stages (C_v raised to its copies), and
# free order starts from it on its own order's
U=999999999989 W=99999989
# rebuild PAD: the graph, and PAD isolated nodes of size 0
rebuild() {
  printf '{"name": "rebuild40", "nodes": ['
  for i in $(seq 0 39); do printf '{"id": "f%d", "duration": %d, "memory": %d}, ' "$i" $((10 * W)) "$U"; done
  printf '{"id": "aux", "duration": %d, "memory": %d}' "$W" "$U"
  for i in $(seq 39 -1 0); do printf ', {"id": "b%d", "duration": %d, "memory": %d}' "$i" $((20 * W)) "$U"; done
  for i in $(seq 1 "$1"); do printf ', {"id": "p%d", "duration": 0, "memory": 0}' "$i"; done
  printf '], "edges": ['
  for i in $(seq 1 39); do printf '["f%d", "f%d"], ' $((i - 1)) "$i"; done
  for i in $(seq 0 39); do printf '["f%d", "b%d"], ' "$i" "$i"; done
  for i in $(seq 0 38); do printf '["b%d", "b%d"], ' $((i + 1)) "$i"; done
  printf '["f0", "aux"]]}\n'
}
rebuild 0 >rebuild.json
B=$((3 * U))
for order in --free-order ""; do
  run "$REMAT" solve rebuild.json --budget $B $order --time-limit 10 --threads 2 -q -o rb.json
  [ "$rc" = 0 ] && [ "$(jq -r .within_budget rb.json)" = true ] &&
    [ "$(jq '.recomputations > 100' rb.json)" = true ] ||
    fail "${order:-input order}: exit $rc: $err $(jq -c '[.peak, .recomputations]' rb.json)"
  run "$REMAT" eval rebuild.json rb.json --budget $B
  [ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval: $rc '$out'"
done

t_case "free order: the pebbling paths' schedule where nothing else fits"
# the same chain and 1,950 isolated nodes of size 0: more than the copies
# probe's 2,000 nodes, so neither the probe nor the walk on demand runs;
# the stage model with C_v = 2 fits nothing (window bound), the paths'
# schedule does (aux computed with the sinks at the end: another order)
rebuild 1950 >pad.json
run "$REMAT" solve pad.json --budget $B --free-order --time-limit 10 --threads 2 -v -o pad-free.json
[ "$rc" = 0 ] && [ "$(jq -r .within_budget pad-free.json)" = true ] &&
  [ "$(jq '.recomputations > 100' pad-free.json)" = true ] &&
  grep -Eq "^remat: \[ *[0-9.]+s\] copies    C_v raised on [0-9]+ nodes to its copies in the pebbling paths' schedule within budget" <<<"$err" ||
  fail "free order: exit $rc: $(grep -E 'paths|copies' <<<"$err") $(jq -c '[.peak, .recomputations]' pad-free.json)"
run "$REMAT" eval pad.json pad-free.json --budget $B
[ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval: $rc '$out'"
run "$REMAT" solve pad.json --budget $B --time-limit 10 --threads 2 -q -o pad-fixed.json
[ "$rc" = 3 ] && grep -q "the free order (--free-order) reaches it" <<<"$err" &&
  [ "$(jq '.other_order.peak <= '"$B" pad-fixed.json)" = true ] ||
  fail "input order: exit $rc: $err $(jq -c .other_order pad-fixed.json)"

t_case "emit --free-order: the MiniZinc model agrees with the FlatZinc and solve"
t_diamond dia.json
for B in 13 14 16; do
  "$REMAT" emit dia.json --budget $B --phase 2 --copies 2 --free-order --dzn -o d.dzn
  grep -q "moccasin_free.mzn" d.dzn || fail "the data does not name moccasin_free.mzn"
  mzn=$(minizinc --solver gecode "$root/models/moccasin_free.mzn" d.dzn 2>/dev/null |
    sed -n 's/^OBJ = \(.*\);/\1/p' | tail -n 1)
  "$REMAT" emit dia.json --budget $B --phase 2 --copies 2 --free-order --fzn-solver fzn-gecode -o m.fzn
  fzn=$(fzn-gecode m.fzn | sed -n 's/^OBJ = \(.*\);/\1/p' | tail -n 1)
  [ -n "$mzn" ] && [ "$mzn" = "$fzn" ] || fail "budget $B: MiniZinc OBJ '$mzn', FlatZinc OBJ '$fzn'"
  run "$REMAT" solve dia.json --budget $B --copies 2 --free-order -q -o s.json
  [ "$rc" = 0 ] && [ "$(jq -r .status s.json)" = optimal ] &&
    [ "$(jq '.duration - .base_duration' s.json)" = "$fzn" ] ||
    fail "budget $B: solve $rc $(jq -c '[.status, .duration, .base_duration]' s.json), OBJ $fzn"
done

t_case "compare and batch take --free-order"
run "$REMAT" compare two.json --budget 0.8 --method cp --free-order -t 5 --format json -q
[ "$rc" = 0 ] && [ "$(jq -r '.[0].status' <<<"$out")" = optimal ] || fail "compare: $rc $out"
# each row says which orders its method searched: the CP every one, the
# others (and their bounds) the input order
run "$REMAT" compare two.json --budget 0.8 --method cp,milp --free-order -t 5 -q
[ "$rc" = 0 ] && grep -q '^| [0-9]* | cp | free | ' <<<"$out" && grep -q '^| [0-9]* | milp | input | ' <<<"$out" ||
  fail "compare --free-order: the order column: $rc $out"
printf '%s 0.8 --free-order\n' "$tmp/two.json" >jobs.txt
run "$REMAT" batch jobs.txt -t 5 -q -o run
[ "$rc" = 0 ] && grep -q -- "--free-order" run.jsonl || fail "batch: $rc $(cat run.jsonl)"
# on the command line, for every job (it was dropped there: the jobs ran
# on the input order's stages)
run "$REMAT" batch "$tmp/two.json" --budget 0.8,0.9 --free-order -t 5 -q -o run2
[ "$rc" = 0 ] && [ "$(jq -r .options run2.jsonl | sort -u)" = "--free-order" ] &&
  [ "$(for f in $(jq -r .result run2.jsonl); do jq -r .order "$f"; done | sort -u)" = free ] ||
  fail "batch --free-order: $rc $(cat run2.jsonl)"

t_case "echo: only cheap operators are recomputed"
cat >net.json <<'EOF'
{"name": "net",
 "nodes": [{"id": 0, "duration": 100, "memory": 2, "op": "aten.convolution"},
           {"id": 1, "duration": 1, "memory": 10, "op": "aten.relu"},
           {"id": 2, "duration": 100, "memory": 2, "op": "aten.convolution"},
           {"id": 3, "duration": 1, "memory": 10, "op": "aten.relu"},
           {"id": 4, "duration": 1, "memory": 1, "op": "aten.sum"},
           {"id": 5, "duration": 100, "memory": 2, "op": "aten.convolution_backward"},
           {"id": 6, "duration": 100, "memory": 2, "op": "aten.convolution_backward"}],
 "edges": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [3, 5], [5, 6], [1, 6]]}
EOF
run "$REMAT" baseline net.json --budget 0.8 --method echo -q -o echo.json
[ "$rc" = 0 ] || fail "exit $rc: $err"
[ "$(jq -r '[.sequence[] | select(. == 0 or . == 2 or . == 5 or . == 6)] | length' echo.json)" = 4 ] ||
  fail "a convolution was recomputed: $(jq -c .sequence echo.json)"
[ "$(jq .recomputations echo.json)" -ge 1 ] || fail "nothing recomputed"

t_case "free order raises C_v as the stage solve does, and keeps to it"
# the stage solve raises u's C_v from 2 to 4, and so must free order (its
# stage search once offered Echo's schedule outside C_v: exit 4, internal
# error)
t_cheap_u cheap.json
run "$REMAT" solve cheap.json --budget 80 --copies 2 -t 5 -q -o fixed.json
[ "$rc" = 0 ] && [ "$(jq -c '[.duration, .copies.u]' fixed.json)" = "[204,4]" ] ||
  fail "fixed order: exit $rc $(jq -c '[.status, .duration, .copies.u]' fixed.json)"
run "$REMAT" solve cheap.json --budget 80 --copies 2 --free-order -t 5 -q -o free.json
[ "$rc" = 0 ] && [ "$(jq -c '[.order, .duration, .copies.u]' free.json)" = '["free",204,4]' ] ||
  fail "free order: exit $rc $(jq -c '[.status, .duration, .copies.u]' free.json) $err"
run "$REMAT" eval cheap.json free.json --budget 80
[ "$rc" = 0 ] || fail "eval: $rc '$out'"
# C_v = 1 is never raised: nothing fits without recomputing u
run "$REMAT" solve cheap.json --budget 80 --copies 1 --free-order -t 3 -q -o one.json
[ "$rc" = 3 ] && [ "$(jq '[.copies[]] | max' one.json)" = 1 ] ||
  fail "--copies 1: exit $rc $(jq -c '[.status, .copies.u]' one.json) $err"

t_case "free order: the order cost bound where no order fits"
# a training graph at half its peak: the backward pass's peak step must
# drop stored activations in every order; the bound says what that costs
"$REMAT" gen training --nodes 40 -q -o tr40.json
run "$REMAT" solve tr40.json --budget 0.5 --free-order -t 5 -q -o trb.json
[ "$rc" = 0 ] && jq -e '.lower_bound_covers == "any-order" and .lower_bound > .base_duration
  and .lower_bound <= .duration' trb.json >/dev/null ||
  fail "exit $rc $(jq -c '[.status, .base_duration, .lower_bound, .duration, .lower_bound_covers]' trb.json)"

t_case "the only order: a covering proof holds over every sequence"
# a generated training graph's input order is its only topological order
# (each node reads the one before it): every sequence computes the nodes
# for the first time in it, so the covering bound speaks of them all
"$REMAT" gen training --nodes 12 -q -o tr12.json
run "$REMAT" solve tr12.json --budget 0.6 -t 10 -q -o tr12_fix.json
[ "$rc" = 0 ] && jq -e '.status == "optimal" and .proof_covers == "any-order-copies"' \
  tr12_fix.json >/dev/null || fail "fixed: exit $rc $(jq -c '[.status, .proof_covers]' tr12_fix.json)"
run "$REMAT" solve tr12.json --budget 0.6 --free-order -t 10 -o tr12_free.json
[ "$rc" = 0 ] || fail "free: exit $rc"
grep -Eq "^remat: \[ *[0-9.]+s\] order     the input order is the graph's only topological order \(peak $(jq .topo_peak tr12_fix.json)\)$" <<<"$err" ||
  fail "no order line: $(grep order <<<"$err")"
[ "$(jq .duration tr12_free.json)" = "$(jq .duration tr12_fix.json)" ] || fail "free and fixed differ"

t_case "free order: the covering bound over every order proves the optimum"
# a U-Net's down-closed node sets are few: the covering problem over all
# of their chains (every order) proves the schedule optimal in any order,
# with any number of copies, before the stage search would stop
"$REMAT" gen unet --nodes 3 -q -o un3.json
run "$REMAT" solve un3.json --budget 0.8 --free-order -t 10 -o un3_free.json
[ "$rc" = 0 ] && [ "$(jq -c '[.status, .proof_covers, .lower_bound_covers, .message]' un3_free.json)" = \
  '["optimal","any-order","any-order","optimal over every sequence in any order, with any number of copies (the covering bound over every order)"]' ] ||
  fail "exit $rc $(jq -c '[.status, .proof_covers, .message]' un3_free.json)"
grep -Eq "^remat: \[ *[0-9.]+s\] optimal   TDI [0-9.]+% is the covering bound over every order$" <<<"$err" ||
  fail "no progress line: $(grep -E 'bound|optimal' <<<"$err")"
run "$REMAT" solve un3.json --budget 0.8 -t 10 -q -o un3_fix.json
[ "$(jq .duration un3_free.json)" = "$(jq .duration un3_fix.json)" ] || fail "free and fixed differ"
run "$REMAT" info un3.json --budget 0.8
grep -qx "free_lower_bound: duration $(jq .duration un3_fix.json)  TDI [0-9.]*% (covering bound, every order, any copies, [0-9.]*s)" <<<"$out" ||
  fail "info: '$(grep free_lower <<<"$out")'"
run "$REMAT" info "$root/examples/layered_120.json" --budget 0.8
grep -qx "free_lower_bound: none (more than 4000 down-closed sets)" <<<"$out" ||
  fail "info on a wide graph: '$(grep free_lower <<<"$out")'"

t_case "the order cost bound proves an optimum over every order, fixed or free"
# a -> b -> c -> d, a -> d: at c's step a, b and c are held (30 > 20), so a
# is dropped and computed again before d, in every order: 5 more
cat >cost.json <<'EOF'
{"name": "cost", "nodes": [{"id": "a", "duration": 5, "memory": 10},
  {"id": "b", "duration": 1, "memory": 10}, {"id": "c", "duration": 1, "memory": 10},
  {"id": "d", "duration": 1, "memory": 0}],
 "edges": [["a", "b"], ["b", "c"], ["c", "d"], ["a", "d"]]}
EOF
for mode in "" --free-order; do
  run "$REMAT" solve cost.json --budget 20 $mode -t 5 -q -o cost_r.json
  [ "$rc" = 0 ] && [ "$(jq -c '[.status, .duration, .lower_bound, .proof_covers, .lower_bound_covers]' \
    cost_r.json)" = '["optimal",13,13,"any-order","any-order"]' ] ||
    fail "solve $mode: exit $rc $(jq -c '[.status, .duration, .lower_bound, .proof_covers]' cost_r.json)"
done
run "$REMAT" info cost.json --budget 20
grep -qx "order_cost_bound: duration 13  TDI 62.5000% (every order, any copies, [0-9.]*s)" <<<"$out" ||
  fail "info: exit $rc '$out'"

t_case "free order: Ctrl-C keeps the best schedule"
t_interrupt 2 "$REMAT" solve "$root/examples/layered_120.json" --budget 0.8 --free-order \
  --time-limit 60 -q -o fint.json
[ "$ms" -lt 3000 ] || fail "Ctrl-C took $ms ms"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "Ctrl-C: exit $rc ($err)"
jq -e '.interrupted and .order == "free" and (.sequence | length) >= 120' fint.json >/dev/null ||
  fail "interrupted result: $(jq -c '[.interrupted, .order]' fint.json)"
run "$REMAT" eval "$root/examples/layered_120.json" fint.json --budget 0.8
[ "$rc" = "$(jq -r 'if .within_budget then 0 else 3 end' fint.json)" ] ||
  fail "the interrupted schedule does not re-simulate as reported: exit $rc $out"

t_case "free order above 5,000 nodes: the joint annealing once a schedule fits"
# 5,201 nodes: beyond the joint annealing's 5,000 from the start, within
# the 20,000 where it takes the second half once the stage phase fits
"$REMAT" gen training --nodes 2600 -q -o tr5k.json
run "$REMAT" solve tr5k.json --budget 0.5 --free-order --time-limit $((8 * T_SLOW)) -v -o tr5k_r.json
[ "$rc" = 0 ] || fail "exit $rc: $(tail -n 2 <<<"$err")"
grep -q "^remat: joint annealing: [1-9][0-9]* moves" <<<"$err" || fail "no joint annealing"
run "$REMAT" eval tr5k.json tr5k_r.json --budget 0.5
[ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval: $rc '$out'"

t_case "free order: the joint annealing's extra copies raise C_v, not with --strict-copies"
# At 0.5 the probes' schedules raise C_v on a few nodes, the joint
# annealing's on more: some node may be computed three times or more, each
# count within the result's "copies"; with --strict-copies no node more
# than twice.
"$REMAT" gen layered --nodes 60 --seed 1 -q -o l60.json
run "$REMAT" solve l60.json --budget 0.5 --free-order --time-limit $((4 * T_SLOW)) -o l60_r.json
[ "$rc" = 0 ] || fail "exit $rc: $(tail -n 2 <<<"$err")"
grep -Eq "^remat: \[ *[0-9.]+s\] copies    C_v raised on [0-9]+ nodes? to its copies in the joint annealing's schedule within budget; claims speak of the raised C_v \(the result's \"copies\"\)$" <<<"$err" ||
  fail "no raise by the joint annealing: $(grep copies <<<"$err")"
jq -e '[.copies[]] | max > 2' l60_r.json >/dev/null || fail "no C_v above 2"
jq -e '. as $r | [.sequence | group_by(.) | .[] | {k: (.[0] | tostring), c: length}]
       | all(.c <= $r.copies[.k])' l60_r.json >/dev/null || fail "a count above the result's copies"
run "$REMAT" eval l60.json l60_r.json --budget 0.5
[ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval: $rc '$out'"
run "$REMAT" solve l60.json --budget 0.5 --free-order --strict-copies --time-limit $((4 * T_SLOW)) -o l60_s.json
! grep -q "C_v raised" <<<"$err" || fail "--strict-copies raised C_v"
jq -e '[.sequence | group_by(.) | .[] | length] | max <= 2' l60_s.json >/dev/null ||
  fail "--strict-copies: a node computed more than twice"

t_case "plot tradeoff from compare and batch results"
"$REMAT" compare net.json --budget 1.0:0.5:0.1 --method cp,chen-greedy,echo -t 3 --format json -q -o cmp.json
run "$REMAT" plot tradeoff cmp.json -o trade.svg
[ "$rc" = 0 ] || fail "exit $rc: $err"
[ "$(grep -c 'class="tradeoff"' trade.svg)" = 3 ] || fail "not one curve per method"
xmllint --noout trade.svg || fail "not well-formed XML"
run "$REMAT" batch net.json --budget 1.0:0.6:0.2 -t 3 -q -o sweep
run "$REMAT" plot tradeoff sweep.jsonl -o sweep.svg
[ "$rc" = 0 ] && [ "$(grep -c '<circle' sweep.svg)" = 3 ] || fail "batch sweep: $rc $err"
run "$REMAT" plot tradeoff two.json -o bad.svg
[ "$rc" = 2 ] || fail "a graph is not a results file: exit $rc"

t_done
