/* sig.c -- graceful interruption. */
#define _POSIX_C_SOURCE 200809L
#include "sig.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile int sig_flag;

static void sig_handler(int signo) {
  if (sig_flag) { /* second signal: give up at once */
    signal(signo, SIG_DFL);
    raise(signo);
    return;
  }
  sig_flag = 1;
  static const char msg[] =
      "\nremat: interrupted: stopping with the best schedule so far "
      "(again to abort)\n";
  ssize_t rc = write(2, msg, sizeof msg - 1);
  (void)rc;
}

void sig_catch(void (*handler)(int signo)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

volatile int *sig_install(void) {
  sig_catch(sig_handler);
  sig_flag = 0;
  return &sig_flag;
}

void sig_restore(void) {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
}
