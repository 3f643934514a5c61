/* The per-CPU BPF perf buffer set against real BPF_PROG_TEST_RUN output. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/syscall.h>

#include "rp_bpffs.h"
#include "rp_error.h"
#include "rp_perf.h"
#include "rp_perf_buffer.h"
#include "tests.h"

enum { MAX_EVENTS = 4000, MAX_CPU_IDS = 64 };

/* ---- round trip ---- */

typedef struct expect {
	uint32_t size;
	uint64_t k; /* event number = seq stamped by the program */
} expect;

typedef struct round_trip {
	int cpus[MAX_CPU_IDS];
	uint32_t ncpu;
	expect *exp[MAX_CPU_IDS];   /* per CPU index: expected events in order */
	uint32_t nexp[MAX_CPU_IDS];
	uint32_t got[MAX_CPU_IDS];
	uint64_t wrapped, lost, bad;
	uint64_t calls; /* sample batches (samples mode) */
	char why[200];
} round_trip;

static void rt_bad(round_trip *rt, const char *fmt, unsigned long long a, unsigned long long b)
{
	if (!rt->bad++)
		snprintf(rt->why, sizeof(rt->why), fmt, a, b);
}

static int cpu_index(const round_trip *rt, int cpu)
{
	for (uint32_t i = 0; i < rt->ncpu; i++)
		if (rt->cpus[i] == cpu)
			return (int)i;
	return -1;
}

/* One payload of raw_size bytes from cpu: the next expected event of that
 * CPU, every byte. */
static void rt_check(round_trip *rt, int cpu, const uint8_t *data, uint32_t raw_size)
{
	int ci = cpu_index(rt, cpu);
	const expect *e;

	if (ci < 0) {
		rt_bad(rt, "sample from unknown cpu %llu%llu", (unsigned long long)cpu, 0);
		return;
	}
	if (rt->got[ci] >= rt->nexp[ci]) {
		rt_bad(rt, "extra sample on cpu %llu after %llu", (unsigned long long)cpu,
		       rt->got[ci]);
		return;
	}
	e = &rt->exp[ci][rt->got[ci]++];
	if (raw_size != itest_raw_size(e->size)) {
		rt_bad(rt, "event %llu: raw size %llu", e->k, raw_size);
		return;
	}
	for (uint32_t i = 0; i < e->size; i++) {
		uint8_t want = itest_pattern(e->k, i);
		if (e->size >= 8 && i < 8)
			want = (uint8_t)(e->k >> (8 * i)); /* the stamped seq */
		if (data[i] != want) {
			rt_bad(rt, "event %llu: byte %llu differs", e->k, i);
			return;
		}
	}
}

static int rt_sample(void *p, int cpu, const void *data, uint32_t size)
{
	rt_check(p, cpu, data, size);
	return 0;
}

static int rt_samples(void *p, int cpu, const rp_payload *s, uint32_t n)
{
	round_trip *rt = p;

	rt->calls++;
	for (uint32_t i = 0; i < n; i++)
		rt_check(rt, cpu, s[i].data, s[i].size);
	return 0;
}

static int rt_lost(void *p, int cpu, uint64_t lost)
{
	round_trip *rt = p;
	(void)cpu;
	rt->lost += lost;
	return 0;
}

static const uint32_t rt_sizes[] = { 0, 1, 3, 4, 7, 8, 11, 12, 19, 20, 64, 100, 255,
                                     1000, 2047, 2048, 3000, 3996, 3999, 4000 };

/* Every payload arrives once, in order, with its bytes: through payload
 * mode (rp_perf_buffer_new_payload) or samples mode (_new_samples). */
static void round_trip_case(itest *t, bool samples)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	round_trip *rt = calloc(1, sizeof(*rt));
	rp_perf_buffer *pb = NULL;
	rp_perf_buffer_opts opts = { .data_pages = 2 };
	uint32_t n = itest_quick() ? 300 : MAX_EVENTS, total = 0;
	uint64_t rnd = 12345;
	int err;

	CHECK(src && rt, "calloc");
	ITEST_BPF_OPEN(&b);
	err = rp_online_cpus(rt->cpus, MAX_CPU_IDS, &rt->ncpu);
	CHECK(err == 0, "cpus");
	for (uint32_t i = 0; i < rt->ncpu; i++) {
		rt->exp[i] = calloc(n, sizeof(expect));
		CHECK(rt->exp[i], "calloc");
	}
	if (samples)
		err = rp_perf_buffer_new_samples(b.events_fd, &opts, rt_samples, rt_lost, rt, &pb);
	else
		err = rp_perf_buffer_new_payload(b.events_fd, &opts, rt_sample, rt_lost, rt, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	CHECK(rp_perf_buffer_ring_count(pb) == rt->ncpu, "ring count");

	for (uint32_t k = 0; k < n; k++) {
		uint32_t ci = k % rt->ncpu, size;
		rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
		size = (k % 3 == 0) ? (uint32_t)(rnd >> 33) % 4001
		                    : rt_sizes[k % (sizeof(rt_sizes) / sizeof(rt_sizes[0]))];
		if (k % rt->ncpu == 0 || rt->ncpu > 1)
			CHECK(itest_pin(rt->cpus[ci]) == 0, "pin");
		for (uint32_t i = 0; i < size; i++)
			src->data[i] = itest_pattern(k, i);
		err = itest_emit(&b, src, 1, size);
		CHECK(err == 0, "emit %u: %s", k, rp_strerror(err));
		CHECK(src->ok == k + 1, "event %u not output: err %lld", k,
		      (long long)src->last_err);
		rt->exp[ci][rt->nexp[ci]++] = (expect){ size, k };
		/* two 4 KiB records nearly fill an 8 KiB ring: consume often */
		if (k % 2 == 1) {
			err = rp_perf_buffer_consume(pb);
			CHECK(err >= 0, "consume: %s", rp_strerror(err));
			total += (uint32_t)err;
		}
		CHECK(rt->bad == 0, "%s", rt->why);
	}
	err = rp_perf_buffer_consume(pb);
	CHECK(err >= 0, "consume: %s", rp_strerror(err));
	total += (uint32_t)err;
	CHECK(rt->bad == 0, "%s", rt->why);
	for (uint32_t i = 0; i < rt->ncpu; i++) {
		rp_perf_stats st;
		CHECK(rt->got[i] == rt->nexp[i], "cpu %d: %u of %u delivered", rt->cpus[i],
		      rt->got[i], rt->nexp[i]);
		CHECK(rp_perf_buffer_stats(pb, rt->cpus[i], &st) == 0, "stats");
		CHECK(st.records == rt->nexp[i] && st.corrupt == 0 && st.lost == 0,
		      "cpu %d stats: %llu records %llu corrupt", rt->cpus[i],
		      (unsigned long long)st.records, (unsigned long long)st.corrupt);
		rt->wrapped += st.copied; /* the payloads that wrapped, handed over whole */
	}
	CHECK(total == n, "delivered %u of %u", total, n);
	CHECK(rt->lost == 0 && src->enospc == 0, "lost %llu", (unsigned long long)rt->lost);
	CHECK(rt->wrapped > 0, "no payload wrapped the ring end");
	CHECK(rp_perf_buffer_malformed(pb) == 0, "malformed");
	CHECK(rp_perf_buffer_stats(pb, 100000, &(rp_perf_stats){ 0 }) == -ENOENT, "stats cpu");
	CHECK(!samples || (rt->calls > 0 && rt->calls <= n), "%llu batch calls",
	      (unsigned long long)rt->calls);
	snprintf(t->msg, sizeof(t->msg), "%u events on %u CPUs exact, %llu wrapped the ring end",
	         n, rt->ncpu, (unsigned long long)rt->wrapped);
	if (samples)
		snprintf(t->msg + strlen(t->msg), sizeof(t->msg) - strlen(t->msg),
		         ", %llu batch calls", (unsigned long long)rt->calls);
out:
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	itest_unpin();
	if (rt)
		for (uint32_t i = 0; i < rt->ncpu; i++)
			free(rt->exp[i]);
	free(rt);
	free(src);
}

