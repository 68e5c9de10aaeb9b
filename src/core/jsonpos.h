/* jsonpos.h -- where a key is in a JSON text.  jansson keeps no positions
 * for what it parsed, so a message about a member (a copies file's node
 * with a bad C_v) finds the member's key in the text again to name its
 * line and column, as a syntax error does. */
#ifndef REMAT_JSONPOS_H
#define REMAT_JSONPOS_H

#include <stddef.h>

/* The position (line and column from 1, of its opening quote) of member
 * `key` of the object that `member` names in the top-level object of
 * text[0..len) -- or of the top-level object itself when member is NULL
 * or the top-level object has no such member.  Returns 0, or -1 when the
 * text is not such an object or the key is not there. */
int jpos_key(const char *text, size_t len, const char *member, const char *key, int *line,
             int *col);

#endif
