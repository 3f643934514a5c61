#include "symbols.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct ksym {
	uint64_t addr;
	char *name;
} ksym;

struct rpt_kallsyms {
	ksym *s;
	size_t n;
};

static int by_addr(const void *a, const void *b)
{
	const ksym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

rpt_kallsyms *rpt_kallsyms_load(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	rpt_kallsyms *k = calloc(1, sizeof(*k));
	size_t cap = 0;
	char line[512];
	bool nonzero = false;

	if (!f || !k)
		goto fail;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, name[256];
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		nonzero |= a != 0;
		if (k->n == cap) {
			cap = cap ? cap * 2 : 65536;
			ksym *p = realloc(k->s, cap * sizeof(*p));
			if (!p)
				goto fail;
			k->s = p;
		}
		k->s[k->n].addr = a;
		if (!(k->s[k->n].name = strdup(name)))
			goto fail;
		k->n++;
	}
	fclose(f);
	if (!nonzero) { /* kptr_restrict hides the addresses */
		rpt_kallsyms_free(k);
		return NULL;
	}
	qsort(k->s, k->n, sizeof(*k->s), by_addr);
	return k;
fail:
	if (f)
		fclose(f);
	rpt_kallsyms_free(k);
	return NULL;
}

const char *rpt_kallsyms_find(const rpt_kallsyms *k, uint64_t addr)
{
	if (!k || !k->n || addr < k->s[0].addr)
		return NULL;
	size_t lo = 0, hi = k->n; /* the last symbol at or below addr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (k->s[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return k->s[lo].name;
}

void rpt_kallsyms_free(rpt_kallsyms *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->s[i].name);
	free(k->s);
	free(k);
}

static void drop_dwfl(rpt_aspace *a)
{
	if (a->dwfl)
		dwfl_end(a->dwfl);
	a->dwfl = NULL;
}

int rpt_aspace_add(rpt_aspace *a, uint64_t start, uint64_t len, uint64_t pgoff, const char *file)
{
	if (a->n == a->cap) {
		size_t nc = a->cap ? a->cap * 2 : 16;
		rpt_map *p = realloc(a->maps, nc * sizeof(*p));
		if (!p)
			return -ENOMEM;
		a->maps = p;
		a->cap = nc;
	}
	char *copy = strdup(file);
	if (!copy)
		return -ENOMEM;
	a->maps[a->n++] = (rpt_map){ .start = start, .end = start + len, .pgoff = pgoff, .file = copy };
	drop_dwfl(a);
	return 0;
}

int rpt_aspace_copy(rpt_aspace *dst, const rpt_aspace *src)
{
	rpt_aspace_clear(dst);
	for (size_t i = 0; i < src->n; i++) {
		const rpt_map *m = &src->maps[i];
		int err = rpt_aspace_add(dst, m->start, m->end - m->start, m->pgoff, m->file);
		if (err)
			return err;
	}
	return 0;
}

void rpt_aspace_clear(rpt_aspace *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->maps[i].file);
	free(a->maps);
	drop_dwfl(a);
	memset(a, 0, sizeof(*a));
}

const rpt_map *rpt_aspace_find(const rpt_aspace *a, uint64_t addr)
{
	for (size_t i = a->n; i-- > 0;)
		if (addr >= a->maps[i].start && addr < a->maps[i].end)
			return &a->maps[i];
	return NULL;
}

/* The load bias of file mapped at start from file offset pgoff: the
 * PT_LOAD segment holding pgoff says which virtual address that offset has. */
static bool load_bias(const char *file, uint64_t start, uint64_t pgoff, uint64_t *bias)
{
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	bool ok = false;
	if (fd < 0)
		return false;
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t n;
	GElf_Ehdr eh;
	if (e && gelf_getehdr(e, &eh) && elf_getphdrnum(e, &n) == 0) {
		if (eh.e_type == ET_EXEC) {
			*bias = 0;
			ok = true;
		}
		for (size_t i = 0; i < n && !ok; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			uint64_t off0 = ph.p_offset & ~(uint64_t)0xfff;
			if (pgoff >= off0 && pgoff < ph.p_offset + ph.p_filesz) {
				*bias = start - pgoff - (ph.p_vaddr - ph.p_offset);
				ok = true;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ok;
}

static char *debuginfo_path;
static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

static void build_dwfl(rpt_aspace *a)
{
	Dwfl *d = dwfl_begin(&offline_callbacks);
	if (!d)
		return;
	dwfl_report_begin(d);
	for (size_t i = 0; i < a->n; i++) {
		const rpt_map *m = &a->maps[i];
		bool seen = false;
		uint64_t bias;
		if (m->file[0] != '/')
			continue; /* [vdso], //anon, ... */
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(a->maps[j].file, m->file);
		if (seen || !load_bias(m->file, m->start, m->pgoff, &bias))
			continue;
		const char *base = strrchr(m->file, '/');
		dwfl_report_elf(d, base + 1, m->file, -1, bias, true);
	}
	dwfl_report_end(d, NULL, NULL);
	a->dwfl = d;
}

const char *rpt_aspace_symbol(rpt_aspace *a, uint64_t addr)
{
	if (!a->dwfl)
		build_dwfl(a);
	if (!a->dwfl)
		return NULL;
	Dwfl_Module *mod = dwfl_addrmodule(a->dwfl, addr);
	return mod ? dwfl_module_addrname(mod, addr) : NULL;
}