void test_round_trip(itest *t)
{
	round_trip_case(t, false);
}

void test_buffer_samples_round_trip(itest *t)
{
	round_trip_case(t, true);
}

/* ---- conservation under overload ---- */

typedef struct conserve {
	int cpu;
	uint64_t samples, lost_sum, lost_records;
	uint64_t next_seq; /* seq the next sample must carry, given LOST so far */
	uint64_t pending_lost;
	uint64_t bad;
	char why[160];
} conserve;

static int on_conserve(void *p, int cpu, const rp_record *rec)
{
	conserve *c = p;

	if (cpu != c->cpu) {
		if (!c->bad++)
			snprintf(c->why, sizeof(c->why), "record on cpu %d", cpu);
		return 0;
	}
	if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) != RP_OK) {
			if (!c->bad++)
				snprintf(c->why, sizeof(c->why), "bad LOST");
			return 0;
		}
		c->lost_sum += l.lost;
		c->lost_records++;
		c->pending_lost += l.lost;
	} else if (rec->type == RP_RECORD_SAMPLE) {
		rp_bpf_output out;
		uint64_t seq = 0;
		if (rp_bpf_output_view(rec, &out) != RP_OK || !rp_span_get_u64(out.data, 0, &seq)) {
			if (!c->bad++)
				snprintf(c->why, sizeof(c->why), "bad sample");
			return 0;
		}
		/* every drop before this sample was reported by the LOSTs since
		 * the previous sample (docs/abi.md) */
		if (seq != c->next_seq + c->pending_lost) {
			if (!c->bad++)
				snprintf(c->why, sizeof(c->why),
				         "seq %llu, expected %llu + lost %llu",
				         (unsigned long long)seq,
				         (unsigned long long)c->next_seq,
				         (unsigned long long)c->pending_lost);
		}
		c->next_seq = seq + 1;
		c->pending_lost = 0;
		c->samples++;
	} else if (!c->bad++) {
		snprintf(c->why, sizeof(c->why), "record type %u", rec->type);
	}
	return 0;
}

/* The end of a conservation run: drain what is left, flush the drops still
 * pending in the kernel (one write with room for LOST + record reports
 * them), and check conservation: every successful write delivered once,
 * the LOST counts summing to the -ENOSPC failures, no helper error else.
 * 0, or 1 once a failure was reported. */
static int conserve_finish(itest *t, itest_bpf *b, struct itest_source *src, rp_perf_buffer *pb,
                           const conserve *c)
{
	int err = rp_perf_buffer_consume(pb);

	CHECK(err >= 0, "consume: %s", rp_strerror(err));
	err = itest_emit(b, src, 1, 8);
	CHECK(err == 0, "flush emit: %s", rp_strerror(err));
	err = rp_perf_buffer_consume(pb);
	CHECK(err >= 0, "consume: %s", rp_strerror(err));
	CHECK(c->bad == 0, "%s", c->why);
	CHECK(src->other == 0, "helper errors other than ENOSPC: %llu (last %lld)",
	      (unsigned long long)src->other, (long long)src->last_err);
	CHECK(c->samples == src->ok, "delivered %llu, successes %llu",
	      (unsigned long long)c->samples, (unsigned long long)src->ok);
	CHECK(c->lost_sum == src->enospc, "LOST sum %llu, -ENOSPC failures %llu",
	      (unsigned long long)c->lost_sum, (unsigned long long)src->enospc);
	return 0;
out:
	return 1;
}

