/* unit_batch.c -- batch jobs: manifest parsing, options, job ids and file
 * names, inputs, the JSONL results file and the resume rule, re-checked
 * result files, how a job ended, exit codes, the CSV and Markdown
 * summaries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNIT_TMPDIR "unit_batch"
#include "testutil.h"

#include "batch.h"
#include "remat.h"
#include "sim.h"
#include "util.h"

static batch_defaults defaults_with(const char *budgets) {
  batch_defaults d;
  char err[256];
  batch_defaults_init(&d);
  assert_int_equal(batch_set_budgets(&d, budgets, err, sizeof err), 0);
  return d;
}

/* ------------------------------------------------------------ words */

static void test_split_words(void **state) {
  (void)state;
  char **w;
  int n = batch_split_words("  g.json 0.8 --copies 3 # a comment", &w);
  assert_int_equal(n, 4);
  assert_string_equal(w[0], "g.json");
  assert_string_equal(w[3], "3");
  batch_words_free(w, n);
  n = batch_split_words("'my graph.json' \"0.9\" x#y", &w);
  assert_int_equal(n, 3);
  assert_string_equal(w[0], "my graph.json");
  assert_string_equal(w[1], "0.9");
  assert_string_equal(w[2], "x#y"); /* '#' only starts a word's comment */
  batch_words_free(w, n);
  assert_int_equal(batch_split_words("   # only a comment", &w), 0);
  batch_words_free(w, 0);
  assert_int_equal(batch_split_words("", &w), 0);
  batch_words_free(w, 0);
  assert_int_equal(batch_split_words("g.json 'open", &w), -1);
  assert_null(w);
}

/* ---------------------------------------------------------- options */

