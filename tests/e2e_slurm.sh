#!/usr/bin/env bash
# e2e_slurm.sh -- remat batch --slurm against a real Slurm: a one-node
# cluster started here from Debian's packages (munged, slurmctld, slurmd;
# a generated slurm.conf naming localhost, free ports, its state, spool,
# logs and job-completion log in the test's temporary directory), then
#   - a batch of examples/ graphs at two budgets, one job killed by its
#     Slurm time limit and one cancelled with scancel, whose records match
#     a local batch of the same jobs (statuses and TDIs, one thread, seed
#     1) and Slurm's own job-completion log;
#   - --merge of that run; Ctrl-C while waiting;
#   - --no-wait, a task requeued by Slurm, --cancel RUN, then --resume.
# The daemons are stopped at exit.  Without root or the packages, or when
# the daemons do not start, it prints "skipped: WHY" and exits 0.
# Usage: REMAT=build/remat bash tests/e2e_slurm.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

skip() {
  echo "e2e_slurm: skipped: $*"
  t__done=1
  exit 0
}

# ------------------------------------------------------------- cluster
[ "$(id -u)" = 0 ] || skip "not root (slurmd must run as root to start tasks)"
for c in munged slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
  command -v $c >/dev/null ||
    skip "no $c (Debian packages munge slurmctld slurmd slurm-client: make deps)"
done

sl=$tmp/slurm
mkdir -p "$sl/state" "$sl/spool" "$sl/log" "$sl/munge"
chmod 755 "$tmp" "$sl" "$sl/munge"
export SLURM_CONF=$sl/slurm.conf

# two free TCP ports on localhost for slurmctld and slurmd
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=$((20000 + RANDOM % 30000))
while ! port_free $port || ! port_free $((port + 1)); do port=$((port + 2)); done

t_cleanup() {
  [ -z "${pid:-}" ] || kill "$pid" 2>/dev/null || true
  scancel --full --quiet --user=root 2>/dev/null || true
  sleep 1
  local f p i
  for f in "$sl/slurmd.pid" "$sl/slurmctld.pid" "$sl/munge/pid"; do
    [ -s "$f" ] || continue
    p=$(cat "$f")
    kill "$p" 2>/dev/null || continue
    for ((i = 0; i < 100; i++)); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  done
}

dd if=/dev/urandom of="$sl/munge.key" bs=128 count=1 2>/dev/null
chmod 600 "$sl/munge.key"
munged -f --socket="$sl/munge/sock" --key-file="$sl/munge.key" \
  --pid-file="$sl/munge/pid" --log-file="$sl/log/munged.log" \
  --seed-file="$sl/munge/seed" ||
  skip "munged does not start: $(tail -1 "$sl/log/munged.log" 2>/dev/null)"

cat >"$SLURM_CONF" <<EOF
ClusterName=rematci
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sl/munge/sock
CredType=cred/munge
StateSaveLocation=$sl/state
SlurmdSpoolDir=$sl/spool
SlurmctldPidFile=$sl/slurmctld.pid
SlurmdPidFile=$sl/slurmd.pid
SlurmctldLogFile=$sl/log/slurmctld.log
SlurmdLogFile=$sl/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobCompType=jobcomp/filetxt
JobCompLoc=$sl/log/jobcomp.txt
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
KillWait=10
MinJobAge=600
InactiveLimit=0
NodeName=localhost NodeHostname=localhost CPUs=$(nproc)
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" ||
  skip "slurmctld does not start: $(tail -2 "$sl/log/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" -N localhost ||
  skip "slurmd does not start: $(tail -2 "$sl/log/slurmd.log" 2>/dev/null)"
for ((i = 0; i < 60; i++)); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] ||
  skip "the node is not idle after 30 s: $(sinfo 2>&1 | tail -1); $(tail -2 "$sl/log/slurmctld.log")"
echo "slurm: one node (localhost), slurmctld on port $port"

# a task's state as squeue shows it: state JOB_TASK
state() { squeue -h -t all -j "$1" -o %T 2>/dev/null || true; }
# wait_state JOB_TASK STATE [SECONDS]
wait_state() {
  local i
  for ((i = 0; i < ${3:-60} * 2; i++)); do
    [ "$(state "$1")" = "$2" ] && return 0
    sleep 0.5
  done
  return 1
}
# the array's job id from a run's slurm.runs (the last submission)
array_of() { tail -1 "$1/slurm.runs" 2>/dev/null | cut -d ' ' -f 1; }

