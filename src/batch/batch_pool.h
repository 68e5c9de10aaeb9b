/* batch_pool.h -- running a batch's jobs: each one "remat solve ... -q -o
 * JOBDIR/NAME.json" exec'd as a child process (child_spawn: its own
 * process group, its output in JOBDIR/NAME.log, SIGTERM when the batch
 * dies), N at a time, so that a crash or a hang in one job cannot take the
 * batch down.  A job still running BATCH_GRACE seconds past its time
 * limit, or every job on SIGINT/SIGTERM, is stopped with child.h's policy
 * (SIGTERM to its process group, SIGKILL BATCH_KILL seconds later).  Each
 * job's record (batch_check.h) is appended to the JSONL results file as
 * it ends; progress lines on stderr. */
#ifndef REMAT_BATCH_POOL_H
#define REMAT_BATCH_POOL_H

#include "batch_jobs.h"
#include "batch_records.h"

#define BATCH_GRACE 30.0 /* seconds past its time limit before a job is stopped */
#define BATCH_KILL 10.0  /* seconds after SIGTERM before SIGKILL */

typedef struct batch_pool_params {
  const batch_list *jobs;
  const int *todo;      /* indices into jobs->job of the jobs to run */
  int ntodo;
  int slots;            /* jobs at a time (at least 1) */
  const char *exe;      /* the remat binary ("/proc/self/exe") */
  const char *results;  /* the JSONL file the records are appended to */
  const char *jobdir;   /* the jobs' files (batch_job_file) */
  const char *cmd;      /* the command's name in messages ("batch") */
  int quiet;            /* no progress lines */
  int skipped, failed;  /* jobs an earlier run finished, and how many of
                           them failed (--resume): counted in progress */
} batch_pool_params;

/* Everything 0 or NULL, but exe "/proc/self/exe", slots 1, cmd "batch". */
void batch_pool_params_init(batch_pool_params *p);

/* Run the jobs; every record also goes into R.  Returns 0, 130 when
 * interrupted (SIGINT or SIGTERM: the running jobs are stopped and
 * recorded as interrupted), or 4 when a job could not be started (the
 * running ones are waited for). */
int batch_pool_run(const batch_pool_params *p, batch_recs *R);

#endif
