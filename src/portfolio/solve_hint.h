/* solve_hint.h -- after a solve on the input order, whether another order
 * does better (solve_hint.c): the time it takes out of the solve's limit,
 * and the hint itself. */
#ifndef REMAT_SOLVE_HINT_H
#define REMAT_SOLVE_HINT_H

#include "remat.h"

/* The seconds the hint may take after a solve of p on g on the input order
 * (0: none); remat_solve gives the search the rest of the time limit. */
double solve_hint_time(const remat_graph *g, const remat_solve_params *p);

/* After the search on the input order returned rc into r (elapsed: its
 * seconds), within `seconds` (solve_hint_time's): unless r is proven over
 * every order, a search over every order; what it finds within the budget
 * (a lower duration than r's, or any where r is above the budget) goes to
 * r->other_order_duration and r->other_order_peak and to the message
 * (free order: "--free-order").  r's schedule stays the input order's. */
void solve_hint(const remat_graph *g, const remat_solve_params *p, int rc, double elapsed,
                double seconds, remat_result *r);

#endif
