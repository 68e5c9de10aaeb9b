#!/usr/bin/env bash
# e2e_process.sh -- child processes from the command line: an external
# FlatZinc solver behind a wrapper script (which starts the real solver as
# its own child, or ignores SIGTERM, or leaves a grandchild holding its
# pipes) ends within seconds of the time limit with the best schedule and
# leaves no process behind, in `remat solve` and in a batch job; a solver
# that fails, prints garbage, stops after one solution or reports an
# absurd PEAK is reported as what it is.
# Usage: REMAT=build/remat bash tests/e2e_process.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pids=$tmp/pids # every process the wrappers start, one pid a line
: >"$pids"
# at exit: kill (by pid) whatever a failing run left
t_cleanup() {
  while read -r p; do kill -9 "$p" 2>/dev/null || true; done <"$pids"
}

# fail if a process the wrappers started is still alive (zombies waiting
# for init do not count); waits a little for them to be reaped
no_leftovers() {
  local p st left=""
  sleep 0.5
  while read -r p; do
    st=$(ps -o stat= -p "$p" 2>/dev/null || true)
    case "$st" in "" | Z*) ;; *) left="$left $p($(ps -o args= -p "$p" || true))" ;; esac
  done <"$pids"
  [ -z "$left" ] || fail "$1: processes left behind:$left"
}

G=$root/examples/layered_30.json # the CP does not finish 0.8 in seconds
# (--no-heuristic where nothing may fit: Echo's baseline, a seed of the
# solve, fits 0.8 at once)

