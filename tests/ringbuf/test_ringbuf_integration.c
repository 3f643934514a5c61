/* Real-kernel tests of the BPF ringbuf adapter, the overwrite perf ring
 * adapter and the backward non-overwrite (writable write_backward) ring
 * adapter, plus a synthetic (no kernel) test of the latter.  Usage: test_ringbuf_integration path/to/ringbuf_test.bpf.o
 * Prints TAP.  A test the kernel refuses (bpf(), perf_event_open) is a SKIP
 * with the reason. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rp_abi.h"
#include "rp_perf_backward.h"
#include "rp_error.h"
#include "rp_perf_overwrite.h"
#include "rp_perf.h"
#include "rp_perf_buffer.h"
#include "rp_bpf_ringbuf.h"
#include "rp_bpf_ringbuf_int.h"
#include "rp_views.h"

#include "../../bpf/ringbuf_test.bpf.h"
#include "../tap.h"
#include "rb_builder.h"

/* ---- the BPF fixture ---------------------------------------------------- */

static const char *bpf_path;
static int bpf_refused; /* bpf() itself refused: every BPF test skips */

typedef struct fixture {
	struct bpf_object *obj;
	int rb_fd, perf_fd, ctl_fd;
	int prog_rb, prog_perf;
} fixture;

static int fixture_open(fixture *f, uint32_t rb_size)
{
	memset(f, 0, sizeof *f);
	int err = tap_bpf_load(bpf_path, "rbt_rb", rb_size, &f->obj);
	if (err)
		return err;
	f->rb_fd = bpf_object__find_map_fd_by_name(f->obj, "rbt_rb");
	f->perf_fd = bpf_object__find_map_fd_by_name(f->obj, "perf_out");
	f->ctl_fd = bpf_object__find_map_fd_by_name(f->obj, "rbt_ctl_map");
	f->prog_rb = bpf_program__fd(bpf_object__find_program_by_name(f->obj, "rbt_ringbuf"));
	f->prog_perf = bpf_program__fd(bpf_object__find_program_by_name(f->obj, "rbt_perf"));

	struct rbt_ctl ctl;
	memset(&ctl, 0, sizeof ctl);
	for (int i = 0; i < RBT_PATTERN_LEN; i++)
		ctl.pattern[i] = (uint8_t)(i * 7 + 1);
	uint32_t key = 0;
	if (bpf_map_update_elem(f->ctl_fd, &key, &ctl, BPF_ANY) != 0) {
		err = -errno;
		bpf_object__close(f->obj);
		f->obj = NULL;
		return err;
	}
	return 0;
}

static void fixture_close(fixture *f)
{
	if (f->obj)
		bpf_object__close(f->obj);
	f->obj = NULL;
}

static int fixture_ctl(const fixture *f, struct rbt_ctl *ctl)
{
	uint32_t key = 0;
	return bpf_map_lookup_elem(f->ctl_fd, &key, ctl) == 0 ? 0 : -errno;
}

/* Run prog once producing n records; cpu >= 0 pins the run. */
static int fixture_run(int prog_fd, uint32_t n, int cpu)
{
	uint64_t args[1] = { n };
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = args, .ctx_size_in = sizeof args);
	if (cpu >= 0) {
		o.flags = BPF_F_TEST_RUN_ON_CPU;
		o.cpu = (uint32_t)cpu;
	}
	if (bpf_prog_test_run_opts(prog_fd, &o) != 0)
		return -errno;
	return o.retval == 0 ? 0 : -EIO;
}

/* ---- ringbuf record checker ------------------------------------------- */

/* Checks each delivered record against what the producer writes for its
 * seq (bpf/ringbuf_test.bpf.h), in order.  strict: no seq may be missing
 * except discarded ones (no drops expected). */
typedef struct rb_check {
	uint64_t next_seq;  /* smallest seq the next record may have */
	uint64_t delivered;
	bool strict;
	char err[256];
} rb_check;

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static int rb_check_fn(void *ctx, const void *data, uint32_t len)
{
	rb_check *c = ctx;
	const uint8_t *p = data;

	if (c->err[0])
		return 0;
	c->delivered++;
	if (len == 0) {
		/* zero-length output: seq not carried; the next zero kind at or after next_seq */
		uint64_t s = c->next_seq;
		while (RBT_KIND(s) != RBT_ZERO) {
			if (c->strict && RBT_KIND(s) != RBT_DISCARD40) {
				snprintf(c->err, sizeof c->err, "zero-length record where seq %llu expected",
				         (unsigned long long)s);
				return 0;
			}
			s++;
		}
		c->next_seq = s + 1;
		return 0;
	}
	if (len < 8) {
		snprintf(c->err, sizeof c->err, "record of %u bytes", len);
		return 0;
	}
	const uint64_t seq = rd64(p);
	if (seq < c->next_seq) {
		snprintf(c->err, sizeof c->err, "seq %llu after %llu: out of order or duplicate",
		         (unsigned long long)seq, (unsigned long long)c->next_seq);
		return 0;
	}
	if (c->strict) {
		for (uint64_t s = c->next_seq; s < seq; s++)
			if (RBT_KIND(s) != RBT_DISCARD40) {
				snprintf(c->err, sizeof c->err, "seq %llu missing", (unsigned long long)s);
				return 0;
			}
	}
	c->next_seq = seq + 1;
	switch (RBT_KIND(seq)) {
	case RBT_OUTPUT:
		if (len != RBT_OUTPUT_LEN(seq))
			goto bad;
		for (uint32_t i = 8; i < len; i++)
			if (p[i] != (uint8_t)(i * 7 + 1))
				goto bad;
		return 0;
	case RBT_RESERVE24:
		if (len != 24 || rd64(p + 8) != RBT_MAGIC24 || rd64(p + 16) != ~seq)
			goto bad;
		return 0;
	case RBT_RESERVE13:
		if (len != 13 || p[8] != 0xa0 || p[12] != 0xa4)
			goto bad;
		return 0;
	default:
		goto bad; /* a discarded or zero-length record with a seq */
	}
bad:
	snprintf(c->err, sizeof c->err, "seq %llu (kind %d): bad length %u or content",
	         (unsigned long long)seq, RBT_KIND(seq), len);
	return 0;
}

/* ---- tests ------------------------------------------------------------- */

/* The batch API's records through the same check, in order (a discarded
 * record delivered fails its kind check). */
static int rb_check_batch_fn(void *ctx, const rp_payload *recs, uint32_t n)
{
	rb_check *c = ctx;

	if (n == 0 || n > RP_BPF_RINGBUF_BATCH) {
		snprintf(c->err, sizeof c->err, "batch of %u records", n);
		return 0;
	}
	for (uint32_t i = 0; i < n && !c->err[0]; i++)
		rb_check_fn(c, recs[i].data, recs[i].size);
	return 0;
}

/* 4,000 records of every kind (discarded ones among them) through the
 * per-record API (batch false) or the batch API, the ring wrapping several
 * times: each delivered once, in order, each discarded one counted. */
static void ringbuf_roundtrip(tcase *t, bool batch)
{
	fixture f;
	rp_bpf_ringbuf rb;
	rb_check chk = { .strict = true };
	bool mapped = false;
	int err = fixture_open(&f, 64 * 1024);
	if (bpf_refused) {
		tskip(t, "bpf()", bpf_refused);
		return;
	}
	CHECK(err == 0, "fixture: %s", rp_strerror(err));
	err = batch ? rp_bpf_ringbuf_map_batch(&rb, f.rb_fd, rb_check_batch_fn, &chk, RP_STRICT)
	            : rp_bpf_ringbuf_map(&rb, f.rb_fd, rb_check_fn, &chk, RP_STRICT);
	CHECK(err == 0, "rp_bpf_ringbuf_map: %s", rp_strerror(err));
	mapped = true;
	CHECK(rb.data.size == 64 * 1024, "data size %llu", (unsigned long long)rb.data.size);

	/* 40 runs x 100 records, ~110 bytes average: the ring wraps several times */
	for (int run = 0; run < 40; run++) {
		err = fixture_run(f.prog_rb, 100, -1);
		CHECK(err == 0, "test run: %s", rp_strerror(err));
		int n = rp_bpf_ringbuf_consume(&rb, 0);
		CHECK(n >= 0, "consume: %s", rp_strerror(n));
		CHECK(!chk.err[0], "%s", chk.err);
	}
	struct rbt_ctl ctl;
	CHECK(fixture_ctl(&f, &ctl) == 0, "ctl lookup");
	CHECK(ctl.seq == 4000, "seq %llu", (unsigned long long)ctl.seq);
	CHECK(ctl.dropped == 0, "dropped %llu with a large ring", (unsigned long long)ctl.dropped);
	CHECK(chk.delivered == ctl.submitted, "delivered %llu, submitted %llu",
	      (unsigned long long)chk.delivered, (unsigned long long)ctl.submitted);
	CHECK(rb.stats.records == ctl.submitted, "stats: %llu records, submitted %llu",
	      (unsigned long long)rb.stats.records, (unsigned long long)ctl.submitted);
	CHECK(rb.stats.discarded == ctl.discarded, "discarded seen %llu, produced %llu",
	      (unsigned long long)rb.stats.discarded, (unsigned long long)ctl.discarded);
	CHECK(ctl.discarded == 1000, "discarded %llu", (unsigned long long)ctl.discarded);
	CHECK(chk.next_seq == 4000 || chk.next_seq == 3999, "last seq %llu",
	      (unsigned long long)chk.next_seq);
	CHECK(rp_bpf_ringbuf_producer(&rb) == rp_bpf_ringbuf_consumer(&rb), "consumer not caught up");
	CHECK(rp_bpf_ringbuf_producer(&rb) > 2 * rb.data.size, "ring did not wrap");
	CHECK(rb.stats.corrupt == 0 && rb.stats.busy_stops == 0, "corrupt %llu busy %llu",
	      (unsigned long long)rb.stats.corrupt, (unsigned long long)rb.stats.busy_stops);
out:
	if (mapped)
		rp_bpf_ringbuf_unmap(&rb);
	fixture_close(&f);
}

static void test_ringbuf_roundtrip(tcase *t)
{
	ringbuf_roundtrip(t, false);
}

static void test_ringbuf_roundtrip_batch(tcase *t)
{
	ringbuf_roundtrip(t, true);
}

/* Conservation under overload: one-page ring, producer thread far faster
 * than the consumer.  delivered == submitted, and every seq is delivered,
 * discarded or counted by the BPF-side drop counter. */
typedef struct producer_arg {
	int prog_fd;
	uint32_t per_run;
	int runs;
	int cpu;
	int err;
	volatile int stop;
	uint32_t sleep_us;
} producer_arg;

static void *producer_main(void *p)
{
	producer_arg *a = p;
	for (int i = 0; i < a->runs && !a->stop; i++) {
		int err = fixture_run(a->prog_fd, a->per_run, a->cpu);
		if (err) {
			a->err = err;
			break;
		}
		if (a->sleep_us)
			usleep(a->sleep_us);
	}
	return NULL;
}

