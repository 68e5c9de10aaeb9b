#!/usr/bin/env bash
# e2e_solve.sh -- remat solve / eval / emit / info from the command line:
# the catalogue of malformed inputs (exit 2, one exact message each), exit
# codes, the JSON result, eval agreeing with solve, the MiniZinc model
# agreeing with our FlatZinc, the external backend, and Ctrl-C.
# Usage: REMAT=build/remat bash tests/e2e_solve.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# ------------------------------------------------ malformed input catalogue
t_case "malformed input catalogue"
# file name | content | the exact message on stderr
while IFS='|' read -r name content message; do
  [ -z "$name" ] && continue
  if [ "$content" != "-" ]; then printf '%s' "$content" >"$name"; fi
  run "$REMAT" solve "$name" --budget 0.9 -q
  [ "$rc" = 2 ] || fail "$name: exit $rc, expected 2 ($err)"
  [ "$err" = "remat solve: $message" ] ||
    fail "$name: got message '$err', expected 'remat solve: $message'"
done <<'EOF'
missing.json|-|cannot read missing.json: No such file or directory
empty.json||empty.json:1:0: JSON syntax error: '[' or '{' expected near end of file
comma.json|{"nodes": [{"id": 0, "duration": 1, "memory": 2},]}|comma.json:1:50: JSON syntax error: unexpected token near ']'
array.json|[1, 2]|array.json: expected a JSON object with "nodes"
nonodes.json|{"edges": []}|nonodes.json: missing "nodes" array
emptynodes.json|{"nodes": [], "edges": []}|emptynodes.json: the graph has no nodes
nodenotobj.json|{"nodes": [7]}|nodenotobj.json: node 0 is not a JSON object
noid.json|{"nodes": [{"duration": 1, "memory": 2}]}|noid.json: node 0 has no "id" field
nodur.json|{"nodes": [{"id": 0, "memory": 2}]}|nodur.json: node 0 (id 0): missing "duration"
real.json|{"nodes": [{"id": 0, "duration": 1, "memory": 2.5}]}|real.json: node 0 (id 0): "memory" must be an integer, not 2.5
string.json|{"nodes": [{"id": 0, "duration": 1, "memory": "big"}]}|string.json: node 0 (id 0): "memory" must be a non-negative integer
negative.json|{"nodes": [{"id": 0, "duration": -4, "memory": 2}]}|negative.json: node 0 (id 0): "duration" is negative (-4)
huge.json|{"nodes": [{"id": 0, "duration": 1, "memory": 18446744073709551616}]}|huge.json:1:66: integer does not fit in 64 bits (too big integer near '18446744073709551616')
overflow.json|{"nodes": [{"id": 0, "duration": 9223372036854775807, "memory": 2}, {"id": 1, "duration": 1, "memory": 2}]}|overflow.json: node 1 (id 1): the total of durations or sizes exceeds 64 bits
unknown.json|{"nodes": [{"id": 0, "duration": 1, "memory": 2}, {"id": 1, "duration": 1, "memory": 2}], "edges": [[0, 1], [1, 9]]}|unknown.json: edge 1 refers to unknown node 9
nxunknown.json|{"directed": true, "nodes": [{"id": 0, "cost_cpu": 1, "cost_ram": 2}], "links": [{"source": 0, "target": 3}]}|nxunknown.json: edge 0 refers to unknown node 3
edgepair.json|{"nodes": [{"id": 0, "duration": 1, "memory": 2}], "edges": [[0]]}|edgepair.json: edge 0 must be a [source, target] pair
dup.json|{"nodes": [{"id": 1, "duration": 1, "memory": 2}, {"id": 1, "duration": 1, "memory": 2}]}|dup.json: duplicate node id 1
selfloop.json|{"nodes": [{"id": 1, "duration": 1, "memory": 2}], "edges": [[1, 1]]}|selfloop.json: edge 0 is a self-loop on node 1
cycle.json|{"nodes": [{"id": "a", "duration": 1, "memory": 2}, {"id": "b", "duration": 1, "memory": 2}, {"id": "c", "duration": 1, "memory": 2}], "edges": [["a", "b"], ["b", "c"], ["c", "a"]]}|cycle.json: the graph has a cycle: a -> b -> c -> a
order.json|{"nodes": [{"id": 0, "duration": 1, "memory": 2}, {"id": 1, "duration": 1, "memory": 2}], "edges": [[0, 1]], "order": [1, 0]}|order.json: the order is not a topological order: node 1 comes before its predecessor 0
orderunk.json|{"nodes": [{"id": 0, "duration": 1, "memory": 2}, {"id": 1, "duration": 1, "memory": 2}], "edges": [[0, 1]], "order": [0, 5]}|orderunk.json: the order names unknown node 5
copies.json|{"nodes": [{"id": 0, "duration": 1, "memory": 2, "copies": 0}]}|copies.json: node 0 (id 0): "copies" must be between 1 and 1000000
longdur.json|{"nodes": [{"id": 0, "duration": 3000000000000000000, "memory": 4}, {"id": 1, "duration": 3000000000000000000, "memory": 5}, {"id": 2, "duration": 1, "memory": 2}, {"id": 3, "duration": 1, "memory": 3}], "edges": [[0, 1], [1, 2], [0, 3], [2, 3]]}|longdur.json: durations too large: a schedule with recomputations could take more than 2^63 - 1 in total (the sum over v of w_v times the n - v stages v can be computed in); scale the durations down
EOF

