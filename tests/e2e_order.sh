#!/usr/bin/env bash
# e2e_order.sh -- remat order from the command line: the output lines on a
# graph whose answer is known, the schedule file (remat eval, remat plot,
# standard output), info's bound and time limit, bad input (exit 2), Ctrl-C.
# Usage: REMAT=build/remat bash tests/e2e_order.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t_case "two chains: the output lines"
# Two chains x1 -> x2, y1 -> y2 (sizes 10, 1), given interleaved: the input
# order holds x1, y1 and x2 at once (21); one chain after the other holds
# at most 11, and x2's step holds 11 in every order.
cat >chains.json <<'EOF'
{"name": "chains",
 "nodes": [{"id": "x1", "duration": 1, "memory": 10},
           {"id": "y1", "duration": 1, "memory": 10},
           {"id": "x2", "duration": 1, "memory": 1},
           {"id": "y2", "duration": 1, "memory": 1}],
 "edges": [["x1", "x2"], ["y1", "y2"]],
 "order": ["x1", "y1", "x2", "y2"]}
EOF
run "$REMAT" order chains.json -o chains-order.json
[ "$rc" = 0 ] || fail "order chains: exit $rc ($err)"
want="graph: chains
nodes: 4
peak: 11
input_peak: 21
peak_ratio: 0.5238
lower_bound: 11
status: optimal"
[ "$(head -7 <<<"$out")" = "$want" ] || fail "order chains printed: '$out'"
grep -qx "time_s: [0-9]*\.[0-9][0-9]" <<<"$out" || fail "no time_s line: '$out'"
grep -qx "cpu_s: [0-9]*\.[0-9][0-9]" <<<"$out" || fail "no cpu_s line: '$out'"

# the file is a schedule: eval re-simulates it, plot draws it
t_case "the file is a schedule"
jq -e '.method == "order" and .peak == 11 and .recomputations == 0 and
       .order.optimal and .order.lower_bound == 11 and .order.input_peak == 21 and
       (.sequence | length) == 4' chains-order.json >/dev/null ||
  fail "order chains: JSON $(cat chains-order.json)"
run "$REMAT" eval chains.json chains-order.json
[ "$rc" = 0 ] || fail "eval of the order: exit $rc ($out $err)"
grep -qx "peak: 11" <<<"$out" && grep -qx "recomputations: 0" <<<"$out" ||
  fail "eval of the order: '$out'"
run "$REMAT" plot memory chains.json chains-order.json -o chains.svg
[ "$rc" = 0 ] && grep -q "<svg" chains.svg || fail "plot memory of the order: exit $rc ($err)"

# -o -: the JSON on standard output, the lines on standard error
t_case "-o -"
run "$REMAT" order chains.json -o - -q
[ "$rc" = 0 ] || fail "order -o -: exit $rc"
jq -e '.peak == 11' out.txt >/dev/null || fail "order -o -: stdout is not the JSON: '$out'"
grep -qx "peak: 11" err.txt || fail "order -o -: no lines on stderr: '$err'"

t_case "layered_60: better than the input order, info's bound"
# a larger example: the order beats the input order, eval agrees, the
# bound is at least info's
g="$root/examples/layered_60.json"
run "$REMAT" order "$g" --time-limit 20 -q -o l60.json
[ "$rc" = 0 ] || fail "order layered_60: exit $rc ($err)"
peak=$(sed -n 's/^peak: //p' <<<"$out")
input=$(sed -n 's/^input_peak: //p' <<<"$out")
lower=$(sed -n 's/^lower_bound: //p' <<<"$out")
[ "$peak" -lt "$input" ] && [ "$lower" -le "$peak" ] || fail "order layered_60: '$out'"
run "$REMAT" eval "$g" l60.json
grep -qx "peak: $peak" <<<"$out" || fail "eval disagrees with order on layered_60: '$out'"
run "$REMAT" info "$g"
ib=$(sed -n 's/^order_lower_bound: //p' <<<"$out")
[ -n "$ib" ] && [ "$ib" -le "$lower" ] || fail "info's order_lower_bound '$ib' against order's $lower"

