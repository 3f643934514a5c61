/* Replays a profile in time order: COMM/FORK/MMAP records build each
 * process's address space (never shared across pids), samples are resolved
 * in the address space of their own pid at their own time. */
#include "report.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rp_sample.h"
#include "strmap.h"
#include "symbols.h"

typedef struct row {
	uint32_t pid;
	const char *comm, *dso, *sym; /* interned */
	bool kernel;
	uint64_t period, samples;
} row;

typedef struct stack {
	uint32_t row;
	uint64_t samples;
	uint32_t n;
	uint32_t *frames; /* interned caller names, innermost first */
} stack;

/* one frame of a sample */
typedef struct frame {
	const char *dso, *sym; /* interned */
	uint32_t name;         /* sym's index in names */
	bool kernel;
} frame;

/* A string that grows as needed, without a limit: a cut key would merge
 * deep stacks, a cut indent drop the deeper branches of a tree.  After a
 * failed allocation it keeps what it held and says so in oom. */
typedef struct strbuf {
	char *s;
	size_t len, cap;
	bool oom;
} strbuf;

typedef struct replay {
	const rpt_profile *p;
	rpt_kallsyms *ksyms;
	rpt_strmap names;         /* every string shown */
	rpt_strmap pid_ix;        /* "pid" -> aspaces index */
	rpt_aspace *as;
	size_t n_as, cap_as;
	rpt_strmap tid_ix;        /* "tid" -> comm (names index) in tid_comm */
	uint32_t *tid_comm;
	size_t cap_tc;
	rpt_strmap row_ix;
	row *rows;
	size_t cap_rows;
	rpt_strmap stack_ix;
	stack *stacks;
	size_t cap_stacks;
	rpt_strmap folded_ix;
	uint64_t *folded;
	size_t cap_folded;
	uint64_t total_period, total_samples;
	frame *f;                 /* the frames of the sample at hand */
	size_t cap_f;
	strbuf key;               /* the key at hand */
} replay;

static int grow(void **a, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 256;
	void *q = realloc(*a, nc * elem);
	if (!q)
		return -ENOMEM;
	memset((char *)q + *cap * elem, 0, (nc - *cap) * elem);
	*a = q;
	*cap = nc;
	return 0;
}

static const char *intern(replay *r, const char *s)
{
	long i = rpt_strmap_get(&r->names, s, NULL);
	return i < 0 ? "?" : r->names.keys[i];
}

static rpt_aspace *aspace(replay *r, uint32_t pid)
{
	char k[16];
	int added;
	snprintf(k, sizeof(k), "%u", pid);
	long i = rpt_strmap_get(&r->pid_ix, k, &added);
	if (i < 0 || grow((void **)&r->as, &r->cap_as, (size_t)i, sizeof(*r->as)))
		return NULL;
	return &r->as[i];
}

static void set_comm(replay *r, uint32_t tid, const char *comm)
{
	char k[16];
	snprintf(k, sizeof(k), "%u", tid);
	long i = rpt_strmap_get(&r->tid_ix, k, NULL);
	long c = rpt_strmap_get(&r->names, comm, NULL);
	if (i < 0 || c < 0 || grow((void **)&r->tid_comm, &r->cap_tc, (size_t)i, sizeof(uint32_t)))
		return;
	r->tid_comm[i] = (uint32_t)c + 1;
}

static const char *get_comm(replay *r, uint32_t tid)
{
	char k[16];
	snprintf(k, sizeof(k), "%u", tid);
	int added;
	long i = rpt_strmap_get(&r->tid_ix, k, &added);
	if (i < 0 || grow((void **)&r->tid_comm, &r->cap_tc, (size_t)i, sizeof(uint32_t)) || !r->tid_comm[i])
		return NULL;
	return r->names.keys[r->tid_comm[i] - 1];
}

