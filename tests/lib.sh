# lib.sh -- the shell library of the end-to-end scripts (tests/e2e_*.sh):
# named cases, failures that do not stop the script, run() and a summary.
#
# A script starts with
#
#   set -euo pipefail
#   . "$(dirname "$0")/lib.sh"
#
# which sets REMAT (the binary, an absolute path; from the environment,
# build/remat if unset), root (the repository) and tmp (a fresh directory,
# the working directory, removed at exit).  Then one case after another:
#
#   t_case "usage errors"
#   run "$REMAT" solve g.json -q
#   [ "$rc" = 2 ] || fail "missing budget: exit $rc"
#   ...
#   t_done                      # the last line
#
# fail MESSAGE marks the current case failed, prints
# "FAIL [e2e_x: case]: MESSAGE" and returns 0: the script goes on.  From then
# on until the next t_case, run does not run its command (it sets rc to 125
# and out and err to ""): the checks after it fail, and their messages are
# not printed, the case being failed already.  Commands not run through run
# still run.  t_done prints "e2e_x: N passed, M failed" (the failed cases'
# first messages again before it) and exits 1 if a case failed.
#
# A script that starts processes which may outlive a failed check defines
# t_cleanup (a function): the exit trap calls it before removing $tmp.
#
# t_sigint PID sends Ctrl-C to a command started with &, once it can catch
# it; t_interrupt S CMD... runs CMD like run and sends it Ctrl-C after S
# seconds.
#
# A command that fails outside a check (set -e) still stops the script:
# the exit trap reports it as a failure of the current case, with its line,
# and the summary says the later cases did not run.  Scripts must not set
# their own EXIT or ERR trap.

set -Eeuo pipefail

