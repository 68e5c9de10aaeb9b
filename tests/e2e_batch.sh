#!/usr/bin/env bash
# e2e_batch.sh -- remat batch from the command line: a directory of graphs x
# budgets with -j 2, the JSONL / CSV / Markdown files, --resume doing no
# work, a bad graph recorded as failed (exit 4), a manifest, --emit-jobs,
# --merge reproducing the summary, and Ctrl-C then --resume.
# Usage: REMAT=build/remat bash tests/e2e_batch.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir graphs
t_diamond graphs/g1.json
cat >graphs/g2.json <<'EOF'
{"name": "skip",
 "nodes": [{"id": "s", "duration": 2, "memory": 6}, {"id": "p", "duration": 1, "memory": 2},
           {"id": "q", "duration": 3, "memory": 4}, {"id": "r", "duration": 2, "memory": 3},
           {"id": "t", "duration": 1, "memory": 2}, {"id": "u", "duration": 2, "memory": 1}],
 "edges": [["s", "p"], ["p", "q"], ["q", "r"], ["r", "t"], ["s", "t"], ["t", "u"], ["p", "u"]]}
EOF

# ------------------------------------------------------ usage errors
t_case "usage errors"
run "$REMAT" batch graphs -q
[ "$rc" = 2 ] && grep -q -- "--budget is required" <<<"$err" || fail "no budget: $rc '$err'"
run "$REMAT" batch graphs --budget 0.9,zero -q
[ "$rc" = 2 ] && grep -q "cannot parse budget 'zero'" <<<"$err" || fail "bad budget: $rc '$err'"
printf 'graphs/g1.json 0.9\ngraphs/g2.json 0.9 --jobs 3\n' >badman.txt
run "$REMAT" batch badman.txt -q
[ "$rc" = 2 ] && grep -q "badman.txt:2: unknown or batch-level option '--jobs'" <<<"$err" ||
  fail "bad manifest: $rc '$err'"

# --------------------------------------- 2 graphs x 2 budgets, -j 2
t_case "2 graphs x 2 budgets, -j 2"
run "$REMAT" batch graphs --budget 0.9,0.85 -j 2 --time-limit 2 -o out/sum
[ "$rc" = 0 ] || fail "batch: exit $rc ($err)"
[ "$(wc -l <out/sum.jsonl)" = 4 ] || fail "batch: $(wc -l <out/sum.jsonl) JSONL lines, expected 4"
[ "$(echo "$err" | grep -c '^remat: \[[1-4]/4\]')" = 4 ] || fail "batch: no progress line per job: $err"
[ "$(field out/sum.jsonl .status | sort | uniq)" = optimal ] || fail "batch statuses: $(field out/sum.jsonl .status)"
[ "$(wc -l <out/sum.csv)" = 5 ] || fail "CSV rows: $(cat out/sum.csv)"
head -1 out/sum.csv | grep -qx "graph,n,budget,budget_bytes,status,peak,tdi_percent,time_to_best_s,time_s,lower_bound_tdi_percent" ||
  fail "CSV header: $(head -1 out/sum.csv)"
grep -q "^g1,6,0.85,13,optimal,13,29.4118," out/sum.csv || fail "CSV row: $(cat out/sum.csv)"
grep -q "| g2 | 6 | 0.9 (13) | optimal | 13 | 9.09 |" out/sum.md || fail "Markdown: $(cat out/sum.md)"
grep -q "4 jobs: 4 optimal." out/sum.md || fail "Markdown counts: $(cat out/sum.md)"
# every result re-simulates within its budget
paste <(field out/sum.jsonl .graph) <(field out/sum.jsonl .result) <(field out/sum.jsonl .budget_bytes) >triples.txt
[ "$(wc -l <triples.txt)" = 4 ] || fail "fields: $(cat triples.txt)"
while IFS=$'\t' read -r graph result budget; do
  run "$REMAT" eval "$graph" "$result" --budget "$budget"
  [ "$rc" = 0 ] || fail "eval $result: $rc $out"