static void on_task_ev(replay *r, const rpt_task_ev *e)
{
	rpt_aspace *a;
	if (e->type == RPT_EV_COMM) {
		if (e->exec && (a = aspace(r, e->pid)))
			rpt_aspace_clear(a); /* exec: a new address space */
		set_comm(r, e->tid, e->name);
	} else if (e->type == RPT_EV_MAP) {
		if ((a = aspace(r, e->pid)))
			rpt_aspace_add(a, e->start, e->len, e->pgoff, e->name);
	} else if (e->type == RPT_EV_FORK) {
		const char *pc = get_comm(r, e->ppid);
		if (e->pid != e->ppid) { /* a new process: a copy of its parent's mappings */
			rpt_aspace *parent = aspace(r, e->ppid), *child = aspace(r, e->pid);
			parent = aspace(r, e->ppid); /* the array may have moved */
			if (parent && child && parent != child)
				rpt_aspace_copy(child, parent);
		}
		if (pc && !get_comm(r, e->tid))
			set_comm(r, e->tid, pc);
	}
}

/* (object, symbol) of one frame; adj: look up addr - 1 (a return address) */
static void resolve(replay *r, uint32_t pid, bool kernel, uint64_t addr, bool adj,
                    const char **dso, const char **sym)
{
	char buf[512];
	uint64_t look = adj && addr ? addr - 1 : addr;
	if (kernel) {
		const char *s = rpt_kallsyms_find(r->ksyms, look);
		*dso = "[kernel.kallsyms]";
		if (s) {
			*sym = intern(r, s);
		} else {
			snprintf(buf, sizeof(buf), "[unknown] [kernel.kallsyms]+%#" PRIx64, addr);
			*sym = intern(r, buf);
		}
		return;
	}
	rpt_aspace *a = aspace(r, pid);
	const rpt_map *m = a ? rpt_aspace_find(a, addr) : NULL;
	if (!m) {
		*dso = "[unknown]";
		snprintf(buf, sizeof(buf), "[unknown] %#" PRIx64, addr);
		*sym = intern(r, buf);
		return;
	}
	const char *base = strrchr(m->file, '/');
	base = base && m->file[0] == '/' ? base + 1 : m->file;
	*dso = intern(r, base);
	const char *s = rpt_aspace_symbol(a, look);
	if (s) {
		*sym = intern(r, s);
	} else {
		snprintf(buf, sizeof(buf), "[unknown] %s+%#" PRIx64, base, addr - m->start + m->pgoff);
		*sym = intern(r, buf);
	}
}

static int frames_room(replay *r, size_t n)
{
	if (n <= r->cap_f)
		return 0;
	frame *q = realloc(r->f, n * sizeof(*q));
	if (!q)
		return -ENOMEM;
	r->f = q;
	r->cap_f = n;
	return 0;
}