void test_conservation(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	rp_perf_buffer_opts opts = { .data_pages = 1 };
	conserve c;
	rp_perf_stats st;
	int ids[MAX_CPU_IDS];
	uint32_t ncpu = 0, runs = itest_quick() ? 20 : 200;
	int err;

	memset(&c, 0, sizeof(c));
	CHECK(src, "calloc");
	ITEST_BPF_OPEN(&b);
	CHECK(rp_online_cpus(ids, MAX_CPU_IDS, &ncpu) == 0, "cpus");
	c.cpu = ids[0];
	CHECK(itest_pin(c.cpu) == 0, "pin");
	err = rp_perf_buffer_new(b.events_fd, &opts, on_conserve, &c, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	/* 256 records of 200-odd bytes per run into a 4 KiB ring; the consumer
	 * drains only every third run and at most 7 records at a time */
	for (uint32_t r = 0; r < runs; r++) {
		uint32_t size = 24 + (r * 37) % 300;
		err = itest_emit(&b, src, ITEST_MAX_PER_RUN, size);
		CHECK(err == 0, "emit: %s", rp_strerror(err));
		if (r % 3 == 2) {
			for (uint32_t i = 0; i < rp_perf_buffer_ring_count(pb); i++) {
				if (rp_perf_buffer_ring_cpu(pb, i) != c.cpu)
					continue;
				err = rp_perf_buffer_consume_ring(pb, i);
				CHECK(err >= 0, "consume: %s", rp_strerror(err));
			}
		}
	}
	if (conserve_finish(t, &b, src, pb, &c))
		goto out;
	CHECK(src->enospc > 0, "no overload happened");
	CHECK(c.pending_lost == 0, "LOST after the last sample");
	CHECK(rp_perf_buffer_stats(pb, c.cpu, &st) == 0, "stats");
	CHECK(st.lost == c.lost_sum && st.lost_records == c.lost_records &&
	      st.records == c.samples + c.lost_records && st.corrupt == 0, "ring stats disagree");
	snprintf(t->msg, sizeof(t->msg),
	         "attempts %llu: delivered %llu == ok %llu; LOST sum %llu == ENOSPC %llu (%llu LOST records)",
	         (unsigned long long)src->seq, (unsigned long long)c.samples,
	         (unsigned long long)src->ok, (unsigned long long)c.lost_sum,
	         (unsigned long long)src->enospc, (unsigned long long)c.lost_records);
out:
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	itest_unpin();
	free(src);
}

/* ---- pause / resume ---- */

typedef struct order_log {
	int cpu;
	uint32_t type[8];
	uint64_t val[8];
	unsigned n;
	unsigned stop_at; /* stop the drain after this many records (0: never) */
} order_log;

static int on_order(void *p, int cpu, const rp_record *rec)
{
	order_log *o = p;
	if (cpu != o->cpu || o->n >= 8)
		return 0;
	o->type[o->n] = rec->type;
	o->val[o->n] = 0;
	if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) == RP_OK)
			o->val[o->n] = l.lost;
	} else {
		rp_bpf_output out;
		if (rp_bpf_output_view(rec, &out) == RP_OK)
			rp_span_get_u64(out.data, 0, &o->val[o->n]);
	}
	o->n++;
	return o->stop_at && o->n == o->stop_at;
}

void test_pause_resume(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	order_log o;
	int ids[MAX_CPU_IDS];
	uint32_t ncpu = 0;
	int err;

	memset(&o, 0, sizeof(o));
	CHECK(src, "calloc");
	ITEST_BPF_OPEN(&b);
	CHECK(rp_online_cpus(ids, MAX_CPU_IDS, &ncpu) == 0, "cpus");
	o.cpu = ids[0];
	CHECK(itest_pin(o.cpu) == 0, "pin");
	err = rp_perf_buffer_new(b.events_fd, NULL, on_order, &o, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	CHECK(rp_perf_buffer_pause(pb) == 0, "pause");
	CHECK(itest_emit(&b, src, 3, 16) == 0, "emit while paused");
	CHECK(src->enospc == 3 && src->ok == 0, "paused writes: ok %llu enospc %llu",
	      (unsigned long long)src->ok, (unsigned long long)src->enospc);
	CHECK(rp_perf_buffer_consume(pb) == 0, "records while paused");
	CHECK(rp_perf_buffer_resume(pb) == 0, "resume");
	CHECK(itest_emit(&b, src, 1, 16) == 0 && src->ok == 1, "emit after resume");
	CHECK(rp_perf_buffer_consume(pb) == 2, "expected LOST + sample");
	CHECK(o.n == 2 && o.type[0] == RP_RECORD_LOST && o.val[0] == 3, "first record type %u val %llu",
	      o.type[0], (unsigned long long)o.val[0]);
	CHECK(o.type[1] == RP_RECORD_SAMPLE && o.val[1] == 3, "then sample seq %llu",
	      (unsigned long long)o.val[1]);
	/* free deletes the map entries (the map fd stays open here, so the
	 * kernel's own cleanup on map-file release does not kick in) */
	rp_perf_buffer_free(pb);
	pb = NULL;
	CHECK(itest_emit(&b, src, 1, 16) == 0, "emit after free");
	CHECK(src->last_err == -ENOENT, "after free the slot gives %lld",
	      (long long)src->last_err);
out:
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	itest_unpin();
	free(src);
}

/* ---- bad maps ---- */

static int never(void *ctx, int cpu, const rp_record *rec)
{
	(void)ctx, (void)cpu, (void)rec;
	return 0;
}

void test_closed_map(itest *t)
{
	rp_perf_buffer *pb = (rp_perf_buffer *)1;
	int fd, err;

	fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, NULL, 4, 4, 64, NULL);
	SKIP_IF_REFUSED(fd, "bpf map create");
	CHECK(fd >= 0, "create: %s", rp_strerror(fd));
	close(fd);
	err = rp_perf_buffer_new(fd, NULL, never, NULL, &pb);
	CHECK(err == -EBADF, "closed fd gave %d (%s)", err, rp_strerror(err));
	CHECK(pb == NULL, "out not cleared");
	err = rp_perf_buffer_new(-1, NULL, never, NULL, &pb);
	CHECK(err == -EBADF, "fd -1 gave %d", err);
out:;
}