t_script=$(basename "$0" .sh)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REMAT=${REMAT:-build/remat}
case $REMAT in /*) ;; *) REMAT=$(cd "$(dirname "$REMAT")" && pwd)/$(basename "$REMAT") ;; esac
[ -x "$REMAT" ] || { echo "FAIL [$t_script]: no binary $REMAT (set REMAT)" >&2; exit 1; }
tmp=$(mktemp -d)
cd "$tmp"

t__fails=$tmp/.t_failures # "CASE-NUMBER<TAB>CASE<TAB>MESSAGE" lines
: >"$t__fails"
t__case="setup" # failures before the first t_case belong to "setup"
t__no=0
t__t0=$SECONDS
t__passed=0
t__failed=0
t__done=0
t__abort=""
t__abort_at=""
# T_SLOW: how many times slower than a plain build the binary runs (3 under
# the sanitizers or gcov: the Makefile sets it); wall-time checks scale
# their slack by it
T_SLOW=${T_SLOW:-1}

# t__case_failed: whether the current case has failed (in a subshell too)
t__case_failed() { grep -q "^$t__no	" "$t__fails"; }

# t__close: counts the current case ("setup" only if it failed)
t__close() {
  if t__case_failed; then
    t__failed=$((t__failed + 1))
  elif [ "$t__no" -gt 0 ]; then
    t__passed=$((t__passed + 1))
    echo "ok   [$t_script: $t__case] $((SECONDS - t__t0)) s"
  fi
}

t_case() {
  t__close
  t__no=$((t__no + 1))
  t__case=$1
  t__t0=$SECONDS
}

fail() {
  t__case_failed || echo "FAIL [$t_script: $t__case]: $*" >&2
  printf '%s\t%s\t%s\n' "$t__no" "$t__case" "$(printf '%s' "$*" | tr '\t\n' '  ')" >>"$t__fails"
  return 0
}

# run CMD...: runs CMD, stdout to $tmp/out.txt, stderr to $tmp/err.txt;
# sets rc, out, err and secs (the wall time in seconds, rounded up).  In a
# failed case only sets rc=125, out="", err="", secs=0.
run() {
  if t__case_failed; then
    rc=125 out="" err="" secs=0
    return 0
  fi
  local t0
  t0=$(date +%s%N)
  set +e
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  rc=$?
  set -e
  secs=$((($(date +%s%N) - t0 + 999999999) / 1000000000))
  out=$(cat "$tmp/out.txt")
  err=$(cat "$tmp/err.txt")
}

# t_sigint PID: Ctrl-C for PID, once it catches SIGINT.  A command started
# with & by a script ignores SIGINT until it installs its handler: a signal
# sent before would be lost (on a loaded machine, reading a large graph can
# take that long).  Waits at most 30 s, then sends it anyway.
t_sigint() {
  local pid=$1 i mask
  for ((i = 0; i < 300; i++)); do
    mask=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null) || break
    [ -n "$mask" ] || break
    (((0x$mask >> 1) & 1)) && break
    sleep 0.1
  done
  kill -INT "$pid" 2>/dev/null || true
}

# t_interrupt S CMD...: runs CMD in the background like run (stdout to
# $tmp/out.txt, stderr to $tmp/err.txt), Ctrl-C (t_sigint) after S seconds,
# waits for it; sets rc, out, err, and ms and secs: the time from the Ctrl-C
# to its end in milliseconds and in seconds rounded up.  In a failed case
# only sets rc=125, out="", err="", ms=0, secs=0.
t_interrupt() {
  local s=$1 pid t0
  shift
  if t__case_failed; then
    rc=125 out="" err="" ms=0 secs=0
    return 0
  fi
  set +e
  "$@" >"$tmp/out.txt" 2>"$tmp/err.txt" &
  pid=$!
  sleep "$s"
  t_sigint $pid
  t0=$(date +%s%N)
  wait $pid
  rc=$?
  set -e
  ms=$((($(date +%s%N) - t0) / 1000000))
  secs=$(((ms + 999) / 1000))
  out=$(cat "$tmp/out.txt")
  err=$(cat "$tmp/err.txt")
}

# the first message of every failed case, then the summary line
t__summary() {
  local n line
  for n in $(cut -f 1 "$t__fails" | uniq); do
    line=$(grep -m 1 "^$n	" "$t__fails")
    echo "FAIL [$t_script: $(cut -f 2 <<<"$line")]: $(cut -f 3- <<<"$line")"
  done
  echo "$t_script: $t__passed passed, $t__failed failed$t__abort"
}

# field FILE PATH: the value at the jq path PATH (".status") in a JSON
# file, or in each line of a JSONL file, one per line (strings unquoted)
field() { jq -r "$2" "$1"; }

# t_diamond FILE: the six-node diamond graph the scripts share (topo peak
# 16; the least peak of any schedule 13)
t_diamond() {
  cat >"$1" <<'JSON'
{"name": "diamond",
 "nodes": [{"id": "in", "duration": 3, "memory": 4}, {"id": "a", "duration": 2, "memory": 5},
           {"id": "b", "duration": 4, "memory": 2}, {"id": "c", "duration": 1, "memory": 3},
           {"id": "d", "duration": 5, "memory": 4}, {"id": "out", "duration": 2, "memory": 1}],
 "edges": [["in", "a"], ["in", "b"], ["a", "c"], ["b", "c"], ["in", "d"], ["c", "d"],
           ["d", "out"], ["a", "out"]]}
JSON
}

# t_cheap_u FILE: u (cheap, large) is read at c2, c8, c14 and c20 of a
# chain and cannot be held across the heavy c5, c11 and c17 within 80:
# Echo computes it four times (a schedule of duration 204, the optimum),
# so the solve raises u's C_v to 4 (docs/method.md, "Copies").
t_cheap_u() {
  {
    printf '{"name": "cheap-u", "nodes": [{"id": "u", "duration": 1, "memory": 50}'
    for i in $(seq 1 20); do
      m=10
      case $i in 5 | 11 | 17) m=60 ;; esac
      printf ', {"id": "c%d", "duration": 10, "memory": %d}' "$i" "$m"
    done
    printf '], "edges": [["u", "c2"], ["u", "c8"], ["u", "c14"], ["u", "c20"]'
    for i in $(seq 2 20); do printf ', ["c%d", "c%d"]' $((i - 1)) "$i"; done
    printf ']}\n'
  } >"$1"
}

t_done() {
  t__close
  t__done=1
  t__summary
  [ "$t__failed" = 0 ] || exit 1
  exit 0
}

# ERR: remembers where set -e is about to stop the script (errexit is off
# under set +e and in command substitutions: no stop there)
t__err() {
  case $- in *e*) t__abort_at="line $1: '$2' exited with $3" ;; esac
}

t__exit() {
  local status=$?
  set +e
  if [ "$t__done" = 0 ]; then
    local why="aborted at ${t__abort_at:-exit status $status}"
    ! t__case_failed || echo "FAIL [$t_script: $t__case]: $why" >&2
    fail "$why"
    t__close
    t__abort=" (aborted in \"$t__case\": the later cases did not run)"
    t__summary
    status=1
  fi
  ! declare -F t_cleanup >/dev/null || t_cleanup
  cd / && rm -rf "$tmp"
  exit "$status"
}

trap 't__err "$LINENO" "$BASH_COMMAND" "$?"' ERR
trap t__exit EXIT