t_case "durations too large for 64-bit totals"
# the same graph: its total fits (eval of the input order), a schedule
# that recomputes node 0 does not; the other solving commands refuse it
run "$REMAT" eval longdur.json - <<<'{"sequence": [0, 1, 2, 3]}'
[ "$rc" = 0 ] && grep -q '^duration: 6000000000000000002$' out.txt || fail "longdur input order: exit $rc $out"
run "$REMAT" eval longdur.json - <<<'{"sequence": [0, 1, 0, 1, 2, 3]}'
[ "$rc" = 2 ] && grep -q '^error: the total duration passes 2^63 - 1 at step 3 (durations too large: scale them down)$' out.txt ||
  fail "longdur overflow: exit $rc $out $err"
for c in milp "baseline --method chen-sqrtn" emit tune-copies compare; do
  run "$REMAT" $c longdur.json --budget 0.9 -o x.out
  c=${c%% *}
  [ "$rc" = 2 ] && [[ $err == "remat $c: longdur.json: durations too large:"* ]] || fail "$c longdur: exit $rc '$err'"
done
run "$REMAT" info longdur.json --budget 10 # topo peak 11, min_peak 9
[ "$rc" = 0 ] && grep -q '^lower_bound: none (durations too large: sums of them could pass 64 bits)$' out.txt ||
  fail "info longdur: exit $rc $out"

t_case "usage errors"
# a small graph: a diamond with a long-lived input
t_diamond g.json

# --------------------------------------------------------- usage errors
run "$REMAT" solve g.json -q
[ "$rc" = 2 ] && [ "$err" = "remat solve: --budget is required (e.g. --budget 0.9)" ] ||
  fail "missing budget: exit $rc '$err'"
run "$REMAT" solve g.json --budget abc -q
[ "$rc" = 2 ] && [ "$err" = "remat solve: cannot parse budget 'abc' (use 0.9, 90%, 41687 or 12GiB)" ] ||
  fail "bad budget: exit $rc '$err'"
run "$REMAT" solve g.json --budget 0.9 --frobnicate
[ "$rc" = 2 ] && [ "$err" = "remat solve: unknown option --frobnicate (see remat solve --help)" ] ||
  fail "unknown option: exit $rc '$err'"
run "$REMAT" solve g.json --budget 0.9 --time-limit soon
[ "$rc" = 2 ] && [ "$err" = "remat solve: --time-limit must be a number in (0, 1e9], not 'soon'" ] ||
  fail "bad time limit: exit $rc '$err'"
run "$REMAT" frobnicate
[ "$rc" = 2 ] || fail "unknown command: exit $rc"

# ------------------------------------------------- infeasible at once
t_case "infeasible at once (below max_v)"
# "d" needs in + c + d = 11
run "$REMAT" solve g.json --budget 10 -q -o inf.json
[ "$rc" = 3 ] || fail "budget below the bound: exit $rc"
[ "$err" = "remat solve: infeasible: budget 10 is below 11, the memory node d needs with its inputs (max over v of m_v + sum of its predecessors' m_u)" ] ||
  fail "budget below the bound: '$err'"
grep -q '"status": "infeasible"' inf.json || fail "inf.json has no infeasible status"

# ------------------------------------ proven infeasible by the MILP: exit 3
t_case "proven infeasible by the MILP"
# A 28-node graph (sizes 0, 7 and 100) whose budget 270 is above the max_v
# bound (200) but below every schedule's peak: Gecode alone does not prove
# it within the test's limit (any C_v); Checkmate's MILP proves it quickly
# (bench/RESULTS.md#milp-in-solve), for the stage model; the pebbling proof,
# which the solve runs first, for every sequence (node n21 cannot be
# computed within 270 at all).
cat >z28.json <<'EOF_Z28'
{"nodes": [{"id": "n0", "duration": 5, "memory": 0}, {"id": "n1", "duration": 0, "memory": 0}, {"id": "n2", "duration": 0, "memory": 0}, {"id": "n3", "duration": 0, "memory": 0}, {"id": "n4", "duration": 0, "memory": 0}, {"id": "n5", "duration": 5, "memory": 100}, {"id": "n6", "duration": 0, "memory": 100}, {"id": "n7", "duration": 5, "memory": 0}, {"id": "n8", "duration": 0, "memory": 0}, {"id": "n9", "duration": 0, "memory": 100}, {"id": "n10", "duration": 5, "memory": 7}, {"id": "n11", "duration": 5, "memory": 0}, {"id": "n12", "duration": 5, "memory": 0}, {"id": "n13", "duration": 0, "memory": 100}, {"id": "n14", "duration": 5, "memory": 100}, {"id": "n15", "duration": 0, "memory": 100}, {"id": "n16", "duration": 0, "memory": 100}, {"id": "n17", "duration": 0, "memory": 0}, {"id": "n18", "duration": 0, "memory": 100}, {"id": "n19", "duration": 0, "memory": 100}, {"id": "n20", "duration": 5, "memory": 100}, {"id": "n21", "duration": 0, "memory": 0}, {"id": "n22", "duration": 0, "memory": 100}, {"id": "n23", "duration": 5, "memory": 0}, {"id": "n24", "duration": 5, "memory": 100}, {"id": "n25", "duration": 0, "memory": 0}, {"id": "n26", "duration": 0, "memory": 7}, {"id": "n27", "duration": 0, "memory": 7}],
 "edges": [["n0", "n1"], ["n0", "n5"], ["n0", "n6"], ["n1", "n2"], ["n1", "n19"], ["n3", "n5"], ["n3", "n6"], ["n5", "n6"], ["n6", "n8"], ["n7", "n8"], ["n7", "n10"], ["n8", "n9"], ["n9", "n10"], ["n9", "n11"], ["n9", "n13"], ["n11", "n12"], ["n12", "n14"], ["n13", "n14"], ["n14", "n15"], ["n14", "n19"], ["n15", "n16"], ["n18", "n20"], ["n19", "n21"], ["n20", "n21"], ["n20", "n22"], ["n20", "n24"], ["n21", "n25"], ["n23", "n25"], ["n24", "n26"], ["n24", "n27"], ["n25", "n26"]]}
