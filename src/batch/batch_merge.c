/* batch_merge.c -- records from per-job result files (see
 * batch_merge.h). */
#include "batch_merge.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "batch_check.h"
#include "remat.h"
#include "util.h"

static int batch_merge_cmp(const void *a, const void *b) {
  const batch_rec *x = a, *y = b;
  int c = strcmp(x->graph ? x->graph : "", y->graph ? y->graph : "");
  if (c) return c;
  if (x->budget_bytes >= 0 && y->budget_bytes >= 0) {
    if (x->budget_bytes != y->budget_bytes)
      return x->budget_bytes > y->budget_bytes ? -1 : 1;
  } else { /* unknown sizes: the budget texts as numbers */
    double bx = x->budget ? strtod(x->budget, NULL) : 0;
    double by = y->budget ? strtod(y->budget, NULL) : 0;
    if (bx != by) return bx > by ? -1 : 1;
  }
  return strcmp(x->id ? x->id : "", y->id ? y->id : "");
}

void batch_merge_sort(batch_recs *R) {
  qsort(R->rec, (size_t)R->n, sizeof *R->rec, batch_merge_cmp);
}

/* One result file (and its NAME.job side file if any). */
static void batch_merge_file(batch_recs *R, const char *path) {
  batch_rec r;
  batch_rec_init(&r);
  char *stem = util_strip_suffix(path, ".json");
  char *info = util_cat(stem, ".job");
  int has_info = !batch_job_read_info(info, &r);
  int intr = 0;
  batch_rec_from_result(&r, path, NULL, &intr);
  if (!r.result) batch_rec_set(&r.result, path);
  if (intr && batch_status_final(r.status) && !r.reason)
    batch_rec_set(&r.reason, "the solve was interrupted (best schedule kept)");
  if (!has_info && r.graph) { /* no side file: the budget in bytes */
    char b[32];
    snprintf(b, sizeof b, "%lld", (long long)r.budget_bytes);
    batch_rec_set(&r.budget, b);
    char *id = batch_job_id(r.graph, b, NULL, 0);
    batch_rec_set(&r.id, id);
    free(id);
    batch_rec_set(&r.options, "");
  }
  if (!r.id) batch_rec_set(&r.id, path);
  batch_recs_take(R, &r);
  free(stem);
  free(info);
}

/* A NAME.job without NAME.json: the job did not write a result. */
static void batch_merge_orphan(batch_recs *R, const char *info) {
  char *stem = util_strip_suffix(info, ".job");
  char *res = util_cat(stem, ".json"), *logp = util_cat(stem, ".log");
  struct stat st;
  batch_rec r;
  batch_rec_init(&r);
  if (stat(res, &st) && !batch_job_read_info(info, &r)) {
    size_t len;
    char *log = util_read_file(logp, &len);
    if (log && strstr(log, "remat solve: ")) {
      batch_exit e = {1, 2, 0, 0, 0};
      batch_classify(&r, &e, NULL, NULL, log);
      r.exit_code = -1;
    } else {
      batch_rec_set(&r.status, "missing");
      batch_rec_set(&r.reason, "no result file (not run, or stopped before "
                               "writing one)");
    }
    free(log);
    batch_recs_take(R, &r);
  }
  batch_rec_free(&r);
  free(stem);
  free(res);
  free(logp);
}

int batch_merge_collect(char *const *inputs, int n, batch_recs *R, char *err,
                        size_t errlen) {
  for (int i = 0; i < n; i++) {
    const char *arg = inputs[i];
    struct stat st;
    if (stat(arg, &st))
      return util_err(err, errlen, REMAT_EUSAGE, "cannot read %s: %s", arg,
                      strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
      batch_merge_file(R, arg);
      continue;
    }
    int nf = 0, ni = 0;
    char **files = batch_list_dir(arg, ".json", &nf, err, errlen);
    char **infos = files ? batch_list_dir(arg, ".job", &ni, err, errlen) : NULL;
    if (!files || !infos) {
      batch_words_free(files, nf);
      return REMAT_EUSAGE;
    }
    for (int f = 0; f < nf; f++) batch_merge_file(R, files[f]);
    for (int f = 0; f < ni; f++) batch_merge_orphan(R, infos[f]);
    batch_words_free(files, nf);
    batch_words_free(infos, ni);
  }
  if (!R->n)
    return util_err(err, errlen, REMAT_EUSAGE, "no result files to merge");
  return 0;
}
