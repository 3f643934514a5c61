/* One BPF-output ring driven directly: drain, early stop, peek/commit, batch
 * drain, and the corrupt-ring policies (corruption injected through the
 * consumer tail, through data_head in the writable control page). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "rp_error.h"
#include "rp_perf.h"
#include "rp_perf_buffer.h"
#include "rp_perf_ring.h"
#include "tests.h"

typedef struct one_ring {
	itest_bpf b;
	struct itest_source *src;
	int cpu;
	int fd;
	rp_perf_ring r;
} one_ring;

/* Producer loaded, thread pinned, one BPF-output ring on that CPU bound at
 * key cpu of the events map. */
static int one_ring_open(one_ring *o, uint32_t pages, unsigned flags)
{
	struct perf_event_attr a;
	uint32_t key, n = 0;
	int ids[64];
	int err;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->b.obj = NULL;
	o->src = calloc(1, sizeof(*o->src));
	if (!o->src)
		return -ENOMEM;
	err = itest_bpf_open(&o->b);
	if (err)
		return err;
	err = rp_online_cpus(ids, 64, &n);
	if (err)
		return err;
	o->cpu = ids[n - 1];
	err = itest_pin(o->cpu);
	if (err)
		return err;
	rp_attr_init_bpf_output(&a);
	err = rp_perf_open(&a, -1, o->cpu, -1, 0, &o->fd, NULL);
	if (err)
		return err;
	err = rp_perf_ring_map(&o->r, o->fd, pages, flags);
	if (err)
		return err;
	key = (uint32_t)o->cpu;
	return bpf_map_update_elem(o->b.events_fd, &key, &o->fd, BPF_ANY);
}

static void one_ring_close(one_ring *o)
{
	rp_perf_ring_unmap(&o->r);
	if (o->fd >= 0)
		close(o->fd);
	itest_bpf_close(&o->b);
	free(o->src);
	itest_unpin();
}

typedef struct seqs {
	uint64_t seq[64];
	unsigned n;
	unsigned stop_at; /* stop after this many (0: never) */
} seqs;

static int collect(void *p, const rp_record *rec)
{
	seqs *s = p;
	rp_bpf_output out;
	uint64_t v = ~0ull;

	if (rp_bpf_output_view(rec, &out) == RP_OK)
		rp_span_get_u64(out.data, 0, &v);
	if (s->n < 64)
		s->seq[s->n] = v;
	s->n++;
	return s->stop_at && s->n == s->stop_at;
}

