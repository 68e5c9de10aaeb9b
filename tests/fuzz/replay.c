/* replay.c -- runs a fuzz target's LLVMFuzzerTestOneInput on files (for
 * `make check`: every committed corpus and crash input, on the normal
 * build).  Usage: replay_TARGET FILE|DIR...; exit 0 when every input ran. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = malloc(cap);
  size_t k;
  while ((k = fread(buf + len, 1, cap - len, f)) > 0) {
    len += k;
    if (len == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  int bad = 0, runs = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st)) {
      perror(argv[i]);
      bad = 1;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      bad |= replay_file(argv[i]);
      runs++;
      continue;
    }
    DIR *d = opendir(argv[i]);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      bad |= replay_file(path);
      runs++;
    }
    if (d) closedir(d);
  }
  printf("%s: %d inputs replayed\n", argv[0], runs);
  return bad;
}