static int strbuf_add(strbuf *b, const char *s, size_t n)
{
	if (b->len + n >= b->cap) {
		size_t nc = b->cap ? b->cap : 256;
		while (b->len + n >= nc)
			nc *= 2;
		char *q = realloc(b->s, nc);
		if (!q) {
			b->oom = true;
			return -ENOMEM;
		}
		b->s = q;
		b->cap = nc;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
	return 0;
}

/* Back to the first len bytes. */
static void strbuf_cut(strbuf *b, size_t len)
{
	b->len = len;
	b->s[len] = 0;
}

static void key_num(strbuf *k, const char *sep, unsigned long v)
{
	char b[32];
	strbuf_add(k, b, (size_t)snprintf(b, sizeof(b), "%s%lu", sep, v));
}

/* One folded frame after sep: a space would split the line's fields and a
 * ';' its frames, so both (and control bytes) become '_'. */
static void key_folded(strbuf *k, const char *sep, const char *f)
{
	bool unknown = !strncmp(f, "[unknown] ", 10);
	strbuf_add(k, sep, strlen(sep));
	size_t at = k->len;
	if (unknown) {
		strbuf_add(k, "[", 1);
		f += 10;
	}
	strbuf_add(k, f, strlen(f));
	if (unknown)
		strbuf_add(k, "]", 1);
	for (size_t i = at; i < k->len; i++)
		if ((unsigned char)k->s[i] <= ' ' || k->s[i] == ';' || k->s[i] == 0x7f)
			k->s[i] = '_';
}

static int on_sample(replay *r, const rpt_sample_rec *s)
{
	const char *comm = get_comm(r, s->tid);
	if (!comm)
		comm = get_comm(r, s->pid);
	if (!comm)
		comm = "[unknown]";
	/* the frames in callee-to-caller order, with their mode */
	uint16_t mode = s->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = mode == PERF_RECORD_MISC_KERNEL;
	if (frames_room(r, s->nframes))
		return -ENOMEM;
	frame *f = r->f;
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->nframes; i++) {
		uint64_t a = s->frames[i];
		if (rp_callchain_is_context(a)) {
			kernel = a == (uint64_t)PERF_CONTEXT_KERNEL;
			continue;
		}
		/* No caller returns to address 0: a frame-pointer walk that read 0
		 * followed a frame pointer the code used as data (libc has no frame
		 * pointers), and the kernel may repeat it up to its depth limit. */
		if (a == 0 && n > 0)
			continue;
		resolve(r, s->pid, kernel, a, n > 0, &f[n].dso, &f[n].sym);
		long ni = rpt_strmap_get(&r->names, f[n].sym, NULL);
		if (ni < 0)
			return -ENOMEM;
		f[n].name = (uint32_t)ni;
		f[n].kernel = kernel;
		n++;
	}
	if (!n)
		return 0;
	strbuf *k = &r->key;
	k->len = 0;
	long ci = rpt_strmap_get(&r->names, comm, NULL), di = rpt_strmap_get(&r->names, f[0].dso, NULL);
	key_num(k, "", s->pid);
	key_num(k, "\t", (unsigned long)ci);
	key_num(k, "\t", (unsigned long)di);
	key_num(k, "\t", f[0].kernel);
	key_num(k, "\t", f[0].name);
	int added;
	long ri = k->oom || ci < 0 || di < 0 ? -1 : rpt_strmap_get(&r->row_ix, k->s, &added);
	if (ri < 0 || grow((void **)&r->rows, &r->cap_rows, (size_t)ri, sizeof(*r->rows)))
		return -ENOMEM;
	row *w = &r->rows[ri];
	if (added)
		*w = (row){ .pid = s->pid, .comm = intern(r, comm), .dso = f[0].dso, .sym = f[0].sym, .kernel = f[0].kernel };
	w->period += s->period;
	w->samples++;
	r->total_period += s->period;
	r->total_samples++;

	/* the whole chain, for -g (per row) and --folded (per command) */
	k->len = 0;
	key_num(k, "", (unsigned long)ri);
	for (uint32_t i = 1; i < n; i++)
		key_num(k, "\t", f[i].name);
	long si = k->oom ? -1 : rpt_strmap_get(&r->stack_ix, k->s, &added);
	if (si < 0 || grow((void **)&r->stacks, &r->cap_stacks, (size_t)si, sizeof(*r->stacks)))
		return -ENOMEM;
	stack *st = &r->stacks[si];
	if (added) {
		st->row = (uint32_t)ri;
		st->n = n - 1;
		st->frames = malloc((n ? n : 1) * sizeof(uint32_t));
		if (!st->frames)
			return -ENOMEM;
		for (uint32_t i = 1; i < n; i++)
			st->frames[i - 1] = f[i].name;
	}
	st->samples++;

	k->len = 0;
	key_folded(k, "", comm);
	for (uint32_t i = n; i-- > 0;)
		key_folded(k, ";", f[i].sym);
	long fi = k->oom ? -1 : rpt_strmap_get(&r->folded_ix, k->s, NULL);
	if (fi < 0 || grow((void **)&r->folded, &r->cap_folded, (size_t)fi, sizeof(*r->folded)))
		return -ENOMEM;
	r->folded[fi]++;
	return 0;
}

/* replay order: by time; a task event before a sample of the same time */
typedef struct item {
	uint64_t time;
	uint32_t is_sample;
	uint32_t ix;
} item;

static int by_time(const void *a, const void *b)
{
	const item *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->is_sample != y->is_sample)
		return x->is_sample < y->is_sample ? -1 : 1;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

static const replay *sort_ctx;
static int row_order(const void *a, const void *b)
{
	const row *x = &sort_ctx->rows[*(const uint32_t *)a], *y = &sort_ctx->rows[*(const uint32_t *)b];
	if (x->period != y->period)
		return x->period > y->period ? -1 : 1;
	return strcmp(x->sym, y->sym);
}

