#!/usr/bin/env bash
# e2e_compare.sh -- remat compare: one table with every method whose rows
# equal the per-method commands' results, in three formats.
# Usage: REMAT=build/remat bash tests/e2e_compare.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

t_diamond g.json

t_case "CSV rows equal the per-method commands"
"$REMAT" compare g.json --budget 13,14 --time-limit 10 --copies 6 --format csv -q -o t.csv ||
  fail "compare exited with $?"
[ "$(wc -l <t.csv)" = 19 ] || fail "expected a header and 18 rows, got $(wc -l <t.csv) lines"

# csv_cell BUDGET METHOD N: field N of the row for (budget, method)
csv_cell() { awk -F, -v b="$1" -v m="$2" -v k="$3" '$2 == b && $3 == m { print $k }' t.csv; }

for B in 13 14; do
  # the CP and the MILP both prove the optimum; it is the per-method result
  "$REMAT" solve g.json --budget $B --copies 6 --time-limit 10 -q -o cp.json >/dev/null
  "$REMAT" milp g.json --budget $B --time-limit 10 -q -o milp.json >/dev/null
  for m in cp milp; do
    peak=$(sed -n 's/^ "peak": \([0-9]*\),$/\1/p' $m.json)
    tdi=$(sed -n 's/^ "tdi_percent": \(.*\),$/\1/p' $m.json)
    [ "$(csv_cell $B $m 5)" = "$peak" ] || fail "$m at $B: table peak $(csv_cell $B $m 5), run $peak"
    [ "$(csv_cell $B $m 4)" = "$(awk -v t="$tdi" 'BEGIN { printf "%.2f", t }')" ] ||
      fail "$m at $B: table TDI $(csv_cell $B $m 4), run $tdi"
    [ "$(csv_cell $B $m 9)" = optimal ] || fail "$m at $B: status $(csv_cell $B $m 9)"
  done
  [ "$(csv_cell $B cp 4)" = "$(csv_cell $B milp 4)" ] || fail "CP and MILP optima differ at $B"
  # a baseline row is what remat baseline gives
  set +e
  "$REMAT" baseline g.json --budget $B --method chen-greedy -q -o base.json >/dev/null 2>&1
  set -e
  peak=$(sed -n 's/^ "peak": \([0-9]*\),$/\1/p' base.json)
  [ "$(csv_cell $B chen-greedy 5)" = "$peak" ] || fail "chen-greedy at $B: table peak $(csv_cell $B chen-greedy 5), run $peak"
done

# the other formats
t_case "Markdown and JSON, a bad method"
"$REMAT" compare g.json --budget 14 --time-limit 5 --method cp,milp,baselines -q >t.md
grep -q '^| 14 | milp | input | 11.76 | 14 | yes |' t.md || fail "markdown row missing: $(cat t.md)"
"$REMAT" compare g.json --budget 14 --time-limit 5 --method cp --format json -q -o t.json
grep -q '"method": "cp"' t.json && grep -q '"tdi_percent": 11.76' t.json || fail "json: $(cat t.json)"
set +e
"$REMAT" compare g.json --budget 14 --method frob -q 2>err.txt
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "^remat compare: --method must be a comma list of .*, not 'frob'$" err.txt || fail "bad method: exit $rc $(cat err.txt)"

t_case "the options compare takes reach its methods"
# --fzn-solver was once accepted and dropped (the CP ran in-process);
# with --no-heuristic the CP is what finds the optimum, so the external
# solver must run.  The methods' names say the checkpoint candidates, so
# --candidates is no option of compare
printf '#!/bin/sh\necho called >>"%s/fzn-calls"\nexec fzn-gecode "$@"\n' "$tmp" >fzn.sh
chmod +x fzn.sh
run "$REMAT" compare g.json --budget 13 --method cp --no-heuristic --fzn-solver "$tmp/fzn.sh" -t 10 -q
[ "$rc" = 0 ] && grep -q '^| 13 | cp | input | 29.41 | 13 | yes |' <<<"$out" && [ -s fzn-calls ] ||
  fail "--fzn-solver: exit $rc, calls $(cat fzn-calls 2>/dev/null | wc -l): $out $err"
run "$REMAT" compare g.json --budget 13 --candidates ap -q
[ "$rc" = 2 ] && [ "$err" = "remat compare: unknown option --candidates (see remat compare --help)" ] ||
  fail "--candidates: exit $rc $err"

t_done