for g in layered_30 layered_60 chain_train_12 unet_train_3; do cp "$root/examples/$g.json" .; done
# graphs on which no solve ends with a proof for minutes
"$REMAT" gen layered --nodes 150 --seed 2 -q -o long2.json
"$REMAT" gen layered --nodes 150 --seed 5 -q -o long5.json
cat >jobs.txt <<'EOF'
layered_30.json
chain_train_12.json
unet_train_3.json
layered_60.json
# killed by the array's Slurm time limit (--slurm-opt --time=1: a minute)
long2.json 0.8 --time-limit 600
# cancelled with scancel once it runs
long5.json 0.8 --time-limit 600
EOF

# ------------------------------------------- Slurm against a local batch
t_case "a batch through Slurm matches a local batch"
"$REMAT" batch jobs.txt --budget 0.9,0.8 --time-limit 20 --threads 1 --seed 1 \
  -j 2 --slurm --slurm-opt "--time=1" -o run >out.txt 2>err.txt &
pid=$!
for ((i = 0; i < 120; i++)); do [ -s run.jobs/slurm.runs ] && break; sleep 0.5; done
job=$(array_of run.jobs)
[ -n "$job" ] || fail "no submission: $(cat err.txt)"
cancel_task=$(grep -n '^long5_' run.jobs/slurm-1.tasks | cut -d : -f 1)
wait_state "${job}_$cancel_task" RUNNING 120 || fail "task $cancel_task not running: $(squeue -t all -r)"
scancel "${job}_$cancel_task"
set +e
wait $pid
rc=$?
set -e
pid=
[ "$rc" = 4 ] || fail "exit $rc, expected 4 (a timeout and a crash): $(cat err.txt)"
grep -q "submitted Slurm array $job: 10 tasks" err.txt || fail "no submission line: $(cat err.txt)"
[ "$(grep -c 'remat: \[[0-9]*/10\].*(Slurm task' err.txt)" = 10 ] || fail "progress lines: $(cat err.txt)"
[ "$(wc -l <run.jsonl)" = 10 ] || fail "$(wc -l <run.jsonl) records, expected 10"
# (stopped by Slurm's SIGTERM, the solve keeps its best schedule: a local
# batch records a job that overran its limit in the same way)
# (the task's script waits for the solve to stop: the record holds its
# schedule, found in the first second, and the script's exit status)
jq -se 'map(select(.graph == "long2.json"))[0] | .status == "feasible" and
  (.reason | test("^Slurm: TIMEOUT .*: stopped, best schedule kept$")) and .slurm_task != null' run.jsonl >/dev/null ||
  fail "the timed-out task: $(grep long2 run.jsonl)"
ls run.jobs/long2_*.exit >/dev/null 2>&1 || fail "no exit status of the timed-out task: $(ls run.jobs)"
jq -se 'map(select(.graph == "long5.json"))[0] |
  .status == "crashed" and .reason == "Slurm: CANCELLED (not by remat batch)"' run.jsonl >/dev/null ||
  fail "the cancelled task: $(grep long5 run.jsonl)"
grep -q '^- `long5.json --budget 0.8 .*`: crashed: Slurm: CANCELLED' run.md || fail "summary: $(cat run.md)"
# the same jobs on this machine
grep -v '^long' jobs.txt >local.txt
run "$REMAT" batch local.txt --budget 0.9,0.8 --time-limit 20 --threads 1 --seed 1 -j 2 -q -o local
[ "$rc" = 3 ] || fail "local batch: exit $rc ($err)"
view='map(select(.graph | startswith("long") | not) | {id, status, tdi: .tdi_percent}) | sort_by(.id)'
jq -s "$view" local.jsonl >local.view
jq -s "$view" run.jsonl >slurm.view
[ "$(jq length local.view)" = 8 ] || fail "local records: $(cat local.jsonl)"
diff local.view slurm.view >/dev/null || fail "Slurm and local records differ: $(diff local.view slurm.view)"
jq -se 'map(select(.graph == "layered_60.json" and .budget == "0.8"))[0].status == "infeasible"' run.jsonl >/dev/null ||
  fail "layered_60 at 0.8: $(grep layered_60 run.jsonl)"
