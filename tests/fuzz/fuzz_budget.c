/* fuzz_budget.c -- budget strings (--budget, manifests) against a few
 * peaks: a budget parsed is never negative, a fraction or percentage is
 * never above the peak, and every failure has a message. */
#include "fuzz.h"

#include "remat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  static const int64_t peaks[] = {1, 46319, 1000000000000LL, INT64_MAX};
  for (size_t i = 0; i < sizeof peaks / sizeof *peaks; i++) {
    int64_t b = -1;
    char err[512] = "";
    if (remat_budget_parse(text, peaks[i], &b, err, sizeof err) == 0) {
      fuzz_require(b >= 0);
      int is_size = 0;
      for (const char *p = text; *p; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) is_size = 1;
      /* "2." is a size, "2.0" a fraction (unit_budget_parse) */
      const char *dot = strchr(text, '.');
      if (!is_size && dot && dot[1] >= '0' && dot[1] <= '9' && !strchr(text, '%'))
        fuzz_require(b <= peaks[i]);
      if (strchr(text, '%')) fuzz_require(b <= peaks[i]);
    } else {
      fuzz_require(err[0] != 0);
    }
  }
  free(text);
  return 0;
}
