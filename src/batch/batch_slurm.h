/* batch_slurm.h -- a batch submitted to Slurm: each submission one array
 * job (sbatch --array=1-K[%N]) whose task i runs job i's "remat solve"
 * into its result file, the run's record of its submissions, and scancel.
 *
 * Files in the job directory (JOBDIR, as for a local batch):
 *   slurm.runs            one line per submission: "JOBID TASKLIST"
 *   slurm-K.tasks         submission K's tasks: line i is array task i,
 *                         "NAME<TAB>COMMAND" (COMMAND: the job's solve)
 *   slurm-K.sh            the array's script: runs line
 *                         $SLURM_ARRAY_TASK_ID, its output into NAME.log,
 *                         then "STATUS SECONDS" into NAME.exit
 *   slurm-JOBID.cancelled written before remat's own scancel, so that
 *                         the tasks it stopped become "interrupted"
 *   slurm-JOBID_I.out     the script's own output (sbatch --output)
 * Before a submission the jobs' NAME.json, NAME.log and NAME.exit are
 * removed (a task removes them again when Slurm requeues it), so that
 * what is there belongs to the latest run of the job.
 *
 * Each task asks for the job's time limit (twice with --lp-bound) plus
 * BATCH_GRACE and BATCH_KILL (batch_pool.h), rounded up to minutes,
 * the largest over the array's jobs (Slurm's --time is per array); and
 * for --cpus-per-task the jobs' largest --threads (none when it is 0:
 * all cores).  --slurm-opt's words come last, so they override both. */
#ifndef REMAT_BATCH_SLURM_H
#define REMAT_BATCH_SLURM_H

#include <stddef.h>

#include "batch_jobs.h"

/* One submission as slurm.runs and its task list record it. */
typedef struct bsl_sub {
  char job[32];  /* the array's job id */
  char **name;   /* task i runs job name[i - 1] */
  int n;
  int cancelled; /* slurm-JOBID.cancelled exists */
  int open;      /* its tasks that were not final at the last look
                    (batch_slurm_rec.h) */
} bsl_sub;

typedef struct bsl_run {
  char *jobdir;
  bsl_sub *sub; /* oldest first */
  int nsub;
} bsl_run;

/* Read JOBDIR/slurm.runs and the task lists it names (a directory without
 * slurm.runs has no submission: nsub 0).  Returns 0, or REMAT_EUSAGE with
 * a message. */
int bsl_run_load(const char *jobdir, bsl_run *run, char *err, size_t errlen);
void bsl_run_free(bsl_run *run);

/* What to submit. */
typedef struct bsl_submit {
  const batch_list *jobs;
  const int *todo; /* indices into jobs->job */
  int ntodo;
  const char *jobdir;
  const char *exe;  /* the remat binary the tasks run (an absolute path) */
  int throttle;     /* at most this many tasks at once (%N); 0: no limit */
  const char *opts; /* --slurm-opt: more sbatch options, or NULL */
} bsl_submit;

/* The sbatch command of submission `script` (NULL-terminated; free with
 * batch_words_free(argv, *argc)).  Returns NULL with a message when
 * opts does not split into words. */
char **bsl_sbatch_argv(const bsl_submit *s, const char *script, int *argc,
                       char *err, size_t errlen);

/* Write the task list and the script, run sbatch, add the submission to
 * slurm.runs; job receives the array's job id.  Returns 0, or
 * REMAT_EINTERNAL with a message (sbatch's own when it refused). */
int bsl_submit_array(const bsl_submit *s, char *job, size_t joblen, char *err,
                     size_t errlen);

/* Mark submission sub as cancelled by remat, then scancel it.  Returns 0,
 * or REMAT_EINTERNAL with scancel's message. */
int bsl_cancel(const char *jobdir, bsl_sub *sub, char *err, size_t errlen);

#endif
