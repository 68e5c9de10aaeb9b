/* cmd_baseline.c -- remat baseline: Checkmate's checkpoint-all, Chen
 * sqrt(n) and Chen greedy schedules. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "baseline.h"
#include "cmd.h"
#include "cmdutil.h"
#include "result.h"
#include "util.h"

static json_t *cmd_baseline_extra(const remat_graph *g, const base_params *p,
                                  const base_info *info) {
  json_t *ck = json_array();
  for (int k = 0; k < info->ncheckpoints; k++)
    json_array_append_new(ck, result_node_id(g, info->checkpoints[k]));
  json_t *b = json_object();
  json_object_set_new(b, "method", json_string(base_method_name(p->method)));
  if (p->method != BASE_CHECKPOINT_ALL) {
    json_object_set_new(b, "candidates",
                        json_string(base_candidates_name(p->candidates)));
    json_object_set_new(b, "ncandidates", json_integer(info->ncandidates));
  }
  json_object_set_new(b, "checkpoints", ck);
  if (info->segment_budget >= 0)
    json_object_set_new(b, "segment_budget",
                        json_integer(info->segment_budget));
  json_object_set_new(b, "schedules", json_integer(info->evaluated));
  json_object_set_new(b, "forward_backward", json_boolean(g->backward != NULL));
  return json_pack("{s:o}", "baseline", b);
}

int cmd_baseline(const char *name, const cli_opts *o) {
  if (!o->method) {
    char what[256];
    cli_describe(cli_option(CMD_BASELINE, "method"), what, sizeof what);
    fprintf(stderr, "remat %s: --method is required (%s)\n", name, what);
    return 2;
  }
  base_params p;
  base_params_init(&p);
  p.method = base_method_parse(o->method); /* the option table checked both */
  p.candidates = base_candidates_parse(o->candidates);
  remat_graph *g = cmdu_solver_graph(name, o->pos[0]);
  if (!g) return 2;
  int rc = 2;
  if (cmdu_budget(name, o->budget, g, &p.budget)) goto graph;
  remat_result r;
  remat_result_init(&r, g, p.budget, base_method_name(p.method));
  base_info info;
  p.deadline = deadline_limit(util_now(), o->time_limit);
  rc = base_solve(g, &p, &r, &info);
  json_t *extra = cmd_baseline_extra(g, &p, &info);
  rc = cmdu_finish(name, o, g, &r, extra, rc);
  json_decref(extra);
  base_info_free(&info);
  remat_result_free(&r);
graph:
  remat_graph_free(g);
  return rc;
}