done <triples.txt
ids=$(field out/sum.jsonl .id | sort)
grep -qx "graphs/g1.json --budget 0.85" <<<"$ids" || fail "job ids: $ids"

# --------------------------------------------- --resume does no work
t_case "--resume does no work"
start=$(date +%s%N)
run "$REMAT" batch graphs --budget 0.9,0.85 -j 2 --time-limit 2 -o out/sum --resume
[ "$rc" = 0 ] || fail "resume: exit $rc ($err)"
[ $((($(date +%s%N) - start) / 1000000)) -lt 1500 ] || fail "resume took too long"
grep -q "resuming: 4 of 4 jobs already done, 0 to run" <<<"$err" || fail "resume: $err"
[ "$(wc -l <out/sum.jsonl)" = 4 ] || fail "resume added lines"

# --------------------------------------- --merge reproduces the summary
t_case "--merge reproduces the summary"
run "$REMAT" batch --merge out/sum.jobs -o out/merged
[ "$rc" = 0 ] || fail "merge: exit $rc ($err)"
diff out/sum.csv out/merged.csv >/dev/null || fail "merge CSV differs: $(diff out/sum.csv out/merged.csv)"
[ "$(field out/merged.jsonl .id | sort)" = "$ids" ] || fail "merge ids: $(field out/merged.jsonl .id)"
# a tampered result is caught by the re-simulation
f=$(ls out/sum.jobs/g1_0.9_*.json)
sed 's/"peak": 14/"peak": 12/' "$f" >out/tampered.json
run "$REMAT" batch --merge out/tampered.json -o out/t
[ "$rc" = 4 ] && grep -q "claims peak 12" out/t.jsonl || fail "tampered result: $rc $(cat out/t.jsonl)"

# ---------------------------------------------------------- --emit-jobs
t_case "--emit-jobs"
run "$REMAT" batch graphs --budget 0.9,0.85 --time-limit 2 -o out/sum --emit-jobs
[ "$rc" = 0 ] || fail "emit-jobs: exit $rc"
[ "$(echo "$out" | wc -l)" = 4 ] || fail "emit-jobs printed: $out"
grep -q "^$REMAT solve graphs/g2.json --budget 0.85 --time-limit 2 --threads 1 -q -o out/sum.jobs/g2_0.85_[0-9a-f]*.json$" <<<"$out" ||
  fail "emit-jobs command: $out"
