/* A string -> index map (open addressing, grows), for interning names and
 * aggregating report rows by a composed key. */
#ifndef RPT_STRMAP_H
#define RPT_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct rpt_strmap {
	char **keys;    /* by index, in insertion order */
	uint32_t *slot; /* hash slots: index + 1, 0 free */
	size_t n, nslots;
} rpt_strmap;

/* The index of key, added if new (*added set then).  -1 without memory. */
long rpt_strmap_get(rpt_strmap *m, const char *key, int *added);
void rpt_strmap_free(rpt_strmap *m);

#endif
