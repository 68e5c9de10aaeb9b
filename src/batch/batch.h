/* batch.h -- batch solving: many "remat solve" jobs, each a child
 * process, their records in a JSONL file and their summaries.  One
 * concern per module:
 *
 *   batch_jobs.h     the job list: inputs, manifests, budgets, options,
 *                    job ids, file names and solve commands
 *   batch_records.h  records, statuses, the JSONL results file (append,
 *                    reload, resume) and the batch's exit code
 *   batch_check.h    a job's result file re-checked into a record, and
 *                    how a job ended
 *   batch_summary.h  the CSV and Markdown summaries
 *   batch_pool.h     running the jobs as child processes, N at a time
 *   batch_merge.h    --merge: records from per-job result files
 *   batch_slurm.h    --slurm: submissions as Slurm arrays, scancel
 *   batch_slurm_query.h  what Slurm says of an array's tasks
 *   batch_slurm_rec.h    a Slurm run's records, the wait for its arrays
 *
 * The command (options, files, --emit-jobs, --resume) is cmd_batch.c. */
#ifndef REMAT_BATCH_H
#define REMAT_BATCH_H

#include "batch_check.h"
#include "batch_jobs.h"
#include "batch_merge.h"
#include "batch_pool.h"
#include "batch_records.h"
#include "batch_slurm.h"
#include "batch_slurm_query.h"
#include "batch_slurm_rec.h"
#include "batch_summary.h"

#endif