EOF_Z28
t0=$SECONDS
run "$REMAT" solve z28.json --budget 270 --time-limit 60 -q -o z28-r.json
[ "$rc" = 3 ] || fail "z28: exit $rc ($err)"
[ "$err" = "remat solve: proven infeasible (by the pebbling bound): no sequence fits 270, in any order and with any number of recomputations: not even node n21 can be computed within it; best peak 300" ] ||
  fail "z28: '$err'"
((SECONDS - t0 < 10)) || fail "z28: $((SECONDS - t0)) s to prove it"
jq -e '.status == "infeasible"' z28-r.json >/dev/null || fail "z28: z28-r.json"
run "$REMAT" info z28.json --budget 270
[ "$rc" = 0 ] && grep -qx "pebbling: infeasible (no sequence in any order, with any number of recomputations, computes node n21 within the budget)" <<<"$out" &&
  grep -qx "lower_bound: infeasible (pebbling proof)" <<<"$out" || fail "z28 info: $rc '$out'"
run "$REMAT" info z28.json --budget 300
grep -qx "pebbling: no proof (every node can be computed within the budget)" <<<"$out" || fail "z28 info at 300: '$out'"
run "$REMAT" milp z28.json --budget 270 --time-limit 60 -q
[ "$rc" = 3 ] || fail "z28 milp: exit $rc ($err)"
grep -q '^remat milp: proven infeasible' <<<"$err" || fail "z28 milp: '$err'"

t_case "infeasible with C_v = 1, more copies fit"
# With C_v = 1 nothing fits chain_train_12 at 0.8; the MILP proves that,
# then, without the C_v rows, finds a schedule that fits with more copies,
# and says how many: that many copies must then give a schedule.  (The
# covering bound proves the first part at once, before or after the
# heuristics end: either way the MILP must still run; three tries.)
ct=$root/examples/chain_train_12.json
re="^remat solve: proven infeasible \(by Checkmate's MILP\): no schedule with at most C_v copies per node on the input order's stages fits 22368 \(the stage model; other sequences may fit\); best peak 27960; one with up to ([0-9]+) copies of a node does \(--copies ([0-9]+)\)$"
for try in 1 2 3; do
  run "$REMAT" solve "$ct" --budget 0.8 --copies 1 --time-limit 60 -q
  [ "$rc" = 3 ] || fail "copies 1: exit $rc ($err)"
  [[ $err =~ $re ]] || fail "copies 1 (try $try): '$err'"
done
k=${BASH_REMATCH[1]:-0}
[ "$k" -ge 2 ] && [ "${BASH_REMATCH[2]}" = "$k" ] || fail "copies 1: '$err'"
run "$REMAT" solve "$ct" --budget 0.8 --copies "$k" --time-limit 10 -q
[ "$rc" = 0 ] || fail "copies $k: exit $rc ($err)"

t_case "one thread: the MILP finds what the annealing cannot"
# gen layered 16 nodes seed 4 at 0.8: the annealing and the CP find
# nothing within budget; Checkmate's MILP (C_v = 2 rows) has its optimum,
# duration 8949, in about 2 s.  With one thread it runs in the CP
# worker's slice, which is larger while nothing fits (src/portfolio/portfolio.c).
# (At 20 s the MILP then gets about 8.7 s; with a quarter of the time
# left, as before, about 1.9 s, and the solve ended `feasible` at 33.96 %.)
"$REMAT" gen layered --nodes 16 --seed 4 -q -o l16.json
run "$REMAT" solve l16.json --budget 0.8 --threads 1 --time-limit $((20 * T_SLOW)) -q -o l16-r.json
[ "$rc" = 0 ] && jq -e '.status == "optimal" and .duration == 8949' l16-r.json >/dev/null ||
  fail "l16 at 0.8, one thread: exit $rc, $(jq -c '[.status, .duration]' l16-r.json) ($err)"

t_case "never worse than the Echo baseline, whose C_v it takes"
# x (cheap, 10 bytes) is read by r1, r2 and r3 with a 10-byte convolution
# between each; at 23 bytes x cannot stay across h2 nor h3: every schedule
# that fits computes x three times, the least duration is the base (405)
# plus two recomputations of x.  Echo finds it; with the default C_v = 2
# only a solve that raises x's C_v to Echo's 3 fits at all.
cat >three.json <<'EOF_THREE'
{"name": "three-readers",
 "nodes": [{"id": "s", "duration": 100, "memory": 1, "op": "aten.convolution"},
           {"id": "x", "duration": 1, "memory": 10, "op": "aten.relu"},
           {"id": "h1", "duration": 100, "memory": 10, "op": "aten.convolution"},
           {"id": "r1", "duration": 1, "memory": 1, "op": "aten.add"},
           {"id": "h2", "duration": 100, "memory": 10, "op": "aten.convolution"},
           {"id": "r2", "duration": 1, "memory": 1, "op": "aten.add"},
           {"id": "h3", "duration": 100, "memory": 10, "op": "aten.convolution"},
           {"id": "r3", "duration": 1, "memory": 1, "op": "aten.add"},
           {"id": "out", "duration": 1, "memory": 1, "op": "aten.sum"}],
 "edges": [["s", "x"], ["s", "h1"], ["x", "r1"], ["h1", "r1"], ["h1", "h2"], ["x", "r2"],
           ["h2", "r2"], ["r1", "r2"], ["h2", "h3"], ["x", "r3"], ["h3", "r3"], ["r2", "r3"],
           ["r3", "out"]]}