/* the caller tree of one row: a trie over its stacks */
typedef struct tnode {
	uint32_t name;
	uint64_t samples;
	uint32_t child, next; /* indexes + 1 */
} tnode;

typedef struct tree {
	tnode *n;
	size_t len, cap;
} tree;

static uint32_t tree_child(tree *t, uint32_t parent, uint32_t name)
{
	uint32_t *link = &t->n[parent].child;
	while (*link && t->n[*link - 1].name != name)
		link = &t->n[*link - 1].next;
	if (*link)
		return *link - 1;
	if (grow((void **)&t->n, &t->cap, t->len, sizeof(*t->n)))
		return UINT32_MAX;
	link = &t->n[parent].child; /* t->n may have moved */
	while (*link)
		link = &t->n[*link - 1].next;
	t->n[t->len] = (tnode){ .name = name };
	*link = (uint32_t)++t->len;
	return (uint32_t)(t->len - 1);
}

static int tnode_busier(const void *a, const void *b, void *ctx)
{
	const tree *t = ctx;
	const tnode *x = &t->n[*(const uint32_t *)a], *y = &t->n[*(const uint32_t *)b];
	return x->samples > y->samples ? -1 : x->samples < y->samples;
}

/* The callers of node, each branch with its share; a node may have any
 * number of callers. */
static int tree_print(const replay *r, tree *t, uint32_t node, strbuf *in)
{
	for (;;) {
		uint32_t nk = 0, only = 0;
		for (uint32_t c = t->n[node].child; c; c = t->n[c - 1].next, nk++)
			only = c - 1;
		if (nk == 0)
			return 0;
		if (nk == 1) { /* a straight line of callers */
			node = only;
			printf("%s%s\n", in->s, r->names.keys[t->n[node].name]);
			continue;
		}
		uint32_t *kids = malloc(nk * sizeof(*kids));
		if (!kids)
			return -ENOMEM;
		nk = 0;
		for (uint32_t c = t->n[node].child; c; c = t->n[c - 1].next)
			kids[nk++] = c - 1;
		qsort_r(kids, nk, sizeof(kids[0]), tnode_busier, t);
		printf("%s|\n", in->s);
		int err = 0;
		size_t at = in->len;
		for (uint32_t i = 0; i < nk && !err; i++) {
			const tnode *k = &t->n[kids[i]];
			double pct = 100.0 * (double)k->samples / (double)(r->total_samples ? r->total_samples : 1);
			char head[48];
			/* line up under the name: "--NN.NN%--" is as wide as its text */
			int w = snprintf(head, sizeof(head), "--%.2f%%--", pct);
			printf("%s%s%s%s\n", in->s, i + 1 < nk ? "|" : " ", head, r->names.keys[k->name]);
			err = strbuf_add(in, i + 1 < nk ? "|" : " ", 1);
			for (int j = 0; j < w && !err; j++)
				err = strbuf_add(in, " ", 1);
			if (!err)
				err = tree_print(r, t, kids[i], in);
			strbuf_cut(in, at);
			if (!err && i + 1 < nk)
				printf("%s|\n", in->s);
		}
		free(kids);
		return err;
	}
}

static int print_callers(const replay *r, uint32_t ri)
{
	tree t = { 0 };
	strbuf in = { 0 }; /* the indent of the line at hand */
	int err = grow((void **)&t.n, &t.cap, 0, sizeof(*t.n));
	if (err)
		return err;
	t.n[0] = (tnode){ .name = (uint32_t)rpt_strmap_get((rpt_strmap *)&r->names, r->rows[ri].sym, NULL) };
	t.len = 1;
	for (size_t s = 0; s < r->stack_ix.n && !err; s++) {
		const stack *st = &r->stacks[s];
		if (st->row != ri)
			continue;
		uint32_t node = 0;
		t.n[0].samples += st->samples;
		for (uint32_t i = 0; i < st->n; i++) {
			node = tree_child(&t, node, st->frames[i]);
			if (node == UINT32_MAX) {
				err = -ENOMEM;
				break;
			}
			t.n[node].samples += st->samples;
		}
	}
	if (!err)
		err = strbuf_add(&in, "               ", 15);
	if (!err) {
		printf("            |\n            ---%s\n", r->rows[ri].sym);
		err = tree_print(r, &t, 0, &in);
		printf("\n");
	}
	free(in.s);
	free(t.n);
	return err;
}

