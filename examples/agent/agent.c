/* The example agent: load agent.bpf.o with libbpf, attach it, make N
 * getppid() calls, and read the events back twice: through ringproof's perf
 * buffer API (the perf event array) and through its BPF ring buffer API.
 * Compiles as C11 and as C++ (agent.cpp includes this file).
 *
 *   cc agent.c $(pkg-config --cflags --libs ringproof) -lbpf -o agent
 *   ./agent agent.bpf.o [N]
 * Prints one line per API and exits 0 when every event arrived exactly once,
 * in order per CPU, with nothing lost. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include <ringproof.h>

#include "agent.h"

#define MAX_EVENTS 100000

typedef struct tally {
	uint64_t events, lost, bad;
	uint8_t *seen; /* seen[seq] counts deliveries of event seq */
	uint64_t n;    /* events expected */
} tally;

static void count(tally *t, const struct agent_event *ev)
{
	if (ev->pid != (uint32_t)getpid() || ev->seq >= t->n || t->seen[ev->seq]++) {
		t->bad++;
		return;
	}
	t->events++;
}

/* perf buffer: one payload per call, in one piece, as libbpf's callback
 * (size includes the kernel's padding: at least sizeof(ev)) */
static int on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct agent_event ev;

	(void)cpu;
	if (size < sizeof(ev)) {
		((tally *)ctx)->bad++;
		return 0;
	}
	memcpy(&ev, data, sizeof(ev)); /* not cast: a perf payload is 4 mod 8 aligned */
	count((tally *)ctx, &ev);
	return 0;
}

static int on_lost(void *ctx, int cpu, uint64_t lost)
{
	(void)cpu;
	((tally *)ctx)->lost += lost;
	return 0;
}

/* ring buffer, batch API: one call per batch of records */
static int on_rb_batch(void *ctx, const rp_payload *recs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct agent_event ev;
		if (recs[i].size != sizeof(ev)) {
			((tally *)ctx)->bad++;
			continue;
		}
		memcpy(&ev, recs[i].data, sizeof(ev));
		count((tally *)ctx, &ev);
	}
	return 0;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "agent: %s: %s\n", what, rp_strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_link *link;
	rp_perf_buffer *pb = NULL;
	rp_bpf_ringbuf_set *set = NULL;
	struct agent_config cfg;
	tally perf_t, rb_t;
	uint32_t zero = 0;
	uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 10) : 1000;
	int err, perf_fd, rb_fd, cfg_fd;

	if (argc < 2 || n == 0 || n > MAX_EVENTS) {
		fprintf(stderr, "usage: %s agent.bpf.o [N <= %d]\n", argv[0], MAX_EVENTS);
		return 2;
	}
	memset(&perf_t, 0, sizeof(perf_t));
	memset(&rb_t, 0, sizeof(rb_t));
	perf_t.n = rb_t.n = n;
	perf_t.seen = (uint8_t *)calloc(n, 1);
	rb_t.seen = (uint8_t *)calloc(n, 1);
	if (!perf_t.seen || !rb_t.seen)
		return fail("calloc", -ENOMEM);

	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj)
		return fail("open BPF object", -errno);
	err = bpf_object__load(obj);
	if (err)
		return fail("load BPF object", err);
	perf_fd = bpf_object__find_map_fd_by_name(obj, "perf_events");
	rb_fd = bpf_object__find_map_fd_by_name(obj, "rb_events");
	cfg_fd = bpf_object__find_map_fd_by_name(obj, "config");

	/* the readers first, then the producer */
	rp_perf_buffer_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.data_pages = 64;
	err = rp_perf_buffer_new_payload(perf_fd, &opts, on_sample, on_lost, &perf_t, &pb);
	if (err)
		return fail("rp_perf_buffer_new_payload", err);
	err = rp_bpf_ringbuf_set_new(&set);
	if (!err)
		err = rp_bpf_ringbuf_set_add_batch(set, rb_fd, on_rb_batch, &rb_t, 0);
	if (err < 0)
		return fail("rp_bpf_ringbuf_set_add_batch", err);

	memset(&cfg, 0, sizeof(cfg));
	cfg.pid = (uint32_t)getpid();
	if (bpf_map_update_elem(cfg_fd, &zero, &cfg, BPF_ANY))
		return fail("config", -errno);
	link = bpf_program__attach(bpf_object__find_program_by_name(obj, "on_sys_enter"));
	if (!link)
		return fail("attach raw_tp/sys_enter", -errno);

	for (uint64_t i = 0; i < n; i++) {
		(void)getppid();
		if (i % 256 == 255) { /* drain as we go, as an agent's loop would */
			if ((err = rp_perf_buffer_poll(pb, 0)) < 0)
				return fail("rp_perf_buffer_poll", err);
			if ((err = rp_bpf_ringbuf_set_poll(set, 0)) < 0)
				return fail("rp_bpf_ringbuf_set_poll", err);
		}
	}
	bpf_link__destroy(link);
	while ((err = rp_perf_buffer_consume(pb)) > 0)
		;
	if (err < 0)
		return fail("rp_perf_buffer_consume", err);
	while ((err = rp_bpf_ringbuf_set_consume(set)) > 0)
		;
	if (err < 0)
		return fail("rp_bpf_ringbuf_set_consume", err);
	if (bpf_map_lookup_elem(cfg_fd, &zero, &cfg))
		return fail("config read", -errno);

	printf("perf buffer: %llu of %llu events, %llu lost, %llu bad (BPF-side failures %llu)\n",
	       (unsigned long long)perf_t.events, (unsigned long long)cfg.seq,
	       (unsigned long long)perf_t.lost, (unsigned long long)perf_t.bad,
	       (unsigned long long)cfg.perf_fail);
	printf("ring buffer: %llu of %llu events, %llu bad (BPF-side failures %llu)\n",
	       (unsigned long long)rb_t.events, (unsigned long long)cfg.seq,
	       (unsigned long long)rb_t.bad, (unsigned long long)cfg.rb_fail);
	rp_bpf_ringbuf_set_free(set);
	rp_perf_buffer_free(pb);
	bpf_object__close(obj);
	const int ok = cfg.seq == n && perf_t.events == n && rb_t.events == n && !perf_t.bad &&
	               !rb_t.bad && !perf_t.lost && !cfg.perf_fail && !cfg.rb_fail;
	free(perf_t.seen);
	free(rb_t.seen);
	printf("%s\n", ok ? "agent: every event delivered exactly once" : "agent: MISMATCH");
	return ok ? 0 : 1;
}
