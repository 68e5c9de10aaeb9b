/* batch_summary.c -- the batch's CSV and Markdown summaries (see
 * batch_summary.h). */
#include "batch_summary.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

char *batch_graph_stem(const char *graph) {
  return util_stem(graph ? graph : "?");
}

void batch_write_csv(FILE *f, const batch_rec *const *row, int n) {
  fprintf(f, "graph,n,budget,budget_bytes,status,peak,tdi_percent,"
             "time_to_best_s,time_s,lower_bound_tdi_percent\n");
  for (int i = 0; i < n; i++) {
    const batch_rec *r = row[i];
    char *stem = batch_graph_stem(r->graph);
    util_csv_field(f, stem);
    free(stem);
    if (r->n >= 0) fprintf(f, ",%d,", r->n);
    else fputs(",,", f);
    util_csv_field(f, r->budget ? r->budget : "");
    fputc(',', f);
    if (r->budget_bytes >= 0) fprintf(f, "%lld", (long long)r->budget_bytes);
    fputc(',', f);
    util_csv_field(f, r->status ? r->status : "");
    if (r->has_schedule)
      fprintf(f, ",%lld,%.4f", (long long)r->peak, r->tdi);
    else
      fputs(",,", f);
    if (r->time_to_best_s >= 0) fprintf(f, ",%.3f", r->time_to_best_s);
    else fputc(',', f);
    if (r->status && strcmp(r->status, "pending") && r->result)
      fprintf(f, ",%.3f", r->time_s);
    else
      fputc(',', f);
    if (r->has_bound) fprintf(f, ",%.4f\n", r->bound_tdi);
    else fputs(",\n", f);
  }
}

/* Markdown-safe text (pipes escaped). */
static void batch_md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|') fputc('\\', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
}

static void batch_md_row(FILE *f, const batch_rec *r) {
  char *stem = batch_graph_stem(r->graph);
  fputs("| ", f);
  batch_md_text(f, stem);
  free(stem);
  if (r->n >= 0) fprintf(f, " | %d | ", r->n);
  else fputs(" |  | ", f);
  if (r->budget) batch_md_text(f, r->budget);
  if (r->budget_bytes >= 0 &&
      (!r->budget || strtoll(r->budget, NULL, 10) != r->budget_bytes ||
       strpbrk(r->budget, ".%")))
    fprintf(f, r->budget ? " (%lld)" : "%lld", (long long)r->budget_bytes);
  fprintf(f, " | %s | ", r->status ? r->status : "");
  if (r->has_schedule)
    fprintf(f, "%lld | %.2f | ", (long long)r->peak, r->tdi);
  else
    fputs(" |  | ", f);
  if (r->time_to_best_s >= 0) fprintf(f, "%.2f", r->time_to_best_s);
  fputs(" | ", f);
  if (r->result) fprintf(f, "%.2f", r->time_s);
  fputs(" | ", f);
  if (r->has_bound) fprintf(f, "%.2f", r->bound_tdi);
  fputs(" |\n", f);
}

void batch_write_md(FILE *f, const batch_rec *const *row, int n,
                    const char *title) {
  fprintf(f, "# %s\n\n", title);
  fprintf(f, "| graph | n | budget | status | peak | TDI %% | time to best (s) "
             "| time (s) | lower bound TDI %% |\n");
  fprintf(f, "|---|--:|---|---|--:|--:|--:|--:|--:|\n");
  for (int i = 0; i < n; i++) batch_md_row(f, row[i]);
  static const char *const order[] = {"optimal", "feasible", "over-budget",
                                      "infeasible", "failed", "crashed",
                                      "timeout", "error", "missing",
                                      "interrupted", "pending", NULL};
  fprintf(f, "\n%d job%s:", n, n == 1 ? "" : "s");
  int first = 1;
  for (const char *const *s = order; *s; s++) {
    int k = 0;
    for (int i = 0; i < n; i++) k += row[i]->status && !strcmp(row[i]->status, *s);
    if (k) fprintf(f, "%s %d %s", first ? "" : ",", k, *s);
    if (k) first = 0;
  }
  fputs(".\n", f);
  int nfail = 0;
  for (int i = 0; i < n; i++) {
    const batch_rec *r = row[i];
    if (!batch_status_failure(r->status)) continue;
    if (!nfail++) fputs("\n## Failures\n\n", f);
    fputs("- `", f);
    fputs(r->id ? r->id : "?", f);
    fprintf(f, "`: %s", r->status);
    if (r->reason) {
      fputs(": ", f);
      batch_md_text(f, r->reason);
    }
    fputc('\n', f);
  }
}