static void test_ringbuf_conservation(tcase *t)
{
	fixture f1, f2;
	rp_bpf_ringbuf_set *set = NULL;
	rb_check c1 = { .strict = false }, c2 = { .strict = false };
	bool have2 = false;
	int err = fixture_open(&f1, 4096);
	if (bpf_refused) {
		tskip(t, "bpf()", bpf_refused);
		return;
	}
	CHECK(err == 0, "fixture: %s", rp_strerror(err));
	err = fixture_open(&f2, 8192);
	CHECK(err == 0, "fixture 2: %s", rp_strerror(err));
	have2 = true;
	CHECK(rp_bpf_ringbuf_set_new(&set) == 0, "set_new");
	CHECK(rp_bpf_ringbuf_set_add(set, f1.rb_fd, rb_check_fn, &c1, 0) == 0, "add 1");
	CHECK(rp_bpf_ringbuf_set_add(set, f2.rb_fd, rb_check_fn, &c2, 0) == 1, "add 2");

	producer_arg a1 = { .prog_fd = f1.prog_rb, .per_run = 64, .runs = 1600, .cpu = -1, .sleep_us = 50 };
	producer_arg a2 = { .prog_fd = f2.prog_rb, .per_run = 256, .runs = 400, .cpu = -1 };
	pthread_t th1, th2;
	CHECK(pthread_create(&th1, NULL, producer_main, &a1) == 0, "thread");
	if (pthread_create(&th2, NULL, producer_main, &a2) != 0) {
		a1.stop = 1;
		pthread_join(th1, NULL);
		CHECK(0, "thread 2");
	}
	int polls = 0;
	for (;;) {
		int n = rp_bpf_ringbuf_set_poll(set, 5);
		if (n < 0) {
			a1.stop = a2.stop = 1;
			pthread_join(th1, NULL);
			pthread_join(th2, NULL);
			CHECK(0, "poll: %s", rp_strerror(n));
		}
		polls++;
		struct rbt_ctl x1, x2;
		if (fixture_ctl(&f1, &x1) == 0 && fixture_ctl(&f2, &x2) == 0 &&
		    x1.seq >= 400u * 256 && x2.seq >= 400u * 256)
			break;
		if (a1.err || a2.err)
			break;
	}
	pthread_join(th1, NULL);
	pthread_join(th2, NULL);
	CHECK(a1.err == 0 && a2.err == 0, "producer: %s", rp_strerror(a1.err ? a1.err : a2.err));
	err = rp_bpf_ringbuf_set_consume(set);
	CHECK(err >= 0, "final consume: %s", rp_strerror(err));
	CHECK(!c1.err[0], "ring 1: %s", c1.err);
	CHECK(!c2.err[0], "ring 2: %s", c2.err);

	const rb_check *cs[2] = { &c1, &c2 };
	fixture *fs[2] = { &f1, &f2 };
	for (int i = 0; i < 2; i++) {
		struct rbt_ctl ctl;
		rp_bpf_ringbuf_stats st;
		CHECK(fixture_ctl(fs[i], &ctl) == 0, "ctl");
		CHECK(rp_bpf_ringbuf_set_stats(set, (uint32_t)i, &st) == 0, "stats");
		printf("# ring %d: seq %llu submitted %llu delivered %llu discarded %llu dropped %llu (%d polls)\n",
		       i + 1, (unsigned long long)ctl.seq, (unsigned long long)ctl.submitted,
		       (unsigned long long)cs[i]->delivered, (unsigned long long)ctl.discarded,
		       (unsigned long long)ctl.dropped, polls);
		CHECK(cs[i]->delivered == ctl.submitted, "ring %d: delivered %llu != submitted %llu", i + 1,
		      (unsigned long long)cs[i]->delivered, (unsigned long long)ctl.submitted);
		CHECK(ctl.submitted + ctl.discarded + ctl.dropped == ctl.seq, "ring %d: seq accounting", i + 1);
		CHECK(st.discarded == ctl.discarded, "ring %d: discarded seen %llu != %llu", i + 1,
		      (unsigned long long)st.discarded, (unsigned long long)ctl.discarded);
		CHECK(st.corrupt == 0, "ring %d: corrupt %llu", i + 1, (unsigned long long)st.corrupt);
		CHECK(ctl.dropped > 0, "ring %d: no drops: the overload did not happen", i + 1);
	}
out:
	rp_bpf_ringbuf_set_free(set);
	if (have2)
		fixture_close(&f2);
	fixture_close(&f1);
}

static int nop_fn(void *ctx, const void *data, uint32_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	return 0;
}

static void test_ringbuf_bad_map(tcase *t)
{
	fixture f;
	rp_bpf_ringbuf rb;
	int err = fixture_open(&f, 4096);
	if (bpf_refused) {
		tskip(t, "bpf()", bpf_refused);
		return;
	}
	CHECK(err == 0, "fixture: %s", rp_strerror(err));
	err = rp_bpf_ringbuf_map(&rb, f.ctl_fd, nop_fn, NULL, 0);
	CHECK(err == RP_E_RB_MAP_TYPE, "array map: got %d (%s)", err, rp_strerror(err));
	err = rp_bpf_ringbuf_map(&rb, 9999, nop_fn, NULL, 0);
	CHECK(err == -EBADF || err == -EBADFD, "closed fd: got %d (%s)", err, rp_strerror(err));
out:
	fixture_close(&f);
}

/* ---- overwrite perf ring ----------------------------------------------- */

typedef struct ow_item {
	uint32_t type;
	uint16_t size;
	uint64_t seq;  /* samples */
	uint64_t lost; /* LOST */
} ow_item;

/* The sequence number of a SAMPLE the test program wrote to perf_out (its
 * payload: the seq, then the fixture's pattern).  False, with err set, if
 * the record is not one; a pattern byte that differs sets err too. */
static bool rbt_sample_seq(const rp_record *rec, uint64_t *seq, char *err, size_t n)
{
	rp_bpf_output o;
	uint8_t buf[RBT_PERF_PAYLOAD];

	if (rp_bpf_output_view(rec, &o) != RP_OK || o.raw_size < RBT_PERF_PAYLOAD) {
		snprintf(err, n, "bad sample record (size %u)", rec->size);
		return false;
	}
	rp_span_copy(o.data, buf, sizeof buf);
	*seq = rd64(buf);
	for (int i = 8; i < RBT_PERF_PAYLOAD; i++)
		if (buf[i] != (uint8_t)(i * 7 + 1))
			snprintf(err, n, "sample %llu: payload byte %d", (unsigned long long)*seq, i);
	return true;
}

typedef struct ow_collect {
	ow_item items[4096];
	uint32_t n;
	uint32_t stop_at; /* stop after this many records, 0: never */
	char err[256];
} ow_collect;

static int ow_fn(void *ctx, const rp_record *rec)
{
	ow_collect *c = ctx;
	if (c->n == 4096)
		return 1;
	ow_item *it = &c->items[c->n++];
	memset(it, 0, sizeof *it);
	it->type = rec->type;
	it->size = rec->size;
	if (rec->type == RP_RECORD_SAMPLE) {
		if (!rbt_sample_seq(rec, &it->seq, c->err, sizeof c->err))
			return 0;
	} else if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) == RP_OK)
			it->lost = l.lost;
	}
	return c->n == c->stop_at;
}

/* The BPF fixture and a write_backward BPF-output event on the first online
 * CPU (both backward ring kinds use it).  1 when the test is over (failed
 * or skipped, already reported). */
static int backward_event_open(fixture *f, int *cpu, int *ev_fd, tcase *t)
{
	if (bpf_refused) {
		tskip(t, "bpf()", bpf_refused);
		return 1;
	}
	int err = fixture_open(f, 4096);
	if (err) {
		tfail(t, __LINE__, "fixture: %s", rp_strerror(err));
		return 1;
	}
	int cpus[1024];
	uint32_t ncpu = 0;
	err = rp_online_cpus(cpus, 1024, &ncpu);
	if (err || ncpu == 0) {
		tfail(t, __LINE__, "online cpus: %s", rp_strerror(err));
		return 1;
	}
	*cpu = cpus[0];
	struct perf_event_attr attr;
	rp_attr_init_bpf_output(&attr);
	rp_attr_set_flags(&attr, RP_ATTR_WRITE_BACKWARD);
	err = rp_perf_open(&attr, -1, *cpu, -1, 0, ev_fd, NULL);
	if (refused(err)) {
		tskip(t, "perf_event_open (write_backward BPF output)", err);
		return 1;
	}
	if (err) {
		tfail(t, __LINE__, "perf_event_open: %s", rp_strerror(err));
		return 1;
	}
	return 0;
}

/* Store the event in the program's PERF_EVENT_ARRAY at its CPU and enable it. */
static int backward_event_bind(fixture *f, int cpu, int ev_fd, tcase *t)
{
	uint32_t key = (uint32_t)cpu, val = (uint32_t)ev_fd;
	if (bpf_map_update_elem(f->perf_fd, &key, &val, BPF_ANY) != 0) {
		tfail(t, __LINE__, "perf_out update: %s", strerror(errno));
		return 1;
	}
	rp_perf_enable(ev_fd, false);
	return 0;
}

/* The event of backward_event_open, mapped as one of the two backward ring
 * kinds and bound in the program's map: an overwrite (read-only) ring of
 * 16 KiB, 512 records of 32 bytes; or a writable write_backward ring of one
 * data page (4096 bytes). */
typedef enum { BW_OVERWRITE, BW_WRITABLE } bw_kind;

typedef struct bw_fixture {
	fixture f;
	int cpu;
	int ev_fd;
	bw_kind kind;
	bool mapped;
	rp_perf_overwrite_ring ow; /* BW_OVERWRITE */
	rp_perf_backward_ring bw;  /* BW_WRITABLE */
} bw_fixture;

static int bw_open(bw_fixture *o, bw_kind kind, tcase *t)
{
	memset(o, 0, sizeof *o);
	o->ev_fd = -1;
	o->kind = kind;
	int err = backward_event_open(&o->f, &o->cpu, &o->ev_fd, t);
	if (err)
		return err;
	if (kind == BW_OVERWRITE) {
		err = rp_perf_overwrite_map(&o->ow, o->ev_fd, 4);
	} else {
		err = rp_perf_backward_map(&o->bw, o->ev_fd, 1, 0);
		if (refused(err)) {
			tskip(t, "writable mmap of a write_backward ring", err);
			return 1;
		}
	}
	if (err) {
		tfail(t, __LINE__, "map: %s", rp_strerror(err));
		return 1;
	}
	o->mapped = true;
	if (kind == BW_WRITABLE && o->bw.ring.data.size != 4096) {
		tfail(t, __LINE__, "data size %llu", (unsigned long long)o->bw.ring.data.size);
		return 1;
	}
	return backward_event_bind(&o->f, o->cpu, o->ev_fd, t);
}

static void bw_close(bw_fixture *o)
{
	if (o->mapped && o->kind == BW_OVERWRITE)
		rp_perf_overwrite_unmap(&o->ow);
	if (o->mapped && o->kind == BW_WRITABLE)
		rp_perf_backward_unmap(&o->bw);
	if (o->ev_fd >= 0)
		close(o->ev_fd);
	fixture_close(&o->f);
}

/* Newest first: sample seqs strictly decrease by one, except across a LOST
 * record.  In a backward ring the kernel reserves LOST + sample together and
 * writes LOST at the lower address, so a LOST record comes just before (in
 * walk order) the first sample written after the drops; that sample's seq is
 * then older's seq + 1 + lost. */