EOF_THREE
run "$REMAT" baseline three.json --budget 23 --method echo -q -o three-echo.json
[ "$rc" = 0 ] && [ "$(jq .duration three-echo.json)" = 407 ] || fail "echo: exit $rc ($err)"
run "$REMAT" solve three.json --budget 23 --time-limit 2 --threads 1 -q -o three-cp.json
[ "$rc" = 0 ] || fail "solve: exit $rc ($err)"
[ "$(jq -r '[.status, .duration, ([.sequence[] | select(. == "x")] | length)] | @tsv' three-cp.json)" = \
  "$(printf 'optimal\t407\t3')" ] || fail "solve: $(jq -c '[.status, .duration, .sequence]' three-cp.json)"
run "$REMAT" eval three.json three-cp.json --budget 23
[ "$rc" = 0 ] || fail "eval: exit $rc"
# C_v = 1 forbids recomputing: no baseline lifts it
run "$REMAT" solve three.json --budget 23 --copies 1 --time-limit 2 --threads 1 -q
[ "$rc" = 3 ] || fail "copies 1: exit $rc ($err)"

t_case "stuck above the budget with C_v: the LP rounding's copies"
# gen layered 20 nodes seed 6 at 0.85: the baselines and the greedy stay
# above the budget with C_v = 2 and the search from there finds nothing
# in 10 s; Checkmate's LP rounded with any number of copies fits at once,
# computing a few nodes three times or more, and raises their C_v as a
# baseline's would (docs/method.md, "Copies"): a schedule within budget, whose
# copies keep to the result's map.
"$REMAT" gen layered --nodes 20 --seed 6 -q -o l20.json
run "$REMAT" solve l20.json --budget 0.85 --threads 1 --time-limit $((10 * T_SLOW)) -v -o l20-r.json
[ "$rc" = 0 ] || fail "l20 at 0.85: exit $rc ($err)"
grep -Eq "^remat: LP rounding with any number of copies: [0-9.]+s, within budget; C_v raised for [1-9][0-9]* nodes$" <<<"$err" ||
  fail "l20: no rounding line in '$err'"
# the raise is said at the default level too, as many nodes as the map has
k=$(jq '[.copies[] | select(. > 2)] | length' l20-r.json)
grep -Eq "^remat: \[ *[0-9.]+s\] copies    C_v raised on $k nodes? to its copies in a baseline's or the copies probe's schedule within budget; claims speak of the raised C_v \(the result's \"copies\"\)$" <<<"$err" ||
  fail "l20: no line saying that C_v was raised on $k nodes in '$err'"
jq -e '.within_budget and ([.copies[] | select(. > 2)] | length) >= 1 and
       (.copies as $c | [.sequence | group_by(.)[] | {id: .[0], k: length}] |
        all(.k <= $c[(.id | tostring)]))' l20-r.json >/dev/null ||
  fail "l20: $(jq -c '[.status, .peak, .budget, .copies]' l20-r.json)"
run "$REMAT" eval l20.json l20-r.json --budget 0.85
[ "$rc" = 0 ] || fail "l20 eval: exit $rc ($err)"
# C_v = 1 is never raised, and --copies 1 forbids any recomputation
run "$REMAT" solve l20.json --budget 0.85 --copies 1 --threads 1 --time-limit 2 -v -o l20-1.json
[ "$rc" = 3 ] && ! grep -q "LP rounding\|C_v raised" <<<"$err" || fail "l20 copies 1: exit $rc ($err)"
# --strict-copies keeps C_v = 2 as given: no baseline or rounding raises
# it, so the search stays above the budget (exit 3), and the result's map
# holds the C_v given
run "$REMAT" solve l20.json --budget 0.85 --strict-copies --threads 1 --time-limit 2 -v -o l20-s.json
[ "$rc" = 3 ] && ! grep -q "LP rounding\|C_v raised" <<<"$err" || fail "l20 strict: exit $rc ($err)"
jq -e '.status == "over-budget" and ([.copies[] | select(. > 2)] | length) == 0' l20-s.json >/dev/null ||
  fail "l20 strict: $(jq -c '[.status, .copies]' l20-s.json)"
# and so do compare's CP and a batch job
run "$REMAT" compare l20.json --budget 0.85 --method cp --strict-copies --threads 1 -t 2 --format json -q
[ "$rc" = 0 ] && [ "$(jq -r '.[0].within_budget' <<<"$out")" = false ] || fail "compare --strict-copies: $rc $out"
run "$REMAT" batch l20.json --budget 0.85 --strict-copies -t 2 -q -o l20-b
[ "$(jq -r '[.options, .status] | @tsv' l20-b.jsonl)" = "$(printf -- '--strict-copies\tover-budget')" ] ||
  fail "batch --strict-copies: $rc $(cat l20-b.jsonl)"

# ------------------------------------------------ out of time: exit 3
t_case "the copies probe: more copies of one node"
# x (duration 50) is read by four readers, each pair of them separated by
# a large value that x cannot stay live across: within 25, x is computed
# before each reader, four times (base + 150: TDI 86.71 %).  Echo's
# baseline does not recompute it (too expensive), and the LP rounding
# stays above the budget; the copies probe's annealing with any number of
# copies finds that schedule and raises x's C_v to 4.
cat >four.json <<'JSON'
{"nodes": [{"id": "a", "duration": 100, "memory": 1}, {"id": "x", "duration": 50, "memory": 10},
 {"id": "r1", "duration": 1, "memory": 1}, {"id": "b1", "duration": 5, "memory": 20},
 {"id": "c1", "duration": 1, "memory": 1}, {"id": "r2", "duration": 1, "memory": 1},
 {"id": "b2", "duration": 5, "memory": 20}, {"id": "c2", "duration": 1, "memory": 1},
 {"id": "r3", "duration": 1, "memory": 1}, {"id": "b3", "duration": 5, "memory": 20},
 {"id": "c3", "duration": 1, "memory": 1}, {"id": "r4", "duration": 1, "memory": 1},
 {"id": "out", "duration": 1, "memory": 1}],
 "edges": [["a","x"],["x","r1"],["r1","b1"],["b1","c1"],["c1","r2"],["x","r2"],["r2","b2"],
  ["b2","c2"],["c2","r3"],["x","r3"],["r3","b3"],["b3","c3"],["c3","r4"],["x","r4"],
  ["r4","out"],["a","out"]]}
