// gecode.cpp -- the C API of gecode.h over Gecode's FlatZinc library.
//
// gz_solve() does what fzn-gecode's main() and FlatZincSpace::run() do
// (parse, createBranchers, shrinkArrays, DFS/BAB, optionally inside RBS),
// but runs the search loop itself so that solutions go to a callback
// instead of std::cout, and stops on a wall-clock limit or a flag.
// A FlatZincSpace subclass overrides slave() to let the caller pick the
// LNS neighbourhood at every restart.

#include "gecode.h"

#include <gecode/flatzinc.hh>
#include <gecode/search.hh>

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace Gecode;
namespace FZ = Gecode::FlatZinc;

namespace {

using Clock = std::chrono::steady_clock;

// Stops on the wall-clock deadline or when *flag becomes nonzero.  May be
// called from several search threads at once; it only reads.
class GzStop : public Search::Stop {
  bool timed;
  Clock::time_point deadline;
  volatile int *flag;

public:
  GzStop(bool timed0, Clock::time_point d, volatile int *f)
      : timed(timed0), deadline(d), flag(f) {}
  bool due(void) const {
    if (flag != nullptr && *flag != 0) return true;
    return timed && Clock::now() >= deadline;
  }
  bool stop(const Search::Statistics &, const Search::Options &) override {
    return due();
  }
};

// State shared by the root space and all its clones.  Only slave() writes
// to it, and RBS calls slave() on the thread that runs gz_solve.
struct Shared {
  const gz_params *params;
  const GzStop *stop;
  long long searches = 0;        // slave() calls so far
  bool aborted = false;          // slave() ended the search (stop due)
  long long first = -1;          // index of the current RBS engine's first
  bool first_incomplete = false; // search, and whether it was incomplete
};

// The FlatZinc space with a caller-controlled slave().
class GzSpace : public FZ::FlatZincSpace {
public:
  Shared *shared;

  GzSpace(Rnd &rnd, Shared *sh) : FlatZincSpace(rnd), shared(sh) {}
  GzSpace(GzSpace &s) : FlatZincSpace(s), shared(s.shared) {}
  Space *copy(void) override { return new GzSpace(*this); }

  // Whether the model has a relax_and_reconstruct annotation.
  bool hasLns(void) const { return _lns > 0 || iv_lns.size() > 0; }

