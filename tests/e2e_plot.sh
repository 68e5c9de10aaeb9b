#!/usr/bin/env bash
# e2e_plot.sh -- remat plot intervals|memory|progress: valid SVG files,
# and exit code 2 with a message on bad input.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# expect CODE CMD...: run CMD, require exit code CODE and a message on stderr
expect() {
  local want=$1; shift
  run "$@"
  [ "$rc" = "$want" ] || fail "exit $rc, want $want: $* ($err)"
  if [ "$want" != 0 ]; then
    [ -s err.txt ] || fail "no message: $*"
  fi
}

valid_svg() {
  [ -s "$1" ] || fail "$1 is empty"
  xmllint --noout "$1" || fail "$1 is not well-formed XML"
  grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$1" || fail "$1: no <svg>"
}

# A small graph: a diamond with a long skip edge, ids that need escaping.
cat >g.json <<'EOF'
{"nodes":[{"id":"in","duration":5,"memory":3},
          {"id":"a&b","duration":4,"memory":2},
          {"id":"<c>","duration":3,"memory":4},
          {"id":"d\"e","duration":2,"memory":2},
          {"id":"f'","duration":6,"memory":1},
          {"id":"out","duration":1,"memory":1}],
 "edges":[["in","a&b"],["in","<c>"],["a&b","d\"e"],["<c>","d\"e"],
          ["d\"e","f'"],["in","f'"],["f'","out"],["a&b","out"]]}
EOF

# A schedule: from the solver if it gives one, else written by hand
# (in is recomputed for f').
rc=0
"$REMAT" solve g.json --budget 0.9 --time-limit 3 -q -o s.json >/dev/null 2>&1 || rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 3 ] || ! grep -q '"sequence": *\[' s.json 2>/dev/null; then
  echo '{"sequence":["in","a&b","<c>","d\"e","in","f'"'"'","out"],"budget":8}' >s.json
fi
echo '{"sequence":["in","a&b","<c>","d\"e","in","f'"'"'","out"],"budget":8,"method":"hand"}' >hand.json

# intervals
t_case "intervals"
expect 0 "$REMAT" plot intervals g.json s.json -o iv.svg
valid_svg iv.svg
n=$(grep -c 'class="interval"' iv.svg)
len=$("$REMAT" eval g.json s.json | sed -n 's/^steps: //p')
[ "$n" = "$len" ] || fail "intervals: $n bars for $len steps"
grep -q 'data-node="a&amp;b"' iv.svg || fail "intervals: id not escaped"
expect 0 "$REMAT" plot intervals g.json topo -o iv_topo.svg
valid_svg iv_topo.svg
[ "$(grep -c 'class="recompute"' iv_topo.svg || true)" = 0 ] || fail "topo has recomputations"

# memory: input order against two schedules, the budget from --budget
t_case "memory"
expect 0 "$REMAT" plot memory g.json topo s.json hand.json --budget 0.9 -o mem.svg
valid_svg mem.svg
[ "$(grep -c 'class="memory"' mem.svg)" = 3 ] || fail "memory: want 3 curves"
grep -q 'class="budget"' mem.svg || fail "memory: no budget line"
grep -q 'hand: peak' mem.svg || fail "memory: legend"
# the budget from the schedule file
expect 0 "$REMAT" plot memory g.json hand.json -o mem2.svg
grep -q 'data-budget="8"' mem2.svg || fail "memory: budget from the file"
# to stdout
"$REMAT" plot memory g.json topo >stdout.svg
valid_svg stdout.svg
# the schedule from standard input keeps its budget and method
expect 0 "$REMAT" plot memory g.json - -o mem3.svg <hand.json
grep -q 'data-budget="8"' mem3.svg || fail "memory: budget from standard input"
grep -q 'hand: peak' mem3.svg || fail "memory: method from standard input"
expect 2 "$REMAT" plot memory g.json - - -o x.svg <hand.json
grep -q 'only one argument can be - (standard input)' err.txt || fail "two -"

# progress: a result written by solve (or a hand-made one)
t_case "progress"
if ! grep -q '"trace"' s.json; then
  cat >s.json <<'EOF'
{"graph":"g","method":"cp","budget":8,"base_duration":21,"time_s":3,
 "sequence":["in","a&b","<c>","d\"e","in","f'","out"],
 "trace":[[0.0001,0,9,21],[0.05,1,8,26],[1.5,2,8,25]]}
EOF
fi
sed 's/"method": *"[^"]*"/"method": "milp"/' s.json >s2.json
expect 0 "$REMAT" plot progress s.json s2.json -o prog.svg
valid_svg prog.svg
[ "$(grep -c 'class="progress"' prog.svg)" = 2 ] || fail "progress: want 2 curves"
grep -q 'data-method="milp"' prog.svg || fail "progress: method"
expect 0 "$REMAT" plot progress s.json - -o prog2.svg <s2.json
[ "$(grep -c 'class="progress"' prog2.svg)" = 2 ] || fail "progress: - wants 2 curves"
grep -q 'data-method="milp"' prog2.svg || fail "progress: method from standard input"
echo '{"trace": [' >trunc.json
expect 2 "$REMAT" plot progress - -o x.svg <trunc.json
grep -q '<stdin>:2:0: JSON syntax error' err.txt || fail "progress: <stdin> position"

# bad input: exit 2 with a message, and no output file
t_case "bad input"
expect 2 "$REMAT" plot
expect 2 "$REMAT" plot histogram g.json s.json -o x.svg
expect 2 "$REMAT" plot intervals g.json -o x.svg
expect 2 "$REMAT" plot intervals g.json missing.json -o x.svg
grep -q missing.json err.txt || fail "missing file not named"
expect 2 "$REMAT" plot intervals nograph.json s.json -o x.svg
expect 2 "$REMAT" plot memory g.json -o x.svg
expect 2 "$REMAT" plot progress -o x.svg
expect 2 "$REMAT" plot progress missing.json -o x.svg
expect 2 "$REMAT" plot progress g.json -o x.svg        # not a result
expect 2 "$REMAT" plot progress s.json --budget 0.9 -o x.svg
echo '{"sequence":["in","<c>","d\"e"]}' >bad.json      # d"e needs a&b
expect 2 "$REMAT" plot intervals g.json bad.json -o x.svg
grep -q 'bad.json' err.txt && grep -q 'a&b' err.txt || fail "invalid schedule not explained"
expect 2 "$REMAT" plot memory g.json topo bad.json -o x.svg
echo '{"sequence":["in","zzz"]}' >unknown.json
expect 2 "$REMAT" plot memory g.json unknown.json -o x.svg
expect 2 "$REMAT" plot memory g.json topo --budget nonsense -o x.svg
[ ! -e x.svg ] || fail "an output file was written for bad input"

t_done