JSON
run "$REMAT" solve four.json --budget 25 --threads 1 --time-limit 5 -v -o four-r.json
[ "$rc" = 0 ] || fail "four: exit $rc ($err)"
grep -Eq "^remat: copies probe: [0-9.]+s, within budget$" <<<"$err" || fail "four: no probe line in '$err'"
[ "$(jq -c '[.status, .copies.x, .duration - .base_duration]' four-r.json)" = '["optimal",4,150]' ] ||
  fail "four: $(jq -c '[.status, .copies.x, .duration, .base_duration]' four-r.json)"
[ "$(jq -c '[.sequence[] | select(. == "x")] | length' four-r.json)" = 4 ] || fail "four: x not computed 4 times"
# with C_v kept there is no probe, and nothing fits with x computed twice
run "$REMAT" solve four.json --budget 25 --strict-copies --threads 1 --time-limit 5 -v -o four-s.json
[ "$rc" = 3 ] && ! grep -q "copies probe" <<<"$err" || fail "four strict: exit $rc ($err)"
# free order probes the stages of its own order
run "$REMAT" solve four.json --budget 25 --free-order --threads 1 --time-limit 5 -q -o four-f.json
[ "$(jq -c '[.status, .copies.x, .duration - .base_duration]' four-f.json)" = '["optimal",4,150]' ] ||
  fail "four free: $(jq -c '[.status, .copies.x, .duration, .base_duration]' four-f.json)"

t_case "out of time"
# (on this generated graph at 0.8 the search stays over the budget with 2
# copies per node, kept, for far longer than the limit; with C_v raised,
# the walk on demand fits (in its share of the probe's 5 % of the limit),
# computing some nodes more than twice)
"$REMAT" gen layered --nodes 1000 --seed 1 -q -o big.json
run "$REMAT" solve big.json --budget 0.8 --time-limit 5 --threads 1 -q -o walk.json
[ "$rc" = 0 ] && jq -e '.peak <= .budget and ([.copies[]] | max) > 2' walk.json >/dev/null ||
  fail "the walk: exit $rc ($err)"
run "$REMAT" solve big.json --budget 0.8 --time-limit 1 --threads 1 --strict-copies -q -o over.json
[ "$rc" = 3 ] || fail "out of time: exit $rc ($err)"
grep -Eq "^remat solve: out of time: no schedule within 458912 found with at most 2 copies per node; best peak [0-9]+ \([0-9.]+% of budget\); more time or more copies \(--copies 4\) may reach it$" <<<"$err" ||
  fail "out of time: '$err'"
jq -e '.status == "over-budget" and .peak > .budget and (.sequence | length) >= 1000' over.json >/dev/null ||
  fail "out of time: over.json"

# ------------------------- a large graph: the time limit holds, linear memory
t_case "a large graph: the time limit holds"
# (10,000 nodes, 159,473 edges: anything quadratic in the seeding, such as
# the baselines' n x n stage matrices or a greedy pass over the schedule
# for every move at the peak, overruns a 4 s limit many times over;
# bench/RESULTS.md#large-graphs)
"$REMAT" gen layered --nodes 10000 --seed 1 -q -o huge.json
t0=$(date +%s.%N)
run "$REMAT" solve huge.json --budget 0.9 --time-limit 4 -q -o huge-r.json
t1=$(date +%s.%N)
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "large graph: exit $rc ($err)"
awk -v a="$t0" -v b="$t1" -v k="$T_SLOW" 'BEGIN { exit !(b - a < 4 + 4 * k) }' ||
  fail "large graph: $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s for a 4 s limit"
jq -e '(.sequence | length) >= 10000 and .trace[-1][0] < 6' huge-r.json >/dev/null ||
  fail "large graph: huge-r.json"
t_case "a large graph: Ctrl-C while seeding"
# Ctrl-C while it seeds: stops at once, says so, keeps the best schedule
t_interrupt 1 "$REMAT" solve huge.json --budget 0.8 --time-limit 60 -q -o huge-int.json
[ "$ms" -lt 3000 ] || fail "large graph: Ctrl-C took $ms ms"
[ "$rc" = 3 ] || fail "large graph: Ctrl-C: exit $rc ($err)"
grep -q "^remat solve: interrupted: no schedule within [0-9]* found with at most 2 copies per node; best peak" <<<"$err" ||
  fail "large graph: Ctrl-C message: $err"
jq -e '.interrupted and (.sequence | length) >= 10000' huge-int.json >/dev/null ||
  fail "large graph: Ctrl-C result"

t_case "beyond the stage model: the input order, with progress lines"
# 60,003 nodes: the stage model takes at most 60,000 (solve_large.h)
"$REMAT" gen training --nodes 30001 --seed 2 -q -o t60k.json
run "$REMAT" solve t60k.json --budget 0.5 --time-limit $((2 * T_SLOW)) -o t60k-r.json
[ "$rc" = 0 ] || fail "exit $rc: $err"
grep -Eq '^remat: \[ *[0-9.]+s\] segments  peak [0-9]+ \([0-9.]+% of budget\)  TDI [0-9.]+%$' <<<"$err" ||
  fail "no progress line of the segment search: $err"
# (the order cost bound covers every order; the closure bound, when its
# LP answers in time and says more, the input order's firsts)
jq -e '.order == "input" and .status == "feasible" and .within_budget and
  (.lower_bound_covers == "any-order" or .lower_bound_covers == "input-order-firsts-copies") and
  .lower_bound <= .duration and
  (.message | startswith("60003 nodes, beyond the stage model (at most 60000): "))' t60k-r.json \
  >/dev/null || fail "t60k-r.json: $(jq -c '[.status, .message, .lower_bound_covers]' t60k-r.json)"
