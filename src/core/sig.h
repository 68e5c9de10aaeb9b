/* sig.h -- SIGINT/SIGTERM: the first asks the running solve to stop and
 * keep its best schedule; the second exits at once. */
#ifndef REMAT_SIG_H
#define REMAT_SIG_H

/* Install the handlers; returns the flag they set (nonzero: stop). */
volatile int *sig_install(void);
/* Put the default handlers back. */
void sig_restore(void);
/* Catch SIGINT and SIGTERM with handler (no flags, nothing masked). */
void sig_catch(void (*handler)(int signo));

#endif