  // Called by RBS on a fresh clone of the master before each search: from
  // the RBS constructor (RBS ignores that return value), after every
  // solution and after every cutoff or exhausted incomplete search.
  // Returns whether this search is complete.  mi.restart() is not a
  // search index: it only counts cutoffs and solutions, and it is
  // incremented only after the slave() call that follows a solution, so we
  // number the searches ourselves.
  //
  // A parallel engine consults the stop object only while it has nodes to
  // explore, so restarts whose neighbourhood fails at once would go on
  // forever; hence the stop check here.  To end RBS we hand it a failed
  // space and claim completeness, and remember that this is no proof.  Not
  // for the first search (made by the RBS constructor; see runRbs).
  bool slave(const MetaInfo &mi) override {
    if (shared->searches != shared->first && shared->stop->due()) {
      shared->aborted = true;
      fail();
      return true;
    }
    const long long index = shared->searches++;
    const bool complete = neighbourhood(mi, index);
    if (index == shared->first) shared->first_incomplete = !complete;
    return complete;
  }

private:
  // Set up search number index as the caller's callback says; returns
  // whether that search is complete.
  bool neighbourhood(const MetaInfo &mi, long long index) {
    const gz_params *params = shared->params;
    if (params->neighbourhood == nullptr || mi.type() != MetaInfo::RESTART)
      return FlatZincSpace::slave(mi);
    const int n = iv_lns.size();
    std::vector<int> vals;
    int have_solution = 0;
    if (mi.last() != nullptr) {
      // Values in the last solution; LNS variables are branched on, so a
      // solution assigns them (min() is only a defensive fallback).
      const GzSpace &last = static_cast<const GzSpace &>(*mi.last());
      for (int i = 0; i < n; i++) {
        const IntVar &x = last.iv_lns[i];
        vals.push_back(x.assigned() ? x.val() : x.min());
      }
      have_solution = 1;
    } else if (n > 0 && _lnsInitialSolution.size() == n) {
      for (int i = 0; i < n; i++) vals.push_back(_lnsInitialSolution[i]);
    }
    int *values = vals.empty() ? nullptr : vals.data();
    std::vector<unsigned char> fix(static_cast<size_t>(n) + 1, 0);
    int answer = params->neighbourhood(
        params->nbh_ctx, index, n, values, have_solution, fix.data());
    if (answer == GZ_NBH_FIX) {
      for (int i = 0; values != nullptr && i < n; i++)
        if (fix[i]) rel(*this, iv_lns[i], IRT_EQ, values[i]);
      return false;
    }
    if (answer == GZ_NBH_COMPLETE) return true;
    return FlatZincSpace::slave(mi);
  }
};

// FlatZincOptions whose seed can be set (the field is protected).
class GzOptions : public FZ::FlatZincOptions {
public:
  explicit GzOptions(unsigned seed) : FlatZincOptions("gz") {
    _seed.value(static_cast<int>(seed));
  }
};

// Cutoff sequence for restart mode m (a Gecode::RestartMode), as
// FlatZincSpace::runMeta builds it: a 0-failure cutoff first, then the
// sequence proper.
Search::Cutoff *makeCutoff(int m, unsigned scale, double base) {
  Search::Cutoff *c;
  switch (m) {
  case RM_CONSTANT: c = Search::Cutoff::constant(scale); break;
  case RM_LINEAR: c = Search::Cutoff::linear(scale); break;
  case RM_GEOMETRIC: c = Search::Cutoff::geometric(scale, base); break;
  default: c = Search::Cutoff::luby(scale); break;
  }
  return Search::Cutoff::append(Search::Cutoff::constant(0), 1, c);
}

// Outcome of the search loop(s).
struct Outcome {
  long long solutions = 0;
  bool stopped = false;      // engine stopped (time/flag) before the end
  bool cb_stopped = false;   // solution callback asked to stop
  Search::Statistics stat;
};

// Run engine E over root (which stays owned by the caller: o.clone is
// true), report every solution and add to out.  Satisfaction stops at the
// first solution.
template <class E>
void runEngine(GzSpace *root, const Search::Options &o,
               const FZ::Printer &printer, const gz_params &p, bool sat,
               Outcome &out) {
  E engine(root, o);
  while (GzSpace *raw = engine.next()) {
    std::unique_ptr<GzSpace> sol(raw);
    out.solutions++;
    std::ostringstream text;
    sol->print(text, printer);
    if (p.on_solution != nullptr && p.on_solution(p.ctx, text.str().c_str()))
      out.cb_stopped = true;
    if (sat || out.cb_stopped) break;
  }
  if (!out.cb_stopped && !(sat && out.solutions > 0))
    out.stopped = engine.stopped() || root->shared->aborted;
  out.stat += engine.statistics();
}

// Restart-based search.  RBS ignores the value slave() returns for the
// first search (made in its constructor) and takes that search as
// complete.  A sequential engine still cannot end it by exhaustion (its
// cutoff is 0 failures and the stop object is consulted after each
// failure), but a parallel one can (a failed root or a last failure is
// never checked against the cutoff), which would claim a proof after an
// incomplete (fixed) first search.  Then we restart with a new RBS
// engine, as RBS would have done (its engine then need not have looked at
// the stop object, so we do).
template <template <class> class E>
void runRbs(GzSpace *root, Search::Options o, int mode, unsigned scale,
            double base, const FZ::Printer &printer, const gz_params &p,
            bool sat, Outcome &out) {
  Shared &sh = *root->shared;
  while (true) {
    o.cutoff = makeCutoff(mode, scale, base);  // owned by the RBS engine
    sh.first = sh.searches;
    const long long before = out.solutions;
    runEngine<RBS<GzSpace, E>>(root, o, printer, p, sat, out);
    if (out.stopped || out.cb_stopped || out.solutions > before ||
        sh.searches != sh.first + 1 || !sh.first_incomplete)
      return;
    if (sh.stop->due()) {
      out.stopped = true;
      return;
    }
  }
}

void setError(char *err, size_t errlen, const std::string &msg) {
  if (err == nullptr || errlen == 0) return;
  std::string m = msg;
  while (!m.empty() && (m.back() == '\n' || m.back() == '\r')) m.pop_back();
  if (m.empty()) m = "unknown error";
  std::snprintf(err, errlen, "%s", m.c_str());
}

// The body of gz_solve; may throw.
gz_status solve(const char *fzn, size_t len, const gz_params &p,
                gz_stats &st, Clock::time_point t0, std::string &msg) {
  // Parse into our own space so that copy() and slave() are ours.
  Rnd rnd(p.seed);
  FZ::Printer printer;
  GzStop stop(p.time_limit > 0, t0 + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(p.time_limit)),
              p.stop);
  Shared shared{&p, &stop};
  std::unique_ptr<GzSpace> root(new GzSpace(rnd, &shared));
  std::istringstream in(std::string(fzn, len));
  std::ostringstream errs;
  if (FZ::parse(in, printer, errs, root.get(), rnd) == nullptr) {
    msg = errs.str();
    if (msg.empty()) msg = "FlatZinc parse error";
    return GZ_ERROR;
  }

