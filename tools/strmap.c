#include "strmap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static int rehash(rpt_strmap *m, size_t nslots)
{
	uint32_t *slot = calloc(nslots, sizeof(*slot));
	char **keys = realloc(m->keys, (nslots / 2) * sizeof(*keys));
	if (!slot || !keys) {
		free(slot);
		if (keys)
			m->keys = keys;
		return -1;
	}
	m->keys = keys;
	for (size_t i = 0; i < m->n; i++) {
		size_t j = hash(keys[i]) & (nslots - 1);
		while (slot[j])
			j = (j + 1) & (nslots - 1);
		slot[j] = (uint32_t)(i + 1);
	}
	free(m->slot);
	m->slot = slot;
	m->nslots = nslots;
	return 0;
}

long rpt_strmap_get(rpt_strmap *m, const char *key, int *added)
{
	if (added)
		*added = 0;
	if ((m->n + 1) * 2 > m->nslots && rehash(m, m->nslots ? m->nslots * 2 : 1024))
		return -1;
	size_t j = hash(key) & (m->nslots - 1);
	for (; m->slot[j]; j = (j + 1) & (m->nslots - 1))
		if (!strcmp(m->keys[m->slot[j] - 1], key))
			return m->slot[j] - 1;
	char *copy = strdup(key);
	if (!copy)
		return -1;
	m->keys[m->n] = copy;
	m->slot[j] = (uint32_t)(m->n + 1);
	if (added)
		*added = 1;
	return (long)m->n++;
}

void rpt_strmap_free(rpt_strmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->slot);
	memset(m, 0, sizeof(*m));
}