# the first line without a pipe into head, which may exit before echo has
# written the rest (SIGPIPE: 141 under pipefail)
cmd=${out%%$'\n'*}
cmd=${cmd/-o out\/sum.jobs\//-o out\/}
set +e
bash -c "$cmd" >/dev/null 2>&1
crc=$?
set -e
[ "$crc" = 0 ] || fail "an emitted command failed: $cmd"

# ------------------------------------ a bad graph is recorded as failed
t_case "a bad graph is recorded as failed"
printf '{"nodes": [' >graphs/bad.json
run "$REMAT" batch graphs --budget 0.9,0.85 -j 2 --time-limit 2 --results out/bad.jsonl -q
[ "$rc" = 4 ] || fail "bad graph: exit $rc, expected 4"
[ "$(wc -l <out/bad.jsonl)" = 6 ] || fail "bad graph: $(wc -l <out/bad.jsonl) lines"
[ "$(field out/bad.jsonl .status | grep -c failed)" = 2 ] || fail "bad graph statuses"
grep -q '"reason":"graphs/bad.json:1:11: JSON syntax error' out/bad.jsonl || fail "bad graph reason: $(cat out/bad.jsonl)"
grep -q '^- `graphs/bad.json --budget 0.9`: failed: graphs/bad.json:1:11' out/bad.md || fail "bad graph in the Markdown"
rm graphs/bad.json

# ----------------------------------------------------------- manifest
t_case "manifest"
cat >jobs.txt <<'EOF'
# graph      budget  options
graphs/g1.json 0.9 --copies 3   # a comment
graphs/g2.json       --time-limit 1
EOF
run "$REMAT" batch jobs.txt --budget 0.85 -q --results out/man.jsonl
[ "$rc" = 0 ] || fail "manifest: exit $rc ($err)"
[ "$(field out/man.jsonl .id | sort | tr '\n' '|')" = "./graphs/g1.json --budget 0.9 --copies 3|./graphs/g2.json --budget 0.85|" ] ||
  [ "$(field out/man.jsonl .id | sort | tr '\n' '|')" = "graphs/g1.json --budget 0.9 --copies 3|graphs/g2.json --budget 0.85|" ] ||
  fail "manifest ids: $(field out/man.jsonl .id)"

# ------------------------- --lp-bound: the LP's lower bound in the records
t_case "--lp-bound in the records"
# (60 nodes at 0.8: the search proves nothing in 2 s; without the
# heuristics the jobs have no covering bound, and the job with --lp-bound
# has the LP's; the LP needs a small part of the time it may add)
"$REMAT" gen layered --nodes 60 --seed 3 -q -o lp.json
printf 'lp.json 0.8 --time-limit 2 --lp-bound --no-heuristic\nlp.json 0.8 --time-limit 2 --no-heuristic\n' >lpjobs.txt
run "$REMAT" batch lpjobs.txt -q -j 2 --results out/lp.jsonl
[ "$rc" = 0 ] || fail "--lp-bound: exit $rc ($err)"
jq -se 'map({(.options): .}) | add | .["--lp-bound --no-heuristic"] as $lp |
  .["--no-heuristic"] as $plain |
  $lp.status == "feasible" and $plain.status == "feasible" and
  $plain.lower_bound_tdi_percent == null and
  ($lp.lower_bound_tdi_percent | type) == "number" and
  $lp.lower_bound_tdi_percent > 2.9 and
  $lp.lower_bound_tdi_percent <= $lp.tdi_percent + 1e-6' out/lp.jsonl >/dev/null ||
  fail "--lp-bound records: $(cat out/lp.jsonl)"
grep -q "^lp,60,0.8,[0-9]*,feasible,[0-9]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]\+$" out/lp.csv ||
  fail "--lp-bound CSV: $(cat out/lp.csv)"

# ------------------------------------- Ctrl-C, then --resume finishes
t_case "Ctrl-C, then --resume finishes"
# (graphs on which no job ends with a proof within its 6 s: at the
# Ctrl-C two run and four wait)
for s in 2 5 6; do "$REMAT" gen layered --nodes 150 --seed $s -q -o long$s.json; done
t_interrupt 2 "$REMAT" batch long2.json long5.json long6.json \
  --budget 0.85,0.8 -j 2 --time-limit 6 -o out/long
[ "$rc" = 130 ] || fail "interrupted batch: exit $rc ($err)"
# the ids with a final record (status other than interrupted)
final_ids() {
  paste -d '|' <(field "$1" .id) <(field "$1" .status) | { grep -v '|interrupted$' || true; } | cut -d '|' -f 1 | sort
}
done_before=$(final_ids out/long.jsonl)
[ "$(field out/long.jsonl .status | grep -c interrupted)" -ge 1 ] || fail "no interrupted job: $(cat out/long.jsonl)"
grep -q "| pending |" out/long.md || fail "pending jobs not in the summary"
run "$REMAT" batch long2.json long5.json long6.json \
  --budget 0.85,0.8 -j 2 --time-limit 6 -o out/long --resume
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "resumed batch: exit $rc ($err)"
done_after=$(final_ids out/long.jsonl)
[ "$(echo "$done_after" | wc -l)" = 6 ] || fail "after resume, final jobs: $done_after"
[ "$(echo "$done_after" | uniq | wc -l)" = 6 ] || fail "resume redid finished jobs: $done_after"
[ -z "$(comm -23 <(echo "$done_before") <(echo "$done_after"))" ] || fail "jobs lost"
[ "$(wc -l <out/long.csv)" = 7 ] || fail "resumed summary: $(cat out/long.csv)"
! grep -q "pending\|interrupted" out/long.csv || fail "resumed summary not final: $(cat out/long.csv)"

t_done
