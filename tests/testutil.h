/* testutil.h -- common includes for the cmocka unit tests. */
#ifndef REMAT_TESTUTIL_H
#define REMAT_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#endif