void test_ring_early_stop(itest *t)
{
	one_ring o;
	seqs s;
	rp_record recs[8];
	uint64_t before, v;
	rp_bpf_output out;
	int err, got;

	err = one_ring_open(&o, 4, 0);
	SKIP_IF_REFUSED(err, "perf_event_open/bpf");
	CHECK(err == 0, "setup: %s", rp_strerror(err));
	err = itest_emit(&o.b, o.src, 10, 16);
	CHECK(err == 0 && o.src->ok == 10, "emit: %s ok=%llu", rp_strerror(err),
	      (unsigned long long)o.src->ok);

	memset(&s, 0, sizeof(s));
	s.stop_at = 3;
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 3 && s.n == 3, "early stop delivered %d", got);
	CHECK(s.seq[0] == 0 && s.seq[1] == 1 && s.seq[2] == 2, "order");
	/* published tail = 3 records of 8 + 4 + 20 -> 32 bytes each */
	CHECK(rp_perf_ring_tail(&o.r) == 3 * 32, "tail %llu after stop",
	      (unsigned long long)rp_perf_ring_tail(&o.r));

	/* max_records budget */
	memset(&s, 0, sizeof(s));
	got = rp_perf_ring_drain(&o.r, collect, &s, 2);
	CHECK(got == 2 && s.seq[0] == 3 && s.seq[1] == 4, "budget: %d, first %llu", got,
	      (unsigned long long)s.seq[0]);

	/* peek does not publish; commit does */
	before = rp_perf_ring_tail(&o.r);
	got = rp_perf_ring_peek(&o.r, recs, 2);
	CHECK(got == 2, "peek 2: %d", got);
	CHECK(rp_perf_ring_tail(&o.r) == before, "peek published the tail");
	CHECK(rp_bpf_output_view(&recs[0], &out) == RP_OK && rp_span_get_u64(out.data, 0, &v) &&
	      v == 5, "peek first seq");
	got = rp_perf_ring_peek(&o.r, recs, 8);
	CHECK(got == 3, "second peek continues: %d", got);
	CHECK(rp_bpf_output_view(&recs[2], &out) == RP_OK && rp_span_get_u64(out.data, 0, &v) &&
	      v == 9, "last seq");
	CHECK(rp_perf_ring_peek(&o.r, recs, 8) == 0, "peek past head");
	rp_perf_ring_commit(&o.r);
	CHECK(rp_perf_ring_tail(&o.r) == rp_perf_ring_head(&o.r) &&
	      rp_perf_ring_head(&o.r) == 10 * 32, "commit: tail %llu head %llu",
	      (unsigned long long)rp_perf_ring_tail(&o.r),
	      (unsigned long long)rp_perf_ring_head(&o.r));
	CHECK(o.r.stats.records == 10 && o.r.stats.record_bytes == 320, "stats %llu/%llu",
	      (unsigned long long)o.r.stats.records, (unsigned long long)o.r.stats.record_bytes);
out:
	one_ring_close(&o);
}

static void corrupt_case(itest *t, bool strict)
{
	one_ring o;
	seqs s;
	uint64_t head;
	int err, got;

	err = one_ring_open(&o, 2, strict ? RP_STRICT : 0);
	SKIP_IF_REFUSED(err, "perf_event_open/bpf");
	CHECK(err == 0, "setup: %s", rp_strerror(err));
	err = itest_emit(&o.b, o.src, 4, 100);
	CHECK(err == 0 && o.src->ok == 4, "emit");
	head = rp_perf_ring_head(&o.r);
	CHECK(head == 4 * 112, "head %llu", (unsigned long long)head);
	/* a consumer bug: tail off by 4 bytes */
	o.r.tail += 4;
	memset(&s, 0, sizeof(s));
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(o.r.stats.corrupt == 1 && o.r.stats.last_error == RP_E_TAIL_ALIGN,
	      "corrupt %llu last %d", (unsigned long long)o.r.stats.corrupt,
	      o.r.stats.last_error);
	CHECK(s.n == 0, "delivered %u records from a corrupt position", s.n);
	if (strict) {
		CHECK(got == RP_E_TAIL_ALIGN, "strict returned %d", got);
		CHECK(rp_perf_ring_tail(&o.r) == 4, "strict published %llu",
		      (unsigned long long)rp_perf_ring_tail(&o.r));
		CHECK(o.r.stats.resynced_bytes == 0, "strict resynced");
	} else {
		CHECK(got == 0, "default returned %d", got);
		CHECK(rp_perf_ring_tail(&o.r) == head, "not resynced to head");
		CHECK(o.r.stats.resynced_bytes == head - 4, "resynced %llu",
		      (unsigned long long)o.r.stats.resynced_bytes);
		/* and the ring keeps working */
		err = itest_emit(&o.b, o.src, 2, 8);
		CHECK(err == 0, "emit after resync");
		got = rp_perf_ring_drain(&o.r, collect, &s, 0);
		CHECK(got == 2 && s.seq[0] == 4 && s.seq[1] == 5, "after resync: %d", got);
	}
	if (strict) {
		/* stopped: the ring keeps its status without recounting */
		got = rp_perf_ring_drain(&o.r, collect, &s, 0);
		CHECK(got == RP_E_TAIL_ALIGN && o.r.stats.corrupt == 1 && o.r.error == RP_E_TAIL_ALIGN,
		      "stopped ring: %d, corrupt %llu", got, (unsigned long long)o.r.stats.corrupt);
		CHECK(rp_perf_ring_resync(&o.r) == 0 && o.r.error == 0 &&
		      rp_perf_ring_tail(&o.r) == head, "explicit resync: tail %llu",
		      (unsigned long long)rp_perf_ring_tail(&o.r));
	}
	/* overrun: tail more than the ring size behind head.  The head is not
	 * trusted (the kernel never writes past the published tail): the tail
	 * stays, the bad state counts once, an explicit resync steps over it. */
	head = rp_perf_ring_head(&o.r);
	o.r.tail = head - o.r.data.size - 8;
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(o.r.stats.last_error == RP_E_OVERRUN, "overrun not reported: %d",
	      o.r.stats.last_error);
	CHECK(strict ? got == RP_E_OVERRUN : got == 0, "overrun returned %d", got);
	CHECK(o.r.tail == head - o.r.data.size - 8, "tail moved to an untrusted head");
	{
		const uint64_t c = o.r.stats.corrupt;
		got = rp_perf_ring_drain(&o.r, collect, &s, 0);
		CHECK(o.r.stats.corrupt == c, "same bad state counted again");
	}
	CHECK(rp_perf_ring_resync(&o.r) == 0 && rp_perf_ring_tail(&o.r) == head,
	      "explicit resync after overrun");
out:
	one_ring_close(&o);
}