# Slurm's own record of the tasks: the job-completion log
log=$sl/log/jobcomp.txt
[ "$(grep -c "ArrayJobId=$job " "$log")" = 10 ] || fail "jobcomp: $(grep -c "ArrayJobId=$job " "$log") lines: $(cat "$log")"
t2=$(grep -n '^long2_' run.jobs/slurm-1.tasks | cut -d : -f 1)
grep -q "JobState=TIMEOUT .*ArrayJobId=$job ArrayTaskId=$t2 " "$log" || fail "jobcomp: no TIMEOUT for task $t2"
grep -q "JobState=CANCELLED .*ArrayJobId=$job ArrayTaskId=$cancel_task " "$log" || fail "jobcomp: no CANCELLED"
[ "$(grep "ArrayJobId=$job " "$log" | grep -c 'JobState=COMPLETED')" = 7 ] || fail "jobcomp: COMPLETED tasks"
grep -q "JobState=FAILED .*ArrayJobId=$job .*ExitCode=3:0" "$log" || fail "jobcomp: the infeasible job's exit code"

# ------------------------------------------------------------ --merge
t_case "--merge of the Slurm run"
run "$REMAT" batch --merge run.jobs -o merged
[ "$rc" = 4 ] || fail "merge: exit $rc ($err)"
[ "$(sort run.csv)" = "$(sort merged.csv)" ] || fail "merge CSV differs: $(diff <(sort run.csv) <(sort merged.csv))"

# ------------------------------------------------------------- Ctrl-C
t_case "Ctrl-C cancels the array"
t_interrupt 4 "$REMAT" batch long5.json --budget 0.9 --time-limit 300 --slurm -o intr
[ "$rc" = 130 ] || fail "exit $rc, expected 130 ($err)"
job=$(array_of intr.jobs)
[ -f "intr.jobs/slurm-$job.cancelled" ] || fail "no cancel mark"
jq -se 'length == 1 and .[0].status == "interrupted"' intr.jsonl >/dev/null || fail "records: $(cat intr.jsonl)"
[ "$(state "${job}_1")" = CANCELLED ] || fail "task: $(state "${job}_1")"

# ------------------------------- --no-wait, a requeue, --cancel, --resume
t_case "--no-wait, requeue, --cancel RUN, --resume"
printf 'layered_30.json 0.9\nlong2.json 0.9 --time-limit 300\n' >two.txt
run "$REMAT" batch two.txt --time-limit 20 --slurm --no-wait -o two
[ "$rc" = 0 ] && [ "$out" = "$(array_of two.jobs)" ] || fail "--no-wait: exit $rc, '$out' ($err)"
job=$out
wait_state "${job}_2" RUNNING 120 || fail "task 2 not running"
# Slurm requeues the running task; it runs again from the start
scontrol requeue "${job}_2" || fail "scontrol requeue"
wait_state "${job}_2" PENDING 30 || fail "task 2 not requeued: $(state "${job}_2")"
scontrol update JobId="${job}_2" StartTime=now || true
wait_state "${job}_2" RUNNING 60 || fail "task 2 did not run again: $(state "${job}_2")"
wait_state "${job}_1" COMPLETED 60 || fail "task 1: $(state "${job}_1")"
sleep 2
run "$REMAT" batch --cancel two
[ "$rc" = 0 ] || fail "--cancel: exit $rc ($err)"
[ "$(wc -l <two.jsonl)" = 2 ] || fail "after --cancel: $(cat two.jsonl)"
jq -se 'map({(.graph): .status}) | add == {"layered_30.json": "optimal", "long2.json": "interrupted"}' two.jsonl >/dev/null ||
  fail "after --cancel: $(cat two.jsonl)"
run "$REMAT" batch two.txt --time-limit 2 --slurm --resume -o two
[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "--resume: exit $rc ($err)"
grep -q "submitted Slurm array [0-9]*: 1 task " <<<"$err" || fail "--resume resubmitted: $err"
[ "$(wc -l <two.jsonl)" = 3 ] || fail "after --resume: $(cat two.jsonl)"
jq -se '[.[] | .slurm_task] | unique | length == 3' two.jsonl >/dev/null || fail "slurm tasks: $(cat two.jsonl)"
! grep -q "interrupted\|pending" two.csv || fail "resumed summary: $(cat two.csv)"

t_done