void test_wrong_map_type(itest *t)
{
	rp_perf_buffer *pb = NULL;
	int fd, err;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 64, NULL);
	SKIP_IF_REFUSED(fd, "bpf map create");
	CHECK(fd >= 0, "create: %s", rp_strerror(fd));
	err = rp_perf_buffer_new(fd, NULL, never, NULL, &pb);
	CHECK(err == RP_E_MAP_TYPE, "array map gave %d (%s)", err, rp_strerror(err));
	CHECK(pb == NULL, "out set");
out:
	if (fd >= 0)
		close(fd);
}

void test_map_too_small(itest *t)
{
	rp_perf_buffer *pb = NULL;
	rp_perf_buffer_opts bad = { .data_pages = 3 };
	int ids[MAX_CPU_IDS];
	uint32_t n = 0;
	int fd = -1, err;

	CHECK(rp_online_cpus(ids, MAX_CPU_IDS, &n) == 0, "cpus");
	fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, NULL, 4, 4, (uint32_t)ids[n - 1], NULL);
	SKIP_IF_REFUSED(fd, "bpf map create");
	if (ids[n - 1] == 0) {
		itest_skip(t, "one CPU: no map can be too small");
		goto out;
	}
	CHECK(fd >= 0, "create: %s", rp_strerror(fd));
	/* as libbpf: the CPUs that fit get a ring, the others are named */
	err = rp_perf_buffer_new(fd, NULL, never, NULL, &pb);
	CHECK(err == 0, "gave %d (%s)", err, rp_strerror(err));
	CHECK(rp_perf_buffer_ring_count(pb) == n - 1, "rings %u of %u cpus",
	      rp_perf_buffer_ring_count(pb), n);
	{
		int left[4] = { -1, -1, -1, -1 };
		CHECK(rp_perf_buffer_left_out(pb, left, 4) == 1 && left[0] == ids[n - 1],
		      "left out: %d", left[0]);
	}
	rp_perf_buffer_free(pb);
	pb = NULL;
	close(fd);
	/* no CPU fits: a raw set on CPU ids beyond a 1-entry map */
	fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, NULL, 4, 4, 1, NULL);
	CHECK(fd >= 0, "create");
	{
		struct perf_event_attr a;
		const int cpu = ids[n - 1];
		rp_perf_buffer_raw_opts ro = { .cpu_cnt = 1, .cpus = &cpu };
		rp_attr_init_bpf_output(&a);
		err = rp_perf_buffer_new_raw(fd, &a, &ro, never, NULL, &pb);
		CHECK(err == RP_E_MAP_SMALL && pb == NULL, "no cpu fits gave %d", err);
	}
	close(fd);
	fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, NULL, 4, 4, 64, NULL);
	CHECK(fd >= 0, "create");
	err = rp_perf_buffer_new(fd, &bad, never, NULL, &pb);
	CHECK(err == RP_E_PAGE_COUNT && pb == NULL, "3 pages gave %d", err);
	bad.data_pages = 0;
	bad.ring_flags = 1u << 7;
	err = rp_perf_buffer_new(fd, &bad, never, NULL, &pb);
	CHECK(err == -EINVAL && pb == NULL, "unknown flag bit gave %d", err);
	bad.ring_flags = RP_PERF_OVERWRITE;
	err = rp_perf_buffer_new(fd, &bad, never, NULL, &pb);
	CHECK(err == -EINVAL && pb == NULL, "overwrite flag on a set gave %d", err);
	err = rp_perf_buffer_new(fd, NULL, NULL, NULL, &pb);
	CHECK(err == -EINVAL && pb == NULL, "NULL callback gave %d", err);
out:
	if (fd >= 0)
		close(fd);
}