void test_ring_corrupt_default(itest *t)
{
	corrupt_case(t, false);
}

void test_ring_corrupt_strict(itest *t)
{
	corrupt_case(t, true);
}

/* Write data_head the way a stray writer to the control page would. */
static void set_data_head(one_ring *o, uint64_t v)
{
	struct perf_event_mmap_page *pg = o->r.base;
	__atomic_store_n(&pg->data_head, v, __ATOMIC_RELEASE);
}

/* A two-page ring with two 16-byte records (data_head TWO_RECORDS_HEAD),
 * then data_head misaligned by 4 after them.  false after a SKIP or a
 * failure (t says which); the caller closes o either way. */
#define TWO_RECORDS_HEAD 64u
static bool two_records_head_misaligned(itest *t, one_ring *o, unsigned flags)
{
	uint64_t head;
	int err = one_ring_open(o, 2, flags);

	SKIP_IF_REFUSED(err, "perf_event_open/bpf");
	CHECK(err == 0, "setup: %s", rp_strerror(err));
	err = itest_emit(&o->b, o->src, 2, 16);
	CHECK(err == 0 && o->src->ok == 2, "emit");
	head = rp_perf_ring_head(&o->r);
	CHECK(head == TWO_RECORDS_HEAD, "head %llu", (unsigned long long)head);
	set_data_head(o, head + 4);
	return true;
out:
	return false;
}

/* data_head misaligned by 4 after two records, and the callback stops the
 * drain on the second: the corruption is not reached yet (not counted, the
 * ring not stopped); the next drain reaches it and counts it once, the one
 * after does not count it again. */
static void stop_before_corruption(itest *t, bool strict)
{
	one_ring o;
	seqs s;
	uint64_t head;
	int got;

	if (!two_records_head_misaligned(t, &o, strict ? RP_STRICT : 0))
		goto out;
	head = TWO_RECORDS_HEAD;
	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 2 && s.seq[0] == 0 && s.seq[1] == 1, "delivered %d", got);
	CHECK(o.r.stats.corrupt == 0 && o.r.error == 0 && rp_perf_ring_tail(&o.r) == head,
	      "strict %d: corrupt %llu error %d before the walk reached it", strict,
	      (unsigned long long)o.r.stats.corrupt, o.r.error);
	s.stop_at = 0;
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(s.n == 2 && o.r.stats.corrupt == 1 && o.r.stats.last_error < 0 &&
	      (strict ? got < 0 && o.r.error == got : got == 0 && o.r.error == 0),
	      "strict %d next drain: %d, corrupt %llu, error %d", strict, got,
	      (unsigned long long)o.r.stats.corrupt, o.r.error);
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(s.n == 2 && o.r.stats.corrupt == 1, "strict %d: counted again (%llu), %d", strict,
	      (unsigned long long)o.r.stats.corrupt, got);