run "$REMAT" eval t60k.json t60k-r.json --budget 0.5
[ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval: $rc '$out'"

t_case "beyond the stage model: nothing within the budget, before the time limit"
# at 0.3 % of the peak no checkpoint set of the segment search's grid fits
# (nor a baseline): the solve ends early and says that time was not what
# it lacked
run "$REMAT" solve t60k.json --budget 0.003 --time-limit $((60 * T_SLOW)) -o t60k-low.json
[ "$rc" = 3 ] && grep -Eq "^remat solve: ended before the time limit: no schedule within 179063 found on the input order \(60003 nodes, beyond the stage model: the baselines and the segment search, which found no checkpoint set within it\); best peak [0-9]+ \([0-9.]+% of budget\); more copies or the free order \(--free-order\) may reach it$" <<<"$err" &&
  jq -e '.status == "over-budget" and .time_s < 30' t60k-low.json >/dev/null ||
  fail "exit $rc: $err $(jq -c '[.status, .time_s]' t60k-low.json)"

t_case "beyond the stage model: repeated blocks composed, --hierarchy"
# 20,001 identical layers (80,005 nodes; tests/blocks.h's dropout_layers):
# b = f(h), d = f(b) saved for the backward pass, h' = f(h, d)
awk -v k=20001 'BEGIN {
  n = 1 + 4 * k; printf "{\"nodes\": [{\"id\": 0, \"duration\": 1, \"memory\": 4, \"backward\": false}"
  for (j = 0; j < k; j++)
    printf ", {\"id\": %d, \"duration\": 1, \"memory\": 8, \"backward\": false}, {\"id\": %d, \"duration\": 1, \"memory\": 8, \"backward\": false}, {\"id\": %d, \"duration\": 10, \"memory\": 4, \"backward\": false}", 3*j+1, 3*j+2, 3*j+3
  for (i = 0; i < k; i++) printf ", {\"id\": %d, \"duration\": 2, \"memory\": 4, \"backward\": true}", 1 + 3*k + i
  printf "], \"edges\": [[0, 1]"
  for (j = 0; j < k; j++) {
    h0 = j ? 3*j : 0; b = 3*j + 1
    if (j) printf ", [%d, %d]", h0, b
    printf ", [%d, %d], [%d, %d], [%d, %d]", b, b+1, h0, b+2, b+1, b+2
  }
  for (i = 0; i < k; i++) {
    y = 1 + 3*k + i; j = k - 1 - i; h0 = j ? 3*j : 0; d = 3*j + 2
    printf ", [%d, %d], [%d, %d]", y-1, y, d, y
    if (h0 != y-1) printf ", [%d, %d]", h0, y
  }
  printf "]}\n" }' >blocks80k.json
