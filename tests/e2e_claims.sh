#!/usr/bin/env bash
# e2e_claims.sh -- what remat claims holds at every scale, and says what it
# covers: lower bounds written as integers, the MILP at sizes near 10^12,
# infeasibility proofs that name their model (proof_covers), and the MILP
# as MPS / LP files for other solvers (Debian's cbc command line solves
# them to remat's optimum) with their solutions read back.
# Usage: REMAT=build/remat bash tests/e2e_claims.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t_case "bounds as JSON integers"
# durations near 10^9 with GCD 1: the optimum's bound has eleven digits,
# which a real with ten significant digits rounds up past the schedule
g=$tmp/big-w.json
cat >"$g" <<'EOF'
{"nodes": [{"id": "a", "duration": 3000000001, "memory": 4},
  {"id": "b", "duration": 5000000003, "memory": 2},
  {"id": "c", "duration": 2000000005, "memory": 3},
  {"id": "d", "duration": 4000000007, "memory": 5},
  {"id": "e", "duration": 1000000009, "memory": 1}],
 "edges": [["a", "b"], ["b", "c"], ["a", "c"], ["c", "d"], ["a", "d"], ["d", "e"], ["b", "e"]]}
EOF
run "$REMAT" milp "$g" --budget 13 -q -o "$tmp/m.json"
[ "$rc" = 0 ] || fail "milp big-w: exit $rc: $(cat "$tmp/err.txt")"
jq -e '.status == "optimal" and .duration == 20000000028 and .lower_bound == .duration and
  .proof_covers == "stages" and .lower_bound_covers == "stages"' "$tmp/m.json" >/dev/null ||
  fail "milp big-w: $(jq -c '[.status, .duration, .lower_bound, .proof_covers]' "$tmp/m.json")"
grep -q '"lower_bound": 20000000028,' "$tmp/m.json" ||
  fail "lower_bound not written as the integer 20000000028: $(grep lower_bound "$tmp/m.json")"
run "$REMAT" solve "$g" --budget 13 --time-limit 5 -q -o "$tmp/s.json"
[ "$rc" = 0 ] || fail "solve big-w: exit $rc: $(cat "$tmp/err.txt")"
jq -e '(.lower_bound | type) == "number" and .lower_bound <= .duration and
  (.status != "optimal" or .lower_bound == .duration)' "$tmp/s.json" >/dev/null ||
  fail "solve big-w: $(jq -c '[.status, .duration, .lower_bound, .message]' "$tmp/s.json")"
grep -Eq '"lower_bound": [0-9]+,' "$tmp/s.json" || fail "solve big-w: $(grep lower_bound "$tmp/s.json")"

t_case "sizes near 2.5 x 10^12"
# CBC's tolerances against such sizes called this budget infeasible while a
# schedule fits (an internal error, exit 4)
h=$tmp/huge.json
cat >"$h" <<'EOF'
{"nodes": [{"id": 0, "duration": 641417054, "memory": 2500000000860},
  {"id": 1, "duration": 241203606, "memory": 2500000000037},
  {"id": 2, "duration": 387529259, "memory": 2500000000093},
  {"id": 3, "duration": 402353932, "memory": 2500000000544},
  {"id": 4, "duration": 691323021, "memory": 2500000000449},
  {"id": 5, "duration": 519730410, "memory": 2500000000687},
  {"id": 6, "duration": 751860111, "memory": 2500000000492}],
 "edges": [[0, 1], [0, 3], [1, 2], [1, 5], [2, 3], [2, 4], [2, 6], [3, 4],
  [3, 5], [4, 5], [4, 6], [5, 6]]}
EOF
M=10666652112739
# (the optimum recomputes node 2 once: 4022946652)
for args in "milp --threads 1" "milp --threads 1 --no-heuristic" "milp --threads 1 --copies 2" \
            "solve --copies 2 --threads 1 --lp-bound" "milp --relax"; do
  # shellcheck disable=SC2086
  run "$REMAT" $args "$h" --budget $M --time-limit 5 -q -o "$tmp/h.json"
  # the LP rounding may miss a schedule, but claims nothing it cannot
  [ "$rc" = 0 ] || { [ "$rc" = 3 ] && [ "$args" = "milp --relax" ]; } ||
    fail "$args on huge sizes: exit $rc: $(cat "$tmp/err.txt")"
  jq -e --argjson M $M '(.peak <= $M or .status == "over-budget") and
    (.lower_bound == null or .lower_bound <= 4022946652) and
    (.status != "optimal" or .duration == 4022946652)' "$tmp/h.json" >/dev/null ||
    fail "$args on huge sizes: $(jq -c '[.status, .peak, .duration, .lower_bound]' "$tmp/h.json")"