static bool ow_consistent(const ow_collect *c, char *why, size_t n)
{
	bool have = false;
	uint64_t newer = 0, newer_lost = 0, lost = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		const ow_item *it = &c->items[i];
		if (it->type == RP_RECORD_LOST) {
			lost += it->lost;
			continue;
		}
		if (it->type != RP_RECORD_SAMPLE || it->size != 32) {
			snprintf(why, n, "record %u: type %u size %u", i, it->type, it->size);
			return false;
		}
		if (have && it->seq + 1 + newer_lost != newer) {
			snprintf(why, n, "record %u: seq %llu then %llu with %llu lost between", i,
			         (unsigned long long)newer, (unsigned long long)it->seq,
			         (unsigned long long)newer_lost);
			return false;
		}
		have = true;
		newer = it->seq;
		newer_lost = lost;
		lost = 0;
	}
	return true;
}

/* The oldest sample of a read and the LOST count emitted with it. */
static bool ow_oldest(const ow_collect *c, uint64_t *seq, uint64_t *lost)
{
	bool found = false;
	uint64_t pending = 0;
	for (uint32_t i = 0; i < c->n; i++) {
		if (c->items[i].type == RP_RECORD_LOST) {
			pending += c->items[i].lost;
		} else {
			*seq = c->items[i].seq;
			*lost = pending;
			pending = 0;
			found = true;
		}
	}
	return found;
}

static void test_overwrite_phases(tcase *t)
{
	bw_fixture o;
	static ow_collect c;
	rp_perf_overwrite_report rep;
	struct rbt_ctl ctl;
	char why[256];
	if (bw_open(&o, BW_OVERWRITE, t))
		goto out;

	/* A: 100 records, all readable, newest first */
	CHECK(fixture_run(o.f.prog_perf, 100, o.cpu) == 0, "run A");
	c.n = 0;
	int n = rp_perf_overwrite_read(&o.ow, ow_fn, &c, &rep);
	CHECK(n == 100, "A: %d records (%s)", n, rp_strerror(n));
	CHECK(!c.err[0], "A: %s", c.err);
	CHECK(c.items[0].seq == 99 && c.items[99].seq == 0, "A: newest %llu oldest %llu",
	      (unsigned long long)c.items[0].seq, (unsigned long long)c.items[99].seq);
	CHECK(ow_consistent(&c, why, sizeof why), "A: %s", why);
	CHECK(rep.new_bytes == 3200 && rep.read_bytes == 3200 && rep.overwritten_bytes == 0,
	      "A: new %llu read %llu over %llu", (unsigned long long)rep.new_bytes,
	      (unsigned long long)rep.read_bytes, (unsigned long long)rep.overwritten_bytes);

	/* A2: the callback stops at the second of 5 records: the snapshot ends,
	 * the 3 older records are counted as unread, the next read has the
	 * records written after it */
	CHECK(fixture_run(o.f.prog_perf, 5, o.cpu) == 0, "run A2");
	c.n = 0;
	c.stop_at = 2;
	n = rp_perf_overwrite_read(&o.ow, ow_fn, &c, &rep);
	c.stop_at = 0;
	CHECK(n == 2 && c.items[0].seq == 104 && c.items[1].seq == 103 && rep.stopped &&
	      rep.end == RP_MORE, "A2: %d records, newest %llu", n, (unsigned long long)c.items[0].seq);
	CHECK(rep.new_bytes == 5 * 32 && rep.read_bytes == 2 * 32 && rep.unread_bytes == 3 * 32 &&
	      rep.overwritten_bytes == 0 && o.ow.stats.unread_bytes == 3 * 32 &&
	      o.ow.stats.overwritten_bytes == 0,
	      "A2: new %llu read %llu unread %llu over %llu, stats unread %llu",
	      (unsigned long long)rep.new_bytes, (unsigned long long)rep.read_bytes,
	      (unsigned long long)rep.unread_bytes, (unsigned long long)rep.overwritten_bytes,
	      (unsigned long long)o.ow.stats.unread_bytes);
	CHECK(fixture_run(o.f.prog_perf, 1, o.cpu) == 0, "run A2 next");
	c.n = 0;
	n = rp_perf_overwrite_read(&o.ow, ow_fn, &c, &rep);
	CHECK(n == 1 && c.items[0].seq == 105 && rep.unread_bytes == 0, "A2 next: %d, seq %llu", n,
	      (unsigned long long)c.items[0].seq);

	/* B: 5000 records into 512 slots: the newest 512 readable, the rest overwritten */
	for (int i = 0; i < 50; i++)
		CHECK(fixture_run(o.f.prog_perf, 100, o.cpu) == 0, "run B");
	c.n = 0;
	n = rp_perf_overwrite_read(&o.ow, ow_fn, &c, &rep);
	CHECK(!c.err[0], "B: %s", c.err);
	CHECK(n == 512, "B: %d records", n);
	CHECK(c.items[0].seq == 5105, "B: newest %llu", (unsigned long long)c.items[0].seq);
	CHECK(ow_consistent(&c, why, sizeof why), "B: %s", why);
	CHECK(rep.new_bytes == 5000 * 32, "B: new bytes %llu", (unsigned long long)rep.new_bytes);
	CHECK(rep.overwritten_bytes % 32 == 0 &&
	      (uint64_t)n + rep.overwritten_bytes / 32 == 5000,
	      "B: %d read + %llu overwritten bytes != 5000 records", n,
	      (unsigned long long)rep.overwritten_bytes);
	CHECK(rep.end == RP_EMPTY, "B: walk ended with %s", rp_strerror(rep.end));

	/* C: writes while paused are lost; after resume a LOST record comes first */
	CHECK(fixture_ctl(&o.f, &ctl) == 0, "ctl");
	const uint64_t fail0 = ctl.perf_fail;
	CHECK(rp_perf_pause_output(o.ev_fd, true) == 0, "pause");
	CHECK(fixture_run(o.f.prog_perf, 50, o.cpu) == 0, "run C");
	CHECK(rp_perf_pause_output(o.ev_fd, false) == 0, "resume");
	CHECK(fixture_run(o.f.prog_perf, 1, o.cpu) == 0, "run C flush");
	CHECK(fixture_ctl(&o.f, &ctl) == 0, "ctl");
	CHECK(ctl.perf_fail - fail0 == 50, "C: %llu failed writes while paused (last err %lld)",
	      (unsigned long long)(ctl.perf_fail - fail0), (long long)ctl.perf_last_err);
	c.n = 0;
	n = rp_perf_overwrite_read(&o.ow, ow_fn, &c, &rep);
	for (uint32_t i = 0; i < c.n && i < 4; i++)
		printf("# C: record %u: type %u size %u seq %llu lost %llu\n", i, c.items[i].type,
		       c.items[i].size, (unsigned long long)c.items[i].seq, (unsigned long long)c.items[i].lost);
	CHECK(n == 2, "C: %d records", n);
	/* LOST is reserved together with the flush sample, at the lower address */
	CHECK(c.items[0].type == RP_RECORD_LOST && c.items[0].lost == 50, "C: no LOST{50} first");
	CHECK(c.items[1].type == RP_RECORD_SAMPLE && c.items[1].seq == 5156, "C: flush sample missing");
	CHECK(rep.lost == 50 && rep.overwritten_bytes == 0, "C: report lost %llu over %llu",
	      (unsigned long long)rep.lost, (unsigned long long)rep.overwritten_bytes);
out:
	bw_close(&o);
}

/* D: a producer keeps writing while the reader takes snapshots. */
static void test_overwrite_concurrent(tcase *t)
{
	bw_fixture o;
	static ow_collect c;
	rp_perf_overwrite_report rep;
	struct rbt_ctl ctl;
	char why[256];
	uint64_t samples = 0, lost = 0, over = 0;
	int reads = 0, reads_over = 0;
	bool have_prev = false;
	uint64_t prev_newest = 0;
	if (bw_open(&o, BW_OVERWRITE, t))
		goto out;

	producer_arg a = { .prog_fd = o.f.prog_perf, .per_run = 20, .runs = 2000, .cpu = o.cpu,
	                   .sleep_us = 200 };
	pthread_t th;
	CHECK(pthread_create(&th, NULL, producer_main, &a) == 0, "thread");
	for (int k = 0;; k++) {
		usleep(1000);
		bool done = false;
		if (fixture_ctl(&o.f, &ctl) == 0 && ctl.seq >= 2000u * 20)
			done = true;
		if (a.err)
			done = true;
		c.n = 0;
		c.err[0] = 0;
		int n = rp_perf_overwrite_read(&o.ow, ow_fn, &c, &rep);
		if (n < 0 || c.err[0] || !ow_consistent(&c, why, sizeof why)) {
			a.stop = 1;
			pthread_join(th, NULL);
			CHECK(n >= 0, "read %d: %s", k, rp_strerror(n));
			CHECK(!c.err[0], "read %d: %s", k, c.err);
			CHECK(0, "read %d: %s", k, why);
		}
		reads++;
		over += rep.overwritten_bytes;
		if (rep.overwritten_bytes)
			reads_over++;
		/* chronological continuity with the previous read */
		if (c.n > 0) {
			uint64_t oldest_seq = 0, lost_before = 0;
			const bool found = ow_oldest(&c, &oldest_seq, &lost_before);
			if (found && have_prev && rep.overwritten_bytes == 0 &&
			    oldest_seq != prev_newest + 1 + lost_before) {
				a.stop = 1;
				pthread_join(th, NULL);
				CHECK(0, "read %d: oldest seq %llu, previous newest %llu, %llu lost between", k,
				      (unsigned long long)oldest_seq, (unsigned long long)prev_newest,
				      (unsigned long long)lost_before);
			}
			for (uint32_t i = 0; i < c.n; i++) {
				if (c.items[i].type == RP_RECORD_SAMPLE) {
					if (!have_prev || c.items[i].seq > prev_newest)
						prev_newest = c.items[i].seq;
					have_prev = true;
					break;
				}
			}
		}
		for (uint32_t i = 0; i < c.n; i++) {
			if (c.items[i].type == RP_RECORD_SAMPLE)
				samples++;
			else
				lost += c.items[i].lost;
		}
		if (done)
			break;
	}
	pthread_join(th, NULL);
	CHECK(a.err == 0, "producer: %s", rp_strerror(a.err));
	/* final flush write so that a pending LOST is emitted, then read */
	CHECK(fixture_run(o.f.prog_perf, 1, o.cpu) == 0, "flush");
	c.n = 0;
	int n = rp_perf_overwrite_read(&o.ow, ow_fn, &c, &rep);
	CHECK(n >= 1 && ow_consistent(&c, why, sizeof why), "final read: %d %s", n, why);
	over += rep.overwritten_bytes;
	for (uint32_t i = 0; i < c.n; i++) {
		if (c.items[i].type == RP_RECORD_SAMPLE)
			samples++;
		else
			lost += c.items[i].lost;
	}
	CHECK(fixture_ctl(&o.f, &ctl) == 0, "ctl");
	printf("# overwrite: %d reads (%d with overwritten data), %llu samples read, %llu lost (LOST), "
	       "%llu bytes overwritten; producer ok %llu failed %llu\n",
	       reads + 1, reads_over, (unsigned long long)samples, (unsigned long long)lost,
	       (unsigned long long)over, (unsigned long long)ctl.perf_ok,
	       (unsigned long long)ctl.perf_fail);
	CHECK(samples + lost <= ctl.seq, "more records than attempts");
	if (over == 0) {
		CHECK(samples == ctl.perf_ok, "samples read %llu != written %llu",
		      (unsigned long long)samples, (unsigned long long)ctl.perf_ok);
		CHECK(lost == ctl.perf_fail, "LOST sum %llu != failed writes %llu",
		      (unsigned long long)lost, (unsigned long long)ctl.perf_fail);
	} else {
		CHECK(samples + over / 24 >= ctl.perf_ok - ctl.perf_ok / 1000, "accounting far off");
	}
out:
	bw_close(&o);
}

