#!/usr/bin/env bash
# e2e_options.sh -- the option table from the command line: a value out of
# its range or not among its words is refused by every command with exit 2
# and one message format; a batch manifest's options go through the same
# checks; budgets past 64 bits; --help shows the ranges; --copies files'
# errors; the ends of the ranges are accepted.
# Usage: REMAT=build/remat bash tests/e2e_options.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# the diamond of e2e_solve.sh: topo peak 16, 0.9 is 14
t_diamond g.json
echo '{"sequence": ["in", "a", "b", "c", "d", "out"]}' >s.json

# ------------------------------------------------------------ bad values
t_case "bad values: exit 2, one message each"
# command | arguments (split at spaces) | the exact message after "remat COMMAND: "
T="must be a number in (0, 1e9], not"
FRACTION="a fraction must be in (0, 1] and a percentage in (0, 100]; absolute sizes are integers or carry a unit (12GiB)"
while IFS='|' read -r cmd args message; do
  [ -z "$cmd" ] && continue
  message=${message//\$T/$T}
  message=${message//\$FRACTION/$FRACTION}
  # shellcheck disable=SC2086
  run "$REMAT" $cmd $args
  [ "$rc" = 2 ] || fail "$cmd $args: exit $rc, expected 2 ($err)"
  [ "$err" = "remat $cmd: $message" ] ||
    fail "$cmd $args: got '$err', expected 'remat $cmd: $message'"
done <<'EOF'
solve|g.json --budget 0.9 --time-limit nan|--time-limit $T 'nan'
solve|g.json --budget 0.9 --time-limit -1|--time-limit $T '-1'
solve|g.json --budget 0.9 --time-limit 0|--time-limit $T '0'
solve|g.json --budget 0.9 -t 1e10|--time-limit $T '1e10'
milp|g.json --budget 0.9 --time-limit inf|--time-limit $T 'inf'
baseline|g.json --budget 0.9 --method chen-greedy -t -0|--time-limit $T '-0'
compare|g.json --budget 0.9 -t nan|--time-limit $T 'nan'
batch|g.json --budget 0.9 --time-limit 0|--time-limit $T '0'
tune-copies|g.json --budget 0.9 --time-limit nan|--time-limit $T 'nan'
info|g.json --budget 0.9 --time-limit 0|--time-limit $T '0'
solve|g.json --budget 0.9 --threads 99999999999|--threads must be an integer in [0, 16], not '99999999999'
milp|g.json --budget 0.9 --threads 17|--threads must be an integer in [0, 16], not '17'
compare|g.json --budget 0.9 --threads -1|--threads must be an integer in [0, 16], not '-1'
batch|g.json --budget 0.9 --threads 1.5|--threads must be an integer in [0, 16], not '1.5'
solve|g.json --budget 0.9 --seed -1|--seed must be an integer in [0, 4294967295], not '-1'
gen|layered --seed 4294967296|--seed must be an integer in [0, 4294967295], not '4294967296'
batch|g.json --budget 0.9 -j 4097|--jobs must be an integer in [0, 4096], not '4097'
emit|g.json --budget 0.9 --phase 3|--phase must be an integer in [1, 2], not '3'
milp|g.json --budget 0.9 --relax --eps 1|--eps must be a number in [0, 1), not '1'
milp|g.json --budget 0.9 --eps 0.5|--eps goes with --relax
solve|g.json --budget 0.9 --lns big|--lns must be auto, random or none, not 'big'
batch|g.json --budget 0.9 --lns big|--lns must be auto, random or none, not 'big'
tune-copies|g.json --budget 0.9 --lns=|--lns must be auto, random or none, not ''
solve|g.json --budget 0.9 --hierarchy yes|--hierarchy must be auto, on or off, not 'yes'
baseline|g.json --budget 0.9|--method is required (checkpoint-all, chen-sqrtn, chen-greedy or echo)
baseline|g.json --budget 0.9 --method cp|--method must be checkpoint-all, chen-sqrtn, chen-greedy or echo, not 'cp'
baseline|g.json --budget 0.9 --method chen-greedy --candidates all|--candidates must be ap or linearized, not 'all'
compare|g.json --budget 0.9 --method cp,,milp|--method must be a comma list of cp, milp, lp-rounding, checkpoint-all, chen-sqrtn, chen-greedy, chen-sqrtn-linearized, chen-greedy-linearized, echo, baselines or all, not 'cp,,milp'
compare|g.json --budget 0.9 --format xml|--format must be md, csv or json, not 'xml'
solve|g.json --budget 0.9 --copies 0|--copies must be an integer in [1, 1000000] or a file, not '0'
info|g.json --budget 0.9 -c 1000001|--copies must be an integer in [1, 1000000] or a file, not '1000001'
tune-copies|g.json --budget 0.9 --copies 2,0|--copies must be an integer in [1, 1000000], a comma list of them or a file, not '2,0'
gen|training --nodes 0|--nodes must be an integer in [1, 1000000], not '0'
gen|layered --nodes 2|layered: --nodes must be an integer in [3, 1000000], not '2'
gen|unet --nodes 17|unet: --nodes (the depth) must be an integer in [1, 16], not '17'
solve|g.json --budget 0.9 --seed|--seed needs a value (N)
solve|g.json --budget 0.9 --quiet=yes|--quiet takes no value
solve|g.json --budget 0.9 --phase 1|unknown option --phase (see remat solve --help)
baseline|g.json --budget 0.9 --method echo --seed 3|unknown option --seed (see remat baseline --help)
solve|g.json --budget 309485009821345068724781061TiB|budget '309485009821345068724781061TiB' does not fit in 64 bits
eval|g.json s.json --budget 8388608TiB|budget '8388608TiB' does not fit in 64 bits
emit|g.json --budget 9223372036854775808|budget '9223372036854775808' does not fit in 64 bits
solve|g.json --budget 1.5|budget '1.5': $FRACTION
milp|g.json --budget 0|budget '0': $FRACTION
solve|g.json --budget 100.0000000000000000000000000000000000000001%|budget '100.0000000000000000000000000000000000000001%': $FRACTION
EOF

# ---------------------------------------------------- the ends are fine
t_case "the ends of the ranges are accepted"
run "$REMAT" solve g.json --budget 0.9 --time-limit 1e9 --threads 16 --seed 4294967295 -q
[ "$rc" = 0 ] || fail "solve at the ends of the ranges: exit $rc ($err)"
# every method (and the covering bound) with the longest time limit
run "$REMAT" compare g.json --budget 0.9 --time-limit 1e9 --threads 0 -q
[ "$rc" = 0 ] && [ "$(grep -c '^| 14 | ' out.txt)" = 9 ] && grep -q '^| 14 | cp | input | 11.76 | 14 | yes | .* optimal |' out.txt ||
  fail "compare -t 1e9: exit $rc $out $err"
run "$REMAT" info g.json --budget 0.9 --time-limit 1e9
[ "$rc" = 0 ] && grep -q "^lower_bound: duration 19 " out.txt || fail "info -t 1e9: exit $rc $out $err"
run "$REMAT" eval g.json s.json --budget 1.0000000000000000000000000000000000000000
[ "$rc" = 0 ] && grep -qx "budget: 16" out.txt || fail "eval --budget 1.000...: exit $rc $out"
run "$REMAT" eval g.json s.json --budget 8388607.9999999999999999999999999999999999999999TiB
[ "$rc" = 0 ] && grep -qx "budget: 9223372036854775807" out.txt ||
  fail "eval at 2^63 - 1 bytes: exit $rc $out"

# a fraction that floors to 0 bytes is a budget of 0: infeasible (exit 3)
t_case "a fraction that floors to 0 bytes"
run "$REMAT" solve g.json --budget 0.0000000000000000000000000000000000000001 -q
[ "$rc" = 3 ] && [[ $err == "remat solve: infeasible: budget 0 is below 11,"* ]] ||
  fail "budget 0: exit $rc '$err'"

# -------------------------------------------------- a batch job's options
t_case "a batch job's options"
printf 'g.json 0.9\ng.json 0.8 --copies 3 --time-limit nan\n' >m.txt
run "$REMAT" batch m.txt -q
[ "$rc" = 2 ] && [ "$err" = "remat batch: m.txt:2: --time-limit must be a number in (0, 1e9], not 'nan'" ] ||
  fail "manifest --time-limit nan: exit $rc '$err'"
printf 'g.json 0.9 --threads 17\n' >m.txt
run "$REMAT" batch m.txt -q
[ "$rc" = 2 ] && [ "$err" = "remat batch: m.txt:1: --threads must be an integer in [0, 16], not '17'" ] ||
  fail "manifest --threads 17: exit $rc '$err'"
printf 'g.json 0.9 -q\n' >m.txt
run "$REMAT" batch m.txt -q
[ "$rc" = 2 ] && [ "$err" = "remat batch: m.txt:1: unknown or batch-level option '-q' (a job takes --time-limit, --threads, --seed, --copies, --fzn-solver, --no-heuristic, --free-order, --strict-copies, --lp-bound, --lns, --hierarchy)" ] ||
  fail "manifest -q: exit $rc '$err'"

# ------------------------------------------------------------- --help
t_case "--help shows the ranges"
run "$REMAT" solve --help
[ "$rc" = 0 ] || fail "solve --help: exit $rc"
grep -q -- "--time-limit S .*; a number in (0, 1e9]$" out.txt || fail "solve --help: no range: $out"
grep -q -- "--threads N .*; an integer in \[0, 16\]$" out.txt || fail "solve --help: no threads range"
run "$REMAT" compare --help
grep -q -- "--method LIST .*; a comma list of cp, milp, " out.txt || fail "compare --help: $out"
run "$REMAT" plot --help
grep -q "^  remat plot progress RESULT.json... -o FILE.svg$" out.txt || fail "plot --help: $out"

# ------------------------------------------------------- --copies FILE
t_case "--copies FILE"
printf '{"a": 2,' >syn.json
printf '{"a": 2, "a": 3}' >dup.json
printf '{"a": 0}' >zero.json
printf '{"zz": 2}' >unk.json
printf '{"b": 2,\n  "a": 2, "copies": {\n "b": 3,\n\t"\\u0061": "3"}}' >res.json
printf '[2]' >arr.json
while IFS='|' read -r file message; do
  run "$REMAT" solve g.json --budget 0.9 --copies "$file" -q
  [ "$rc" = 2 ] && [ "$err" = "remat solve: $message" ] ||
    fail "--copies $file: exit $rc '$err', expected 'remat solve: $message'"
done <<'EOF'
syn.json|syn.json:1:8: JSON syntax error: string or '}' expected near end of file
dup.json|dup.json:1:12: JSON syntax error: duplicate object key near '"a"'
zero.json|zero.json:1:2: copies of node a must be an integer in [1, 1000000], not 0
unk.json|unk.json:1:2: unknown node id zz
res.json|res.json:4:2: copies of node a must be an integer in [1, 1000000], not "3"
arr.json|arr.json: expected a JSON object {node id: copies}
nope.json|cannot read nope.json: No such file or directory
EOF
set +e
echo '{"a": 3}' | "$REMAT" solve g.json --budget 0.9 --copies - -q >/dev/null 2>err.txt
rc=$?
set -e
[ "$rc" = 0 ] || fail "--copies - (standard input): exit $rc $(cat err.txt)"

t_done