done
"$REMAT" milp "$h" --budget $M --write-mps "$tmp/h.mps" -q
grep -q '^\* memory: sizes in units of [0-9]* bytes rounded DOWN (a relaxation' "$tmp/h.mps" ||
  fail "huge sizes: the MPS header does not say how sizes are rounded"

t_case "what a proof of infeasibility covers"
# no schedule on the input order's stages fits 21 (any number of
# recomputations), but a sequence recomputing 4 then 2 in the last stage does
s=$tmp/stages.json
cat >"$s" <<'EOF'
{"nodes": [{"id": 0, "duration": 4, "memory": 5}, {"id": 1, "duration": 6, "memory": 8},
  {"id": 2, "duration": 6, "memory": 3}, {"id": 3, "duration": 8, "memory": 6},
  {"id": 4, "duration": 5, "memory": 8}, {"id": 5, "duration": 4, "memory": 4},
  {"id": 6, "duration": 1, "memory": 5}],
 "edges": [[0, 1], [0, 2], [0, 3], [3, 4], [0, 5], [3, 5], [0, 6], [2, 6], [4, 6]]}
EOF
echo '{"sequence": [0, 1, 2, 3, 4, 5, 4, 2, 6]}' >"$tmp/free.json"
"$REMAT" eval "$s" "$tmp/free.json" --budget 21 | grep -qx 'within_budget: yes' ||
  fail "the free-order sequence does not fit 21"
# (the solve's MILP proves it for any number of recomputations when it
# gets there before the time limit, else the CP proves it with C_v = 2:
# either way the message and the JSON name the model; the time limit
# leaves CBC room on a loaded machine: a proof counts only from a run that
# ended well within its limit, src/milp/lp_solver.h)
for cmd in "solve --copies 2" "milp"; do
  # shellcheck disable=SC2086
  run "$REMAT" $cmd "$s" --budget 21 --time-limit 20 -o "$tmp/p.json"
  [ "$rc" = 3 ] || fail "$cmd at 21: exit $rc"
  covers=$(jq -r 'select(.status == "infeasible") | .proof_covers' "$tmp/p.json")
  case $cmd:$covers in
  *:stages) want="no schedule on the input order's stages fits 21, with any number of recomputations (the stage model; other sequences may fit)" ;;
  solve*:stages-copies) want="no schedule with at most C_v copies per node on the input order's stages fits 21 (the stage model; other sequences may fit)" ;;
  *) want=""; fail "$cmd at 21: $(jq -c '[.status, .proof_covers]' "$tmp/p.json")" ;;
  esac
  [ -z "$want" ] || grep -qF "$want" "$tmp/err.txt" || fail "$cmd at 21: '$(grep infeasible "$tmp/err.txt")'"
done
# below max_v (m_v + inputs): no sequence in any order; the input order
# fitting is optimal in any order
run "$REMAT" solve "$s" --budget 10 -q -o "$tmp/p.json"
[ "$rc" = 3 ] && jq -e '.proof_covers == "any-order"' "$tmp/p.json" >/dev/null ||
  fail "below min_peak: exit $rc, $(jq -c .proof_covers "$tmp/p.json")"
run "$REMAT" milp "$s" --budget 1.0 -q -o "$tmp/p.json"
[ "$rc" = 0 ] && jq -e '.status == "optimal" and .proof_covers == "any-order"' "$tmp/p.json" >/dev/null ||
  fail "input order fits: exit $rc, $(jq -c '[.status, .proof_covers]' "$tmp/p.json")"

t_case "free order: proofs over every sequence"
# a 4-layer training graph: at 13300 (between max_v, 13160, and the input
# order's 14880) no order without recomputation fits; one recomputation
# does (optimal over every sequence, whatever C_v: the covering bound over
# every order), none with C_v = 1
"$REMAT" gen training --nodes 4 --seed 1 -q -o "$tmp/t4.json"
run "$REMAT" solve "$tmp/t4.json" --budget 13300 --free-order --copies 2 --time-limit 10 -q -o "$tmp/f.json"
[ "$rc" = 0 ] && jq -e '.status == "optimal" and .order == "free" and .recomputations == 1 and
  .proof_covers == "any-order" and .lower_bound_covers == "any-order"' "$tmp/f.json" >/dev/null ||
  fail "--copies 2: exit $rc, $(jq -c '[.status, .proof_covers, .lower_bound_covers]' "$tmp/f.json")"
run "$REMAT" solve "$tmp/t4.json" --budget 13300 --free-order --copies 1 --time-limit 10 -q -o "$tmp/f.json"
[ "$rc" = 3 ] && jq -e '.status == "infeasible" and .proof_covers == "any-order-copies"' "$tmp/f.json" >/dev/null ||
  fail "--copies 1: exit $rc, $(jq -c '[.status, .proof_covers]' "$tmp/f.json")"
