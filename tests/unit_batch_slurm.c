/* unit_batch_slurm.c -- remat batch --slurm without a cluster: the sbatch
 * command (array throttle, time and CPUs per task, --slurm-opt last),
 * Slurm's view of an array's tasks from stand-in squeue, sacct and
 * scontrol scripts and a job-completion log (which source wins, a purged
 * array), a task's record from its Slurm state and the files it left,
 * and the run's files (slurm.runs, the task lists, the cancel marks).
 * tests/e2e_slurm.sh runs the same against real daemons. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNIT_TMPDIR "unit_batch_slurm"
#include "testutil.h"

#include "batch.h"
#include "remat.h"
#include "util.h"

/* An executable script NAME in the scratch directory. */
static void write_script(const char *name, const char *body) {
  char *p = tpath(name);
  write_text(p, body);
  assert_int_equal(chmod(p, 0755), 0);
  free(p);
}

/* -------------------------------------------------------------- sbatch */

static void test_sbatch_argv(void **state) {
  (void)state;
  batch_list L = {0};
  char *lp[] = {"--lp-bound"};
  batch_add_job(&L, "a.json", "0.9", NULL, 0, 100, 2, NULL);
  batch_add_job(&L, "b.json", "0.9", lp, 1, 50, 1, NULL);
  int todo[] = {0, 1}, argc;
  char err[256];
  bsl_submit s = {&L, todo, 2, "run.jobs", "/bin/remat", 3,
                  "--partition=big --time=5"};
  char **v = bsl_sbatch_argv(&s, "run.jobs/slurm-1.sh", &argc, err, sizeof err);
  assert_non_null(v);
  char *line = batch_join_words(v, argc);
  /* max(100, 2 x 50) + 30 + 10 s = 140 s: 3 minutes; 2 CPUs */
  assert_string_equal(line,
                      "sbatch --parsable --job-name=remat-batch --array=1-2%3 "
                      "--output=run.jobs/slurm-%A_%a.out --time=3 "
                      "--cpus-per-task=2 --partition=big --time=5 "
                      "run.jobs/slurm-1.sh");
  free(line);
  batch_words_free(v, argc);
  /* no throttle; --threads 0 (all cores) asks for no CPU count */
  L.job[0].threads = 0;
  s.throttle = 0;
  s.opts = "'unclosed";
  assert_null(bsl_sbatch_argv(&s, "x.sh", &argc, err, sizeof err));
  s.opts = NULL;
  v = bsl_sbatch_argv(&s, "x.sh", &argc, err, sizeof err);
  line = batch_join_words(v, argc);
  assert_non_null(strstr(line, "--array=1-2 "));
  assert_null(strstr(line, "--cpus-per-task"));
  free(line);
  batch_words_free(v, argc);
  batch_list_free(&L);
}

/* ------------------------------------------------------------- sources */

/* Stand-ins for Slurm's commands, first in PATH: squeue knows tasks 1 and
 * 2 of array 7 (and fails for any other job: "Invalid job id"), sacct has
 * no accounting, scontrol names a jobcomp/filetxt log holding tasks 2 (an
 * older line: squeue wins) and 3 (run twice: the last line wins). */
static void fake_slurm(void) {
  char *log = tpath("jobcomp.txt"), body[1024];
  write_script("squeue", "#!/bin/sh\n"
                         "case \"$*\" in *' 7 '*) printf '1|COMPLETED\\n2|RUNNING\\n' ;;\n"
                         "*) echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1 ;; esac\n");
  write_script("sacct", "#!/bin/sh\necho 'Slurm accounting storage is disabled' >&2\nexit 1\n");
  snprintf(body, sizeof body,
           "#!/bin/sh\nprintf 'JobCompType             = jobcomp/filetxt\\n"
           "JobCompLoc              = %s\\n'\n", log);
  write_script("scontrol", body);
  write_text(log,
             "JobId=9 JobState=FAILED ArrayJobId=7 ArrayTaskId=2 ExitCode=1:0\n"
             "JobId=10 JobState=NODE_FAIL ArrayJobId=7 ArrayTaskId=3 ExitCode=0:0\n"
             "JobId=11 JobState=TIMEOUT ArrayJobId=77 ArrayTaskId=3 ExitCode=0:0\n"
             "JobId=10 JobState=TIMEOUT ArrayJobId=7 ArrayTaskId=3 ExitCode=0:15\n");
  const char *path = getenv("PATH");
  util_buf b = {0};
  util_buf_printf(&b, "%s:%s", tmpdir, path ? path : "/usr/bin:/bin");
  setenv("PATH", b.s, 1);
  util_buf_free(&b);
  free(log);
}