void test_pinned_poll(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	rp_perf_buffer_opts opts = { .data_pages = 4, .wakeup_bytes = 256 };
	order_log o;
	char path[64];
	int ids[MAX_CPU_IDS];
	uint32_t ncpu = 0;
	bool pinned = false;
	int err;

	memset(&o, 0, sizeof(o));
	snprintf(path, sizeof(path), "/sys/fs/bpf/rp_itest_%d", (int)getpid());
	CHECK(src, "calloc");
	ITEST_BPF_OPEN(&b);
	/* a fresh machine has no bpffs mounted: mount it as bpftool does */
	err = rp_bpffs_ensure(NULL);
	SKIP_IF_REFUSED(err, "mounting bpffs at " RP_BPFFS_DIR);
	CHECK(err >= 0, "bpffs at %s: %s", RP_BPFFS_DIR, rp_strerror(err));
	err = bpf_obj_pin(b.events_fd, path);
	if (err) {
		itest_skip(t, "cannot pin in /sys/fs/bpf: %s", rp_strerror(err));
		goto out;
	}
	pinned = true;
	CHECK(rp_online_cpus(ids, MAX_CPU_IDS, &ncpu) == 0, "cpus");
	o.cpu = ids[0];
	CHECK(itest_pin(o.cpu) == 0, "pin");
	err = rp_perf_buffer_new_pinned(path, &opts, on_order, &o, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new pinned: %s", rp_strerror(err));
	CHECK(rp_perf_buffer_epoll_fd(pb) >= 0, "epoll fd");
	CHECK(rp_perf_buffer_poll(pb, 0) == 0, "poll on empty rings");
	/* 2 x 32 bytes: below the 256-byte watermark, no wakeup */
	CHECK(itest_emit(&b, src, 2, 16) == 0 && src->ok == 2, "emit");
	CHECK(rp_perf_buffer_poll(pb, 50) == 0, "woken below the watermark");
	CHECK(itest_emit(&b, src, 10, 16) == 0 && src->ok == 12, "emit");
	err = rp_perf_buffer_poll(pb, 1000);
	CHECK(err == 12, "poll delivered %d", err);
	CHECK(o.n == 8 && o.val[0] == 0 && o.val[7] == 7, "order log");
	/* a callback's stop ends consume after that record */
	o.n = 0;
	o.stop_at = 2;
	CHECK(itest_emit(&b, src, 5, 16) == 0 && src->ok == 17, "emit");
	err = rp_perf_buffer_consume(pb);
	CHECK(err == 2 && o.n == 2 && o.val[0] == 12 && o.val[1] == 13, "stop: %d", err);
	o.n = 0;
	o.stop_at = 0;
	err = rp_perf_buffer_consume(pb);
	CHECK(err == 3 && o.n == 3 && o.val[0] == 14 && o.val[2] == 16, "rest: %d", err);
	rp_perf_buffer_free(pb);
	pb = NULL;
	/* free removed the map entries */
	err = itest_emit(&b, src, 1, 16);
	CHECK(err == 0 && src->last_err == -ENOENT, "after free the slot is %lld",
	      (long long)src->last_err);
	err = rp_perf_buffer_new_pinned("/sys/fs/bpf/rp_no_such_map", &opts, on_order, &o, &pb);
	CHECK(err == -ENOENT, "missing pin gave %d", err);
out:
	rp_perf_buffer_free(pb);
	if (pinned)
		unlink(path);
	itest_bpf_close(&b);
	itest_unpin();
	free(src);
}

/* ---- conservation with a concurrent consumer thread ---- */

typedef struct consumer_arg {
	rp_perf_buffer *pb;
	int stop; /* atomic */
	int err;
	uint64_t polls;
} consumer_arg;

static void *consumer_main(void *p)
{
	consumer_arg *a = p;

	while (!__atomic_load_n(&a->stop, __ATOMIC_ACQUIRE)) {
		int r = rp_perf_buffer_poll(a->pb, 5);
		a->polls++;
		if (r < 0 && r != -EINTR) {
			a->err = r;
			break;
		}
	}
	return NULL;
}

void test_conservation_concurrent(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	rp_perf_buffer_opts opts = { .data_pages = 2, .wakeup_events = 4 };
	consumer_arg ca = { 0 };
	pthread_t th;
	bool started = false;
	conserve c;
	int ids[MAX_CPU_IDS];
	uint32_t ncpu = 0, runs = itest_quick() ? 20 : 300;
	int err;

	memset(&c, 0, sizeof(c));
	CHECK(src, "calloc");
	ITEST_BPF_OPEN(&b);
	CHECK(rp_online_cpus(ids, MAX_CPU_IDS, &ncpu) == 0, "cpus");
	c.cpu = ids[0];
	err = rp_perf_buffer_new(b.events_fd, &opts, on_conserve, &c, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	ca.pb = pb;
	/* the consumer thread inherits no pinning; the producer pins itself */
	CHECK(pthread_create(&th, NULL, consumer_main, &ca) == 0, "thread");
	started = true;
	CHECK(itest_pin(c.cpu) == 0, "pin");
	for (uint32_t r = 0; r < runs; r++) {
		err = itest_emit(&b, src, ITEST_MAX_PER_RUN, 8 + (r * 53) % 400);
		CHECK(err == 0, "emit: %s", rp_strerror(err));
	}
	__atomic_store_n(&ca.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	started = false;
	CHECK(ca.err == 0, "consumer: %s", rp_strerror(ca.err));
	if (conserve_finish(t, &b, src, pb, &c))
		goto out;
	snprintf(t->msg, sizeof(t->msg),
	         "attempts %llu: delivered %llu == ok %llu; LOST sum %llu == ENOSPC %llu; %llu polls",
	         (unsigned long long)src->seq, (unsigned long long)c.samples,
	         (unsigned long long)src->ok, (unsigned long long)c.lost_sum,
	         (unsigned long long)src->enospc, (unsigned long long)ca.polls);
out:
	if (started) {
		__atomic_store_n(&ca.stop, 1, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
	}
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	itest_unpin();
	free(src);
}

/* ---- live events from the sys_enter raw tracepoint ---- */

typedef struct live_count {
	pid_t tgid, tid;
	uint64_t getppid, other, bad;
} live_count;

static int on_live(void *p, int cpu, const void *data, uint32_t size)
{
	live_count *lc = p;
	struct itest_live ev;

	(void)cpu;
	/* raw size for a 16-byte struct: round_up(20, 8) - 4 = 20 */
	if (size != itest_raw_size(sizeof(ev))) {
		lc->bad++;
		return 0;
	}
	memcpy(&ev, data, sizeof(ev));
	if ((pid_t)ev.tgid != lc->tgid)
		lc->bad++;
	else if (ev.syscall_nr == SYS_getppid && (pid_t)ev.tid == lc->tid)
		lc->getppid++;
	else
		lc->other++;
	return 0;
}

void test_live_sys_enter(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	struct bpf_link *link = NULL;
	live_count lc = { 0 };
	const unsigned calls = 200;
	int err;

	CHECK(src, "calloc");
	lc.tgid = getpid();
	lc.tid = (pid_t)syscall(SYS_gettid);
	ITEST_BPF_OPEN(&b);
	err = rp_perf_buffer_new_payload(b.events_fd, NULL, on_live, NULL, &lc, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	src->live_tgid = (uint32_t)lc.tgid;
	CHECK(itest_set_source(&b, src) == 0, "set target");
	link = bpf_program__attach_raw_tracepoint(b.live, "sys_enter");
	if (!link) {
		err = -errno;
		SKIP_IF_REFUSED(err, "raw tracepoint attach");
		CHECK(0, "attach: %s", rp_strerror(err));
	}
	for (unsigned i = 0; i < calls; i++) {
		syscall(SYS_getppid);
		if (i % 16 == 15) {
			err = rp_perf_buffer_poll(pb, 100);
			CHECK(err >= 0, "poll: %s", rp_strerror(err));
		}
	}
	bpf_link__destroy(link);
	link = NULL;
	CHECK(rp_perf_buffer_consume(pb) >= 0, "consume");
	CHECK(lc.bad == 0, "%llu records of another process or malformed",
	      (unsigned long long)lc.bad);
	CHECK(lc.getppid == calls, "saw %llu of %u getppid calls",
	      (unsigned long long)lc.getppid, calls);
	CHECK(rp_perf_buffer_malformed(pb) == 0, "malformed");
	snprintf(t->msg, sizeof(t->msg), "%llu getppid + %llu other syscalls seen live",
	         (unsigned long long)lc.getppid, (unsigned long long)lc.other);
out:
	if (link)
		bpf_link__destroy(link);
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	free(src);
}

/* ---- corruption policy and delivery counts of a set ---- */

typedef struct per_cpu_count {
	int cpus[MAX_CPU_IDS];
	unsigned got[MAX_CPU_IDS];
	uint32_t n;
	int ret; /* what the callbacks return */
} per_cpu_count;

static int pcc_record(void *p, int cpu, const rp_record *rec)
{
	per_cpu_count *c = p;
	(void)rec;
	for (uint32_t i = 0; i < c->n; i++)
		if (c->cpus[i] == cpu)
			c->got[i]++;
	return c->ret;
}

static int pcc_sample(void *p, int cpu, const void *data, uint32_t size)
{
	(void)data;
	(void)size;
	return pcc_record(p, cpu, NULL);
}

/* Emit count 16-byte records from cpu. */
static int emit_on(itest_bpf *b, struct itest_source *src, int cpu, uint32_t count)
{
	int err = itest_pin(cpu);
	if (!err)
		err = itest_emit(b, src, count, 16);
	itest_unpin();
	return err;
}

/* Store v as data_head of ring idx, through a second mapping of its fd. */
static int poke_head(rp_perf_buffer *pb, uint32_t idx, uint64_t delta)
{
	const size_t len = 9 * (size_t)sysconf(_SC_PAGESIZE); /* default 8 data pages */
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
	               rp_perf_buffer_ring_fd(pb, idx), 0);
	struct perf_event_mmap_page *pg = m;
	if (m == MAP_FAILED)
		return -errno;
	__atomic_store_n(&pg->data_head, pg->data_head + delta, __ATOMIC_RELEASE);
	munmap(m, len);
	return 0;
}

/* Strict set: a corrupt ring stops alone; the other rings keep draining,
 * the failing ring is named, an explicit resync lets it drain again.  The
 * rings prefetch (RP_PERF_PREFETCH), which changes no record delivered. */
void test_buffer_strict_no_starve(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer_opts o = { .ring_flags = RP_STRICT | RP_PERF_PREFETCH };
	rp_perf_buffer *pb = NULL;
	per_cpu_count c;
	int err, r;

	memset(&c, 0, sizeof(c));
	CHECK(src, "alloc");
	ITEST_BPF_OPEN(&b);
	err = rp_perf_buffer_new(b.events_fd, &o, pcc_record, &c, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	c.n = rp_perf_buffer_ring_count(pb);
	if (c.n < 2) {
		itest_skip(t, "one CPU: no other ring to starve");
		goto out;
	}
	for (uint32_t i = 0; i < c.n; i++)
		c.cpus[i] = rp_perf_buffer_ring_cpu(pb, i);
	CHECK(emit_on(&b, src, c.cpus[0], 3) == 0 && emit_on(&b, src, c.cpus[1], 3) == 0, "emit");
	CHECK(poke_head(pb, 0, 4) == 0, "poke data_head");
	r = rp_perf_buffer_consume(pb);
	CHECK(r < 0 && rp_perf_buffer_ring_error(pb, 0) == r && rp_perf_buffer_ring_error(pb, 1) == 0,
	      "consume gave %d, ring errors %d %d", r, rp_perf_buffer_ring_error(pb, 0),
	      rp_perf_buffer_ring_error(pb, 1));
	CHECK(c.got[0] == 3 && c.got[1] == 3, "delivered %u + %u (other ring starved?)", c.got[0],
	      c.got[1]);
	/* still stopped; the healthy ring goes on */
	CHECK(emit_on(&b, src, c.cpus[1], 2) == 0, "emit");
	r = rp_perf_buffer_consume(pb);
	CHECK(r == rp_perf_buffer_ring_error(pb, 0) && c.got[1] == 5, "second consume %d, %u", r,
	      c.got[1]);
	CHECK(rp_perf_buffer_resync_ring(pb, 0) == 0 && rp_perf_buffer_ring_error(pb, 0) == 0,
	      "resync");
	CHECK(emit_on(&b, src, c.cpus[0], 2) == 0, "emit");
	r = rp_perf_buffer_consume(pb);
	CHECK(r == 2 && c.got[0] == 5, "after resync: %d, ring 0 got %u", r, c.got[0]);
	/* a callback's error comes out of consume */
	c.ret = -42;
	CHECK(emit_on(&b, src, c.cpus[1], 1) == 0, "emit");
	r = rp_perf_buffer_consume(pb);
	CHECK(r == -42, "callback -42: consume gave %d", r);
out:
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	free(src);
}

typedef struct stop_count {
	uint32_t calls;
	uint32_t stop_every; /* return 1 on every stop_every-th call */
} stop_count;

static int on_stop(void *p, int cpu, const rp_record *rec)
{
	stop_count *c = p;
	(void)cpu;
	(void)rec;
	c->calls++;
	return c->calls % c->stop_every == 0;
}

/* A callback's stop leaves records in its ring and in the other ring epoll
 * reported; the kernel reports a perf fd once per wakeup, so the next poll
 * must drain them without a new wakeup (they were stranded before). */
void test_buffer_stop_no_strand(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	stop_count c = { 0, 100 };
	int cpus[2], err, r;

	CHECK(src, "alloc");
	ITEST_BPF_OPEN(&b);
	err = rp_perf_buffer_new(b.events_fd, NULL, on_stop, &c, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	if (rp_perf_buffer_ring_count(pb) < 2) {
		itest_skip(t, "one CPU: no second ring");
		goto out;
	}
	cpus[0] = rp_perf_buffer_ring_cpu(pb, 0);
	cpus[1] = rp_perf_buffer_ring_cpu(pb, 1);
	/* the first callback stops, then none */
	c.calls = 99;
	CHECK(emit_on(&b, src, cpus[0], 3) == 0 && emit_on(&b, src, cpus[1], 3) == 0, "emit");
	r = rp_perf_buffer_poll(pb, 1000);
	CHECK(r == 1 && c.calls == 100, "first poll: %d", r);
	r = rp_perf_buffer_poll(pb, 1000);
	CHECK(r == 5 && c.calls == 105, "second poll: %d (the records after the stop)", r);
	r = rp_perf_buffer_poll(pb, 0);
	CHECK(r == 0, "third poll: %d", r);
	/* every callback stops: one record per poll, none lost, then nothing */
	c.calls = 0;
	c.stop_every = 1;
	CHECK(emit_on(&b, src, cpus[0], 2) == 0 && emit_on(&b, src, cpus[1], 2) == 0, "emit");
	for (int i = 0; i < 4; i++) {
		r = rp_perf_buffer_poll(pb, 1000);
		CHECK(r == 1 && c.calls == (uint32_t)i + 1, "poll %d of a stopping callback: %d", i, r);
	}
	r = rp_perf_buffer_poll(pb, 0);
	CHECK(r == 0 && c.calls == 4, "then nothing: %d", r);
out:
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	free(src);
}

/* A set whose creation fails on its second CPU (out of fds) leaves the map
 * as it was: a live set on the same map keeps receiving on every CPU (the
 * failed set had overwritten and then deleted the live set's slots). */
void test_buffer_failed_new_keeps_map(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *live = NULL, *failed = NULL;
	per_cpu_count c;
	struct rlimit old, low;
	int err, r, lowest;

	memset(&c, 0, sizeof(c));
	CHECK(src, "alloc");
	ITEST_BPF_OPEN(&b);
	err = rp_perf_buffer_new(b.events_fd, NULL, pcc_record, &c, &live);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	c.n = rp_perf_buffer_ring_count(live);
	if (c.n < 2) {
		itest_skip(t, "one CPU: the second CPU's open cannot fail");
		goto out;
	}
	for (uint32_t i = 0; i < c.n; i++)
		c.cpus[i] = rp_perf_buffer_ring_cpu(live, i);
	/* room for the new set's epoll fd and its first CPU's fd only */
	lowest = dup(0);
	CHECK(lowest >= 0 && close(lowest) == 0 && getrlimit(RLIMIT_NOFILE, &old) == 0, "fds");
	low = old;
	low.rlim_cur = (rlim_t)lowest + 2;
	CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0, "setrlimit: %s", strerror(errno));
	err = rp_perf_buffer_new(b.events_fd, NULL, pcc_record, &c, &failed);
	CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0, "restore rlimit");
	CHECK(err == -EMFILE && failed == NULL, "the second set's new gave %d (%s)", err, rp_strerror(err));
	CHECK(emit_on(&b, src, c.cpus[0], 2) == 0 && emit_on(&b, src, c.cpus[1], 2) == 0, "emit");
	r = rp_perf_buffer_consume(live);
	CHECK(r == 4 && c.got[0] == 2 && c.got[1] == 2, "live set consumed %d (%u + %u), kernel ok %llu",
	      r, c.got[0], c.got[1], (unsigned long long)src->ok);
out:
	rp_perf_buffer_free(failed);
	rp_perf_buffer_free(live);
	itest_bpf_close(&b);
	free(src);
}

/* Payload mode counts callbacks, not ring records; a record that is no
 * BPF-output sample nor LOST (here the FORK/EXIT/COMM side-band records of
 * a task-tracking event redirected into the ring with SET_OUTPUT; the
 * kernel refuses writes to a perf data area, so records cannot be forged)
 * is counted as malformed on its CPU and skipped. */
void test_buffer_payload_counts(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	struct perf_event_attr a;
	rp_perf_stats st;
	per_cpu_count c;
	int side = -1, err, r;
	pid_t child;

	memset(&c, 0, sizeof(c));
	CHECK(src, "alloc");
	ITEST_BPF_OPEN(&b);
	err = rp_perf_buffer_new_payload(b.events_fd, NULL, pcc_sample, NULL, &c, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	c.n = rp_perf_buffer_ring_count(pb);
	for (uint32_t i = 0; i < c.n; i++)
		c.cpus[i] = rp_perf_buffer_ring_cpu(pb, i);
	rp_attr_init_sw(&a, PERF_COUNT_SW_DUMMY);
	a.task = 1;
	a.comm = 1;
	err = rp_perf_open(&a, -1, c.cpus[0], -1, 0, &side, NULL);
	CHECK(err == 0, "side-band event: %s", rp_strerror(err));
	err = rp_perf_set_output(side, rp_perf_buffer_ring_fd(pb, 0));
	CHECK(err == 0, "SET_OUTPUT: %s", rp_strerror(err));
	CHECK(itest_pin(c.cpus[0]) == 0, "pin");
	child = fork();
	if (child == 0)
		_exit(0);
	CHECK(child > 0 && waitpid(child, NULL, 0) == child, "fork");
	itest_unpin();
	CHECK(emit_on(&b, src, c.cpus[0], 2) == 0, "emit");
	r = rp_perf_buffer_consume(pb);
	CHECK(rp_perf_buffer_stats(pb, c.cpus[0], &st) == 0, "stats");
	CHECK(st.malformed >= 1 && st.records == 2 + st.malformed, "cpu %d: malformed %llu records %llu",
	      c.cpus[0], (unsigned long long)st.malformed, (unsigned long long)st.records);
	CHECK(r == 2 && c.got[0] == 2, "consume gave %d for %u deliveries (%llu ring records)", r,
	      c.got[0], (unsigned long long)st.records);
	CHECK(rp_perf_buffer_malformed(pb) == st.malformed, "set-wide sum");
	if (c.n > 1)
		CHECK(rp_perf_buffer_stats(pb, c.cpus[1], &st) == 0 && st.malformed == 0, "other cpu");
out:
	if (side >= 0)
		close(side);
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	free(src);
}

typedef struct batch_count {
	unsigned calls, records;
} batch_count;

static int bc_batch(void *p, int cpu, const rp_record *recs, uint32_t n)
{
	batch_count *bc = p;
	(void)cpu;
	(void)recs;
	bc->calls++;
	bc->records += n;
	return 0;
}

/* The batch API: one call per batch, every record. */
void test_buffer_batch(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	batch_count bc = { 0, 0 };
	int err, r;

	CHECK(src, "alloc");
	ITEST_BPF_OPEN(&b);
	err = rp_perf_buffer_new_batch(b.events_fd, NULL, bc_batch, &bc, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	CHECK(emit_on(&b, src, rp_perf_buffer_ring_cpu(pb, 0), 200) == 0 && src->ok == 200, "emit");
	r = rp_perf_buffer_consume(pb);
	CHECK(r == 200 && bc.records == 200 && bc.calls == itest_batch_calls(200, 32, RP_PERF_BATCH),
	      "consume %d: %u records in %u calls", r, bc.records, bc.calls);
out:
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	free(src);
}

/* ---- samples mode: LOST between sample batches ---- */

typedef struct seq_log {
	int cpu;
	unsigned n, calls, bad;
	char kind[128];   /* 'S' a sample, 'L' a LOST report */
	uint64_t val[128]; /* the stamped seq, or the lost count */
} seq_log;

static int sl_samples(void *p, int cpu, const rp_payload *s, uint32_t n)
{
	seq_log *l = p;

	l->calls++;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t seq = 0;
		/* 16-byte payloads: raw 20, the seq in the first 8 bytes */
		if (cpu != l->cpu || s[i].size != itest_raw_size(16) || l->n >= 128) {
			l->bad++;
			continue;
		}
		for (uint32_t k = 0; k < 8; k++)
			seq |= (uint64_t)((const uint8_t *)s[i].data)[k] << (8 * k);
		l->kind[l->n] = 'S';
		l->val[l->n++] = seq;
	}
	return 0;
}

static int sl_lost(void *p, int cpu, uint64_t lost)
{
	seq_log *l = p;

	if (cpu != l->cpu || l->n >= 128) {
		l->bad++;
		return 0;
	}
	l->kind[l->n] = 'L';
	l->val[l->n++] = lost;
	return 0;
}

/* 100 samples (seq 0 .. 99), 3 dropped while paused (seq 100 .. 102), 2
 * more (103, 104): the kernel's LOST record comes between them and goes to
 * the lost callback in ring order; the samples in batches of 64 + 36, then
 * 2; one call returns the 103 callbacks. */
void test_buffer_samples_lost_in_order(itest *t)
{
	itest_bpf b = { 0 };
	struct itest_source *src = calloc(1, sizeof(*src));
	rp_perf_buffer *pb = NULL;
	rp_perf_stats st;
	seq_log l;
	int ids[MAX_CPU_IDS];
	uint32_t ncpu = 0;
	int err, r;

	memset(&l, 0, sizeof(l));
	CHECK(src, "calloc");
	ITEST_BPF_OPEN(&b);
	CHECK(rp_online_cpus(ids, MAX_CPU_IDS, &ncpu) == 0, "cpus");
	l.cpu = ids[0];
	CHECK(itest_pin(l.cpu) == 0, "pin");
	CHECK(rp_perf_buffer_new_samples(b.events_fd, NULL, NULL, sl_lost, &l, &pb) == -EINVAL &&
	      pb == NULL, "samples NULL");
	err = rp_perf_buffer_new_samples(b.events_fd, NULL, sl_samples, sl_lost, &l, &pb);
	SKIP_IF_REFUSED(err, "perf_event_open");
	CHECK(err == 0, "new: %s", rp_strerror(err));
	CHECK(itest_emit(&b, src, 100, 16) == 0 && src->ok == 100, "emit 100: ok %llu",
	      (unsigned long long)src->ok);
	CHECK(rp_perf_buffer_pause(pb) == 0, "pause");
	CHECK(itest_emit(&b, src, 3, 16) == 0 && src->enospc == 3, "emit while paused: enospc %llu",
	      (unsigned long long)src->enospc);
	CHECK(rp_perf_buffer_resume(pb) == 0, "resume");
	CHECK(itest_emit(&b, src, 2, 16) == 0 && src->ok == 102, "emit 2: ok %llu",
	      (unsigned long long)src->ok);
	r = rp_perf_buffer_consume(pb);
	CHECK(r == 103 && l.n == 103 && l.bad == 0, "consume %d: %u logged, %u bad", r, l.n, l.bad);
	for (unsigned i = 0; i < 100; i++)
		CHECK(l.kind[i] == 'S' && l.val[i] == i, "entry %u: %c %llu", i, l.kind[i],
		      (unsigned long long)l.val[i]);
	CHECK(l.kind[100] == 'L' && l.val[100] == 3, "entry 100: %c %llu", l.kind[100],
	      (unsigned long long)l.val[100]);
	CHECK(l.kind[101] == 'S' && l.val[101] == 103 && l.kind[102] == 'S' && l.val[102] == 104,
	      "after the LOST: %c %llu, %c %llu", l.kind[101], (unsigned long long)l.val[101],
	      l.kind[102], (unsigned long long)l.val[102]);
	CHECK(l.calls == 4, "%u sample calls (64 + 32 + 4, then 2)", l.calls);
	CHECK(rp_perf_buffer_stats(pb, l.cpu, &st) == 0 && st.records == 103 && st.lost == 3 &&
	      st.lost_records == 1 && st.malformed == 0 && st.corrupt == 0 &&
	      st.record_bytes == 102 * 32 + 24, /* LOST: header, id, count (no sample_id_all) */
	      "stats: records %llu bytes %llu lost %llu/%llu malformed %llu",
	      (unsigned long long)st.records, (unsigned long long)st.record_bytes,
	      (unsigned long long)st.lost, (unsigned long long)st.lost_records,
	      (unsigned long long)st.malformed);
	CHECK(rp_perf_buffer_consume(pb) == 0, "drained twice");
out:
	rp_perf_buffer_free(pb);
	itest_bpf_close(&b);
	itest_unpin();
	free(src);
}
