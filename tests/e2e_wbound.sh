#!/usr/bin/env bash
# e2e_wbound.sh -- the window bound (src/milp/wbound.h) inside remat solve:
# a 26-node layered graph at 0.8 whose optimum neither the CP, the MILP's
# slice nor the covering bound (7.14 % against 16.25 %) proves within 20 s,
# and which the window bound proves in about a second; the result's
# bound_trace and `remat plot progress` show when each bound came; with
# less than 2 s the bound is not started.  (Its proof that nothing fits,
# with any number of copies: tests/e2e_solve.sh, "proven infeasible by the
# MILP".)
# Usage: REMAT=build/remat bash tests/e2e_wbound.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t_case "the window bound proves an optimum"
"$REMAT" gen layered --nodes 26 --seed 536 -q -o l26.json
t0=$SECONDS
run "$REMAT" solve l26.json --budget 0.8 --time-limit 60 --threads 1 -o l26-r.json
[ "$rc" = 0 ] && grep -q "TDI 16.25%.*optimal" <<<"$out" || fail "l26: $rc '$out' '$err'"
grep -q "optimal   TDI 16.250% is the window bound" <<<"$err" || fail "l26: '$err'"
grep -Eq "bound     TDI >= [0-9.]+% \(window bound\)" <<<"$err" || fail "l26: no bound line: '$err'"
((SECONDS - t0 < 30)) || fail "l26: $((SECONDS - t0)) s to prove it"
jq -e '.status == "optimal" and .lower_bound == .duration and .duration == 12927' l26-r.json \
  >/dev/null || fail "l26: $(jq -c '[.status, .lower_bound, .duration]' l26-r.json)"
# the same schedule, re-simulated by remat eval
run "$REMAT" eval l26.json l26-r.json --budget 0.8
[ "$rc" = 0 ] && grep -qx "within_budget: yes" <<<"$out" || fail "eval: $rc '$out'"

t_case "the bounds with their times: bound_trace, plot progress"
# each rise of the lower bound (covering, then window), increasing in time
# and value, the last one the proven optimum
jq -e '(.bound_trace | length) >= 2 and .bound_trace[-1][1] == .lower_bound and
  ([.bound_trace[] | .[1]] | . == sort) and ([.bound_trace[] | .[0]] | . == sort)' \
  l26-r.json >/dev/null || fail "bound_trace: $(jq -c .bound_trace l26-r.json)"
run "$REMAT" plot progress l26-r.json -o l26.svg
[ "$rc" = 0 ] || fail "plot progress: exit $rc ($err)"
[ "$(grep -c '<polyline[^>]*class="lower-bound"' l26.svg)" = 1 ] &&
  grep -q "dashed: lower bound" l26.svg || fail "plot progress: no lower-bound curve"

t_case "below 2 s the window bound is not started"
run "$REMAT" solve l26.json --budget 0.8 --time-limit 1 --threads 1 -o l26-q.json
[ "$rc" = 0 ] || fail "l26 at 1 s: exit $rc ($err)"
! grep -q "window bound" <<<"$err" || fail "l26 at 1 s: '$err'"

t_done