/* ---- backward non-overwrite perf ring (write_backward, writable) ------ */

/* What a drain delivered: samples carry their seq, LOST records their count. */
typedef struct bw_item {
	uint32_t type;
	uint64_t seq;  /* SAMPLE: payload seq; synthetic: the id */
	uint64_t lost; /* LOST */
	uint64_t pos;
} bw_item;

typedef struct bw_collect {
	bw_item items[1024];
	uint32_t n;          /* total collected */
	uint32_t drain_n;    /* collected in the current drain */
	uint32_t stop_after; /* return 1 after this many in one drain (0 = never) */
	bool synthetic;      /* records carry a plain u64 id (type BW_SYN_TYPE) */
	char err[256];
} bw_collect;

#define BW_SYN_TYPE 100u

static int bw_fn(void *ctx, const rp_record *rec)
{
	bw_collect *c = ctx;
	if (c->n == 1024) {
		snprintf(c->err, sizeof c->err, "more than 1024 records");
		return 1;
	}
	bw_item *it = &c->items[c->n++];
	memset(it, 0, sizeof *it);
	it->type = rec->type;
	it->pos = rec->pos;
	if (c->synthetic) {
		uint8_t b[8];
		if (rec->type != BW_SYN_TYPE || rp_span_copy(rec->body, b, 8) != 8)
			snprintf(c->err, sizeof c->err, "synthetic record type %u size %u", rec->type, rec->size);
		else
			it->seq = rd64(b);
	} else if (rec->type == RP_RECORD_SAMPLE) {
		rbt_sample_seq(rec, &it->seq, c->err, sizeof c->err);
	} else if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) == RP_OK)
			it->lost = l.lost;
		else
			snprintf(c->err, sizeof c->err, "bad LOST record (size %u)", rec->size);
	} else {
		snprintf(c->err, sizeof c->err, "unexpected record type %u", rec->type);
	}
	c->drain_n++;
	return c->stop_after && c->drain_n >= c->stop_after;
}

static int bw_drain(rp_perf_backward_ring *r, bw_collect *c, uint32_t stop_after)
{
	c->drain_n = 0;
	c->stop_after = stop_after;
	return rp_perf_backward_drain(r, bw_fn, c);
}

/* Samples of items[from .. to-1] have seqs hi, hi-1, ..., down by one. */
static bool bw_seq_down(const bw_collect *c, uint32_t from, uint32_t to, uint64_t hi, char *why, size_t n)
{
	for (uint32_t i = from; i < to; i++) {
		const bw_item *it = &c->items[i];
		if (it->type != RP_RECORD_SAMPLE || it->seq != hi - (i - from)) {
			snprintf(why, n, "item %u: type %u seq %llu, expected sample %llu", i, it->type,
			         (unsigned long long)it->seq, (unsigned long long)(hi - (i - from)));
			return false;
		}
	}
	return true;
}

/* Each seq in [0, total) delivered exactly once among the samples. */
static bool bw_exactly_once(const bw_collect *c, uint64_t total, char *why, size_t n)
{
	static uint8_t seen[1024];
	if (total > sizeof seen) {
		snprintf(why, n, "total %llu too large", (unsigned long long)total);
		return false;
	}
	memset(seen, 0, sizeof seen);
	for (uint32_t i = 0; i < c->n; i++) {
		if (c->items[i].type == RP_RECORD_LOST)
			continue;
		const uint64_t s = c->items[i].seq;
		if (s >= total || seen[s]) {
			snprintf(why, n, "seq %llu %s", (unsigned long long)s, s >= total ? "out of range" : "twice");
			return false;
		}
		seen[s] = 1;
	}
	for (uint64_t s = 0; s < total; s++)
		if (!seen[s]) {
			snprintf(why, n, "seq %llu never delivered", (unsigned long long)s);
			return false;
		}
	return true;
}

/* (a) N records round trip, newest first; head goes down; tail follows. */
static void test_bwrw_roundtrip(tcase *t)
{
	bw_fixture o;
	static bw_collect c;
	struct rbt_ctl ctl;
	char why[256];
	if (bw_open(&o, BW_WRITABLE, t))
		goto out;
	memset(&c, 0, sizeof c);
	const rp_perf_ring *pr = &o.bw.ring;
	CHECK(rp_perf_ring_head(pr) == 0 && rp_perf_ring_tail(pr) == 0, "fresh ring: head %llu tail %llu",
	      (unsigned long long)rp_perf_ring_head(pr), (unsigned long long)rp_perf_ring_tail(pr));

	CHECK(fixture_run(o.f.prog_perf, 50, o.cpu) == 0, "run 1");
	CHECK(fixture_ctl(&o.f, &ctl) == 0 && ctl.perf_ok == 50 && ctl.perf_fail == 0,
	      "producer ok %llu fail %llu", (unsigned long long)ctl.perf_ok, (unsigned long long)ctl.perf_fail);
	/* the kernel claim: head went DOWN by 50 records of 8 + 4 + 20 bytes */
	CHECK(rp_perf_ring_head(pr) == (uint64_t)0 - 50 * 32, "head %#llx after 50 records",
	      (unsigned long long)rp_perf_ring_head(pr));
	CHECK(rp_perf_ring_tail(pr) == 0, "tail moved before the drain");
	int n = bw_drain(&o.bw, &c, 0);
	CHECK(n == 50, "drain 1: %d (%s)", n, rp_strerror(n));
	CHECK(!c.err[0], "%s", c.err);
	CHECK(bw_seq_down(&c, 0, 50, 49, why, sizeof why), "drain 1: %s", why);
	CHECK(c.items[0].pos == (uint64_t)0 - 50 * 32, "newest at %#llx", (unsigned long long)c.items[0].pos);
	CHECK(rp_perf_ring_tail(pr) == rp_perf_ring_head(pr), "tail %#llx != head %#llx after drain",
	      (unsigned long long)rp_perf_ring_tail(pr), (unsigned long long)rp_perf_ring_head(pr));

	/* 100 more: 150 x 32 bytes > 4096, so the data area wraps */
	CHECK(fixture_run(o.f.prog_perf, 100, o.cpu) == 0, "run 2");
	n = bw_drain(&o.bw, &c, 0);
	CHECK(n == 100, "drain 2: %d (%s)", n, rp_strerror(n));
	CHECK(!c.err[0], "%s", c.err);
	CHECK(bw_seq_down(&c, 50, 150, 149, why, sizeof why), "drain 2: %s", why);
	CHECK(rp_perf_ring_tail(pr) == rp_perf_ring_head(pr) && rp_perf_ring_head(pr) == (uint64_t)0 - 150 * 32,
	      "after drain 2: head %#llx tail %#llx", (unsigned long long)rp_perf_ring_head(pr),
	      (unsigned long long)rp_perf_ring_tail(pr));
	n = bw_drain(&o.bw, &c, 0);
	CHECK(n == 0, "empty drain: %d", n);
	CHECK(o.bw.stats.records == 150 && o.bw.stats.record_bytes == 150 * 32 && o.bw.stats.corrupt == 0,
	      "stats records %llu bytes %llu corrupt %llu", (unsigned long long)o.bw.stats.records,
	      (unsigned long long)o.bw.stats.record_bytes, (unsigned long long)o.bw.stats.corrupt);
out:
	bw_close(&o);
}

/* (a2) a bad data_head (misaligned by 4, then 2^40 below data_tail) in the
 * writable control page: data_tail is not moved to it, the bad value counts
 * once, and the next records the kernel writes are delivered. */
static void test_bwrw_bad_head(tcase *t)
{
	bw_fixture o;
	static bw_collect c;
	char why[256];
	int n;
	if (bw_open(&o, BW_WRITABLE, t))
		goto out;
	memset(&c, 0, sizeof c);
	const rp_perf_ring *pr = &o.bw.ring;
	struct perf_event_mmap_page *pg = o.bw.ring.base;
	CHECK(fixture_run(o.f.prog_perf, 3, o.cpu) == 0, "run 1");
	CHECK(bw_drain(&o.bw, &c, 0) == 3, "drain 1");
	for (int k = 0; k < 2; k++) {
		const uint64_t tail = rp_perf_ring_tail(pr);
		const uint64_t bad = k == 0 ? tail - 4 : tail - (1ull << 40);
		__atomic_store_n(&pg->data_head, bad, __ATOMIC_RELEASE);
		const uint64_t corrupt = o.bw.stats.corrupt;
		n = bw_drain(&o.bw, &c, 0);
		CHECK(n == 0 && o.bw.stats.corrupt == corrupt + 1, "bad head %d: drain %d corrupt %llu", k, n,
		      (unsigned long long)o.bw.stats.corrupt);
		CHECK(rp_perf_ring_tail(pr) == tail && o.bw.stats.resynced_bytes == 0,
		      "bad head %d: data_tail %#llx (was %#llx), resynced %llu", k,
		      (unsigned long long)rp_perf_ring_tail(pr), (unsigned long long)tail,
		      (unsigned long long)o.bw.stats.resynced_bytes);
		n = bw_drain(&o.bw, &c, 0);
		CHECK(n == 0 && o.bw.stats.corrupt == corrupt + 1, "bad head %d counted again", k);
		CHECK(fixture_run(o.f.prog_perf, 2, o.cpu) == 0, "run");
		n = bw_drain(&o.bw, &c, 0);
		CHECK(n == 2 && !c.err[0], "bad head %d: next records %d %s", k, n, c.err);
		CHECK(bw_seq_down(&c, 3 + 2 * (uint32_t)k, 5 + 2 * (uint32_t)k, 4 + 2 * (uint64_t)k, why, sizeof why),
		      "bad head %d: %s", k, why);
	}
out:
	bw_close(&o);
}

/* (b) full ring: the kernel honours data_tail, drops with -ENOSPC, and
 * reports the drops in a LOST record once there is room again. */