line='^remat: \[ *[0-9.]+s\] chain     peak [0-9]+ \([0-9.]+% of budget\)  TDI [0-9.]+%$'
run "$REMAT" solve blocks80k.json --budget 0.5 --time-limit "$T_SLOW" -o b80k-auto.json
[ "$rc" = 0 ] || fail "exit $rc: $err"
grep -Eq "$line" <<<"$err" || fail "no progress line of the repeated blocks: $err"
run "$REMAT" solve blocks80k.json --budget 0.5 --time-limit "$T_SLOW" --hierarchy off -o b80k-off.json
[ "$rc" = 0 ] || fail "off: exit $rc: $err"
! grep -Eq "$line" <<<"$err" || fail "--hierarchy off: the repeated blocks ran: $err"
for f in b80k-auto.json b80k-off.json; do
  run "$REMAT" eval blocks80k.json "$f" --budget 0.5
  [ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval $f: $rc '$out'"
done

# ------------------------------------- solve: optimum, JSON, eval agrees
t_case "solve: optimum, JSON, eval agrees"
run "$REMAT" info g.json
grep -qx "topo_peak: 16 (16 B)" <<<"$out" || fail "info topo peak: $out"
run "$REMAT" solve g.json --budget 13 --copies 6 -q -o s.json
[ "$rc" = 0 ] || fail "solve at 13: exit $rc ($err)"
grep -q "peak 13  TDI 29.41%.*optimal" <<<"$out" || fail "solve at 13: '$out'"
for field in graph n edges budget topo_peak peak base_duration duration tdi_percent \
  recomputations sequence copies status time_to_best_s phase_times_s trace solver_stats; do
  grep -q "\"$field\":" s.json || fail "result JSON lacks \"$field\""
done
grep -q '"status": "optimal"' s.json || fail "status not optimal"
run "$REMAT" eval g.json s.json --budget 13
[ "$rc" = 0 ] || fail "eval: exit $rc ($err)"
grep -qx "peak: 13" <<<"$out" || fail "eval peak: $out"
grep -qx "duration: 22" <<<"$out" || fail "eval duration: $out"
grep -qx "within_budget: yes" <<<"$out" || fail "eval within: $out"
run "$REMAT" eval g.json s.json --budget 12
[ "$rc" = 3 ] || fail "eval over budget: exit $rc"
t_case "standard input and output (-)"
# -o -: the JSON alone on standard output (the summary on stderr), no file "-"
run "$REMAT" solve g.json --budget 13 --copies 6 -q -o -
[ "$rc" = 0 ] && [ "$(jq -r '.status, .peak' out.txt | tr '\n' ' ')" = "optimal 13 " ] ||
  fail "solve -o -: $rc '$out'"
grep -q "peak 13  TDI 29.41%.*optimal" <<<"$err" || fail "solve -o -: summary '$err'"
run "$REMAT" emit g.json --budget 13 -o -
[ "$rc" = 0 ] && grep -q "^solve .*minimize" <<<"$out" || fail "emit -o -: $rc"
[ ! -e ./- ] || fail "-o - wrote a file named '-'"
# GRAPH -: the graph from standard input; eval's SCHEDULE - likewise
set +e
"$REMAT" solve - --budget 13 --copies 6 -q -o - <g.json >stdin.json 2>err.txt
rc=$?
set -e
[ "$rc" = 0 ] && [ "$(jq -r '.status, .peak, .graph, has("graph_file")' stdin.json | tr '\n' ' ')" = "optimal 13 diamond false " ] ||
  fail "solve -: $rc $(cat err.txt)"
run "$REMAT" eval g.json - <stdin.json
[ "$rc" = 0 ] && grep -qx "peak: 13" <<<"$out" || fail "eval g.json -: $rc '$out' '$err'"
run "$REMAT" info - <<<'{"nodes": [{"id": "x", "duration": 1, "memory": 2}]}'
[ "$rc" = 0 ] && grep -qx "graph: stdin" <<<"$out" || fail "info - (no name): $rc '$out' '$err'"
run "$REMAT" info - <<<'{"nodes": [{"id": "x", "duration": 1, "memory": 2},]}'
[ "$rc" = 2 ] && [ "$err" = "remat info: <stdin>:1:52: JSON syntax error: unexpected token near ']'" ] ||
  fail "info - (bad JSON): $rc '$err'"
run "$REMAT" eval - - <g.json
[ "$rc" = 2 ] && [ "$err" = "remat eval: only one argument can be - (standard input)" ] ||
  fail "eval - -: $rc '$err'"
t_case "eval: invalid schedules"
echo '{"sequence": ["in", "b", "a"]}' >short.json
run "$REMAT" eval g.json short.json
[ "$rc" = 2 ] && grep -qx "error: 3 nodes are never computed (first: c)" <<<"$out" ||
  fail "eval incomplete: $rc '$out'"
echo '["in", "c", "a", "b"]' >early.json
run "$REMAT" eval g.json early.json
[ "$rc" = 2 ] && grep -qx "error: step 1: node c needs a, which was not computed before" <<<"$out" ||
  fail "eval invalid: $rc '$out'"
echo '{"sequence": ["in", "zz"]}' >unk.json
run "$REMAT" eval g.json unk.json
[ "$rc" = 2 ] && [ "$err" = "remat eval: unk.json: sequence entry 1 is not a node of diamond" ] ||
  fail "eval unknown id: $rc '$err'"

# --------------------------- MiniZinc model == FlatZinc optimum (phase 2)
t_case "MiniZinc model equals our FlatZinc"
for B in 13 14 16; do
  "$REMAT" emit g.json --budget $B --phase 2 --copies 6 --dzn -o d.dzn
  mzn=$(minizinc --solver gecode "$root/models/moccasin.mzn" d.dzn 2>/dev/null | sed -n 's/^OBJ = \(.*\);/\1/p')
  "$REMAT" emit g.json --budget $B --phase 2 --copies 6 --fzn-solver fzn-gecode -o m.fzn
  fzn=$(fzn-gecode m.fzn | sed -n 's/^OBJ = \(.*\);/\1/p' | tail -n 1)
  [ -n "$mzn" ] && [ "$mzn" = "$fzn" ] || fail "budget $B: MiniZinc OBJ '$mzn', FlatZinc OBJ '$fzn'"
done
"$REMAT" emit g.json --budget 12 --phase 2 --copies 6 --dzn -o d.dzn
minizinc --solver gecode "$root/models/moccasin.mzn" d.dzn 2>/dev/null | grep -q UNSATISFIABLE ||
  fail "MiniZinc should find budget 12 infeasible"

# ----------------------------------- the external backend agrees
t_case "the external backend agrees"
# (--no-heuristic: else the covering bound proves the heuristics' schedule
# optimal before the external solver has run)
run "$REMAT" solve g.json --budget 14 --copies 6 -q --no-heuristic --fzn-solver fzn-gecode -o ext.json
[ "$rc" = 0 ] && grep -q "TDI 11.76%.*optimal" <<<"$out" || fail "fzn-gecode: $rc '$out' '$err'"
run "$REMAT" solve g.json --budget 14 --copies 6 -q --no-heuristic --fzn-solver /nonexistent/solver
[ "$rc" = 4 ] && grep -q "cannot run /nonexistent/solver" <<<"$err" ||
  fail "missing external solver: $rc '$err'"

# ------------------- the trace CSV quotes a graph name holding commas
t_case "trace CSV quoting"
cat >named.json <<'JSON'
{"name": "net (1, 2)", "nodes": [{"id": "a", "duration": 1, "memory": 4},
 {"id": "b", "duration": 1, "memory": 4}, {"id": "c", "duration": 1, "memory": 1}],
 "edges": [["a", "b"], ["a", "c"], ["b", "c"]]}
JSON
run "$REMAT" solve named.json --budget 1.0 -q --time-limit 5 --trace-csv tr.csv
[ "$rc" = 0 ] || fail "trace CSV solve: $rc '$err'"
head -n 1 tr.csv | grep -qx "graph,budget,method,seconds,phase,peak,duration,tdi_percent" ||
  fail "trace CSV header: $(head -n 1 tr.csv)"
sed -n 2p tr.csv | grep -q '^"net (1, 2)",9,cp,' || fail "trace CSV row: $(sed -n 2p tr.csv)"

# ------------- the covering bound proves a training graph's optimum at once
t_case "covering bound proves an optimum"
# (301 nodes, above the MILP's 200: the annealing finds 0.41 % and the
# covering child, in a fraction of a second, shows nothing is shorter: by
# the covering problem or the closure bound, whichever answers first)
"$REMAT" gen training --nodes 150 --seed 1 -q -o tr.json
t0=$SECONDS
run "$REMAT" solve tr.json --budget 0.9 --time-limit 60 -o tr-r.json
[ "$rc" = 0 ] && grep -q "TDI 0.41%.*optimal" <<<"$out" || fail "training 150: $rc '$out'"
grep -Eq "optimal   TDI 0.414% is the (closure|covering) bound" <<<"$err" || fail "training 150: '$err'"
((SECONDS - t0 < 20)) || fail "training 150: $((SECONDS - t0)) s to prove it"
jq -e '.status == "optimal" and .lower_bound == .duration and .gap_percent == 0' tr-r.json >/dev/null ||
  fail "training 150: $(jq -c '[.status, .lower_bound, .duration]' tr-r.json)"
run "$REMAT" info tr.json --budget 0.9
grep -qx "lower_bound: duration $(jq .duration tr-r.json)  TDI 0.4137% (covering bound, every order: the input order is the only one, [0-9.]*s)" <<<"$out" ||
  fail "info --budget: '$out'"

# --------- the covering bound proves bounds below the schedule, step by step
t_case "covering bound proves bounds below the schedule"
# (gen layered 60 nodes at 0.8: the probe's 2.10 % at once; the steps'
# problem's LP says 1.507 %, then CBC finds nothing below a quarter of
# the way to the schedule, again and again, up to it; cover_lp.h)
"$REMAT" gen layered --nodes 60 --seed 1 -q -o l60s1.json
run "$REMAT" solve l60s1.json --budget 0.8 --time-limit 30 -o l60s1-r.json
[ "$rc" = 0 ] && grep -q "TDI 2.10%.*optimal" <<<"$out" || fail "layered 60 at 0.8: $rc '$out'"
grep -q "bound     TDI >= [0-9.]*% (covering bound, CBC found nothing below it)" <<<"$err" ||
  fail "layered 60 at 0.8: no step proven: '$err'"
jq -e '.status == "optimal" and .lower_bound == .duration' l60s1-r.json >/dev/null ||
  fail "layered 60 at 0.8: $(jq -c '[.status, .lower_bound, .duration]' l60s1-r.json)"

# ------------------ --lp-bound: Checkmate's LP value as the lower bound
t_case "--lp-bound"
# (layered_60 at 0.9: the search proves nothing in 5 s; the LP is the one
# `remat milp --relax --eps 0` solves, rounded up to an integer duration;
# the bound reported is at least the higher of it and the covering bound of
# `remat info --budget` (here the covering bound, 30308 against 29562),
# and higher where the solve's covering child got further in its time)
l60=$root/examples/layered_60.json
run "$REMAT" solve "$l60" --budget 0.9 --time-limit 5 --lp-bound -q -o lb.json
[ "$rc" = 0 ] || fail "--lp-bound: exit $rc ($err)"
lb=$(jq '.lower_bound' lb.json)
grep -q "^lower bound: duration $lb  TDI [0-9.]*%  gap [0-9.]*%$" <<<"$out" ||
  fail "--lp-bound: no bound line on stdout: '$out'"
[ "$(jq '.lower_bound >= .base_duration and .lower_bound <= .duration and .gap_percent >= 0' lb.json)" = true ] ||
  fail "--lp-bound: bound $lb outside [base, duration] of $(jq -c '[.base_duration, .duration]' lb.json)"
run "$REMAT" milp "$l60" --budget 0.9 --relax --eps 0 -q -o lp.json
lp=$(jq '.lp.duration - 1e-6 * .lp.duration | ceil' lp.json)
run "$REMAT" info "$l60" --budget 0.9
cover=$(sed -n 's/^lower_bound: duration \([0-9]*\) .*(covering bound, .*$/\1/p' <<<"$out")
[ -n "$cover" ] && [ "$lb" -ge "$cover" ] && [ "$lb" -ge "$lp" ] && [ "$cover" != "$lp" ] ||
  fail "--lp-bound: bound $lb, LP value $lp, covering bound '$cover' ($out)"

# ---------------------------- Ctrl-C keeps the best schedule so far
t_case "Ctrl-C keeps the best schedule"
t_interrupt 3 "$REMAT" solve "$root/examples/layered_120.json" --budget 0.8 --time-limit 60 -q -o int.json
[ "$secs" -le 5 ] || fail "Ctrl-C took more than 5 s"
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "Ctrl-C: exit $rc ($err)"
grep -q '"interrupted": true' int.json || fail "interrupted result not marked"
grep -q '"sequence": \[' int.json || fail "interrupted result has no schedule"
run "$REMAT" eval "$root/examples/layered_120.json" int.json
[ "$rc" = 0 ] || fail "interrupted schedule does not re-simulate: $out"

# ------------------------------ tiny time limits end on time
t_case "tiny time limits end on time"
# The time can run out between the CP worker's check and its call of
# Gecode, where a limit of 0 means none: the solve must not then run on.
# Limits of 1.5 to 31 ms on three 38-node graphs.
for s in 1 2 3; do "$REMAT" gen layered --nodes 38 --seed $s -q -o tiny$s.json; done
for i in $(seq 1 60); do
  s=$((i % 3 + 1))
  tl=$(awk -v i="$i" 'BEGIN { printf "%.4f", 0.0005 * i + 0.001 }')
  set +e
  timeout 10 "$REMAT" solve tiny$s.json --budget 0.7 --time-limit "$tl" -q >/dev/null 2>tiny.err
  rc=$?
  set -e
  [ "$rc" != 124 ] || fail "--time-limit $tl on tiny$s.json: still running after 10 s"
  [ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "--time-limit $tl on tiny$s.json: exit $rc ($(cat tiny.err))"
done

t_done
