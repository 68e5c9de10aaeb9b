#!/usr/bin/env bash
# e2e_milp.sh -- remat milp, remat milp --relax and remat baseline on a small
# training chain: exit codes, JSON fields, and `remat eval` agreeing on the
# peak and the duration of every schedule written.
# Usage: REMAT=build/remat bash tests/e2e_milp.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# A Checkmate-style training chain of L = 6 layers in native JSON: forward
# nodes 0..5, the loss 6, grad(i) = 12 - i; edges i-1 -> i, grad(i) ->
# grad(i-1), i -> grad(i-1), i -> grad(i), 5 -> loss -> grad(5).
g=$tmp/train.json
L=6
n=$((2 * L + 1))
{
  printf '{"nodes": ['
  for ((v = 0; v < n; v++)); do
    if ((v < L)); then f=$v; d=$((10 + 3 * f)); bw=false
    elif ((v == L)); then f=-1; d=0; bw=true
    else f=$((2 * L - v)); d=$((2 * (10 + 3 * f))); bw=true; fi
    if ((f < 0)); then m=1; else m=$((8 + (f * 5) % 7)); fi
    ((v > 0)) && printf ', '
    printf '{"id": %d, "duration": %d, "memory": %d, "backward": %s}' $v $d $m $bw
  done
  printf '],\n "edges": [[%d, %d], [%d, %d]' $((L - 1)) $L $L $((L + 1))
  for ((i = 1; i < L; i++)); do printf ', [%d, %d]' $((i - 1)) $i; done
  for ((i = L - 1; i >= 1; i--)); do
    printf ', [%d, %d], [%d, %d]' $((2 * L - i)) $((2 * L - i + 1)) $i $((2 * L - i + 1))
  done
  for ((i = 0; i < L; i++)); do printf ', [%d, %d]' $i $((2 * L - i)); done
  printf ']}\n'
} >"$g"
t_case "the test graph"
"$REMAT" info "$g" >"$tmp/info" || fail "remat info cannot read the test graph"
grep -q "^nodes: 13$" "$tmp/info" || fail "the test graph does not have 13 nodes"

# The schedule in $1 re-simulates (remat eval) to the JSON's peak, duration.
check_eval() {
  local json=$1 budget=$2
  "$REMAT" eval "$g" "$json" --budget "$budget" >"$tmp/eval" ||
    fail "remat eval rejects $(field "$json" .method)'s schedule: $(cat "$tmp/eval")"
  grep -q "^valid: yes$" "$tmp/eval" || fail "invalid schedule from $(field "$json" .method)"
  grep -q "^peak: $(field "$json" .peak)$" "$tmp/eval" ||
    fail "$(field "$json" .method): eval peak differs: $(grep peak "$tmp/eval")"
  grep -q "^duration: $(field "$json" .duration)$" "$tmp/eval" ||
    fail "$(field "$json" .method): eval duration differs"
}

# --- remat milp: optimal within budget, with a bound -----------------------
t_case "milp: optimal within budget, with a bound"
run "$REMAT" milp "$g" --budget 0.8 -o "$tmp/milp.json" -q
[ "$rc" -eq 0 ] || fail "milp --budget 0.8 exited with $rc: $(cat "$tmp/err.txt")"
[ "$(field "$tmp/milp.json" .method)" = milp ] || fail "milp: method is not milp"
[ "$(field "$tmp/milp.json" .status)" = optimal ] || fail "milp: not optimal"
[ "$(field "$tmp/milp.json" .within_budget)" = true ] || fail "milp: not within budget"
for f in peak duration tdi_percent sequence lower_bound gap_percent milp.columns \
  milp.rows milp.nonzeros budget topo_peak; do
  [ "$(jq ".$f != null" "$tmp/milp.json")" = true ] || fail "milp: no field $f"
done
(($(field "$tmp/milp.json" .recomputations) > 0)) || fail "milp: no recomputation at 0.8"
check_eval "$tmp/milp.json" 0.8
grep -q "^milp: budget" "$tmp/out.txt" || fail "milp: no summary line on stdout"
milp_dur=$(field "$tmp/milp.json" .duration)

# phase 0 of the trace: the input order, then the baselines' and heuristics'
phase0() { jq '[.trace[] | select(.[1] == 0)] | length' "$1"; }
(($(phase0 "$tmp/milp.json") >= 2)) || fail "milp: no heuristic schedule before CBC"