static void test_query(void **state) {
  (void)state;
  fake_slurm();
  bsq_array a;
  bsq_array_init(&a, "7", 4);
  assert_int_equal(bsq_query(&a), 1); /* task 4: nobody knows it */
  assert_string_equal(a.task[0].state, "COMPLETED");
  assert_string_equal(a.task[1].state, "RUNNING");
  assert_string_equal(a.task[1].from, "squeue");
  assert_string_equal(a.task[2].state, "TIMEOUT");
  assert_string_equal(a.task[2].exit, "0:15");
  assert_string_equal(a.task[2].from, "jobcomp");
  assert_string_equal(a.task[3].state, "");
  assert_false(a.gone);
  bsq_array_free(&a);
  /* an array the controller no longer holds: only the log knows it */
  bsq_array_init(&a, "77", 3);
  assert_int_equal(bsq_query(&a), 2);
  assert_true(a.gone);
  assert_string_equal(a.task[2].state, "TIMEOUT");
  bsq_array_free(&a);
  assert_true(bsq_final("OUT_OF_MEMORY"));
  assert_false(bsq_final("COMPLETING"));
  assert_false(bsq_final("PENDING"));
}

/* ------------------------------------------------------------- records */

static char *write_result(const char *name, const char *graph) {
  char *p = tpath(name), text[1024];
  snprintf(text, sizeof text,
           "{\"graph_file\": \"%s\", \"budget\": 16, \"status\": \"optimal\", "
           "\"peak\": 16, \"duration\": 17, \"sequence\": [\"in\", \"a\", "
           "\"b\", \"c\", \"d\", \"out\"], \"time_s\": 1}",
           graph);
  write_text(p, text);
  return p;
}

/* Job j's files: result (1 valid, 2 truncated), log, exit status. */
static void job_files(const char *j, int result, const char *log,
                      const char *exit_status, const char *graph) {
  static const char *const ext[] = {".json", ".log", ".exit"};
  char name[64];
  for (int k = 0; k < 3; k++) {
    snprintf(name, sizeof name, "%s%s", j, ext[k]);
    char *p = tpath(name);
    unlink(p);
    free(p);
  }
  snprintf(name, sizeof name, "%s.json", j);
  if (result == 1) free(write_result(name, graph));
  char *p = tpath(name);
  if (result == 2) write_text(p, "{\"graph_file\": \"g.json\", \"bud");
  free(p);
  snprintf(name, sizeof name, "%s.log", j);
  p = tpath(name);
  if (log) write_text(p, log);
  free(p);
  snprintf(name, sizeof name, "%s.exit", j);
  p = tpath(name);
  if (exit_status) write_text(p, exit_status);
  free(p);
}

