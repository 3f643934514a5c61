/* Address -> (object, symbol) for `ringproof record`/`report`: kernel
 * addresses from /proc/kallsyms, user addresses per address space from the
 * mappings the ring reported, through elfutils' libdwfl. */
#ifndef RPT_SYMBOLS_H
#define RPT_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

typedef struct rpt_kallsyms rpt_kallsyms;
/* NULL when /proc/kallsyms cannot be read or shows only zero addresses. */
rpt_kallsyms *rpt_kallsyms_load(void);
/* The symbol containing addr, or NULL. */
const char *rpt_kallsyms_find(const rpt_kallsyms *k, uint64_t addr);
void rpt_kallsyms_free(rpt_kallsyms *k);

typedef struct rpt_map {
	uint64_t start, end, pgoff;
	char *file;
} rpt_map;

/* One process's address space: its mappings (latest last) and, built when
 * first needed, a libdwfl session over their files. */
typedef struct rpt_aspace {
	rpt_map *maps;
	size_t n, cap;
	void *dwfl; /* Dwfl *, NULL until needed or after a mapping changed */
} rpt_aspace;

int rpt_aspace_add(rpt_aspace *a, uint64_t start, uint64_t len, uint64_t pgoff, const char *file);
int rpt_aspace_copy(rpt_aspace *dst, const rpt_aspace *src);
void rpt_aspace_clear(rpt_aspace *a);
/* The mapping containing addr (the newest if several), or NULL. */
const rpt_map *rpt_aspace_find(const rpt_aspace *a, uint64_t addr);
/* The symbol name containing addr (in a file mapped here), or NULL. */
const char *rpt_aspace_symbol(rpt_aspace *a, uint64_t addr);

#endif