static void test_bwrw_full(tcase *t)
{
	bw_fixture o;
	static bw_collect c;
	struct rbt_ctl ctl;
	char why[256];
	if (bw_open(&o, BW_WRITABLE, t))
		goto out;
	memset(&c, 0, sizeof c);
	const rp_perf_ring *pr = &o.bw.ring;
	/* the kernel writes only if (head - tail - 1) mod size >= 32: with a
	 * 4096-byte area (4096 - 1) / 32 = 127 records fit */
	const uint64_t fit = (4096 - 1) / 32, attempted1 = 200, attempted2 = 10;
	CHECK(fixture_run(o.f.prog_perf, (uint32_t)attempted1, o.cpu) == 0, "run 1");
	CHECK(fixture_ctl(&o.f, &ctl) == 0, "ctl");
	printf("# backward rw full: %llu ok, %llu failed (last err %lld), head %#llx\n",
	       (unsigned long long)ctl.perf_ok, (unsigned long long)ctl.perf_fail, (long long)ctl.perf_last_err,
	       (unsigned long long)rp_perf_ring_head(pr));
	CHECK(ctl.perf_ok == fit && ctl.perf_fail == attempted1 - fit, "ok %llu fail %llu, expected %llu / %llu",
	      (unsigned long long)ctl.perf_ok, (unsigned long long)ctl.perf_fail, (unsigned long long)fit,
	      (unsigned long long)(attempted1 - fit));
	CHECK((int64_t)ctl.perf_last_err == -ENOSPC, "last error %lld, expected -ENOSPC", (long long)ctl.perf_last_err);
	CHECK(rp_perf_ring_head(pr) == (uint64_t)0 - fit * 32, "head %#llx", (unsigned long long)rp_perf_ring_head(pr));

	int n = bw_drain(&o.bw, &c, 0);
	CHECK(n == (int)fit, "drain 1: %d", n);
	CHECK(!c.err[0], "%s", c.err);
	CHECK(bw_seq_down(&c, 0, (uint32_t)fit, fit - 1, why, sizeof why), "drain 1: %s", why);
	CHECK(rp_perf_ring_tail(pr) == rp_perf_ring_head(pr), "tail not published");

	/* room again: the writes succeed and the first carries LOST{dropped} */
	CHECK(fixture_run(o.f.prog_perf, (uint32_t)attempted2, o.cpu) == 0, "run 2");
	CHECK(fixture_ctl(&o.f, &ctl) == 0, "ctl");
	CHECK(ctl.perf_ok == fit + attempted2, "after drain: ok %llu (expected %llu)",
	      (unsigned long long)ctl.perf_ok, (unsigned long long)(fit + attempted2));
	const uint32_t before = c.n;
	n = bw_drain(&o.bw, &c, 0);
	CHECK(!c.err[0], "%s", c.err);
	CHECK(n == (int)attempted2 + 1, "drain 2: %d records, expected %llu samples + 1 LOST", n,
	      (unsigned long long)attempted2);
	/* newest first: 209..201, then the LOST reserved with sample 200 at the
	 * lower address, then sample 200 (docs/abi.md: LOST comes before it) */
	uint64_t samples = 0, lost = 0, lost_records = 0;
	for (uint32_t i = 0; i < c.n; i++) {
		if (c.items[i].type == RP_RECORD_LOST) {
			lost += c.items[i].lost;
			lost_records++;
		} else {
			samples++;
		}
	}
	CHECK(lost_records == 1 && lost == attempted1 - fit, "LOST records %llu sum %llu, expected 1 / %llu",
	      (unsigned long long)lost_records, (unsigned long long)lost, (unsigned long long)(attempted1 - fit));
	CHECK(c.items[before + attempted2 - 1].type == RP_RECORD_LOST, "LOST not just before the oldest new sample");
	CHECK(bw_seq_down(&c, before, before + (uint32_t)attempted2 - 1, attempted1 + attempted2 - 1, why, sizeof why),
	      "drain 2: %s", why);
	CHECK(c.items[before + attempted2].seq == attempted1, "oldest new sample %llu",
	      (unsigned long long)c.items[before + attempted2].seq);
	CHECK(samples + lost == attempted1 + attempted2, "conservation: %llu delivered + %llu lost != %llu",
	      (unsigned long long)samples, (unsigned long long)lost,
	      (unsigned long long)(attempted1 + attempted2));
	CHECK(o.bw.stats.lost == lost && o.bw.stats.lost_records == 1, "stats lost %llu records %llu",
	      (unsigned long long)o.bw.stats.lost, (unsigned long long)o.bw.stats.lost_records);
	printf("# backward rw full: delivered %llu + lost %llu == attempted %llu\n", (unsigned long long)samples,
	       (unsigned long long)lost, (unsigned long long)(attempted1 + attempted2));
out:
	bw_close(&o);
}

/* (c) callback stops: nothing lost, nothing twice, data_tail held back
 * until a drain completes. */
static void test_bwrw_stop(tcase *t)
{
	bw_fixture o;
	static bw_collect c;
	char why[256];
	if (bw_open(&o, BW_WRITABLE, t))
		goto out;
	memset(&c, 0, sizeof c);
	const rp_perf_ring *pr = &o.bw.ring;

	CHECK(fixture_run(o.f.prog_perf, 30, o.cpu) == 0, "run 1");
	int n = bw_drain(&o.bw, &c, 10);
	CHECK(n == 10, "drain 1: %d", n);
	CHECK(bw_seq_down(&c, 0, 10, 29, why, sizeof why), "drain 1: %s", why);
	CHECK(rp_perf_ring_tail(pr) == 0, "tail published after a stop: %#llx", (unsigned long long)rp_perf_ring_tail(pr));

	CHECK(fixture_run(o.f.prog_perf, 20, o.cpu) == 0, "run 2");
	n = bw_drain(&o.bw, &c, 25); /* 49..30 new, skip 29..20, then 19..15 */
	CHECK(n == 25, "drain 2: %d", n);
	CHECK(bw_seq_down(&c, 10, 30, 49, why, sizeof why), "drain 2 new: %s", why);
	CHECK(bw_seq_down(&c, 30, 35, 19, why, sizeof why), "drain 2 old: %s", why);
	CHECK(rp_perf_ring_tail(pr) == 0, "tail published after a stop");

	CHECK(fixture_run(o.f.prog_perf, 5, o.cpu) == 0, "run 3");
	n = bw_drain(&o.bw, &c, 2); /* 54, 53: a second remembered range */
	CHECK(n == 2, "drain 3: %d", n);
	CHECK(bw_seq_down(&c, 35, 37, 54, why, sizeof why), "drain 3: %s", why);
	CHECK(o.bw.ndone == 2, "%u remembered ranges, expected 2", o.bw.ndone);

	n = bw_drain(&o.bw, &c, 0); /* 52..50, skip, 14..0 */
	CHECK(n == 18, "drain 4: %d", n);
	CHECK(bw_seq_down(&c, 37, 40, 52, why, sizeof why), "drain 4 new: %s", why);
	CHECK(bw_seq_down(&c, 40, 55, 14, why, sizeof why), "drain 4 old: %s", why);
	CHECK(!c.err[0], "%s", c.err);
	CHECK(bw_exactly_once(&c, 55, why, sizeof why), "%s", why);
	CHECK(rp_perf_ring_tail(pr) == rp_perf_ring_head(pr) && rp_perf_ring_head(pr) == (uint64_t)0 - 55 * 32,
	      "after the complete drain: head %#llx tail %#llx", (unsigned long long)rp_perf_ring_head(pr),
	      (unsigned long long)rp_perf_ring_tail(pr));
	CHECK(o.bw.ndone == 0 && o.bw.stats.records == 55, "ranges %u records %llu", o.bw.ndone,
	      (unsigned long long)o.bw.stats.records);
out:
	bw_close(&o);
}

/* (d) no kernel: a synthetic backward ring (control page + 1024 data bytes)
 * whose positions cross the u64 wrap; 16-byte records {hdr, u64 id}. */
typedef struct bw_syn {
	_Alignas(4096) uint8_t mem[4096 + 1024];
	uint64_t head;
} bw_syn;

static void syn_init(bw_syn *s, rp_perf_backward_ring *r, uint64_t start)
{
	memset(s->mem, 0, sizeof s->mem);
	memset(r, 0, sizeof *r);
	s->head = start;
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)s->mem;
	pg->data_head = start;
	pg->data_tail = start;
	pg->data_offset = 4096;
	pg->data_size = 1024;
	r->ring.fd = -1;
	r->ring.base = s->mem;
	r->ring.map_len = sizeof s->mem;
	r->ring.data.data = s->mem + 4096;
	r->ring.data.size = 1024;
	r->ring.tail = start;
}

/* The kernel's rule, backward: room iff (head - tail - 1) mod size >= size. */
static void syn_write(bw_syn *s, uint64_t id, uint16_t hsize)
{
	uint8_t rec[16];
	const uint32_t type = BW_SYN_TYPE;
	const uint16_t misc = 0;
	memcpy(rec, &type, 4);
	memcpy(rec + 4, &misc, 2);
	memcpy(rec + 6, &hsize, 2);
	memcpy(rec + 8, &id, 8);
	s->head -= 16;
	for (int i = 0; i < 16; i++)
		s->mem[4096 + ((s->head + (uint64_t)i) & 1023)] = rec[i];
	__atomic_store_n(&((struct perf_event_mmap_page *)s->mem)->data_head, s->head, __ATOMIC_RELEASE);
}

static uint64_t syn_tail(const bw_syn *s)
{
	return __atomic_load_n(&((const struct perf_event_mmap_page *)s->mem)->data_tail, __ATOMIC_ACQUIRE);
}

static bool syn_ids_down(const bw_collect *c, uint32_t from, const uint64_t *ids, uint32_t k, char *why, size_t n)
{
	for (uint32_t i = 0; i < k; i++)
		if (from + i >= c->n || c->items[from + i].seq != ids[i]) {
			snprintf(why, n, "item %u: id %llu, expected %llu", from + i,
			         from + i < c->n ? (unsigned long long)c->items[from + i].seq : 0ull,
			         (unsigned long long)ids[i]);
			return false;
		}
	return true;
}