out:
	one_ring_close(&o);
}

void test_ring_stop_before_corruption(itest *t)
{
	stop_before_corruption(t, false);
	if (t->status == TAP_PASS)
		stop_before_corruption(t, true);
}

/* Strict peek: the two good records before a misaligned data_head come back
 * first, with their count (the tail is past them, a commit publishes them);
 * the next peek returns the status, counted once. */
void test_ring_peek_strict_before_corruption(itest *t)
{
	one_ring o;
	rp_record recs[8];
	rp_bpf_output out;
	uint64_t v0 = 1, v1 = 0;
	int got, again;

	if (!two_records_head_misaligned(t, &o, RP_STRICT))
		goto out;
	got = rp_perf_ring_peek(&o.r, recs, 8);
	CHECK(got == 2, "peek before the corruption returned %d", got);
	CHECK(rp_bpf_output_view(&recs[0], &out) == RP_OK && rp_span_get_u64(out.data, 0, &v0) &&
	      rp_bpf_output_view(&recs[1], &out) == RP_OK && rp_span_get_u64(out.data, 0, &v1) &&
	      v0 == 0 && v1 == 1, "peeked seqs %llu %llu", (unsigned long long)v0,
	      (unsigned long long)v1);
	CHECK(o.r.stats.corrupt == 1 && o.r.error < 0, "corrupt %llu error %d",
	      (unsigned long long)o.r.stats.corrupt, o.r.error);
	got = rp_perf_ring_peek(&o.r, recs, 8);
	again = rp_perf_ring_peek(&o.r, recs, 8);
	CHECK(got == o.r.error && again == got && o.r.stats.corrupt == 1,
	      "next peeks %d %d, error %d, corrupt %llu", got, again, o.r.error,
	      (unsigned long long)o.r.stats.corrupt);
	rp_perf_ring_commit(&o.r);
	CHECK(rp_perf_ring_tail(&o.r) == TWO_RECORDS_HEAD && o.r.stats.records == 2,
	      "commit published %llu, records %llu", (unsigned long long)rp_perf_ring_tail(&o.r),
	      (unsigned long long)o.r.stats.records);
out:
	one_ring_close(&o);
}

/* data_head misaligned by 4: the records before it are delivered, the tail
 * stays on the record grid, the bad head counts once, and the next record
 * the kernel writes is delivered. */
void test_ring_bad_head_misaligned(itest *t)
{
	one_ring o;
	seqs s;
	uint64_t head;
	int err, got;

	if (!two_records_head_misaligned(t, &o, 0))
		goto out;
	head = TWO_RECORDS_HEAD;
	memset(&s, 0, sizeof(s));
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 2 && s.seq[0] == 0 && s.seq[1] == 1, "delivered %d", got);
	CHECK(o.r.stats.corrupt == 1 && o.r.stats.last_error < 0, "corrupt %llu",
	      (unsigned long long)o.r.stats.corrupt);
	CHECK(o.r.tail == head && rp_perf_ring_tail(&o.r) == head,
	      "tail %llu published %llu: not the last record end", (unsigned long long)o.r.tail,
	      (unsigned long long)rp_perf_ring_tail(&o.r));
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 0 && o.r.stats.corrupt == 1, "empty ring: %d, corrupt %llu", got,
	      (unsigned long long)o.r.stats.corrupt);
	err = itest_emit(&o.b, o.src, 1, 16);
	CHECK(err == 0 && o.src->ok == 3, "emit after");
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 1 && s.n == 3 && s.seq[2] == 2, "next record: %d delivered", got);
	CHECK(o.r.stats.corrupt == 1 && o.r.stats.resynced_bytes == 0,
	      "corrupt %llu resynced %llu", (unsigned long long)o.r.stats.corrupt,
	      (unsigned long long)o.r.stats.resynced_bytes);