  // As fzn-gecode: branchers from the solve annotations (this also reads
  // restart_* and relax_and_reconstruct annotations into opt / the space).
  GzOptions opt(p.seed);
  root->createBranchers(printer, root->solveAnnotations(), opt, false, errs);
  root->shrinkArrays(printer);
  root->step = opt.step();  // float objective step (runMeta sets it too)

  int mode = p.restart >= 0 ? p.restart : static_cast<int>(opt.restart());
  unsigned scale = p.restart >= 0 ? p.restart_scale : opt.restart_scale();
  double base = p.restart >= 0 ? p.restart_base : opt.restart_base();
  if (mode == RM_NONE && (p.neighbourhood != nullptr || root->hasLns())) {
    mode = RM_LUBY;
    scale = p.restart_scale;
  }
  if (mode < RM_NONE || mode > RM_GEOMETRIC) {
    msg = "invalid restart mode";
    return GZ_ERROR;
  }

  StatusStatistics sstat;
  const bool failed = root->status(sstat) == SS_FAILED;
  const bool sat = root->method() == FZ::FlatZincSpace::SAT;

  Search::Options o;
  o.stop = &stop;
  o.threads = p.threads;  // Gecode maps 0 to the number of cores
  o.nogoods_limit = 0;
  Outcome r;
  // A failed root goes to the plain engine: RBS would leak its stop and
  // cutoff objects on a failed root.
  if (mode != RM_NONE && !failed) {
    if (sat)
      runRbs<DFS>(root.get(), o, mode, scale, base, printer, p, true, r);
    else
      runRbs<BAB>(root.get(), o, mode, scale, base, printer, p, false, r);
  } else if (sat) {
    runEngine<DFS<GzSpace>>(root.get(), o, printer, p, true, r);
  } else {
    runEngine<BAB<GzSpace>>(root.get(), o, printer, p, false, r);
  }

  st.nodes = static_cast<long long>(r.stat.node);
  st.fails = static_cast<long long>(r.stat.fail);
  st.restarts = static_cast<long long>(r.stat.restart);
  st.propagations = static_cast<long long>(sstat.propagate + r.stat.propagate);
  st.solutions = r.solutions;
  st.depth = static_cast<int>(r.stat.depth);
  st.searches = shared.searches;

  if (sat && r.solutions > 0) return GZ_OPTIMAL;
  if (r.cb_stopped || r.stopped) return r.solutions > 0 ? GZ_SATISFIED : GZ_UNKNOWN;
  return r.solutions > 0 ? GZ_OPTIMAL : GZ_UNSAT;
}

} // namespace

extern "C" void gz_params_init(gz_params *p) {
  if (p == nullptr) return;
  *p = gz_params();
  p->threads = 1;
  p->restart = GZ_RESTART_FROM_MODEL;
  p->restart_base = 1.5;
  p->restart_scale = 250;
}

extern "C" gz_status gz_solve(const char *fzn, size_t len, const gz_params *p,
                              gz_stats *stats, char *err, size_t errlen) {
  const Clock::time_point t0 = Clock::now();
  gz_params defaults;
  if (p == nullptr) {
    gz_params_init(&defaults);
    p = &defaults;
  }
  gz_stats st = gz_stats();
  if (err != nullptr && errlen > 0) err[0] = '\0';
  gz_status res = GZ_ERROR;
  std::string msg;
  if (fzn == nullptr) {
    msg = "no FlatZinc text";
  } else {
    try {
      res = solve(fzn, len, *p, st, t0, msg);
    } catch (const FZ::Error &e) {
      msg = e.toString();
    } catch (const Gecode::Exception &e) {
      msg = std::string("Gecode: ") + e.what();
    } catch (const std::exception &e) {
      msg = e.what();
    } catch (...) {
      msg = "unknown C++ exception";
    }
  }
  if (res == GZ_ERROR) setError(err, errlen, msg);
  st.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (stats != nullptr) *stats = st;
  return res;
}

extern "C" void gz_warmup(void) {
  static const char model[] = "var 1..2: x :: output_var;\nsolve satisfy;\n";
  gz_solve(model, sizeof model - 1, nullptr, nullptr, nullptr, 0);
}

extern "C" const char *gz_version(void) { return GECODE_VERSION; }