static void test_bwrw_synthetic(tcase *t)
{
	static bw_syn s;
	static bw_collect c;
	rp_perf_backward_ring r;
	char why[256];
	int n;
	memset(&c, 0, sizeof c);
	c.synthetic = true;

	/* positions start at 40 and go down through 0 into 2^64 - x */
	syn_init(&s, &r, 40);
	for (uint64_t id = 0; id < 5; id++)
		syn_write(&s, id, 16); /* 4 .. 0 newest first; 2 records above 0, 3 below */
	n = bw_drain(&r, &c, 2);
	CHECK(n == 2 && syn_ids_down(&c, 0, (const uint64_t[]){ 4, 3 }, 2, why, sizeof why), "drain 1: %d %s", n, why);
	CHECK(syn_tail(&s) == 40, "tail published after a stop");
	syn_write(&s, 5, 16);
	syn_write(&s, 6, 16);
	syn_write(&s, 7, 16);
	n = bw_drain(&r, &c, 1); /* 7: a second range */
	CHECK(n == 1 && c.items[2].seq == 7 && r.ndone == 2, "drain 2: %d, ranges %u", n, r.ndone);
	n = bw_drain(&r, &c, 1); /* 6: extends the first range */
	CHECK(n == 1 && c.items[3].seq == 6 && r.ndone == 2, "drain 3: %d, ranges %u", n, r.ndone);
	n = bw_drain(&r, &c, 0); /* 5, skip 4 3, then 2 1 0 */
	CHECK(n == 4 && syn_ids_down(&c, 4, (const uint64_t[]){ 5, 2, 1, 0 }, 4, why, sizeof why), "drain 4: %d %s",
	      n, why);
	CHECK(syn_tail(&s) == s.head && s.head == (uint64_t)40 - 8 * 16, "tail %#llx head %#llx",
	      (unsigned long long)syn_tail(&s), (unsigned long long)s.head);
	CHECK(r.ndone == 0, "ranges %u after a complete drain", r.ndone);

	/* deferred stop: RP_PERF_BACKWARD_RANGES separate ranges (each round delivers the
	 * newer of two records), then one more stop must wait for a merge */
	c.n = 0;
	syn_init(&s, &r, 8);
	uint64_t id = 0;
	for (int round = 0; round < RP_PERF_BACKWARD_RANGES; round++) {
		syn_write(&s, id++, 16); /* older: left undelivered */
		syn_write(&s, id++, 16); /* newer: delivered, then stop */
		n = bw_drain(&r, &c, 1);
		CHECK(n == 1 && c.items[c.n - 1].seq == id - 1, "round %d: %d", round, n);
		CHECK(r.ndone == (uint32_t)round + 1, "round %d: %u ranges", round, r.ndone);
	}
	CHECK(r.deferred_stops == 0, "deferred already");
	syn_write(&s, id++, 16);
	syn_write(&s, id++, 16);
	n = bw_drain(&r, &c, 1); /* newer delivered, stop deferred; older merges */
	CHECK(n == 2 && syn_ids_down(&c, c.n - 2, (const uint64_t[]){ id - 1, id - 2 }, 2, why, sizeof why),
	      "deferred round: %d %s", n, why);
	CHECK(r.deferred_stops == 1 && r.ndone == RP_PERF_BACKWARD_RANGES, "deferred %llu ranges %u",
	      (unsigned long long)r.deferred_stops, r.ndone);
	CHECK(syn_tail(&s) == 8, "tail published after a stop");
	n = bw_drain(&r, &c, 0);
	CHECK(n == RP_PERF_BACKWARD_RANGES, "final: %d", n);
	for (int k = 0; k < RP_PERF_BACKWARD_RANGES; k++) /* the older ones, newest first */
		CHECK(c.items[c.n - RP_PERF_BACKWARD_RANGES + (uint32_t)k].seq == (uint64_t)(2 * (RP_PERF_BACKWARD_RANGES - 1 - k)),
		      "final item %d: id %llu", k, (unsigned long long)c.items[c.n - RP_PERF_BACKWARD_RANGES + (uint32_t)k].seq);
	CHECK(!c.err[0], "%s", c.err);
	CHECK(c.n == id, "%u delivered of %llu", c.n, (unsigned long long)id);
	c.synthetic = false; /* ids are seqs here: reuse the exactly-once check */
	for (uint32_t i = 0; i < c.n; i++)
		c.items[i].type = RP_RECORD_SAMPLE;
	CHECK(bw_exactly_once(&c, id, why, sizeof why), "%s", why);
	c.synthetic = true;
	CHECK(syn_tail(&s) == s.head, "tail not published");

	/* corruption: a zero-size header in the middle */
	c.n = 0;
	syn_init(&s, &r, 0);
	syn_write(&s, 0, 16);
	syn_write(&s, 1, 0); /* size 0: the core refuses it */
	syn_write(&s, 2, 16);
	r.ring.flags = RP_STRICT;
	n = bw_drain(&r, &c, 0);
	CHECK(n == RP_E_HDR_SHORT && c.n == 1 && c.items[0].seq == 2, "strict: %d (%s), %u delivered", n,
	      rp_strerror(n), c.n);
	CHECK(syn_tail(&s) == 0 && r.stats.corrupt == 1, "strict: tail %#llx corrupt %llu",
	      (unsigned long long)syn_tail(&s), (unsigned long long)r.stats.corrupt);
	n = bw_drain(&r, &c, 0);
	CHECK(n == RP_E_HDR_SHORT && c.n == 1 && r.stats.corrupt == 1 && r.ring.error == n,
	      "strict again: %d, %u delivered, corrupt %llu (one corruption, counted once)", n, c.n,
	      (unsigned long long)r.stats.corrupt);
	r.ring.flags = 0;
	n = bw_drain(&r, &c, 0);
	CHECK(n == 0 && c.n == 1, "resync: %d, %u delivered", n, c.n);
	CHECK(syn_tail(&s) == s.head && r.stats.corrupt == 1 && r.stats.resynced_bytes == 32 &&
	      r.stats.last_error == RP_E_HDR_SHORT && r.ring.error == 0,
	      "resync: tail %#llx corrupt %llu resynced %llu", (unsigned long long)syn_tail(&s),
	      (unsigned long long)r.stats.corrupt, (unsigned long long)r.stats.resynced_bytes);
	syn_write(&s, 3, 16);
	n = bw_drain(&r, &c, 0);
	CHECK(n == 1 && c.items[1].seq == 3, "after resync: %d", n);

	/* a full ring: data_tail exactly the ring's size above data_head (the
	 * kernel stops 8 bytes short; the fuzzers' model kernel fills it only
	 * when asked, fuzz/README.md), with a size-0 header in the oldest record: the
	 * head is sane, so the default policy publishes it after delivering
	 * the 63 records above the corruption, newest first */
	uint64_t newest_first[1024 / 16 - 1];
	c.n = 0;
	syn_init(&s, &r, 0);
	for (id = 0; id < 1024 / 16; id++) {
		syn_write(&s, id, id == 0 ? 0 : 16);
		if (id)
			newest_first[1024 / 16 - 1 - id] = id;
	}
	n = bw_drain(&r, &c, 0);
	CHECK(n == 63 && syn_tail(&s) == s.head && r.stats.corrupt == 1 && r.stats.resynced_bytes == 16 &&
	      !r.ring.bad_head_seen,
	      "full ring: %d delivered, tail %#llx head %#llx, corrupt %llu, resynced %llu, bad head %d", n,
	      (unsigned long long)syn_tail(&s), (unsigned long long)s.head,
	      (unsigned long long)r.stats.corrupt, (unsigned long long)r.stats.resynced_bytes,
	      r.ring.bad_head_seen);
	CHECK(syn_ids_down(&c, 0, newest_first, 63, why, sizeof why), "full ring: %s", why);
out:;
}

/* (e) a producer thread writes while the reader drains, stopping early on
 * some drains: no seq twice, newest first within a drain, and at the end
 * delivered == successful writes and LOST sum == failed writes. */
typedef struct bw_conc {
	uint8_t seen[16384];
	uint64_t samples, lost, dups, order_errs;
	uint64_t last;  /* previous sample seq in this drain */
	bool have_last;
	uint32_t drain_n, stop_after;
	char err[256];
} bw_conc;

static int bw_conc_fn(void *ctx, const rp_record *rec)
{
	bw_conc *c = ctx;
	if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) == RP_OK)
			c->lost += l.lost;
	} else {
		rp_bpf_output o;
		uint8_t buf[8];
		if (rec->type != RP_RECORD_SAMPLE || rp_bpf_output_view(rec, &o) != RP_OK ||
		    rp_span_copy(o.data, buf, 8) != 8) {
			snprintf(c->err, sizeof c->err, "bad record type %u size %u", rec->type, rec->size);
			return 1;
		}
		const uint64_t s = rd64(buf);
		if (s >= sizeof c->seen) {
			snprintf(c->err, sizeof c->err, "seq %llu out of range", (unsigned long long)s);
			return 1;
		}
		if (c->seen[s]++)
			c->dups++;
		if (c->have_last && s >= c->last)
			c->order_errs++;
		c->last = s;
		c->have_last = true;
		c->samples++;
	}
	c->drain_n++;
	return c->stop_after && c->drain_n >= c->stop_after;
}

static void test_bwrw_concurrent(tcase *t)
{
	bw_fixture o;
	static bw_conc c;
	struct rbt_ctl ctl;
	int drains = 0, stops = 0;
	if (bw_open(&o, BW_WRITABLE, t))
		goto out;
	memset(&c, 0, sizeof c);
	producer_arg a = { .prog_fd = o.f.prog_perf, .per_run = 20, .runs = 600, .cpu = o.cpu,
	                   .sleep_us = 100 };
	pthread_t th;
	CHECK(pthread_create(&th, NULL, producer_main, &a) == 0, "thread");
	static const uint32_t stop_pattern[5] = { 0, 1, 0, 7, 30 };
	for (;;) {
		usleep(500);
		bool done = a.err != 0 || (fixture_ctl(&o.f, &ctl) == 0 && ctl.seq >= 600u * 20);
		c.drain_n = 0;
		c.have_last = false;
		c.stop_after = done ? 0 : stop_pattern[drains % 5];
		int n = rp_perf_backward_drain(&o.bw, bw_conc_fn, &c);
		if (n < 0 || c.err[0]) {
			a.stop = 1;
			pthread_join(th, NULL);
			CHECK(0, "drain %d: %d (%s) %s", drains, n, rp_strerror(n), c.err);
		}
		if (c.stop_after && (uint32_t)n == c.stop_after)
			stops++;
		drains++;
		if (done)
			break;
	}
	pthread_join(th, NULL);
	CHECK(a.err == 0, "producer: %s", rp_strerror(a.err));
	/* the last drain above may have raced the final writes: drain until
	 * empty, then one flush write so that pending drops show as LOST */
	c.drain_n = 0;
	c.stop_after = 0;
	c.have_last = false;
	CHECK(rp_perf_backward_drain(&o.bw, bw_conc_fn, &c) >= 0, "drain");
	CHECK(fixture_run(o.f.prog_perf, 1, o.cpu) == 0, "flush");
	c.have_last = false;
	CHECK(rp_perf_backward_drain(&o.bw, bw_conc_fn, &c) >= 1, "final drain");
	CHECK(!c.err[0], "%s", c.err);
	CHECK(fixture_ctl(&o.f, &ctl) == 0, "ctl");
	printf("# backward rw concurrent: %d drains (%d stopped early), %llu samples, %llu lost; "
	       "producer ok %llu failed %llu of %llu\n", drains + 2, stops, (unsigned long long)c.samples,
	       (unsigned long long)c.lost, (unsigned long long)ctl.perf_ok, (unsigned long long)ctl.perf_fail,
	       (unsigned long long)ctl.seq);
	CHECK(c.dups == 0, "%llu seqs delivered twice", (unsigned long long)c.dups);
	CHECK(c.order_errs == 0, "%llu out-of-order samples within a drain", (unsigned long long)c.order_errs);
	CHECK(c.samples == ctl.perf_ok, "delivered %llu != written %llu", (unsigned long long)c.samples,
	      (unsigned long long)ctl.perf_ok);
	CHECK(c.lost == ctl.perf_fail, "LOST sum %llu != failed writes %llu", (unsigned long long)c.lost,
	      (unsigned long long)ctl.perf_fail);
	CHECK(c.samples + c.lost == ctl.seq, "conservation");
	CHECK(stops > 0, "no drain stopped early: the test did not exercise stops");
	CHECK(o.bw.stats.corrupt == 0, "corrupt %llu", (unsigned long long)o.bw.stats.corrupt);
out:
	bw_close(&o);
}

/* ---- ringbuf corruption policy, callback errors, batch API ------------- */