[ "$err" = "remat solve: proven infeasible: no sequence in free order with at most C_v copies per node fits 13300; best peak 14880" ] ||
  fail "--copies 1: '$err'"

t_case "cbc solves the MPS and LP files to remat milp's optimum"
# cbc (Debian's coinor-cbc) solves remat's files to remat milp's optimum;
# its solution, read back, is a schedule of that duration
command -v cbc >/dev/null || fail "cbc not found (Debian package coinor-cbc)"
"$REMAT" gen layered --nodes 12 --seed 3 -q -o "$tmp/l12.json"
cbc_objective() { sed -n 's/^Optimal - objective value \([0-9.e+-]*\)$/\1/p' "$1"; }
for spec in "$g:13:" "$s:24:" "$s:24:--copies 2" "$tmp/l12.json:0.85:" "$tmp/l12.json:0.85:--copies 2" "$h:$M:"; do
  IFS=: read -r file budget extra <<<"$spec"
  # shellcheck disable=SC2086
  run "$REMAT" milp "$file" --budget "$budget" $extra --threads 1 --time-limit 20 -q -o "$tmp/r.json"
  [ "$rc" = 0 ] && jq -e '.status == "optimal"' "$tmp/r.json" >/dev/null ||
    fail "milp $spec: exit $rc, $(jq -c .status "$tmp/r.json")"
  base=$(jq .base_duration "$tmp/r.json")
  q=$(jq .solver_stats.duration_quantum "$tmp/r.json")
  want=$((($(jq .duration "$tmp/r.json") - base) / q))
  for fmt in mps lp; do
    # shellcheck disable=SC2086
    "$REMAT" milp "$file" --budget "$budget" $extra --write-$fmt "$tmp/m.$fmt" -q
    (cd "$tmp" && cbc "m.$fmt" solve solu m.sol >cbc.log 2>&1) || fail "cbc on $spec ($fmt): $(tail -3 "$tmp/cbc.log")"
    got=$(cbc_objective "$tmp/m.sol")
    awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }' ||
      fail "cbc on $spec ($fmt): optimum '$got', remat milp's $want"
    # shellcheck disable=SC2086
    run "$REMAT" milp "$file" --budget "$budget" $extra --read-solution "$tmp/m.sol" -q -o "$tmp/rs.json"
    [ "$rc" = 0 ] || fail "read cbc's solution of $spec: exit $rc: $(cat "$tmp/err.txt")"
    jq -e --slurpfile r "$tmp/r.json" '.duration == $r[0].duration and .solution.objective == '"$want"' and
      .solution.solver_status == "Optimal" and .method == "milp-solution"' "$tmp/rs.json" >/dev/null ||
      fail "cbc's solution of $spec: $(jq -c '[.duration, .solution]' "$tmp/rs.json")"
  done
done

t_case "the files' header and names"
"$REMAT" milp "$s" --budget 24 --copies 2 --write-mps "$tmp/c.mps" --write-lp "$tmp/c.lp" -q
for want in '^\* graph stages from .*stages.json: 7 nodes, 9 edges; budget 24 bytes$' \
            '^\* memory: sizes in units of 1 bytes \(their GCD: exact\); U <= 24' \
            '^\* objective: recomputed durations in units of 1; duration = 34 \+ 1 x objective$' \
            '^\* copies: at most C_v computations of node v \(rows COPIES_v\)$' \
            '^ L COPIES_0$' '^    R_6_4 ' '^    S_6_4 ' '^    U_6_6 ' '^    FREE_' \
            '^ [EGL] DEP_6_6_4$' '^ [EGL] MEM_6_6$' '^ [EGL] KEEP_6_4$'; do
  grep -Eq "$want" "$tmp/c.mps" || fail "the MPS file has no line '$want'"
done
grep -q '^\\ graph stages' "$tmp/c.lp" && grep -q '^Subject To$' "$tmp/c.lp" && grep -q '^Binaries$' "$tmp/c.lp" ||
  fail "the LP file's header or sections"

t_case "solution files read back: the same schedule"
"$REMAT" milp "$s" --budget 24 --threads 1 --no-heuristic -q -o "$tmp/o.json" --write-solution "$tmp/own.sol" >/dev/null
grep -q '^# remat: R and S of a schedule of stages at budget 24' "$tmp/own.sol" || fail "own.sol header"
"$REMAT" milp "$s" --budget 24 --read-solution "$tmp/own.sol" -q -o "$tmp/back.json" >/dev/null
jq -e --slurpfile o "$tmp/o.json" '.sequence == $o[0].sequence' "$tmp/back.json" >/dev/null ||
  fail "round trip: $(jq -c .sequence "$tmp/o.json") came back as $(jq -c .sequence "$tmp/back.json")"
