#!/usr/bin/env bash
# e2e_inputs.sh -- files remat reads back and lists it parses: `batch
# --merge` on a truncated result names file:line:col; `batch --resume` on a
# results file with a NUL byte in a line skips that line (named file:line)
# and keeps the records after it; `eval` of an invalid schedule says why on
# stderr, and of a result without a schedule why it has none; a manifest
# budget list with an empty item is an error naming the line; budget
# ranges FROM:TO:STEP in batch and compare.
# Usage: REMAT=build/remat bash tests/e2e_inputs.sh
set -euo pipefail

. "$(dirname "$0")/lib.sh"

t_diamond g.json

# ------------------------------------ --merge: a truncated result file
t_case "--merge: a truncated result file"
"$REMAT" solve g.json --budget 14 -q -o whole.json >/dev/null
head -c 200 whole.json >cut.json
line=$(wc -l <cut.json)
run "$REMAT" batch --merge cut.json -o m
[ "$rc" = 4 ] || fail "merge truncated: exit $rc '$err'"
grep -q "\"reason\":\"cut.json:$((line + 1)):[0-9]*: JSON syntax error: " m.jsonl ||
  fail "merge truncated: no file:line:col in $(cat m.jsonl)"
grep -q "^- \`cut.json\`: error: cut.json:$((line + 1)):[0-9]*: JSON syntax error" m.md ||
  fail "merge truncated: summary $(cat m.md)"

# ----------------------------- --resume: a NUL byte inside a record line
t_case "--resume: a NUL byte inside a record line"
run "$REMAT" batch g.json --budget 1.0:0.9:0.05 -j 1 -q --time-limit 5 -o r
[ "$rc" = 0 ] || fail "batch of 3: exit $rc '$err'"
[ "$(wc -l <r.jsonl)" = 3 ] || fail "batch of 3: $(cat r.jsonl)"
# byte 10 of line 2 becomes NUL
awk 'NR == 2 { printf "%s%c%s\n", substr($0, 1, 9), 0, substr($0, 11); next } { print }' r.jsonl >r2.jsonl
mv r2.jsonl r.jsonl
[ "$(tr -cd '\000' <r.jsonl | wc -c)" = 1 ] || fail "no NUL byte written"
run "$REMAT" batch g.json --budget 1.0:0.9:0.05 -j 1 --time-limit 5 --resume -o r
[ "$rc" = 0 ] || fail "resume: exit $rc '$err'"
grep -q "^remat batch: r.jsonl: ignored 1 unreadable line (r.jsonl:2: a NUL byte in the line)$" <<<"$err" ||
  fail "resume: no file:line for the NUL byte: '$err'"
grep -q "resuming: 2 of 3 jobs already done, 1 to run" <<<"$err" ||
  fail "resume: records after the NUL byte lost: '$err'"
[ "$(wc -l <r.jsonl)" = 4 ] && tail -n 1 r.jsonl | grep -q '^{"id":"g.json --budget 0.95",.*"status":"optimal"' ||
  fail "resume: the job of the spoilt line not run again: $(tr -d '\000' <r.jsonl)"

# ------------------------------------ eval: an invalid schedule on stderr
t_case "eval: an invalid schedule on stderr"
echo '{"sequence": ["in", "c", "a", "b"]}' >early.json
run "$REMAT" eval g.json early.json
[ "$rc" = 2 ] || fail "eval invalid: exit $rc"
[ "$err" = "remat eval: early.json: invalid schedule for diamond: step 1: node c needs a, which was not computed before" ] ||
  fail "eval invalid: stderr '$err'"
grep -qx "valid: no" <<<"$out" || fail "eval invalid: stdout '$out'"
run "$REMAT" eval g.json - <early.json
[ "$rc" = 2 ] && grep -q "^remat eval: <stdin>: invalid schedule for diamond: " <<<"$err" ||
  fail "eval invalid from stdin: $rc '$err'"

# ------------------------- eval and plot: a result without a schedule
t_case "eval and plot: a result without a schedule"
"$REMAT" solve g.json --budget 3 -q -o none.json >/dev/null || true
want="none.json: the result has no schedule (infeasible: budget 3 is below 11, the memory node d needs with its inputs (max over v of m_v + sum of its predecessors' m_u))"
run "$REMAT" eval g.json none.json
[ "$rc" = 2 ] && [ "$err" = "remat eval: $want" ] || fail "eval of no schedule: $rc '$err'"
run "$REMAT" plot memory g.json none.json -o none.svg
[ "$rc" = 2 ] && [ "$err" = "remat plot: $want" ] || fail "plot of no schedule: $rc '$err'"

# ---------------------------------- manifest: an empty item in a list
t_case "manifest: an empty item in a list"
printf 'g.json 0.9\ng.json 0.9, 7,\n' >m.txt
run "$REMAT" batch m.txt -q -o mm
[ "$rc" = 2 ] || fail "empty item: exit $rc"
[ "$err" = "remat batch: m.txt:2: budget list '0.9,' has an empty item (write items without blanks between them, e.g. 0.9,0.8)" ] ||
  fail "empty item: '$err'"
run "$REMAT" batch g.json --budget 0.9,,0.8 -q -o mm
[ "$rc" = 2 ] && grep -q "budget list '0.9,,0.8' has an empty item" <<<"$err" ||
  fail "empty item on the command line: $rc '$err'"

# ----------------------------------------------------- budget ranges
t_case "budget ranges"
run "$REMAT" batch g.json --budget 0.95,90%:80%:5% --emit-jobs -o e
[ "$rc" = 0 ] || fail "ranges: exit $rc '$err'"
[ "$(sed -n 's/.* --budget \([^ ]*\) .*/\1/p' <<<"$out" | tr '\n' ' ')" = "0.95 90% 85% 80% " ] ||
  fail "ranges: '$out'"
printf 'g.json 1.0:0.3:0.05 --seed 3\n' >rm.txt
run "$REMAT" batch rm.txt --emit-jobs -o e
[ "$(sed -n 's/.* --budget \([^ ]*\) .*/\1/p' <<<"$out" | tr '\n' ' ')" = "1 0.95 0.9 0.85 0.8 0.75 0.7 0.65 0.6 0.55 0.5 0.45 0.4 0.35 0.3 " ] ||
  fail "manifest range: '$out'"
run "$REMAT" batch g.json --budget 1.0:0.3:-0.05 --emit-jobs -o e
[ "$rc" = 2 ] && [ "$err" = "remat batch: budget range '1.0:0.3:-0.05': STEP must be positive (the direction is FROM's to TO's)" ] ||
  fail "negative step: $rc '$err'"
run "$REMAT" batch g.json --budget 90%:0.6:10% --emit-jobs -o e
[ "$rc" = 2 ] && grep -q "FROM, TO and STEP need the same unit" <<<"$err" || fail "mixed units: $rc '$err'"
run "$REMAT" compare g.json --budget 1.0:0.8:0.1 --method checkpoint-all --format csv -q
[ "$rc" = 0 ] || fail "compare range: exit $rc '$err'"
[ "$(grep -c checkpoint-all <<<"$out")" = 3 ] || fail "compare range: '$out'"
run "$REMAT" compare g.json --budget 0.9, --method checkpoint-all -q
[ "$rc" = 2 ] && grep -q "^remat compare: budget list '0.9,' has an empty item" <<<"$err" ||
  fail "compare empty item: $rc '$err'"

t_done
