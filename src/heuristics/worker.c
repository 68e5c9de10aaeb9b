/* worker.c -- the searches' one interface (worker.h). */
#include "worker.h"

#include <string.h>

void worker_io_init(worker_io *io) {
  memset(io, 0, sizeof *io);
  io->seed = 1;
}

int worker_report(const worker_io *io, const int *seq, int len, const char *name) {
  return io->report ? io->report(io->ctx, seq, len, name) : 0;
}

int worker_halted(const worker_io *io) {
  return (io->stop && *io->stop) || (io->halt && io->halt(io->ctx));
}

int worker_poll(const worker_io *io, int **seq, int *len) {
  return io->poll ? io->poll(io->ctx, seq, len) : 0;
}

void worker_tick(const worker_io *io, long long count) {
  if (io->tick) io->tick(io->ctx, count);
}