# wrappers: each records the pids it starts in $pids
cat >plain.sh <<EOF
#!/bin/sh
# the real solver as a child of this script (not exec'd)
echo \$\$ >>"$pids"
fzn-gecode "\$@" &
echo \$! >>"$pids"
wait
EOF
cat >deaf.sh <<EOF
#!/bin/sh
# ignores SIGTERM, and so does the solver it starts
trap '' TERM
echo \$\$ >>"$pids"
fzn-gecode "\$@" &
echo \$! >>"$pids"
while ! wait; do :; done
EOF
cat >escape.sh <<EOF
#!/bin/sh
# a grandchild in a session of its own keeps the pipes open after this
# script ends (remat cannot kill it: it must only stop waiting for it)
setsid sleep 60 &
echo \$! >>"$pids"
exec fzn-gecode "\$@"
EOF
cat >one.sh <<'EOF'
#!/bin/sh
# stops after the first solution, exit code 0, no "=========="
fzn-gecode "$@" | sed '/^----------$/q'
EOF
cat >huge.sh <<'EOF'
#!/bin/sh
fzn-gecode "$@" | sed 's/^PEAK = .*/PEAK = 9223372036854775807;/'
EOF
cat >negative.sh <<'EOF'
#!/bin/sh
fzn-gecode "$@" | sed 's/^PEAK = .*/PEAK = -3;/'
EOF
printf '#!/bin/sh\necho "solver: bad model" >&2\nexit 1\n' >exit1.sh
printf '#!/bin/sh\necho garbage\n' >garbage.sh
chmod +x ./*.sh

# -------------------- wrappers: end on time, best schedule, no leftovers
for w in plain deaf; do
  t_case "$w wrapper: ends on time, best schedule, no leftovers"
  run "$REMAT" solve "$G" --budget 0.8 --fzn-solver "./$w.sh" --time-limit 2 --no-heuristic -q -o $w.json
  [ "$rc" = 3 ] || fail "$w: exit $rc '$err'"
  [ "$secs" -le 12 ] || fail "$w: took $secs s for a time limit of 2 s"
  grep -q "^remat solve: out of time: no schedule within 22056" <<<"$err" || fail "$w: '$err'"
  [ "$(jq '.sequence | length > 0' $w.json)" = true ] || fail "$w: no schedule in $w.json"
  run "$REMAT" eval "$G" $w.json
  [ "$rc" = 0 ] && grep -qx "peak: $(jq .peak $w.json)" <<<"$out" || fail "$w: eval: $rc '$out'"
  no_leftovers "$w"
done

# the leader ends; a grandchild outside its group holds the pipes open
t_case "escape: a grandchild holds the pipes open"
run "$REMAT" solve "$G" --budget 0.8 --fzn-solver ./escape.sh --time-limit 2 --no-heuristic -q
[ "$rc" = 3 ] && [ "$secs" -le 12 ] || fail "escape: exit $rc after $secs s '$err'"
while read -r p; do kill "$p" 2>/dev/null || true; done <"$pids"
: >"$pids"

# ------------------------------------------ external solver statuses
t_case "one solution, over budget"
run "$REMAT" solve "$G" --budget 0.8 --fzn-solver ./one.sh --time-limit 20 --no-heuristic -q -o one.json
[ "$rc" = 3 ] || fail "one solution: exit $rc '$err'"
grep -q "^remat solve: the external solver ./one.sh ended without a proof after 1 solution: no schedule within 22056" <<<"$err" ||
  fail "one solution: '$err'"
grep -q "out of time" <<<"$err" && fail "one solution reported as out of time: '$err'"
[ "$secs" -lt 15 ] || fail "one solution: took $secs s"
[ "$(jq -r .status one.json)" = over-budget ] || fail "one solution: status $(jq -r .status one.json)"
# the same within budget (the heuristics' schedule fits; phase 2 stops
# after its first solution): feasible, exit 0, and the message says why
# (C_v kept: the copies probe finds the optimum here, which the window
# bound then proves)
t_case "one solution, within budget"
run "$REMAT" solve "$G" --budget 0.9 --fzn-solver ./one.sh --time-limit 20 --strict-copies -q -o one9.json
[ "$rc" = 0 ] && [ "$secs" -lt 15 ] || fail "one solution within budget: exit $rc after $secs s '$err'"
# (the free order's hint may follow: docs/method.md, "Another order")
msg=$(jq -r '.status + ": " + .message' one9.json)
[ "${msg%%; the free order (--free-order) does better: *}" = "feasible: the external solver ./one.sh ended without a proof after 1 solution" ] ||
  fail "one solution within budget: $(jq -c '[.status, .message]' one9.json)"

t_case "solver exits 1"
run "$REMAT" solve "$G" --budget 0.8 --fzn-solver ./exit1.sh --time-limit 5 --no-heuristic -o e.json
[ "$rc" = 4 ] || fail "exit 1: exit $rc"
grep -q "^remat solve: internal error: solver error: ./exit1.sh failed (exit code 1): solver: bad model$" <<<"$err" ||
  fail "exit 1: '$err'"
grep -q "^cp: budget 22056 .*  error  " <<<"$out" || fail "exit 1: summary '$out'"
[ "$(jq -r .status e.json)" = error ] || fail "exit 1: status $(jq -r .status e.json)"

t_case "solver prints garbage"
run "$REMAT" solve "$G" --budget 0.8 --fzn-solver ./garbage.sh --time-limit 5 --no-heuristic
[ "$rc" = 4 ] && grep -q "  error  " <<<"$out" || fail "garbage: exit $rc '$out'"
grep -q "^remat solve: internal error: solver error: the external solver ./garbage.sh printed no solution and no status line (its output starts with 'garbage')$" <<<"$err" ||
  fail "garbage: '$err'"

t_case "no such solver program"
run "$REMAT" solve "$G" --budget 0.8 --fzn-solver ./no-such-solver --time-limit 5 --no-heuristic
[ "$rc" = 4 ] && grep -q "  error  " <<<"$out" || fail "no such program: exit $rc '$out'"
grep -q "^remat solve: internal error: solver error: cannot run ./no-such-solver: No such file or directory$" <<<"$err" ||
  fail "no such program: '$err'"

# untrusted numbers: PEAK past 64 bits once scaled, or negative
for w in huge negative; do
  t_case "$w PEAK"
  run "$REMAT" solve "$G" --budget 0.8 --fzn-solver ./$w.sh --time-limit 5 --no-heuristic
  [ "$rc" = 4 ] || fail "$w PEAK: exit $rc '$err'"
  grep -q "^remat solve: internal error: cannot decode the solver's solution: solver output: PEAK is not an integer in 0\.\.[0-9]*$" <<<"$err" ||
    fail "$w PEAK: '$err'"
done

# --------------------------------- a batch job whose solver hangs
t_case "a batch job whose solver hangs"
printf '%s 0.8 --fzn-solver %s --time-limit 2 --no-heuristic\n' "$G" "$tmp/deaf.sh" >jobs.txt
run "$REMAT" batch jobs.txt -j 1 -q -o b
[ "$rc" = 3 ] || fail "batch: exit $rc '$err'"
[ "$secs" -le 15 ] || fail "batch: took $secs s for a job limit of 2 s"
grep -q '"status":"over-budget"' b.jsonl || fail "batch: $(cat b.jsonl)"
no_leftovers batch

t_done