# --no-heuristic: CBC alone (no MIP start), the same optimum
t_case "milp --no-heuristic: the same optimum"
run "$REMAT" milp "$g" --budget 0.8 --no-heuristic -o "$tmp/cold.json" -q
[ "$rc" -eq 0 ] || fail "milp --no-heuristic exited with $rc: $(cat "$tmp/err.txt")"
[ "$(phase0 "$tmp/cold.json")" = 1 ] ||
  fail "milp --no-heuristic: schedules from outside CBC: $(jq -c .trace "$tmp/cold.json")"
[ "$(field "$tmp/cold.json" .status)" = optimal ] || fail "milp --no-heuristic: not optimal"
[ "$(field "$tmp/cold.json" .duration)" = "$(field "$tmp/milp.json" .duration)" ] ||
  fail "milp --no-heuristic: optimum differs from the warm-started MILP's"
check_eval "$tmp/cold.json" 0.8

# progress on stderr unless --quiet
t_case "milp: progress on stderr"
run "$REMAT" milp "$g" --budget 0.8 --threads 1 -t 30
[ "$rc" -eq 0 ] || fail "milp with progress exited with $rc"
grep -q "^remat: " "$tmp/err.txt" || fail "milp: no progress lines on stderr"

# --- a tight budget: the copies probe's schedule is CBC's start ---------------
t_case "milp: the copies probe fits where the baselines and the greedy do not"
# gen layered 40 seed 2 at 0.7: Chen's, Echo's and the greedy's schedules
# stay above the budget and CBC's first phase finds none within 3 s; the
# annealing's (seeds_probe) fits before CBC starts.
"$REMAT" gen layered --nodes 40 --seed 2 -q -o "$tmp/l40.json"
run "$REMAT" milp "$tmp/l40.json" --budget 0.7 -t 3 --threads 1 -o "$tmp/x.json" -q
[ "$rc" -eq 0 ] && [ "$(field "$tmp/x.json" .within_budget)" = true ] ||
  fail "l40 at 0.7: exit $rc, $(jq -c '[.status, .peak, .budget]' "$tmp/x.json")"
jq -e '.budget as $b | [.trace[] | select(.[1] == 0 and .[2] <= $b)] | length > 0' "$tmp/x.json" >/dev/null ||
  fail "l40 at 0.7: no schedule within budget before CBC: $(jq -c .trace "$tmp/x.json")"
"$REMAT" eval "$tmp/l40.json" "$tmp/x.json" --budget 0.7 | grep -q "^valid: yes$" ||
  fail "l40 at 0.7: remat eval rejects the schedule"

# --- remat milp --relax: the LP bound, a rounded schedule ------------------
t_case "milp --relax: the LP bound, a rounded schedule"
run "$REMAT" milp --relax "$g" --budget 0.8 -o "$tmp/lp.json" -q
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "milp --relax exited with $rc"
[ "$(field "$tmp/lp.json" .method)" = lp-rounding ] || fail "--relax: method"
[ "$(jq '.lp.duration != null and .lower_bound != null' "$tmp/lp.json")" = true ] ||
  fail "--relax: no LP value"
[ "$(jq '.lower_bound <= '"$milp_dur" "$tmp/lp.json")" = true ] ||
  fail "--relax: the LP value exceeds the MILP optimum"
if [ "$rc" -eq 0 ]; then
  check_eval "$tmp/lp.json" 0.8
  (($(field "$tmp/lp.json" .duration) >= milp_dur)) || fail "--relax beats the MILP optimum"
else
  grep -q "rounding found no schedule" "$tmp/err.txt" || fail "--relax: no message for exit 3"
fi

# --- remat baseline: every method on both candidate sets -------------------
t_case "baseline: every method on both candidate sets"
for m in checkpoint-all chen-sqrtn chen-greedy; do
  for c in ap linearized; do
    run "$REMAT" baseline "$g" --budget 0.8 --method $m --candidates $c -o "$tmp/b.json"
    [ "$(field "$tmp/b.json" .method)" = $m ] || fail "baseline $m: method field"
    [ "$(jq '.baseline.checkpoints != null' "$tmp/b.json")" = true ] ||
      fail "baseline $m: no checkpoints"
    check_eval "$tmp/b.json" 1.0
    if [ "$(field "$tmp/b.json" .within_budget)" = true ]; then
      [ "$rc" -eq 0 ] || fail "baseline $m/$c fits but exited with $rc"
      check_eval "$tmp/b.json" 0.8
      (($(field "$tmp/b.json" .duration) >= milp_dur)) || fail "baseline $m beats the MILP"
    else
      [ "$rc" -eq 3 ] || fail "baseline $m/$c does not fit but exited with $rc"
      grep -q "cannot reach the budget" "$tmp/err.txt" || fail "baseline $m: no message"
    fi
  done