static void set_consumer_pos(rp_bpf_ringbuf *rb, uint64_t v)
{
	__atomic_store_n((unsigned long *)rb->cons_page, (unsigned long)v, __ATOMIC_RELEASE);
}

/* consumer_pos is the one word userspace can write.  Moved back to 0 (a
 * stray writer, a second consumer), the old records must not come again;
 * moved 2^40 ahead, nothing is skipped and no counter wraps; in both cases
 * consumer_pos is restored and the next committed record is delivered. */
static void test_ringbuf_consumer_pos_corrupt(tcase *t)
{
	fixture f;
	rp_bpf_ringbuf rb;
	rb_check chk = { .strict = false };
	bool mapped = false;
	struct rbt_ctl ctl;
	uint64_t before;
	int n, err = fixture_open(&f, 64 * 1024);
	if (bpf_refused) {
		tskip(t, "bpf()", bpf_refused);
		return;
	}
	CHECK(err == 0, "fixture: %s", rp_strerror(err));
	err = rp_bpf_ringbuf_map(&rb, f.rb_fd, rb_check_fn, &chk, 0);
	CHECK(err == 0, "map: %s", rp_strerror(err));
	mapped = true;
	CHECK(fixture_run(f.prog_rb, 8, -1) == 0, "run");
	n = rp_bpf_ringbuf_consume(&rb, 0);
	CHECK(n > 0 && !chk.err[0], "first consume %d %s", n, chk.err);
	before = chk.delivered;

	set_consumer_pos(&rb, 0);
	n = rp_bpf_ringbuf_consume(&rb, 0);
	CHECK(n == 0 && chk.delivered == before && !chk.err[0],
	      "consumer_pos moved back: %d records delivered again %s", n, chk.err);
	CHECK(rb.stats.corrupt == 1 && rb.stats.last_error == RP_E_CONSUMER_POS,
	      "corrupt %llu last %d", (unsigned long long)rb.stats.corrupt, rb.stats.last_error);
	CHECK(rp_bpf_ringbuf_consumer(&rb) == rp_bpf_ringbuf_producer(&rb), "consumer_pos not restored");
	CHECK(fixture_run(f.prog_rb, 8, -1) == 0, "run");
	n = rp_bpf_ringbuf_consume(&rb, 0);
	CHECK(n > 0 && !chk.err[0], "after restore: %d %s", n, chk.err);

	const uint64_t cons = rp_bpf_ringbuf_consumer(&rb);
	set_consumer_pos(&rb, cons + (1ull << 40));
	CHECK(fixture_run(f.prog_rb, 4, -1) == 0, "run"); /* refused by the kernel: ring looks full */
	n = rp_bpf_ringbuf_consume(&rb, 0);
	CHECK(n == 0 && rb.stats.corrupt == 2 && rb.stats.resynced_bytes == 0,
	      "2^40 ahead: %d, corrupt %llu resynced %llu", n, (unsigned long long)rb.stats.corrupt,
	      (unsigned long long)rb.stats.resynced_bytes);
	CHECK(rp_bpf_ringbuf_consumer(&rb) == cons, "consumer_pos %#llx, want %#llx",
	      (unsigned long long)rp_bpf_ringbuf_consumer(&rb), (unsigned long long)cons);
	CHECK(fixture_ctl(&f, &ctl) == 0, "ctl");
	before = ctl.submitted;
	CHECK(fixture_run(f.prog_rb, 8, -1) == 0, "run");
	CHECK(fixture_ctl(&f, &ctl) == 0 && ctl.submitted > before, "nothing submitted after restore");
	const uint64_t had = chk.delivered;
	n = rp_bpf_ringbuf_consume(&rb, 0);
	CHECK(n > 0 && chk.delivered - had == ctl.submitted - before && !chk.err[0],
	      "next records: %d of %llu %s", n, (unsigned long long)(ctl.submitted - before), chk.err);
	CHECK(rb.stats.corrupt == 2 && rb.stats.resynced_bytes == 0, "corrupt %llu",
	      (unsigned long long)rb.stats.corrupt);
out:
	if (mapped)
		rp_bpf_ringbuf_unmap(&rb);
	fixture_close(&f);
}

static int fail42(void *ctx, const void *data, uint32_t len)
{
	(void)data;
	(void)len;
	(*(int *)ctx)++;
	return -42;
}

typedef struct rb_batches {
	unsigned calls, records, bad;
	uint32_t max_n;
} rb_batches;

static int rb_batch_fn(void *ctx, const rp_payload *recs, uint32_t n)
{
	rb_batches *b = ctx;
	b->calls++;
	b->records += n;
	if (n > b->max_n)
		b->max_n = n;
	for (uint32_t i = 0; i < n; i++)
		if (recs[i].size >= 8 && RBT_KIND(rd64(recs[i].data)) == RBT_DISCARD40)
			b->bad++;
	return 0;
}

/* Two BPF fixtures (64 KiB rings) and an empty set: what the set tests
 * start from.  pair_open returns 0, or 1 once it reported a skip or a
 * failure; pair_close frees what was made. */
typedef struct set_pair {
	fixture f, g;
	bool f_open, g_open;
	rp_bpf_ringbuf_set *set;
} set_pair;

static int pair_open(set_pair *p, tcase *t)
{
	int err;

	memset(p, 0, sizeof *p);
	err = fixture_open(&p->f, 64 * 1024);
	if (bpf_refused) {
		tskip(t, "bpf()", bpf_refused);
		return 1;
	}
	CHECK(err == 0, "fixture: %s", rp_strerror(err));
	p->f_open = true;
	err = fixture_open(&p->g, 64 * 1024);
	CHECK(err == 0, "fixture 2: %s", rp_strerror(err));
	p->g_open = true;
	CHECK(rp_bpf_ringbuf_set_new(&p->set) == 0, "set");
	return 0;
out:
	return 1;
}

static void pair_close(set_pair *p)
{
	rp_bpf_ringbuf_set_free(p->set);
	if (p->g_open)
		fixture_close(&p->g);
	if (p->f_open)
		fixture_close(&p->f);
}

/* A callback's -42 comes out of set poll/consume (libbpf's
 * ring_buffer__poll does the same); the batch API makes one call per
 * batch; consume_n and consume_ring bound the work. */
static void test_ringbuf_set_errors_and_batch(tcase *t)
{
	set_pair p;
	rb_batches b = { 0, 0, 0, 0 };
	int calls = 0, n;

	if (pair_open(&p, t))
		goto out;
	rp_bpf_ringbuf_set *const set = p.set;
	CHECK(rp_bpf_ringbuf_set_add(set, p.f.rb_fd, fail42, &calls, 1u << 9) == -EINVAL,
	      "unknown flag bit accepted");
	CHECK(rp_bpf_ringbuf_set_add(set, p.f.rb_fd, fail42, &calls, RP_PERF_OVERWRITE) == -EINVAL,
	      "perf-only flag accepted");
	CHECK(rp_bpf_ringbuf_set_add(set, p.f.rb_fd, fail42, &calls, 0) == 0, "add 0");
	CHECK(rp_bpf_ringbuf_set_add_batch(set, p.g.rb_fd, rb_batch_fn, &b, RP_STRICT) == 1, "add 1");
	CHECK(fixture_run(p.f.prog_rb, 4, -1) == 0 && fixture_run(p.g.prog_rb, 200, -1) == 0, "run");
	n = rp_bpf_ringbuf_set_consume(set);
	CHECK(n == -42 && calls == 1, "callback -42: consume gave %d after %d calls", n, calls);
	CHECK(rp_bpf_ringbuf_avail(rp_bpf_ringbuf_set_ring(set, 0)) > 0, "ring 0 had more");
	n = rp_bpf_ringbuf_set_consume_ring(set, 1, 10);
	CHECK(n == 10 && b.records == 10, "consume_ring 10: %d", n);
	n = rp_bpf_ringbuf_set_consume_ring(set, 1, 0);
	CHECK(n > 0 && b.bad == 0 && b.max_n <= RP_BPF_RINGBUF_BATCH, "batch: %d, %u bad", n, b.bad);
	CHECK(b.calls < b.records / 8, "%u calls for %u records", b.calls, b.records);
	CHECK(rp_bpf_ringbuf_avail(rp_bpf_ringbuf_set_ring(set, 1)) == 0, "ring 1 drained");
	CHECK(rp_bpf_ringbuf_set_error(set, 1) == 0 && rp_bpf_ringbuf_set_error(set, 2) == -EINVAL,
	      "ring errors");
out:
	pair_close(&p);
}

static int count_fn(void *ctx, const void *data, uint32_t len)
{
	(void)data;
	(void)len;
	(*(int *)ctx)++;
	return 0;
}

static int stop_fn(void *ctx, const void *data, uint32_t len)
{
	(void)data;
	(void)len;
	(*(int *)ctx)++;
	return 1;
}

/* A callback's positive return stops the whole set drain after that record
 * (ringproof.h's convention): no callback runs after it, the rest waits for
 * the next call and nothing is lost. */
static void test_ringbuf_set_stop(tcase *t)
{
	set_pair p;
	rp_bpf_ringbuf_stats s0, s1;
	int a = 0, b = 0, total = 0, n;

	if (pair_open(&p, t))
		goto out;
	rp_bpf_ringbuf_set *const set = p.set;
	CHECK(rp_bpf_ringbuf_set_add(set, p.f.rb_fd, stop_fn, &a, 0) == 0, "add 0");
	CHECK(rp_bpf_ringbuf_set_add(set, p.g.rb_fd, stop_fn, &b, 0) == 1, "add 1");
	CHECK(fixture_run(p.f.prog_rb, 8, -1) == 0 && fixture_run(p.g.prog_rb, 8, -1) == 0, "run");
	/* consume, poll and consume_n in turn: each delivers one record */
	for (int i = 0; i < 100; i++) {
		n = i % 3 == 0 ? rp_bpf_ringbuf_set_consume(set)
		  : i % 3 == 1 ? rp_bpf_ringbuf_set_poll(set, 0) : rp_bpf_ringbuf_set_consume_n(set, 5);
		if (n == 0)
			break;
		total++;
		CHECK(n == 1 && a + b == total, "call %d gave %d, %d + %d callbacks for %d records",
		      i, n, a, b, total);
		CHECK(b == 0 || rp_bpf_ringbuf_avail(rp_bpf_ringbuf_set_ring(set, 0)) == 0,
		      "ring 1 before ring 0 was drained");
	}
	CHECK(rp_bpf_ringbuf_set_stats(set, 0, &s0) == 0 && rp_bpf_ringbuf_set_stats(set, 1, &s1) == 0 &&
	      a > 0 && b > 0 && (uint64_t)a == s0.records && (uint64_t)b == s1.records &&
	      rp_bpf_ringbuf_avail(rp_bpf_ringbuf_set_ring(set, 0)) == 0 &&
	      rp_bpf_ringbuf_avail(rp_bpf_ringbuf_set_ring(set, 1)) == 0,
	      "every record once: %d + %d, stats %llu + %llu", a, b,
	      (unsigned long long)s0.records, (unsigned long long)s1.records);
out:
	pair_close(&p);
}

/* Strict rings in a set: a ring whose walk fails (here its consumer
 * position knocked off the record grid, as a consumer bug would) stops
 * alone with its status; the other ring keeps draining; an explicit resync
 * lets it go on. */