static void test_task_record(void **state) {
  (void)state;
  char *g = tpath("d.json");
  write_text(g, DIAMOND_JSON);
  struct {
    const char *state;
    int result;
    const char *log, *exit_status;
    int cancelled, made;
    const char *status, *reason;
  } cases[] = {
      {"COMPLETED", 1, "", "0 2", 0, 1, "optimal", NULL},
      {"COMPLETED", 0, "", "0 2", 0, 1, "error", "j.json"},
      {"COMPLETED", 2, "", "0 2", 0, 1, "error", "j.json:1:"},
      {"FAILED", 0, "remat solve: g.json: bad\n", "2 0", 0, 1, "failed", "g.json: bad"},
      {"FAILED", 0, "sh: remat: not found\n", "127 0", 0, 1, "failed",
       "Slurm: FAILED (exit code 127:0)"},
      {"FAILED", 0, NULL, NULL, 0, 1, "failed", "no exit status in"},
      {"TIMEOUT", 0, "", NULL, 0, 1, "timeout", "Slurm: TIMEOUT (the task's time limit) without"},
      {"TIMEOUT", 1, "", NULL, 0, 1, "optimal", "Slurm: TIMEOUT (the task's time limit): stopped"},
      {"CANCELLED", 1, "", NULL, 1, 1, "interrupted", "redone on --resume"},
      {"CANCELLED", 0, NULL, NULL, 1, 0, NULL, NULL},
      {"CANCELLED", 0, "", NULL, 0, 1, "crashed", "Slurm: CANCELLED (not by remat batch)"},
      {"OUT_OF_MEMORY", 0, "", NULL, 0, 1, "crashed", "Slurm: OUT_OF_MEMORY"},
      {"NODE_FAIL", 0, "", NULL, 0, 1, "crashed", "Slurm: NODE_FAIL"},
      {"RUNNING", 0, "", NULL, 0, 0, NULL, NULL},
      {"", 1, "", "0 2", 0, 1, "optimal", NULL},
      {"", 0, NULL, NULL, 0, 1, "error", "no result file"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    job_files("j", cases[i].result, cases[i].log, cases[i].exit_status, g);
    bsq_task t = {{0}, {0}, {0}};
    snprintf(t.state, sizeof t.state, "%s", cases[i].state);
    snprintf(t.exit, sizeof t.exit, "%s", cases[i].exit_status ? "127:0" : "");
    batch_rec r;
    batch_rec_init(&r);
    batch_rec_set(&r.graph, g);
    int made = bsr_task_record(&r, &t, tmpdir, "j", "7_1", cases[i].cancelled);
    assert_int_equal(made, cases[i].made);
    if (made) {
      assert_string_equal(r.status, cases[i].status);
      assert_string_equal(r.slurm_task, "7_1");
      if (cases[i].reason) assert_non_null(strstr(r.reason, cases[i].reason));
    }
    batch_rec_free(&r);
  }
  free(g);
}

/* ---------------------------------------------------------- run files */

static void test_run_files(void **state) {
  (void)state;
  char *dir = tpath("run.jobs"), *p;
  assert_int_equal(mkdir(dir, 0755), 0);
  bsl_run run;
  char err[256];
  assert_int_equal(bsl_run_load(dir, &run, err, sizeof err), 0);
  assert_int_equal(run.nsub, 0); /* a local run */
  bsl_run_free(&run);
  static const char *files[][2] = {
      {"run.jobs/slurm.runs", "12 slurm-1.tasks\n15 slurm-2.tasks\n"},
      {"run.jobs/slurm-1.tasks",
       "a_0.9_1\tremat solve a.json\nb_0.9_2\tremat solve b.json\n"},
      {"run.jobs/slurm-2.tasks", "b_0.9_2\tremat solve b.json\n"},
      {"run.jobs/slurm-15.cancelled", ""},
  };
  for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
    p = tpath(files[k][0]);
    write_text(p, files[k][1]);
    free(p);
  }
  assert_int_equal(bsl_run_load(dir, &run, err, sizeof err), 0);
  assert_int_equal(run.nsub, 2);
  assert_string_equal(run.sub[0].job, "12");
  assert_int_equal(run.sub[0].n, 2);
  assert_string_equal(run.sub[0].name[1], "b_0.9_2");
  assert_false(run.sub[0].cancelled);
  assert_true(run.sub[1].cancelled);
  bsl_run_free(&run);
  /* a task list that is gone */
  p = tpath("run.jobs/slurm-2.tasks");
  unlink(p);
  free(p);
  assert_int_equal(bsl_run_load(dir, &run, err, sizeof err), REMAT_EUSAGE);
  assert_non_null(strstr(err, "slurm-2.tasks"));
  bsl_run_free(&run);
  free(dir);
}

UNIT_TESTS_WITH(tmpdir_setup, tmpdir_teardown, test_sbatch_argv, test_query,
                test_task_record, test_run_files)