done
# Chen's schedules reach 0.8 on this graph; checkpoint-all needs the topo peak
run "$REMAT" baseline "$g" --budget 0.8 --method chen-greedy --candidates ap -o "$tmp/b.json"
[ "$rc" -eq 0 ] || fail "chen-greedy on articulation points does not reach 0.8 ($rc)"
run "$REMAT" baseline "$g" --budget 1.0 --method checkpoint-all -o "$tmp/b.json"
[ "$rc" -eq 0 ] || fail "checkpoint-all at the topo peak exited with $rc"
[ "$(field "$tmp/b.json" .recomputations)" = 0 ] || fail "checkpoint-all recomputes"

# --- budgets below max_v (m_v + inputs): exit 3 at once -------------------
t_case "budgets below max_v"
for cmd in "milp" "milp --relax"; do
  run "$REMAT" $cmd "$g" --budget 40 -o "$tmp/x.json" -q
  [ "$rc" -eq 3 ] || fail "$cmd --budget 40 exited with $rc, expected 3"
  grep -q "infeasible: budget 40 is below" "$tmp/err.txt" || fail "$cmd: no infeasibility message"
  [ "$(field "$tmp/x.json" .status)" = infeasible ] || fail "$cmd: status not infeasible"
done

# --- a proof that nothing fits comes without a lower bound -----------------
t_case "infeasible: no lower bound beside the proof"
# CBC logs bounds on its way to the proof (here duration 8284): none of
# them bounds a schedule, since none fits.
"$REMAT" gen layered --nodes 12 --seed 7 -q -o "$tmp/l12.json"
run "$REMAT" milp "$tmp/l12.json" --budget 0.9 --copies 1 --threads 1 -o "$tmp/x.json"
[ "$rc" -eq 3 ] && jq -e '.status == "infeasible" and .lower_bound == null' "$tmp/x.json" >/dev/null &&
  ! grep -q "^lower bound" <<<"$out" ||
  fail "l12 with C_v = 1: exit $rc, $(jq -c '[.status, .lower_bound]' "$tmp/x.json"), '$out'"

