#!/usr/bin/env bash
# e2e_gen.sh -- remat gen: deterministic output, loadable graphs, bad kinds.
# Usage: REMAT=build/remat bash tests/e2e_gen.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# the same seed gives the same file, byte for byte
t_case "the same seed gives the same file"
"$REMAT" gen layered --nodes 40 --seed 7 -o "$tmp/a.json" -q ||
  fail "gen layered --nodes 40 --seed 7 exited with $?"
"$REMAT" gen layered --nodes 40 --seed 7 -o "$tmp/b.json" -q ||
  fail "second gen layered exited with $?"
cmp -s "$tmp/a.json" "$tmp/b.json" ||
  fail "gen layered --seed 7 is not deterministic"

# another seed gives another graph
t_case "another seed gives another graph"
"$REMAT" gen layered --nodes 40 --seed 8 -o "$tmp/c.json" -q
cmp -s "$tmp/a.json" "$tmp/c.json" && fail "seeds 7 and 8 gave the same graph"

# stdout and -o agree; the summary goes to stderr
t_case "stdout and -o agree"
"$REMAT" gen layered --nodes 40 --seed 7 >"$tmp/stdout.json" 2>"$tmp/err" ||
  fail "gen to stdout exited with $?"
cmp -s "$tmp/a.json" "$tmp/stdout.json" || fail "stdout differs from -o FILE"
grep -q "40 nodes" "$tmp/err" || fail "no summary on stderr: $(cat "$tmp/err")"

# remat info reads it back
t_case "remat info reads it back"
"$REMAT" info "$tmp/a.json" >"$tmp/info" || fail "info on the generated graph exited with $?"
grep -q "^nodes: 40$" "$tmp/info" || fail "info does not report 40 nodes: $(cat "$tmp/info")"
grep -q "^format: native$" "$tmp/info" || fail "info does not report the native format"

# the other kinds: training (2L+1 nodes), unet (8 depth + 5 nodes)
t_case "training and unet sizes"
"$REMAT" gen training --nodes 6 -o "$tmp/t.json" -q || fail "gen training exited with $?"
grep -q "^nodes: 13$" <<<"$("$REMAT" info "$tmp/t.json")" || fail "training --nodes 6 is not 13 nodes"
"$REMAT" gen unet --nodes 2 -o "$tmp/u.json" -q || fail "gen unet exited with $?"
grep -q "^nodes: 21$" <<<"$("$REMAT" info "$tmp/u.json")" || fail "unet --nodes 2 is not 21 nodes"

# an invalid kind is a usage error (exit 2) with a message
t_case "an invalid kind"
set +e
"$REMAT" gen lattice -o "$tmp/x.json" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "gen lattice exited with $rc, expected 2"
grep -q "unknown graph kind" "$tmp/err" || fail "no message for a bad kind: $(cat "$tmp/err")"

t_done
