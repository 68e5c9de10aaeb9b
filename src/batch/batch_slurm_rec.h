/* batch_slurm_rec.h -- the records of a batch run through Slurm
 * (batch_slurm.h): each array task's record from what Slurm says of it
 * (batch_slurm_query.h) and the files it left, at most one per task, and
 * the wait for a run's arrays.
 *
 * A task's status:
 *   - COMPLETED or FAILED (the script ended by itself): as in a local
 *     batch, from the solve's exit status (NAME.exit) and its result file
 *     (batch_classify: a missing or truncated result file is an "error"
 *     naming it); an exit status that is not remat's (0, 2, 3, 4: the
 *     solve could not run) is "failed" with Slurm's state;
 *   - TIMEOUT, DEADLINE: "timeout", or the result's status when it holds
 *     a schedule (the reason says Slurm stopped it);
 *   - CANCELLED by remat (Ctrl-C, --cancel): "interrupted" (redone on
 *     --resume), and no record at all for a task that never started;
 *   - CANCELLED by anyone else, NODE_FAIL, BOOT_FAIL, PREEMPTED (without
 *     requeue), OUT_OF_MEMORY: "crashed", the reason "Slurm: STATE";
 *   - a task no source knows any more: from its exit status as above,
 *     else "error" naming the missing result file.
 * Only the latest submission of each job counts (its files are that
 * run's), and a task already recorded (the record's "slurm_task") is not
 * recorded again: a task Slurm requeues is recorded once, when it ends
 * for good. */
#ifndef REMAT_BATCH_SLURM_REC_H
#define REMAT_BATCH_SLURM_REC_H

#include "batch_records.h"
#include "batch_slurm.h"
#include "batch_slurm_query.h"
#include "progress.h"

/* The record of a task: r holds the job's fields (from its side file);
 * t is Slurm's view of it (state "" when nothing knows the task);
 * cancelled: remat cancelled its array.  Returns 1 with r's status,
 * reason, numbers and slurm_task set, or 0 when there is no record to
 * make (not final, or cancelled before it started). */
int bsr_task_record(batch_rec *r, const bsq_task *t, const char *jobdir,
                    const char *name, const char *slurm_task, int cancelled);

typedef struct bsr_params {
  const char *results; /* JSONL the records are appended to (under a
                          lock, once per task); NULL: into R only */
  const char *cmd;     /* the command's name in messages */
  int quiet;           /* no progress lines */
  int pending_rows;    /* tasks not final go into R as "pending" (merge) */
} bsr_params;

/* How the latest tasks of the run's jobs stand. */
typedef struct bsr_count {
  int jobs, done, failed, running, queued;
} bsr_count;

/* One look at the run: every final task that has no record yet gets one
 * (appended to p->results and added to R); sub->open is set for each
 * submission.  Progress lines for the new records go to pr (may be
 * NULL). */
void bsr_collect(bsl_run *run, const bsr_params *p, batch_recs *R,
                 bsr_count *c, prog *pr);

/* Look again and again (every second at first, then less often, at most
 * every 15 s) until no task is queued or running, with a live status
 * line.  Ctrl-C (SIGINT, SIGTERM) cancels the open submissions
 * (bsl_cancel) and the wait goes on until Slurm has stopped their tasks.
 * Returns 0, 130 when interrupted, or 4 when scancel failed. */
int bsr_wait(bsl_run *run, const bsr_params *p, batch_recs *R);

#endif
