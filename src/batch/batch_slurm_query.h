/* batch_slurm_query.h -- what Slurm says of an array's tasks, and running
 * Slurm's commands (sbatch, squeue, sacct, scontrol, scancel) with their
 * output captured.
 *
 * A task's state comes from the first source that knows it:
 *   1. squeue --states=all: every task the controller still holds,
 *      pending, running and, for MinJobAge seconds (300 by default),
 *      finished;
 *   2. sacct, where accounting runs (slurmdbd);
 *   3. the job-completion log, where JobCompType is jobcomp/filetxt
 *      (its lines carry ArrayJobId= and ArrayTaskId=; the last line of a
 *      task wins, so a requeued task's earlier run does not count).
 * A task none of them knows is "" (unknown). */
#ifndef REMAT_BATCH_SLURM_QUERY_H
#define REMAT_BATCH_SLURM_QUERY_H

#include <stddef.h>

/* One array task as Slurm sees it ("" where unknown). */
typedef struct bsq_task {
  char state[32]; /* PENDING, RUNNING, COMPLETED, TIMEOUT, CANCELLED, ... */
  char exit[16];  /* "CODE:SIGNAL" as Slurm writes it */
  char from[16];  /* which source: "squeue", "sacct" or "jobcomp" */
} bsq_task;

/* The tasks 1..n of one array job. */
typedef struct bsq_array {
  char job[32];   /* the array's job id, as sbatch printed it */
  int n;
  bsq_task *task; /* task i is task[i - 1] */
  int gone;       /* squeue answered that it knows no such job (rather
                     than failing to ask the controller) */
} bsq_array;

void bsq_array_init(bsq_array *a, const char *job, int n);
void bsq_array_free(bsq_array *a);

/* Fill every task's state from the sources above (each consulted only for
 * the tasks the ones before it do not know).  Returns the number of tasks
 * still unknown. */
int bsq_query(bsq_array *a);

/* A state in which the task will not run again: COMPLETED, FAILED,
 * TIMEOUT, CANCELLED, NODE_FAIL, PREEMPTED, OUT_OF_MEMORY, BOOT_FAIL,
 * DEADLINE.  (A requeued task is PENDING again in squeue.) */
int bsq_final(const char *state);

/* Run argv (argv[0] searched in PATH) with stdin from /dev/null, its
 * stdout into *out and its stderr into *err (each may be NULL: dropped;
 * allocated, NUL-terminated).  Returns its exit code, 127 when it cannot
 * run (*err then says why), 128 + N when killed by signal N, or 124 when
 * it ran past `seconds` (then stopped). */
int bsq_run(char *const *argv, double seconds, char **out, char **err);

#endif