# --- Ctrl-C stops CBC and still writes the best schedule --------------------
t_case "Ctrl-C stops CBC, keeps the best schedule"
# a random layered DAG (bash's RANDOM, seeded) on which CBC works for long
h=$tmp/layered.json
RANDOM=1
nn=0 prev=() nodes="" edges=""
for ((l = 0; l < 16; l++)); do
  if ((l == 0 || l == 15)); then w=1; else w=$((2 + RANDOM % 4)); fi
  cur=()
  for ((k = 0; k < w; k++)); do
    nodes+="${nodes:+, }{\"id\": $nn, \"duration\": $((RANDOM % 1000)), \"memory\": $((10 * (1 + RANDOM % 200)))}"
    cur+=($nn)
    nn=$((nn + 1))
  done
  if ((l > 0)); then
    for v in "${cur[@]}"; do
      u=${prev[$((RANDOM % ${#prev[@]}))]}
      edges+="${edges:+, }[$u, $v]"
      for p in "${prev[@]}"; do ((p != u && RANDOM % 100 < 30)) && edges+=", [$p, $v]"; done
      ((nn > 8 && RANDOM % 100 < 25)) && edges+=", [$((RANDOM % (${cur[0]} - 1))), $v]"
    done
    for p in "${prev[@]}"; do edges+=", [$p, ${cur[$((RANDOM % ${#cur[@]}))]}]"; done
  fi
  prev=("${cur[@]}")
done
echo "{\"nodes\": [$nodes], \"edges\": [$edges]}" >"$h"
t0=$SECONDS
t_interrupt 4 "$REMAT" milp "$h" --budget 0.8 --time-limit 120 -o "$tmp/int.json" -q
((SECONDS - t0 < 60)) || fail "milp did not stop within 60 s of Ctrl-C"
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || fail "interrupted milp exited with $rc"
[ -s "$tmp/int.json" ] || fail "interrupted milp wrote no JSON"
if [ "$(field "$tmp/int.json" .interrupted)" = true ]; then
  [ "$(field "$tmp/int.json" .status)" != optimal ] || fail "interrupted but optimal"
fi
if [ "$rc" -eq 0 ]; then
  g=$h check_eval "$tmp/int.json" 0.8
fi

# --- CBC's root LP ignores the clock: the time limit and Ctrl-C still hold --
t_case "dense graph: the time limit holds in CBC's root LP"
# A dense 150-node graph: its MILP has 1.3 million rows, and CBC's first LP
# alone takes minutes (CBC runs in a child process that is stopped).
d=$tmp/dense.json
RANDOM=7
nodes="" edges=""
for ((j = 0; j < 150; j++)); do
  nodes+="${nodes:+, }{\"id\": $j, \"duration\": $((RANDOM % 1000)), \"memory\": $((10 * (1 + RANDOM % 500)))}"
  for ((i = 0; i < j; i++)); do
    ((i == j - 1 || RANDOM % 100 < 25)) && edges+="${edges:+, }[$i, $j]"
  done
done
echo "{\"nodes\": [$nodes], \"edges\": [$edges]}" >"$d"
t0=$SECONDS
run "$REMAT" milp "$d" --budget 0.5 --time-limit 2 --no-heuristic -o "$tmp/dense-out.json"
((SECONDS - t0 <= 8)) || fail "milp --time-limit 2 took $((SECONDS - t0)) s on the dense graph"
[ "$rc" -eq 3 ] || fail "milp on the dense graph exited with $rc, expected 3"
grep -q 'out of time' "$tmp/err.txt" || fail "dense graph: no 'out of time' message: $(cat "$tmp/err.txt")"
t_case "dense graph: Ctrl-C in CBC's root LP"
t0=$SECONDS
t_interrupt 2 "$REMAT" milp "$d" --budget 0.5 --time-limit 300 --no-heuristic -q
((SECONDS - t0 <= 8)) || fail "milp did not stop within 6 s of Ctrl-C in CBC's root LP"
[ "$rc" -eq 3 ] || fail "milp interrupted in its root LP exited with $rc, expected 3"
grep -q 'interrupted' "$tmp/err.txt" || fail "no 'interrupted' message: $(cat "$tmp/err.txt")"
t_case "CBC stops at the time limit: out of time"
# CBC in its child stops by itself at the time limit (asked by SIGTERM):
# that is "out of time", not an interruption
"$REMAT" gen layered --nodes 37 --seed 526 -q -o "$tmp/l37.json"
run "$REMAT" milp "$tmp/l37.json" --budget 0.7 --time-limit 2 -q
[ "$rc" -eq 3 ] || fail "milp on l37 exited with $rc, expected 3"
grep -q '^remat milp: out of time: no schedule within 24801 found' "$tmp/err.txt" ||
  fail "l37: '$(cat "$tmp/err.txt")'"
t_case "dense graph: solve's covering bound proves infeasibility"
# remat solve refuses this MILP (above its million nonzeros for proofs);
# the covering bound proves at once that nothing fits with C_v = 2
run "$REMAT" solve "$d" --budget 0.5 --time-limit 1
[ "$rc" -eq 3 ] || fail "solve on the dense graph exited with $rc, expected 3"
grep -q '^remat solve: proven infeasible (by the covering bound): no sequence whose first computations follow the input order fits 182020 with at most C_v computations of each node; best peak' "$tmp/err.txt" ||
  fail "dense graph: solve says '$(cat "$tmp/err.txt")'"
t_case "dense graph, --copies 150: the time limit holds"
# with C_v = 150 nothing is proven; the window search's sub-models hold at
# most one copy of a node per stage, so they stay small and the limit holds
# (with every copy in each window, Gecode's parser alone overran it several
# times over); the margin is for a loaded machine
t0=$(date +%s.%N)
run "$REMAT" solve "$d" --budget 0.5 --copies 150 --time-limit 1 -q
t=$(echo "$(date +%s.%N) - $t0" | bc)
[ "$rc" -eq 3 ] && grep -q '^remat solve: out of time' "$tmp/err.txt" ||
  fail "dense graph, --copies 150: exit $rc '$(cat "$tmp/err.txt")'"
awk -v t="$t" -v k="$T_SLOW" 'BEGIN { exit !(t < 1 + 4 * k) }' || fail "dense graph, --copies 150: $t s at a 1 s limit"

# --- the graph's own copies ----------------------------------------------
# On the diamond at 13 the optimum (29.41 %) computes "in" three times;
# given "copies": 1 in the graph, nothing fits (the MILP proves it, with
# its seeds on), --write-mps has the node's row, `remat eval` refuses the
# schedule that computes "in" again, and the solve says what its proof kept.
t_case "milp: the graph's own copies hold"
t_diamond "$tmp/dia.json"
sed 's/{"id": "in", "duration": 3, "memory": 4}/{"id": "in", "duration": 3, "memory": 4, "copies": 1}/' \
  "$tmp/dia.json" >"$tmp/own.json"
run "$REMAT" milp "$tmp/dia.json" --budget 13 --threads 1 -o "$tmp/dia_r.json"
[ "$rc" -eq 0 ] && grep -q "TDI 29.41%.*optimal" "$tmp/out.txt" ||
  fail "diamond at 13: exit $rc '$(cat "$tmp/out.txt")'"
run "$REMAT" milp "$tmp/own.json" --budget 13 --threads 1
[ "$rc" -eq 3 ] && grep -q "^remat milp: proven infeasible: no schedule with at most C_v copies per node on the input order's stages fits 13" "$tmp/err.txt" ||
  fail "own copies at 13: exit $rc '$(cat "$tmp/err.txt")'"
run "$REMAT" milp "$tmp/own.json" --budget 13 --write-mps "$tmp/own.mps"
[ "$rc" -eq 0 ] && grep -q " COPIES_0 " "$tmp/own.mps" && ! grep -q " COPIES_1 " "$tmp/own.mps" ||
  fail "own copies: --write-mps without node 0's row alone: exit $rc"
run "$REMAT" eval "$tmp/own.json" "$tmp/dia_r.json"
[ "$rc" -eq 2 ] && [ "$(cat "$tmp/err.txt")" = "remat eval: $tmp/dia_r.json: invalid schedule for diamond: node in is computed more than 1 time (its \"copies\" in the graph)" ] ||
  fail "eval against own copies: exit $rc '$(cat "$tmp/err.txt")'"
run "$REMAT" solve "$tmp/own.json" --budget 13 --threads 1 -t 5
[ "$rc" -eq 3 ] && grep -q "^remat solve: proven infeasible (by Checkmate's MILP): .*the nodes' own \"copies\" in the graph kept; best peak 14$" "$tmp/err.txt" ||
  fail "solve with own copies at 13: exit $rc '$(cat "$tmp/err.txt")'"
# the graph's own copies are a ceiling: a copies file cannot raise them,
# and tune-copies' maps keep to them
echo '{"in": 2}' >"$tmp/in2.json"
for cmd in solve milp; do
  run "$REMAT" $cmd "$tmp/own.json" --budget 13 --threads 1 -t 5 --copies "$tmp/in2.json"
  [ "$rc" -eq 2 ] && [ "$(cat "$tmp/err.txt")" = "remat $cmd: $tmp/in2.json:1:2: node in is computed at most 1 time (its \"copies\" in the graph), not 2" ] ||
    fail "$cmd --copies raising own: exit $rc '$(cat "$tmp/err.txt")'"
done
# the LP rounding keeps to an own C_v of 2: cheap-u's optimum at 80 computes
# u four times
t_cheap_u "$tmp/cu.json"
sed -i 's/{"id": "u", "duration": 1, "memory": 50}/{"id": "u", "duration": 1, "memory": 50, "copies": 2}/' "$tmp/cu.json"
run "$REMAT" milp "$tmp/cu.json" --budget 80 --relax -o "$tmp/cr.json" -q
[ "$rc" -eq 3 ] && jq -e '.status == "over-budget" and .lower_bound == 204' "$tmp/cr.json" >/dev/null &&
  "$REMAT" eval "$tmp/cu.json" "$tmp/cr.json" | grep -q "^valid: yes$" ||
  fail "cheap-u with u's own copies 2, --relax: exit $rc, $(jq -c '[.status, .lower_bound]' "$tmp/cr.json")"
run "$REMAT" tune-copies "$tmp/own.json" --budget 13 --threads 1 -t 4 --copies 2,3 -o "$tmp/map.json"
[ "$rc" -eq 3 ] && [ "$(jq '.in' "$tmp/map.json")" = 1 ] && (($(jq '.a' "$tmp/map.json") >= 2)) ||
  fail "tune-copies with own copies: exit $rc, map $(jq -c . "$tmp/map.json" 2>/dev/null)"

# --- usage errors: exit 2 with a message -----------------------------------
t_case "usage errors"
for args in "baseline $g --budget 0.8" \
  "baseline $g --budget 0.8 --method revolve" \
  "baseline $g --budget 0.8 --method chen-sqrtn --candidates all" \
  "milp $g --budget 0.8 --eps 0.2" \
  "milp $g --relax --budget 0.8 --eps 1.5" \
  "milp $g"; do
  run "$REMAT" $args
  [ "$rc" -eq 2 ] || fail "remat $args exited with $rc, expected 2"
  [ -s "$tmp/err.txt" ] || fail "remat $args: no message"
done

t_done