out:
	one_ring_close(&o);
}

/* data_head 2^40 ahead: not trusted (the kernel never writes more than the
 * ring size past the published tail); nothing skipped, nothing published
 * beyond the kernel's head, the next record delivered. */
void test_ring_bad_head_far(itest *t)
{
	one_ring o;
	seqs s;
	uint64_t head;
	int err, got;

	err = one_ring_open(&o, 2, 0);
	SKIP_IF_REFUSED(err, "perf_event_open/bpf");
	CHECK(err == 0, "setup: %s", rp_strerror(err));
	err = itest_emit(&o.b, o.src, 1, 16);
	CHECK(err == 0, "emit");
	memset(&s, 0, sizeof(s));
	CHECK(rp_perf_ring_drain(&o.r, collect, &s, 0) == 1, "first record");
	head = rp_perf_ring_head(&o.r);
	set_data_head(&o, head + (1ull << 40));
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 0 && o.r.stats.corrupt == 1 && o.r.stats.last_error == RP_E_OVERRUN,
	      "bad head: %d corrupt %llu last %d", got, (unsigned long long)o.r.stats.corrupt,
	      o.r.stats.last_error);
	CHECK(rp_perf_ring_tail(&o.r) == head && o.r.stats.resynced_bytes == 0,
	      "published %#llx resynced %llu", (unsigned long long)rp_perf_ring_tail(&o.r),
	      (unsigned long long)o.r.stats.resynced_bytes);
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 0 && o.r.stats.corrupt == 1, "recounted: corrupt %llu",
	      (unsigned long long)o.r.stats.corrupt);
	err = itest_emit(&o.b, o.src, 1, 16);
	CHECK(err == 0 && o.src->ok == 2, "emit after: ok %llu", (unsigned long long)o.src->ok);
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(got == 1 && s.n == 2 && s.seq[1] == 1, "next record: %d delivered", got);
	CHECK(o.r.stats.resynced_bytes == 0 && o.r.stats.corrupt == 1, "resynced %llu",
	      (unsigned long long)o.r.stats.resynced_bytes);
out:
	one_ring_close(&o);
}

typedef struct batches {
	unsigned calls, records, bad;
	uint64_t next;
	uint32_t n[8]; /* the first calls' batch sizes */
} batches;

static int on_batch(void *p, const rp_record *recs, uint32_t n)
{
	batches *b = p;
	if (b->calls < 8)
		b->n[b->calls] = n;
	b->calls++;
	for (uint32_t i = 0; i < n; i++) {
		rp_bpf_output out;
		uint64_t v = ~0ull;
		if (rp_bpf_output_view(&recs[i], &out) != RP_OK || !rp_span_get_u64(out.data, 0, &v) ||
		    v != b->next)
			b->bad++;
		b->next++;
		b->records++;
	}
	return 0;
}

static int fail42(void *p, const rp_record *rec)
{
	(void)rec;
	(*(unsigned *)p)++;
	return -42;
}

static int on_sample_batch(void *p, const rp_payload *s, uint32_t n)
{
	batches *b = p;
	if (b->calls < 8)
		b->n[b->calls] = n;
	b->calls++;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = ~0ull;
		if (s[i].size >= 8)
			memcpy(&v, s[i].data, 8);
		if (v != b->next)
			b->bad++;
		b->next++;
		b->records++;
	}
	return 0;
}

