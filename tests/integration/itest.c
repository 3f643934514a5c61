#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "itest.h"

void itest_skip(itest *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->status = TAP_SKIP;
}

bool itest_refused(int err)
{
	return err == -EPERM || err == -EACCES || err == -ENOSYS;
}

bool itest_quick(void)
{
	const char *q = getenv("RP_ITEST_QUICK");
	return q && *q && strcmp(q, "0") != 0;
}

static const char *bpf_path(void)
{
	const char *p = getenv("RP_ITEST_BPF");
	return p && *p ? p : "build/bpf/itest_emit.bpf.o";
}

int itest_bpf_open(itest_bpf *b)
{
	struct bpf_program *prog;
	struct bpf_map *m;
	int err;

	memset(b, 0, sizeof(*b));
	b->prog_fd = b->events_fd = b->source_fd = -1;
	libbpf_set_print(NULL);
	b->obj = bpf_object__open_file(bpf_path(), NULL);
	if (!b->obj) {
		err = -errno;
		return err ? err : -ENOENT;
	}
	err = bpf_object__load(b->obj);
	if (err)
		goto fail;
	prog = bpf_object__find_program_by_name(b->obj, "emit");
	m = bpf_object__find_map_by_name(b->obj, "events");
	if (!prog || !m) {
		err = -ENOENT;
		goto fail;
	}
	b->prog_fd = bpf_program__fd(prog);
	b->events_fd = bpf_map__fd(m);
	m = bpf_object__find_map_by_name(b->obj, "source");
	if (!m) {
		err = -ENOENT;
		goto fail;
	}
	b->source_fd = bpf_map__fd(m);
	b->live = bpf_object__find_program_by_name(b->obj, "live_sys_enter");
	if (!b->live) {
		err = -ENOENT;
		goto fail;
	}
	return 0;
fail:
	bpf_object__close(b->obj);
	b->obj = NULL;
	return err < 0 ? err : -EINVAL;
}

void itest_bpf_close(itest_bpf *b)
{
	if (b->obj)
		bpf_object__close(b->obj);
	b->obj = NULL;
}

int itest_set_source(const itest_bpf *b, const struct itest_source *s)
{
	__u32 key = 0;
	return bpf_map_update_elem(b->source_fd, &key, s, BPF_ANY);
}

int itest_get_source(const itest_bpf *b, struct itest_source *s)
{
	__u32 key = 0;
	return bpf_map_lookup_elem(b->source_fd, &key, s);
}

int itest_run(const itest_bpf *b)
{
	__u64 args[1] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args));
	int err = bpf_prog_test_run_opts(b->prog_fd, &opts);
	if (err)
		return err;
	return opts.retval ? -EPROTO : 0;
}

int itest_pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

void itest_unpin(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE; c++)
		CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static uint64_t thread_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

volatile uint64_t itest_sink; /* keeps the busy loop from being optimised out */

void itest_busy_ms(unsigned ms)
{
	uint64_t end = thread_ns() + (uint64_t)ms * 1000000u;
	while (thread_ns() < end)
		for (int i = 0; i < 1000; i++)
			itest_sink += (uint64_t)i;
}

int itest_emit(const itest_bpf *b, struct itest_source *src, uint32_t count, uint32_t size)
{
	int err;

	src->count = count;
	src->size = size;
	err = itest_set_source(b, src);
	if (err)
		return err;
	err = itest_run(b);
	if (err)
		return err;
	return itest_get_source(b, src);
}