# bad input: exit 2 and one message each
t_case "bad input"
run "$REMAT" order missing.json
[ "$rc" = 2 ] && [ "$err" = "remat order: cannot read missing.json: No such file or directory" ] ||
  fail "missing file: exit $rc '$err'"
printf '%s' '{"nodes": [{"id": "a", "duration": 1, "memory": 2}, {"id": "b", "duration": 1, "memory": 2}], "edges": [["a", "b"], ["b", "a"]]}' >cycle.json
run "$REMAT" order cycle.json
[ "$rc" = 2 ] && [ "$err" = "remat order: cycle.json: the graph has a cycle: a -> b -> a" ] ||
  fail "cycle: exit $rc '$err'"
run "$REMAT" order chains.json --time-limit 0
[ "$rc" = 2 ] && [ "$err" = "remat order: --time-limit must be a number in (0, 1e9], not '0'" ] ||
  fail "--time-limit 0: exit $rc '$err'"
run "$REMAT" order chains.json --budget 0.9
[ "$rc" = 2 ] || fail "--budget is not an option of order: exit $rc"
run "$REMAT" order chains.json chains.json
[ "$rc" = 2 ] || fail "two graphs: exit $rc"
run "$REMAT" order
[ "$rc" = 2 ] || fail "no graph: exit $rc"
run "$REMAT" order --help
[ "$rc" = 0 ] && grep -q "usage: remat order GRAPH" <<<"$out" || fail "order --help: exit $rc '$out'"

# Ctrl-C keeps the best order so far (a graph the search does not finish)
t_case "Ctrl-C keeps the best order"
"$REMAT" gen layered --nodes 3000 --seed 5 -o big.json -q
t_interrupt 2 "$REMAT" order big.json --time-limit 60 -q -o big-order.json
[ "$secs" -le 5 ] || fail "Ctrl-C took more than 5 s"
[ "$rc" = 0 ] || fail "Ctrl-C: exit $rc ($err)"
if ! grep -qx "status: optimal" <<<"$out"; then
  grep -qx "status: open (interrupted)" <<<"$out" || fail "Ctrl-C: $out"
  jq -e '.interrupted' big-order.json >/dev/null || fail "interrupted result not marked"
fi
peak=$(sed -n 's/^peak: //p' <<<"$out")
run "$REMAT" eval big.json big-order.json
[ "$rc" = 0 ] && grep -qx "peak: $peak" <<<"$out" ||
  fail "the interrupted order does not re-simulate to its peak: '$out'"

t_case "info keeps to its time limit, one for the whole command"
# The order bound, the pebbling check, the baselines and the covering
# bound share it: each of them given the whole limit, this graph took
# twice as long.
start=$(date +%s%N)
run "$REMAT" info big.json --budget 0.8 --time-limit 3
ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" = 0 ] || fail "info: exit $rc ($err)"
grep -q "^lower_bound: " <<<"$out" || fail "info printed no bound: '$out'"
[ "$ms" -lt 5000 ] || fail "info --time-limit 3 took $ms ms"
# CBC, on the covering problem with the inputs' rows of a thousand
# layered nodes, ran 1 to 2.5 s past the limit; the covering bound's child
# is now stopped on time
"$REMAT" gen layered --nodes 1000 --seed 2 -q -o l1000.json
start=$(date +%s%N)
# (under the sanitizers, with the other tests beside it, the covering
# bound needs more than its share of 4 s: the limit scales with T_SLOW)
lim=$((4 * T_SLOW))
run "$REMAT" info l1000.json --budget 0.8 --time-limit $lim
ms=$((($(date +%s%N) - start) / 1000000))
[ "$rc" = 0 ] && grep -q "^lower_bound: duration " <<<"$out" || fail "info: exit $rc '$out' ($err)"
[ "$ms" -lt $((lim * 1000 + 250 * T_SLOW)) ] || fail "info --time-limit $lim took $ms ms"

t_done