static void test_options(void **state) {
  (void)state;
  char *words[] = {"-c", "3", "--time-limit=20", "--threads", "2",
                   "--seed", "7", "--no-heuristic", "--copies", "map.json",
                   "--lns", "none"};
  char **opt = NULL, err[256];
  int nopt = 0, threads = 1;
  double tl = 60;
  assert_int_equal(batch_parse_options(words, 12, "dir", &opt, &nopt, &tl,
                                       &threads, err, sizeof err),
                   0);
  assert_true(tl == 20);
  assert_int_equal(threads, 2);
  /* the later --copies replaced the earlier; the file is under dir/ */
  assert_int_equal(nopt, 7);
  assert_string_equal(opt[0], "--seed");
  assert_string_equal(opt[1], "7");
  assert_string_equal(opt[2], "--no-heuristic");
  assert_string_equal(opt[3], "--copies");
  assert_string_equal(opt[4], "dir/map.json");
  assert_string_equal(opt[5], "--lns");
  assert_string_equal(opt[6], "none");
  batch_words_free(opt, nopt);

  struct {
    char *w[2];
    int n;
    const char *msg;
  } bad[] = {
      {{"--jobs", "2"}, 2, "unknown or batch-level option '--jobs'"},
      {{"--time-limit", "soon"}, 2, "--time-limit must be a number in (0, 1e9], not 'soon'"},
      {{"--lns", "big"}, 2, "--lns must be auto, random or none, not 'big'"},
      {{"--copies", "0"}, 2, "--copies must be an integer in [1, 1000000] or a file, not '0'"},
      {{"--seed"}, 1, "--seed needs a value"},
      {{"--no-heuristic=1"}, 1, "--no-heuristic takes no value"},
      {{"stray"}, 1, "unexpected word 'stray'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    opt = NULL;
    nopt = 0;
    assert_int_equal(batch_parse_options(bad[i].w, bad[i].n, NULL, &opt, &nopt,
                                         &tl, &threads, err, sizeof err),
                     REMAT_EUSAGE);
    assert_non_null(strstr(err, bad[i].msg));
    batch_words_free(opt, nopt);
  }
}

/* ------------------------------------------------------------- ids */

static void test_job_ids(void **state) {
  (void)state;
  char *opt[] = {"--copies", "3", "--fzn-solver", "fzn gecode"};
  char *id = batch_job_id("g/vgg.json", "0.8", opt, 4);
  assert_string_equal(id, "g/vgg.json --budget 0.8 --copies 3 --fzn-solver 'fzn gecode'");
  char *id2 = batch_job_id("g/vgg.json", "0.8", opt, 4);
  assert_string_equal(id, id2); /* stable */
  char *name = batch_job_name("g/vgg.json", "0.8", id);
  assert_int_equal(strncmp(name, "vgg_0.8_", 8), 0);
  assert_int_equal(strlen(name), 8 + 8);
  char *name2 = batch_job_name("g/vgg.json", "0.8", "g/vgg.json --budget 0.8");
  assert_string_not_equal(name, name2); /* the options change the name */
  char *pct = batch_job_name("a b.json", "90%", "x");
  assert_int_equal(strncmp(pct, "a_b_90__", 8), 0);
  char *q = batch_shell_quote("it's");
  assert_string_equal(q, "'it'\\''s'");
  free(id);
  free(id2);
  free(name);
  free(name2);
  free(pct);
  free(q);
}

static void test_job_argv(void **state) {
  (void)state;
  batch_list L = {0};
  char *opt[] = {"--copies", "3"};
  assert_int_equal(batch_add_job(&L, "g.json", "0.9", opt, 2, 20, 1, NULL), 1);
  assert_int_equal(batch_add_job(&L, "g.json", "0.9", opt, 2, 30, 2, NULL), 0);
  assert_int_equal(L.n, 1);
  char *cmd = batch_job_command(&L.job[0], "/bin/remat", "out/j.json");
  assert_string_equal(cmd, "/bin/remat solve g.json --budget 0.9 --time-limit 20 "
                           "--threads 1 -q -o out/j.json --copies 3");
  free(cmd);
  /* the side file round-trips the job's identity */
  char *info = tpath("j.job");
  char err[256];
  assert_int_equal(batch_job_write_info(&L.job[0], info, err, sizeof err), 0);
  batch_rec r;
  batch_rec_init(&r);
  assert_int_equal(batch_job_read_info(info, &r), 0);
  assert_string_equal(r.id, "g.json --budget 0.9 --copies 3");
  assert_string_equal(r.budget, "0.9");
  assert_string_equal(r.options, "--copies 3");
  batch_rec_free(&r);
  free(info);
  batch_list_free(&L);
}

/* --------------------------------------------------------- manifests */

static void test_manifest(void **state) {
  (void)state;
  batch_defaults d = defaults_with("0.9,0.8");
  d.time_limit = 30;
  batch_list L = {0};
  char err[512];
  const char *text =
      "# jobs\n"
      "\n"
      "../graphs/vgg.json 0.8 --copies 3 --time-limit 20\n"
      "/abs/resnet.json   # both default budgets\n"
      "unet.json 0.7,90% --threads 2\n"
      "../graphs/vgg.json 0.8 --copies=3\n"; /* a duplicate */
  assert_int_equal(batch_parse_manifest(text, "man/jobs.txt", &d, &L, err,
                                        sizeof err),
                   0);
  assert_int_equal(L.n, 5);
  assert_string_equal(L.job[0].graph, "man/../graphs/vgg.json");
  assert_string_equal(L.job[0].id, "man/../graphs/vgg.json --budget 0.8 --copies 3");
  assert_true(L.job[0].time_limit == 20);
  assert_string_equal(L.job[0].where, "man/jobs.txt:3");
  assert_string_equal(L.job[1].id, "/abs/resnet.json --budget 0.9");
  assert_string_equal(L.job[2].id, "/abs/resnet.json --budget 0.8");
  assert_true(L.job[1].time_limit == 30);
  assert_int_equal(L.job[1].threads, 1);
  assert_string_equal(L.job[3].id, "man/unet.json --budget 0.7");
  assert_string_equal(L.job[4].budget, "90%");
  assert_int_equal(L.job[4].threads, 2);
  batch_list_free(&L);

  /* errors name the line (whole: the exact message, else a part of it);
   * a list ending in an empty item (blanks inside it) keeps nothing of
   * the line (no leak under ASan) */
  static const struct {
    const char *text, *msg;
    int whole;
  } bad[] = {
      {"a.json 0.9\nb.json 0.9 --frob\n",
       "m.txt:2: unknown or batch-level option '--frob'", 0},
      {"a.json zero\n", "m.txt:1: cannot parse budget 'zero'", 0},
      {"a.json 'x\n", "m.txt:1: unclosed quote", 1},
      {"a.json 0.9\nb.json 0.9, 7,\n",
       "m.txt:2: budget list '0.9,' has an empty item (write items without "
       "blanks between them, e.g. 0.9,0.8)",
       1},
      {"a.json 0.9,0.8,zero\n", "m.txt:1: cannot parse budget 'zero'", 0},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(batch_parse_manifest(bad[i].text, "m.txt", &d, &L, err,
                                          sizeof err),
                     REMAT_EUSAGE);
    if (bad[i].whole)
      assert_string_equal(err, bad[i].msg);
    else
      assert_non_null(strstr(err, bad[i].msg));
    batch_list_free(&L);
  }
  /* ranges: items in their shortest decimal form, mixed with plain ones */
  assert_int_equal(batch_parse_manifest("a.json 0.95,0.9:0.8:0.05 --seed 2\n",
                                        "m.txt", &d, &L, err, sizeof err),
                   0);
  assert_int_equal(L.n, 4);
  assert_string_equal(L.job[1].id, "a.json --budget 0.9 --seed 2");
  assert_string_equal(L.job[2].budget, "0.85");
  assert_memory_equal(L.job[3].name, "a_0.8_", 6);
  batch_list_free(&L);
  batch_defaults_free(&d);
  /* no budget anywhere */
  batch_defaults_init(&d);
  assert_int_equal(batch_parse_manifest("a.json --copies 2\n", "m.txt", &d, &L,
                                        err, sizeof err),
                   REMAT_EUSAGE);
  assert_non_null(strstr(err, "m.txt:1: no budget"));
  batch_list_free(&L);
  batch_defaults_free(&d);
}

static void test_is_manifest(void **state) {
  (void)state;
  assert_false(batch_is_manifest("g.json", "a.json 0.9"));
  assert_true(batch_is_manifest("jobs.txt", "{"));
  assert_true(batch_is_manifest("list.jobs", NULL));
  assert_true(batch_is_manifest("jobs", "# list\ng.json 0.9\n"));
  assert_false(batch_is_manifest("graph", "  \n {\"nodes\": []}"));
  assert_false(batch_is_manifest("graph", "[1]"));
}

static void test_inputs(void **state) {
  (void)state;
  char *dir = tpath("in");
  mkdir(dir, 0755);
  char *b = tpath("in/b.json"), *a = tpath("in/a.json"), *x = tpath("in/x.txt");
  char *man = tpath("in/list");
  write_text(b, DIAMOND_JSON);
  write_text(a, DIAMOND_JSON);
  write_text(x, "not a graph");
  write_text(man, "b.json 0.5\n");
  batch_defaults d = defaults_with("0.9,0.8");
  batch_list L = {0};
  char err[512];
  assert_int_equal(batch_add_input(&L, dir, &d, err, sizeof err), 0);
  assert_int_equal(L.n, 4); /* a, b (sorted) x 0.9, 0.8; not x.txt */
  assert_string_equal(L.job[0].graph, a);
  assert_string_equal(L.job[1].budget, "0.8");
  assert_string_equal(L.job[2].graph, b);
  assert_int_equal(batch_add_input(&L, man, &d, err, sizeof err), 0);
  assert_int_equal(L.n, 5);
  assert_string_equal(L.job[4].budget, "0.5");
  assert_int_equal(batch_add_input(&L, "/nonexistent/g.json", &d, err, sizeof err),
                   REMAT_EUSAGE);
  assert_string_equal(err, "cannot read /nonexistent/g.json: No such file or directory");
  batch_list_free(&L);
  batch_defaults_free(&d);
  free(dir);
  free(a);
  free(b);
  free(x);
  free(man);
}

/* ------------------------------------------------------------- JSONL */

static void make_rec(batch_rec *r, const char *id, const char *status) {
  batch_rec_init(r);
  batch_rec_set(&r->id, id);
  batch_rec_set(&r->graph, "g/a.json");
  batch_rec_set(&r->budget, "0.9");
  batch_rec_set(&r->status, status);
}

static void test_jsonl_resume(void **state) {
  (void)state;
  char *path = tpath("r.jsonl"), err[256];
  unlink(path);
  batch_recs R = {0};
  int bad = -1;
  assert_int_equal(batch_jsonl_load(path, &R, &bad, NULL, 0, err, sizeof err), 0);
  assert_int_equal(R.n, 0); /* a missing file has no records */
  batch_rec r;
  make_rec(&r, "g/a.json --budget 0.9", "interrupted");
  r.has_schedule = 1;
  r.peak = 14;
  r.duration = 20;
  r.tdi = 17.647058823;
  r.n = 6;
  r.budget_bytes = 14;
  r.exit_code = 0;
  r.time_s = 1.23456;
  r.time_to_best_s = 0.5;
  r.has_bound = 1;
  r.bound_tdi = 1.2345678;
  assert_int_equal(batch_jsonl_append(path, &r, err, sizeof err), 0);
  batch_rec_free(&r);
  make_rec(&r, "g/b.json --budget 0.9", "crashed");
  r.signal = 11;
  batch_rec_set(&r.reason, "killed by signal 11 (Segmentation fault)");
  assert_int_equal(batch_jsonl_append(path, &r, err, sizeof err), 0);
  batch_rec_free(&r);
  make_rec(&r, "g/a.json --budget 0.9", "feasible");
  assert_int_equal(batch_jsonl_append(path, &r, err, sizeof err), 0);
  batch_rec_free(&r);
  FILE *f = fopen(path, "a"); /* a line cut short by a kill */
  fputs("{\"id\": \"g/c.json --budget 0.9\", \"sta", f);
  fclose(f);

  assert_int_equal(batch_jsonl_load(path, &R, &bad, NULL, 0, err, sizeof err), 0);
  assert_int_equal(R.n, 3);
  assert_int_equal(bad, 1);
  assert_int_equal(R.rec[0].peak, 14);
  assert_true(R.rec[0].has_schedule);
  assert_true(R.rec[0].time_s == 1.235); /* rounded to a millisecond */
  assert_true(R.rec[0].has_bound);
  assert_true(fabs(R.rec[0].bound_tdi - 1.234568) < 1e-9); /* to 1e-6 */
  assert_int_equal(R.rec[1].signal, 11);
  assert_false(R.rec[1].has_schedule);
  assert_false(R.rec[1].has_bound);
  /* resume: the last record per id decides */
  const batch_rec *a = batch_recs_find(&R, "g/a.json --budget 0.9");
  assert_non_null(a);
  assert_string_equal(a->status, "feasible");
  assert_true(batch_status_final(a->status));
  assert_true(batch_status_final(batch_recs_find(&R, "g/b.json --budget 0.9")->status));
  assert_null(batch_recs_find(&R, "g/c.json --budget 0.9"));
  assert_false(batch_status_final("interrupted"));
  assert_false(batch_status_final("pending"));
  assert_false(batch_status_final("bogus"));
  assert_true(batch_status_failure("crashed"));
  assert_false(batch_status_failure("infeasible"));
  batch_recs_free(&R);
  free(path);
}

/* A NUL byte inside a line spoils that line only: the records after it
 * are kept, and the bad line is named file:line. */
static void test_jsonl_nul(void **state) {
  (void)state;
  char *path = tpath("nul.jsonl"), err[256], first[512], want[600];
  unlink(path);
  batch_rec r;
  const char *ids[3] = {"g/a.json --budget 0.9", "g/b.json --budget 0.9",
                        "g/c.json --budget 0.9"};
  for (int i = 0; i < 3; i++) {
    make_rec(&r, ids[i], "optimal");
    assert_int_equal(batch_jsonl_append(path, &r, err, sizeof err), 0);
    batch_rec_free(&r);
  }
  /* overwrite one byte of line 2 with NUL */
  size_t len;
  char *text = util_read_file(path, &len);
  char *line2 = strchr(text, '\n') + 1;
  line2[5] = 0;
  FILE *f = fopen(path, "wb");
  fwrite(text, 1, len, f);
  fputs("{\"id\": \"x\"}\n{\"id\": \"g/d.json\", \"status\": \"feasible\"}\n", f);
  fclose(f);
  free(text);
  batch_recs R = {0};
  int bad = 0;
  assert_int_equal(batch_jsonl_load(path, &R, &bad, first, sizeof first, err, sizeof err), 0);
  assert_int_equal(bad, 2); /* the NUL line, and a line with no status */
  snprintf(want, sizeof want, "%s:2: a NUL byte in the line", path);
  assert_string_equal(first, want);
  assert_int_equal(R.n, 3);
  assert_string_equal(R.rec[0].id, ids[0]);
  assert_string_equal(R.rec[1].id, ids[2]);
  assert_string_equal(R.rec[2].id, "g/d.json");
  batch_recs_free(&R);
  /* a line cut short: file:line:col */
  f = fopen(path, "wb");
  fputs("\n{\"id\": \"g/c.json\", \"sta", f);
  fclose(f);
  assert_int_equal(batch_jsonl_load(path, &R, &bad, first, sizeof first, err, sizeof err), 0);
  assert_int_equal(bad, 1);
  assert_int_equal(R.n, 0);
  snprintf(want, sizeof want, "%s:2:23: JSON syntax error: ", path);
  assert_memory_equal(first, want, strlen(want));
  batch_recs_free(&R);
  free(path);
}

/* ------------------------------------------------- re-checked results */

static char *write_result(const char *name, const char *graph,
                          const char *status, int64_t budget, int64_t peak,
                          const char *seq) {
  char *p = tpath(name);
  char text[2048];
  snprintf(text, sizeof text,
           "{\"graph_file\": \"%s\", \"budget\": %lld, \"status\": \"%s\", "
           "\"peak\": %lld, \"duration\": 17, \"sequence\": %s, \"time_s\": "
           "2.5, \"time_to_best_s\": 0.25, \"lower_bound_tdi_percent\": 0, "
           "\"message\": \"note\"}",
           graph, (long long)budget, status, (long long)peak, seq);
  write_text(p, text);
  return p;
}

static void test_rec_from_result(void **state) {
  (void)state;
  char *g = tpath("d.json");
  write_text(g, DIAMOND_JSON);
  const char *topo = "[\"in\", \"a\", \"b\", \"c\", \"d\", \"out\"]";
  char *ok = write_result("ok.json", g, "optimal", 16, 16, topo);
  batch_rec r;
  batch_rec_init(&r);
  assert_int_equal(batch_rec_from_result(&r, ok, NULL, NULL), 0);
  assert_string_equal(r.status, "optimal");
  assert_int_equal(r.n, 6);
  assert_int_equal(r.peak, 16);
  assert_int_equal(r.topo_peak, 16);
  assert_int_equal(r.budget_bytes, 16);
  assert_true(r.tdi == 0);
  assert_true(r.time_to_best_s == 0.25);
  assert_true(r.has_bound && r.bound_tdi == 0);
  assert_string_equal(r.name, "diamond");
  batch_rec_free(&r);

  struct {
    const char *status;
    int64_t budget, peak;
    const char *seq, *expect_status, *reason;
  } bad[] = {
      {"optimal", 16, 15, topo, "error", "claims peak 15, duration 17; re-simulated 16, 17"},
      {"optimal", 15, 16, topo, "error", "status optimal but the schedule is not within budget"},
      {"infeasible", 16, 16, topo, "error", "status infeasible but the schedule is within budget"},
      {"optimal", 16, 16, "[\"in\", \"c\"]", "error", "does not re-simulate: step 1: node c needs a"},
      {"optimal", 16, 16, "[\"in\", \"zz\"]", "error", "sequence entry 1 is not a node of diamond"},
      {"great", 16, 16, topo, "error", "no valid \"status\""},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *p = write_result("bad.json", g, bad[i].status, bad[i].budget,
                           bad[i].peak, bad[i].seq);
    batch_rec_init(&r);
    assert_int_equal(batch_rec_from_result(&r, p, NULL, NULL), -1);
    assert_string_equal(r.status, bad[i].expect_status);
    assert_non_null(strstr(r.reason, bad[i].reason));
    batch_rec_free(&r);
    free(p);
  }
  /* a result for another budget than the job's */
  batch_rec_init(&r);
  batch_rec_set(&r.budget, "0.9");
  assert_int_equal(batch_rec_from_result(&r, ok, NULL, NULL), -1);
  assert_non_null(strstr(r.reason, "solved for budget 16, not 0.9 (14)"));
  batch_rec_free(&r);
  /* nothing within budget is a normal outcome, with the solver's message */
  char *none = write_result("none.json", g, "infeasible", 10, 0, "null");
  batch_rec_init(&r);
  assert_int_equal(batch_rec_from_result(&r, none, NULL, NULL), 0);
  assert_string_equal(r.status, "infeasible");
  assert_false(r.has_schedule);
  assert_string_equal(r.reason, "note");
  batch_rec_free(&r);
  /* a graph that cannot be read */
  char *lost = write_result("lost.json", "/nonexistent.json", "optimal", 16, 16, topo);
  batch_rec_init(&r);
  assert_int_equal(batch_rec_from_result(&r, lost, NULL, NULL), -1);
  assert_string_equal(r.status, "failed");
  assert_non_null(strstr(r.reason, "cannot read /nonexistent.json"));
  batch_rec_free(&r);
  /* a truncated result file: its path, line and column */
  char *cut = tpath("cut.json");
  write_text(cut, "{\"graph_file\": \"g.json\",\n \"budget\": 16,\n \"status\": \"opt");
  batch_rec_init(&r);
  assert_int_equal(batch_rec_from_result(&r, cut, NULL, NULL), -1);
  assert_string_equal(r.status, "error");
  char want[600];
  snprintf(want, sizeof want, "%s:3:15: JSON syntax error: ", cut);
  assert_memory_equal(r.reason, want, strlen(want));
  batch_rec_free(&r);
  /* a result of a solve that ended in an internal error */
  char *boom = tpath("boom.json");
  write_text(boom, "{\"status\": \"error\", \"budget\": 16, \"message\": "
                   "\"internal error: solver error: x failed (exit code 1)\"}");
  batch_rec_init(&r);
  batch_rec_set(&r.graph, g);
  assert_int_equal(batch_rec_from_result(&r, boom, NULL, NULL), -1);
  assert_string_equal(r.status, "error");
  snprintf(want, sizeof want, "%s: internal error: solver error: x failed (exit code 1)", boom);
  assert_string_equal(r.reason, want);
  batch_rec_free(&r);
  free(cut);
  free(boom);
  free(ok);
  free(none);
  free(lost);
  free(g);
}

static void test_classify(void **state) {
  (void)state;
  char *g = tpath("d.json");
  write_text(g, DIAMOND_JSON);
  char *ok = write_result("ok.json", g, "optimal", 16, 16,
                          "[\"in\", \"a\", \"b\", \"c\", \"d\", \"out\"]");
  batch_rec r;
  struct {
    batch_exit e;
    const char *file, *log, *status, *reason;
  } cases[] = {
      {{1, 0, 0, 0, 0}, ok, NULL, "optimal", NULL},
      {{1, 3, 0, 0, 0}, ok, NULL, "error", "exit code 3 but status optimal"},
      {{1, 2, 0, 0, 0}, NULL, "remat solve: g.json:1:0: JSON syntax error\n",
       "failed", "g.json:1:0: JSON syntax error"},
      {{1, 4, 0, 0, 0}, NULL, "remat solve: internal error: boom\n", "error",
       "exit code 4: internal error: boom"},
      {{0, 0, 11, 0, 0}, NULL, "", "crashed", "killed by signal 11"},
      {{0, 0, 9, 1, 0}, NULL, NULL, "timeout", "without a schedule"},
      {{1, 0, 0, 1, 0}, ok, NULL, "optimal", "overran its time limit"},
      {{1, 0, 0, 0, 1}, ok, NULL, "interrupted", "redone on --resume"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    batch_rec_init(&r);
    batch_classify(&r, &cases[i].e, cases[i].file ? cases[i].file : "/nonexistent/r.json",
                   NULL, cases[i].log);
    assert_string_equal(r.status, cases[i].status);
    if (cases[i].reason)
      assert_non_null(strstr(r.reason, cases[i].reason));
    else
      assert_null(r.reason);
    batch_rec_free(&r);
  }
  free(ok);
  free(g);
}

static void test_exit_code(void **state) {
  (void)state;
  batch_rec a, b, c;
  make_rec(&a, "a", "optimal");
  make_rec(&b, "b", "infeasible");
  make_rec(&c, "c", "failed");
  const batch_rec *rows[3] = {&a, &a, &a};
  assert_int_equal(batch_exit_code(rows, 2), 0);
  rows[1] = &b;
  assert_int_equal(batch_exit_code(rows, 2), 3);
  rows[2] = &c;
  assert_int_equal(batch_exit_code(rows, 3), 4);
  batch_rec_free(&a);
  batch_rec_free(&b);
  batch_rec_free(&c);
}

/* -------------------------------------------------------- summaries */

static char *capture_csv(const batch_rec *const *rows, int n, int md) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (md)
    batch_write_md(f, rows, n, "T");
  else
    batch_write_csv(f, rows, n);
  fclose(f);
  return buf;
}

static void test_summaries(void **state) {
  (void)state;
  batch_rec a, b, c;
  make_rec(&a, "g/a.json --budget 0.9", "feasible");
  a.n = 6;
  a.budget_bytes = 14;
  a.has_schedule = 1;
  a.peak = 14;
  a.tdi = 17.6470588;
  a.time_s = 2.5;
  a.time_to_best_s = 0.25;
  a.has_bound = 1;
  a.bound_tdi = 9.87654;
  batch_rec_set(&a.result, "j/a.json");
  make_rec(&b, "g/a,b.json --budget 0.8", "infeasible");
  batch_rec_set(&b.graph, "g/a,b.json");
  batch_rec_set(&b.budget, "0.8");
  b.n = 6;
  b.budget_bytes = 12;
  batch_rec_set(&b.result, "j/b.json");
  make_rec(&c, "g/bad.json --budget 0.9", "failed");
  batch_rec_set(&c.graph, "g/bad.json");
  batch_rec_set(&c.reason, "g/bad.json:1:0: JSON | syntax error");
  const batch_rec *rows[] = {&a, &b, &c};
  char *csv = capture_csv(rows, 3, 0);
  assert_string_equal(csv,
                      "graph,n,budget,budget_bytes,status,peak,tdi_percent,"
                      "time_to_best_s,time_s,lower_bound_tdi_percent\n"
                      "a,6,0.9,14,feasible,14,17.6471,0.250,2.500,9.8765\n"
                      "\"a,b\",6,0.8,12,infeasible,,,,0.000,\n"
                      "bad,,0.9,,failed,,,,,\n");
  char *md = capture_csv(rows, 3, 1);
  assert_string_equal(md,
                      "# T\n\n"
                      "| graph | n | budget | status | peak | TDI % | time to best (s) | time (s) | lower bound TDI % |\n"
                      "|---|--:|---|---|--:|--:|--:|--:|--:|\n"
                      "| a | 6 | 0.9 (14) | feasible | 14 | 17.65 | 0.25 | 2.50 | 9.88 |\n"
                      "| a,b | 6 | 0.8 (12) | infeasible |  |  |  | 0.00 |  |\n"
                      "| bad |  | 0.9 | failed |  |  |  |  |  |\n"
                      "\n3 jobs: 1 feasible, 1 infeasible, 1 failed.\n"
                      "\n## Failures\n\n"
                      "- `g/bad.json --budget 0.9`: failed: g/bad.json:1:0: JSON \\| syntax error\n");
  free(csv);
  free(md);
  batch_rec_free(&a);
  batch_rec_free(&b);
  batch_rec_free(&c);
}

UNIT_TESTS_WITH(tmpdir_setup, tmpdir_teardown, test_split_words, test_options,
                test_job_ids, test_job_argv, test_manifest, test_is_manifest,
                test_inputs, test_jsonl_resume, test_jsonl_nul,
                test_rec_from_result, test_classify, test_exit_code,
                test_summaries)