static void test_ringbuf_strict_set(tcase *t)
{
	set_pair p;
	int a = 0, b = 0, n;

	if (pair_open(&p, t))
		goto out;
	rp_bpf_ringbuf_set *const set = p.set;
	CHECK(rp_bpf_ringbuf_set_add(set, p.f.rb_fd, count_fn, &a, RP_STRICT) == 0, "add 0");
	CHECK(rp_bpf_ringbuf_set_add(set, p.g.rb_fd, count_fn, &b, RP_STRICT) == 1, "add 1");
	CHECK(fixture_run(p.f.prog_rb, 8, -1) == 0 && fixture_run(p.g.prog_rb, 8, -1) == 0, "run");
	rp_bpf_ringbuf_set_ring(set, 0)->consumer += 4;
	n = rp_bpf_ringbuf_set_consume(set);
	CHECK(n == RP_E_RB_ALIGN && rp_bpf_ringbuf_set_error(set, 0) == RP_E_RB_ALIGN &&
	      rp_bpf_ringbuf_set_error(set, 1) == 0, "consume %d, errors %d %d", n,
	      rp_bpf_ringbuf_set_error(set, 0), rp_bpf_ringbuf_set_error(set, 1));
	CHECK(a == 0 && b > 0, "delivered %d + %d", a, b);
	const int b1 = b;
	CHECK(fixture_run(p.g.prog_rb, 8, -1) == 0, "run");
	n = rp_bpf_ringbuf_set_consume(set);
	CHECK(n == RP_E_RB_ALIGN && b > b1 && a == 0, "stopped ring: %d, other ring %d", n, b - b1);
	CHECK(rp_bpf_ringbuf_set_resync(set, 0) == 0 && rp_bpf_ringbuf_set_error(set, 0) == 0, "resync");
	CHECK(fixture_run(p.f.prog_rb, 8, -1) == 0, "run");
	n = rp_bpf_ringbuf_set_consume(set);
	CHECK(n > 0 && a == n, "after resync: %d, ring 0 got %d", n, a);
out:
	pair_close(&p);
}

/* (no kernel) The batch API's batch sizes, on a synthetic ring bound with
 * rp_bpf_ringbuf_bind_pages: a consume's first batch takes up to
 * RP_BPF_RINGBUF_BATCH records, each later one as many as span about
 * RP_BATCH_BYTES of the ring, at least RP_BPF_RINGBUF_BATCH_MIN
 * (rp_bpf_ringbuf.h).  200 records of 32 bytes (24-byte payloads) come in
 * batches of 64, 32, 32, 32, 32, 8; 100 of 512 bytes (504-byte payloads),
 * where 1 KiB spans two, in 64, 8, 8, 8, 8, 4. */
#define SYN_RB_SIZE (64u * 1024u)
#define SYN_RB_PAGE 4096u
typedef struct syn_batches {
	uint32_t sizes[32];
	uint32_t calls;
	uint32_t len;      /* every payload's length */
	uint32_t next_id;  /* the first u32 of each payload, 0, 1, ... */
	bool bad;
} syn_batches;

static int syn_batch_fn(void *ctx, const rp_payload *recs, uint32_t n)
{
	syn_batches *b = ctx;

	if (b->calls < 32)
		b->sizes[b->calls] = n;
	b->calls++;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id;
		memcpy(&id, recs[i].data, sizeof id);
		if (recs[i].size != b->len || id != b->next_id++)
			b->bad = true;
	}
	return 0;
}

/* Lays out count records of len payload bytes from position 0 of a fresh
 * ring (tb_rb_put; payload: the record's index, then 0xab), binds rb to it
 * and sets producer_pos past the last. */
static void syn_rb_fill(rp_bpf_ringbuf *rb, uint8_t *cons, uint8_t *prod, uint32_t count,
                        uint32_t len, syn_batches *b)
{
	static uint8_t payload[SYN_RB_SIZE];
	uint8_t *data = prod + SYN_RB_PAGE;
	unsigned long pos = 0;

	memset(cons, 0, SYN_RB_PAGE);
	memset(prod, 0, SYN_RB_PAGE + 2u * SYN_RB_SIZE);
	memset(payload, 0xab, len);
	for (uint32_t i = 0; i < count; i++) {
		memcpy(payload, &i, 4);
		pos += tb_rb_put(data, SYN_RB_SIZE, pos, len, payload);
	}
	memcpy(prod, &pos, sizeof pos);
	memset(b, 0, sizeof *b);
	b->len = len;
	rp_bpf_ringbuf_bind_pages(rb, -1, cons, prod, SYN_RB_PAGE, SYN_RB_SIZE, NULL, syn_batch_fn,
	                          b, RP_STRICT);
}

/* One ring of count records of len payload bytes, consumed in one call:
 * every record delivered once, in order, in batches of want[0 .. 5]. */
static bool syn_batch_case(tcase *t, uint32_t count, uint32_t len, const uint32_t want[6])
{
	static _Alignas(4096) uint8_t cons[SYN_RB_PAGE];
	static _Alignas(4096) uint8_t prod[SYN_RB_PAGE + 2u * SYN_RB_SIZE];
	const uint64_t rec_bytes = (8u + len + 7u) & ~7u;
	rp_bpf_ringbuf rb;
	syn_batches b;
	int n;

	syn_rb_fill(&rb, cons, prod, count, len, &b);
	n = rp_bpf_ringbuf_consume(&rb, 0);
	CHECK(n == (int)count && !b.bad && b.next_id == count, "%llu-byte records: %d delivered, bad %d",
	      (unsigned long long)rec_bytes, n, b.bad);
	CHECK(b.calls == 6 && memcmp(b.sizes, want, 6 * sizeof want[0]) == 0,
	      "%llu-byte records: %u batches: %u %u %u %u %u %u", (unsigned long long)rec_bytes, b.calls,
	      b.sizes[0], b.sizes[1], b.sizes[2], b.sizes[3], b.sizes[4], b.sizes[5]);
	CHECK(rp_bpf_ringbuf_consumer(&rb) == count * rec_bytes, "consumer_pos %llu",
	      (unsigned long long)rp_bpf_ringbuf_consumer(&rb));
	CHECK(rb.stats.records == count && rb.stats.corrupt == 0, "stats: %llu records, %llu corrupt",
	      (unsigned long long)rb.stats.records, (unsigned long long)rb.stats.corrupt);
	return true;
out:
	return false;
}

static void test_ringbuf_batch_sizes(tcase *t)
{
	static const uint32_t small[6] = { 64, 32, 32, 32, 32, 8 };
	static const uint32_t large[6] = { 64, 8, 8, 8, 8, 4 };

	if (syn_batch_case(t, 200, 24, small))
		syn_batch_case(t, 100, 504, large);
}

/* A producer_pos exactly the ring's size ahead of the consumer is sane
 * (the kernel stops short of it, at most size - 8 ahead; a corrupted page
 * may hold it): _avail reports the whole ring and a consume delivers every
 * record in it, counting no corruption.  The fuzzers' model kernel
 * publishes it only when asked (FZ_FILL_SPEC), so this pins the boundary
 * too (fuzz/README.md, adapter mutants). */
static void test_ringbuf_full_ring(tcase *t)
{
	static _Alignas(4096) uint8_t cons[SYN_RB_PAGE];
	static _Alignas(4096) uint8_t prod[SYN_RB_PAGE + 2u * SYN_RB_SIZE];
	const uint32_t len = 56, count = SYN_RB_SIZE / 64u; /* 64-byte records fill the ring */
	rp_bpf_ringbuf rb;
	syn_batches b;
	int n;

	syn_rb_fill(&rb, cons, prod, count, len, &b);
	CHECK(rp_bpf_ringbuf_producer(&rb) == SYN_RB_SIZE && rp_bpf_ringbuf_avail(&rb) == SYN_RB_SIZE,
	      "producer %llu, avail %llu", (unsigned long long)rp_bpf_ringbuf_producer(&rb),
	      (unsigned long long)rp_bpf_ringbuf_avail(&rb));
	n = rp_bpf_ringbuf_consume(&rb, 0);
	CHECK(n == (int)count && !b.bad && b.next_id == count, "%d of %u delivered, bad %d", n, count, b.bad);
	CHECK(rp_bpf_ringbuf_consumer(&rb) == SYN_RB_SIZE && rp_bpf_ringbuf_avail(&rb) == 0 &&
	      rb.stats.corrupt == 0 && rb.error == 0,
	      "consumer_pos %llu, avail %llu, %llu corrupt, error %d",
	      (unsigned long long)rp_bpf_ringbuf_consumer(&rb), (unsigned long long)rp_bpf_ringbuf_avail(&rb),
	      (unsigned long long)rb.stats.corrupt, rb.error);
out:
	return;
}

int main(int argc, char **argv)
{
	static const tap_test tests[] = {
		{ "ringbuf round trip with discards (BPF_PROG_TEST_RUN)", test_ringbuf_roundtrip },
		{ "ringbuf round trip with discards, batch API", test_ringbuf_roundtrip_batch },
		{ "ringbuf set: a callback's stop ends the whole drain, nothing lost", test_ringbuf_set_stop },
		{ "ringbuf conservation, two rings in one set, small ring", test_ringbuf_conservation },
		{ "ringbuf wrong map type and closed fd", test_ringbuf_bad_map },
		{ "overwrite ring: newest first, overwrite accounting, LOST after pause", test_overwrite_phases },
		{ "overwrite ring read while a producer writes", test_overwrite_concurrent },
		{ "backward rw ring: round trip newest first, head goes down, tail follows", test_bwrw_roundtrip },
		{ "backward rw ring: bad data_head (misaligned, 2^40 away) not published as data_tail", test_bwrw_bad_head },
		{ "backward rw ring: full ring drops with -ENOSPC, LOST after the drain", test_bwrw_full },
		{ "backward rw ring: callback stops deliver every record exactly once", test_bwrw_stop },
		{ "backward rw ring drained (with early stops) while a producer writes", test_bwrw_concurrent },
		{ "backward rw ring: synthetic ring, u64 wrap, skip ranges, deferred stop, corruption", test_bwrw_synthetic },
		{ "ringbuf consumer_pos moved back / 2^40 ahead: restored, nothing redelivered or skipped", test_ringbuf_consumer_pos_corrupt },
		{ "ringbuf strict set: a failing ring stops alone, the other drains, explicit resync", test_ringbuf_strict_set },
		{ "ringbuf set: callback error returned, batch API, consume_ring with a bound", test_ringbuf_set_errors_and_batch },
		{ "ringbuf batch API: batch sizes (first 64, then about 1 KiB of ring, at least 8), synthetic ring", test_ringbuf_batch_sizes },
		{ "ringbuf: producer_pos exactly the ring's size ahead is sane, every record delivered", test_ringbuf_full_ring },
	};
	const int n = (int)(sizeof tests / sizeof tests[0]);

	if (argc < 2) {
		fprintf(stderr, "usage: %s ringbuf_test.bpf.o\n", argv[0]);
		return 2;
	}
	bpf_path = argv[1];
	libbpf_set_print(NULL);
	bpf_refused = tap_bpf_refused();
	return tap_run(tests, n);
}