# the same values in HiGHS' and SCIP's formats
n=$(grep -vc '^#' "$tmp/own.sol")
{ printf 'Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n# Columns %d\n' "$n"
  grep -v '^#' "$tmp/own.sol"
  printf '# Rows 0\n\n# Dual solution values\nNone\n'; } >"$tmp/highs.sol"
{ printf 'solution status: optimal solution found\nobjective value: 0\n'
  grep -v '^#' "$tmp/own.sol" | sed 's/$/ \t(obj:0)/'; } >"$tmp/scip.sol"
for f in highs scip; do
  "$REMAT" milp "$s" --budget 24 --read-solution "$tmp/$f.sol" -q -o "$tmp/back.json" >/dev/null
  jq -e --slurpfile o "$tmp/o.json" '.sequence == $o[0].sequence' "$tmp/back.json" >/dev/null ||
    fail "$f format: $(jq -c .sequence "$tmp/back.json")"
done
jq -e '.solution.solver_status == "optimal solution found"' "$tmp/back.json" >/dev/null ||
  fail "scip status: $(jq -c .solution "$tmp/back.json")"

t_case "malformed solution files: exit 2, file:line"
bad() { # name, contents, expected message
  printf '%b' "$2" >"$tmp/$1"
  run "$REMAT" milp "$s" --budget 24 --read-solution "$tmp/$1" -q
  [ "$rc" = 2 ] || fail "$1: exit $rc"
  grep -qF "remat milp: $tmp/$1:$3" "$tmp/err.txt" || fail "$1: '$(cat "$tmp/err.txt")', expected ':$3'"
}
bad unknown.sol 'R_6_4 1\nX_1_0 1\n' "2: X_1_0 is not a column of this model"
bad upper.sol 'R_2_3 1\n' "1: R_2_3 is not a column of this model"
bad range.sol 'S_9_0 1\n' "1: S_9_0 is not a column of this model"
bad number.sol '# a comment\nR_6_4 one\n' "2: the value of R_6_4 is not a number: 'one'"
bad half.sol 'R_6_4 0.5\n' "1: R_6_4 is binary, but its value is 0.5"
bad twice.sol 'R_6_4 1\nR_6_4 1\n' "2: R_6_4 is given twice"
bad three.sol 'R_6_4 1 2\n' "1: expected 'name value'"
bad cbc.sol 'Optimal - objective value 5\n      0 R_6_4 1\n' "2: expected 'index name value reduced-cost'"
bad cbcidx.sol 'Optimal - objective value 5\n      x R_6_4 1 0\n' "2: expected a column index, not 'x'"
bad highs.sol 'Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 5\n# Columns 3\nR_6_4 1\n' "8: the file ends before the 3 columns it announces"
bad highsnone.sol 'Model status\nInfeasible\n\n# Primal solution values\nNone\n' "5: HiGHS wrote no primal solution (status Infeasible)"
bad empty.sol '\n\n' "2: empty solution file"
run "$REMAT" milp "$s" --budget 24 --read-solution "$tmp/none.sol" -q
[ "$rc" = 2 ] && grep -q "cannot read $tmp/none.sol" "$tmp/err.txt" || fail "missing file: exit $rc"

t_case "the file options: usage errors"
run "$REMAT" milp "$s" --budget 24 --relax --write-mps "$tmp/x.mps"
[ "$rc" = 2 ] || fail "--relax --write-mps: exit $rc"
[ "$err" = "remat milp: --relax goes without --copies, --write-mps, --write-lp, --read-solution and --write-solution" ] ||
  fail "--relax --write-mps: '$err'"
[ ! -e "$tmp/x.mps" ] || fail "--relax --write-mps wrote the file"
run "$REMAT" milp "$s" --budget 24 --copies 0 --write-mps "$tmp/x.mps"
[ "$rc" = 2 ] && [ "$err" = "remat milp: --copies must be an integer in [1, 1000000] or a file, not '0'" ] ||
  fail "--copies 0: exit $rc, '$err'"
run "$REMAT" milp "$s" --budget 24 --write-mps
[ "$rc" = 2 ] && [ "$err" = "remat milp: --write-mps needs a value (FILE)" ] || fail "--write-mps without a file: exit $rc, '$err'"
run "$REMAT" milp "$s" --budget 24 --write-mps "$tmp/no/such/dir.mps" -q
[ "$rc" = 2 ] && [ "$err" = "remat milp: cannot write $tmp/no/such/dir.mps: No such file or directory" ] ||
  fail "unwritable --write-mps: exit $rc, '$err'"
run "$REMAT" milp --help
for o in --copies --write-mps --write-lp --read-solution --write-solution; do
  grep -q -- "$o" <<<"$out$err" || fail "remat milp --help does not list $o"
done
run "$REMAT" solve "$s" --budget 24 --write-mps "$tmp/x.mps"
[ "$rc" = 2 ] || fail "solve --write-mps: exit $rc"

t_done
