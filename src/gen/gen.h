/* gen.h -- random graph generators: Moccasin-style random layered DAGs,
 * Checkmate-style training graphs (a forward chain or a U-Net plus its
 * backward pass) and small random DAGs for tests.
 *
 * Every generator is deterministic for a given seed (its own splitmix64
 * stream, never rand()) and returns a graph whose nodes are in a
 * topological order 0..n-1 with ids "0".."n-1" (written back as JSON
 * integers), format "native", path NULL, g->backward NULL except for the
 * training graphs, or NULL on bad parameters.  Free
 * the result with remat_graph_free(). */
#ifndef REMAT_GEN_H
#define REMAT_GEN_H

#include <stdint.h>

#include "remat.h"

/* Largest U-Net depth gen_unet() accepts. */
#define GEN_UNET_MAX_DEPTH 16

/* A random layered DAG with n >= 3 nodes, modelled on the instances of the
 * Moccasin paper (Gagrani et al. 2022, App. A):
 *   - one source (layer 0) and one sink (last layer), both of duration 0;
 *   - interior layers of width uniform in [0.25 mu, 1.75 mu], where
 *     mu = 1.1 sqrt(f n) and f is drawn per seed from [0.27, 0.43] (the
 *     range of the "w" field in the published instances' names);
 *   - between adjacent layers of widths a, b: a covering set of max(a, b)
 *     edges (every node gets a successor and a predecessor) plus every other
 *     pair with probability 0.2, so about 0.2 a b + 0.8 max(a, b) edges;
 *   - skip edges (layer l to a layer uniform in l+2 .. last-1) making 14% of
 *     all edges;
 *   - durations uniform in 0..999, sizes 10 * min of three uniform integers
 *     in 1..790 (10..7900, mean ~2000, median ~1600);
 *   - the input order is a random topological order (as in the published
 *     instances, whose layers interleave), and node i is its i-th node. */
remat_graph *gen_layered(int n, uint64_t seed);

/* The training graph of a chain of `layers` >= 1 forward layers, built with
 * Checkmate's rule (dfgraph_from_keras): forward nodes 0..L-1, the loss L,
 * and grad(i) = 2L - i (2L + 1 nodes).  Edges: i-1 -> i, grad(i) ->
 * grad(i-1), i -> grad(i-1), i -> grad(i), (L-1) -> loss -> grad(L-1).
 * Forward durations uniform in 10..1000, gradients twice their forward
 * node's, grad(i) has the size of i, the loss has duration 0 and size 10.
 * Labels: "fwd_i", "loss", "grad_i"; g->backward flags the loss and the
 * gradients (as Checkmate's graphs do), forward nodes are 0. */
remat_graph *gen_training(int layers, uint64_t seed);

/* A U-Net of the given depth (1..GEN_UNET_MAX_DEPTH) as a training graph:
 * an encoder enc_k -> pool_k (k = 0..depth-1), a bottleneck, a decoder
 * up_k -> dec_k with skip connections enc_k -> dec_k, and an output node;
 * 4 depth + 2 forward nodes, 8 depth + 5 nodes in all, with the backward
 * pass built by the same rule as gen_training() (for every forward edge
 * u -> v: grad(v) -> grad(u) and v -> grad(u); v -> grad(v) for every v).
 * Activation sizes halve at each level down (spatial / 4, channels x 2) and
 * double on the way up; convolution durations are about equal per level
 * (jittered by the seed).  Labels: "enc_k", "pool_k", "bottleneck", "up_k",
 * "dec_k", "out", "loss", "grad_<forward label>"; backward flags as in
 * gen_training(). */
remat_graph *gen_unet(int depth, uint64_t seed);

/* A small random DAG for tests: n >= 1 nodes, each pair u < v an edge with
 * probability edge_prob_percent (0..100) percent, then extra edges u -> v
 * (u < v random) until the graph is weakly connected (no isolated node; it
 * may have several sources and sinks).  Durations in 0..20, sizes in
 * 1..20. */
remat_graph *gen_random_dag(int n, int edge_prob_percent, uint64_t seed);

#endif