static void print_json(const replay *r, const uint32_t *order, size_t nrows, const rpt_report_opts *o)
{
	const rpt_profile *p = r->p;
	printf("{\"event\":");
	rpt_json_str(stdout, p->event, sizeof(p->event));
	printf(",\"hz\":%" PRIu64 ",\"seconds\":%.3f,\"samples\":%" PRIu64 ",\"period\":%" PRIu64
	       ",\"lost\":%" PRIu64 ",\"corrupt\":%" PRIu64 ",\"entries\":[",
	       p->hz, p->secs, r->total_samples, r->total_period, p->lost, p->corrupt);
	for (size_t i = 0; i < nrows; i++) {
		const row *w = &r->rows[order[i]];
		printf("%s{\"overhead\":%.4f,\"samples\":%" PRIu64 ",\"period\":%" PRIu64 ",\"pid\":%u,\"command\":",
		       i ? "," : "", 100.0 * (double)w->period / (double)(r->total_period ? r->total_period : 1),
		       w->samples, w->period, w->pid);
		rpt_json_str(stdout, w->comm, 4096);
		fputs(",\"dso\":", stdout);
		rpt_json_str(stdout, w->dso, 4096);
		fputs(",\"symbol\":", stdout);
		rpt_json_str(stdout, w->sym, 4096);
		printf(",\"kernel\":%s", w->kernel ? "true" : "false");
		if (o->callchains) {
			fputs(",\"callchains\":[", stdout);
			bool first = true;
			for (size_t s = 0; s < r->stack_ix.n; s++) {
				const stack *st = &r->stacks[s];
				if (st->row != order[i])
					continue;
				printf("%s{\"samples\":%" PRIu64 ",\"callers\":[", first ? "" : ",", st->samples);
				for (uint32_t k = 0; k < st->n; k++) {
					if (k)
						fputc(',', stdout);
					rpt_json_str(stdout, r->names.keys[st->frames[k]], 4096);
				}
				fputs("]}", stdout);
				first = false;
			}
			fputc(']', stdout);
		}
		fputc('}', stdout);
	}
	fputs("]}\n", stdout);
}

static int print_report(replay *r, const rpt_report_opts *o)
{
	const rpt_profile *p = r->p;
	size_t nrows = r->row_ix.n;
	int err = 0;
	uint32_t *order = malloc((nrows ? nrows : 1) * sizeof(uint32_t));
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < nrows; i++)
		order[i] = (uint32_t)i;
	sort_ctx = r;
	qsort(order, nrows, sizeof(order[0]), row_order);
	if (o->json) {
		print_json(r, order, nrows, o);
	} else if (o->folded) {
		for (size_t i = 0; i < r->folded_ix.n; i++)
			printf("%s %" PRIu64 "\n", r->folded_ix.keys[i], r->folded[i]);
		if (!r->total_samples)
			fprintf(stderr, "%s: no samples\n", rpt_prog);
	} else if (!r->total_samples) {
		printf("no samples (%s, %.2f s, %" PRIu64 " lost)\n", p->event, p->secs, p->lost);
	} else {
		printf("# Samples: %" PRIu64 " of event '%s' at %" PRIu64 " Hz in %.2f s, %" PRIu64 " lost, %" PRIu64
		       " corrupt\n# Event count: %" PRIu64 "\n#\n",
		       r->total_samples, p->event, p->hz, p->secs, p->lost, p->corrupt, r->total_period);
		printf("# %9s  %-15s %7s  %-20s  %s\n", "Overhead", "Command", "Pid", "Shared Object", "Symbol");
		printf("# .........  ............... .......  ....................  ......\n#\n");
		for (size_t i = 0; i < nrows; i++) {
			const row *w = &r->rows[order[i]];
			printf("  %8.2f%%  %-15s %7u  %-20s  [%c] %s\n",
			       100.0 * (double)w->period / (double)(r->total_period ? r->total_period : 1), w->comm,
			       w->pid, w->dso, w->kernel ? 'k' : '.', w->sym);
			if (o->callchains && (err = print_callers(r, order[i])))
				break;
		}
	}
	free(order);
	return err;
}