/* 100 records of 272 bytes (256-byte payloads): the first batch of a drain
 * takes RP_PERF_BATCH (64 records, 17,408 bytes), the next ones as many as
 * span RP_BATCH_BYTES: 1024 * 64 / 17408 = 3 (and 1024 * 3 / 816 = 3), so
 * 12 batches of 3 for the 36 left; the record and the sample batch drains
 * alike, every record once, in order. */
void test_ring_batch_fits_bytes(itest *t)
{
	one_ring o;
	batches b;
	int err, got;

	err = one_ring_open(&o, 8, 0);
	SKIP_IF_REFUSED(err, "perf_event_open/bpf");
	CHECK(err == 0, "setup: %s", rp_strerror(err));
	memset(&b, 0, sizeof(b));
	for (int samples = 0; samples < 2; samples++) {
		err = itest_emit(&o.b, o.src, 100, 256);
		CHECK(err == 0 && o.src->ok == 100u * (unsigned)(samples + 1), "emit: ok %llu",
		      (unsigned long long)o.src->ok);
		b.calls = 0;
		b.records = 0;
		got = samples ? rp_perf_ring_drain_samples(&o.r, on_sample_batch, NULL, &b, 0)
		              : rp_perf_ring_drain_batch(&o.r, on_batch, &b, 0);
		CHECK(got == 100 && b.records == 100 && b.bad == 0, "samples %d: drained %d, %u bad",
		      samples, got, b.bad);
		CHECK(b.calls == 13 && b.n[0] == 64 && b.n[1] == 3 && b.n[2] == 3 && b.n[7] == 3,
		      "samples %d: %u calls: %u %u %u .. %u", samples, b.calls, b.n[0], b.n[1], b.n[2],
		      b.n[7]);
	}
	CHECK(o.r.stats.records == 200 && o.r.stats.record_bytes == 200 * 272, "stats %llu %llu",
	      (unsigned long long)o.r.stats.records, (unsigned long long)o.r.stats.record_bytes);
out:
	one_ring_close(&o);
}

/* One callback per batch of RP_PERF_BATCH records, in order; stats per
 * batch; a callback's negative return comes out of the drain. */
void test_ring_batch_and_callback_error(itest *t)
{
	one_ring o;
	batches b;
	unsigned calls = 0;
	int err, got;

	err = one_ring_open(&o, 8, 0);
	SKIP_IF_REFUSED(err, "perf_event_open/bpf");
	CHECK(err == 0, "setup: %s", rp_strerror(err));
	err = itest_emit(&o.b, o.src, 150, 16);
	CHECK(err == 0 && o.src->ok == 150, "emit: ok %llu", (unsigned long long)o.src->ok);
	memset(&b, 0, sizeof(b));
	got = rp_perf_ring_drain_batch(&o.r, on_batch, &b, 0);
	CHECK(got == 150 && b.records == 150 && b.bad == 0, "batch drain %d, %u bad", got, b.bad);
	CHECK(b.calls == itest_batch_calls(150, 32, RP_PERF_BATCH) && b.calls == 4, "%u calls", b.calls);
	CHECK(o.r.stats.records == 150 && o.r.stats.record_bytes == 150 * 32 &&
	      o.r.stats.payload_bytes == 150 * 24, "stats %llu %llu %llu",
	      (unsigned long long)o.r.stats.records, (unsigned long long)o.r.stats.record_bytes,
	      (unsigned long long)o.r.stats.payload_bytes);
	err = itest_emit(&o.b, o.src, 2, 16);
	CHECK(err == 0, "emit");
	got = rp_perf_ring_drain(&o.r, fail42, &calls, 0);
	CHECK(got == -42 && calls == 1, "callback error: drain gave %d after %u calls", got, calls);
	got = rp_perf_ring_drain(&o.r, fail42, &calls, 0);
	CHECK(got == -42 && calls == 2, "the failing record was consumed: %u calls", calls);
out:
	one_ring_close(&o);
}
