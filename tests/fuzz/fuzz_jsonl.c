/* fuzz_jsonl.c -- a batch's JSONL results file (what --resume and --merge
 * reload): every record that is one is kept, every line that is not is
 * counted with a message, and the summaries of what was read are written. */
#include "fuzz.h"

#include "batch_records.h"
#include "batch_summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  if (fuzz_file(data, size, "jsonl", path)) return 0;
  batch_recs R = {0};
  int bad = 0;
  char first[512] = "", err[512] = "";
  if (batch_jsonl_load(path, &R, &bad, first, sizeof first, err, sizeof err) == 0) {
    if (bad) fuzz_require(first[0] != 0);
    for (int i = 0; i < R.n; i++) fuzz_require(R.rec[i].id && R.rec[i].status);
    const batch_rec **rows = malloc((size_t)(R.n > 0 ? R.n : 1) * sizeof *rows);
    for (int i = 0; i < R.n; i++) rows[i] = &R.rec[i];
    (void)batch_exit_code(rows, R.n);
    free(rows);
  } else {
    fuzz_require(err[0] != 0);
  }
  batch_recs_free(&R);
  unlink(path);
  return 0;
}