int rpt_profile_report(const rpt_profile *p, const rpt_report_opts *o)
{
	replay r;
	int err = 0;
	memset(&r, 0, sizeof(r));
	r.p = p;
	r.ksyms = rpt_kallsyms_load();
	size_t n = p->n_ev + p->n_smp;
	item *it = malloc((n ? n : 1) * sizeof(*it));
	if (!it) {
		rpt_kallsyms_free(r.ksyms);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->n_ev; i++)
		it[i] = (item){ p->ev[i].time, 0, (uint32_t)i };
	for (size_t i = 0; i < p->n_smp; i++)
		it[p->n_ev + i] = (item){ p->smp[i].time, 1, (uint32_t)i };
	qsort(it, n, sizeof(*it), by_time);
	for (size_t i = 0; i < n && !err; i++) {
		if (it[i].is_sample)
			err = on_sample(&r, &p->smp[it[i].ix]);
		else
			on_task_ev(&r, &p->ev[it[i].ix]);
	}
	if (!err)
		err = print_report(&r, o);
	free(it);
	for (size_t i = 0; i < r.pid_ix.n; i++)
		rpt_aspace_clear(&r.as[i]);
	free(r.as);
	for (size_t i = 0; i < r.stack_ix.n; i++)
		free(r.stacks[i].frames);
	free(r.stacks);
	free(r.rows);
	free(r.folded);
	free(r.tid_comm);
	free(r.f);
	free(r.key.s);
	rpt_strmap_free(&r.names);
	rpt_strmap_free(&r.pid_ix);
	rpt_strmap_free(&r.tid_ix);
	rpt_strmap_free(&r.row_ix);
	rpt_strmap_free(&r.stack_ix);
	rpt_strmap_free(&r.folded_ix);
	rpt_kallsyms_free(r.ksyms);
	return err;
}

static void report_usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof report [-g] [--folded] [--json] FILE\n"
	        "Print a profile saved by 'ringproof record -o FILE' like 'perf report --stdio'.\n"
	        "User symbols are read from the mapped files, kernel symbols from this\n"
	        "machine's /proc/kallsyms.\n"
	        "\n"
	        "  -g, --call-graph  the callers of each row as a tree (needs record -g)\n"
	        "      --folded      one line per stack: comm;outermost;...;innermost COUNT\n"
	        "  -j, --json        one JSON object\n"
	        "  -h, --help        show this help\n");
}

int rpt_cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "call-graph", no_argument, NULL, 'g' },
		{ "folded", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	rpt_report_opts o = { 0 };
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":gjh", opts, NULL)) != -1) {
		switch (c) {
		case 'g': o.callchains = true; break;
		case 'f': o.folded = true; break;
		case 'j': o.json = true; break;
		case 'h':
			report_usage(stdout);
			return rpt_out_end("report", RPT_EXIT_OK);
		default:
			return rpt_option_error("report", c, argv, opts);
		}
	}
	if (optind + 1 != argc)
		return rpt_usage_error("report", "wants exactly one FILE (written by record -o FILE)");
	if (o.json + o.folded > 1)
		return rpt_usage_error("report", "--json and --folded are two output formats: pick one");
	FILE *f = fopen(argv[optind], "re");
	if (!f)
		return rpt_fail(argv[optind], -errno);
	rpt_profile p;
	char why[160];
	int err = rpt_profile_load(&p, f, why, sizeof(why));
	fclose(f);
	if (err == -EINVAL) {
		fprintf(stderr, "%s report: %s: %s\n", rpt_prog, argv[optind], why);
		return RPT_EXIT_FAIL;
	}
	if (err)
		return rpt_fail(argv[optind], err);
	if (o.callchains && !p.callchains)
		fprintf(stderr, "%s report: %s has no call chains (record it with -g)\n", rpt_prog, argv[optind]);
	err = rpt_profile_report(&p, &o);
	rpt_profile_free(&p);
	if (err)
		return rpt_fail("printing the report", err);
	return rpt_out_end("report", RPT_EXIT_OK);
}
