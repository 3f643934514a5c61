/* One BPF-output ring driven directly: drain, early stop, peek/commit, and
 * the corrupt-ring policies (corruption injected through data_tail, the one
 * thing userspace can write in a perf mapping). */
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
	CHECK(o.r.stats.records == 10 && o.r.stats.bytes == 320, "stats %llu/%llu",
	      (unsigned long long)o.r.stats.records, (unsigned long long)o.r.stats.bytes);
out:
	one_ring_close(&o);
}

static void corrupt_case(itest *t, bool strict)
{
	one_ring o;
	seqs s;
	uint64_t head;
	int err, got;

	err = one_ring_open(&o, 2, strict ? RP_RING_STRICT : 0);
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
	/* overrun: tail more than the ring size behind head */
	o.r.tail = rp_perf_ring_head(&o.r) - o.r.data.size - 8;
	got = rp_perf_ring_drain(&o.r, collect, &s, 0);
	CHECK(o.r.stats.last_error == RP_E_OVERRUN, "overrun not reported: %d",
	      o.r.stats.last_error);
	CHECK(strict ? got == RP_E_OVERRUN : got == 0, "overrun returned %d", got);
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
