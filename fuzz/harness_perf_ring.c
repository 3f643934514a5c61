/* perf_ring (adapter, structure-aware): the drains of adapters/linux/rp_perf_ring.c
 * over an in-memory ring (no syscalls: the rp_perf_ring is built by hand, the
 * buffer is the control page then exactly data_size bytes, so ASan sees any
 * read past the data area).  A model producer (the "kernel") writes records
 * that each carry a sequence number (misc = seq & 0xffff, body bytes a
 * pattern of seq), publishes data_head, and honours the data_tail the
 * adapter publishes.  The input then calls the drains with fuzzed budgets
 * and callbacks that return 0, a positive stop or a negative error.
 *
 * Rules checked after every call (the model computes them from what the
 * producer wrote, never from the ring bytes):
 *  R1 Delivery: every record in [tail, head) is handed over exactly once, in
 *     ring order, byte for byte (header, body; a sample's raw_size and
 *     payload).  drain, drain_batch, peek: every record.  drain_samples,
 *     drain_payloads: a BPF-output sample (SAMPLE, size >= 16, raw + 12 <=
 *     size) to the sample callback, any other record to `other`; with other
 *     NULL it is skipped: a LOST whose view succeeds (body >= 16) counts in
 *     stats.lost / lost_records, anything else in stats.malformed.
 *  R2 Skips: records are passed over without delivery only by the corruption
 *     policy (default mode: tail -> a sane data_head) and by
 *     rp_perf_ring_resync (tail -> data_head if 8-aligned, else unchanged),
 *     and only up to that head.
 *  R3 Stops: the walk goes until caught up, the budget (max_records, 0 = no
 *     limit, counting every record consumed, skipped ones included), a
 *     callback's non-zero return (its record, or its whole batch, counts as
 *     consumed; nothing is delivered after it), or a corruption.  A budget or
 *     a stop that ends the walk exactly before a corruption leaves it to the
 *     next call (the core returns RP_MORE at max, it does not look ahead).
 *  R4 Returns: drains return the records consumed, or the callback's
 *     negative value, or (strict, the walk reached a corruption) its RP_E_*
 *     status -- in the same call that delivered the records before it --
 *     and that status from every later drain/peek until resync.  peek returns
 *     its count; strict, the good records before a corruption come with
 *     their count and the status with the next peek (or at once if none).
 *     resync returns 0.
 *  R5 Tail: ring.tail = the end of the last consumed record (or the resync
 *     target); a drain that walked publishes it (data_tail), a drain that
 *     returns at once (ring stopped, data_head = the bad value already
 *     counted) publishes nothing; peek never publishes, commit and resync
 *     do.  data_tail only moves forward and never passes data_head, nor,
 *     inside a callback, a record that callback is handed.
 *  R6 Stats, exact: records and record_bytes grow by every record consumed
 *     (handed over or skipped), payload_bytes = record_bytes - 8 * records,
 *     lost/lost_records as R1 (saturating), malformed as R1, corrupt + 1
 *     and last_error = the status each time a walk reaches a corruption;
 *     resynced_bytes grows by exactly the bytes a resync skips.
 *  R7 Corruption, once per distinct bad state: default mode, a sane
 *     data_head (8-aligned, <= size ahead of tail) is skipped to; any other
 *     is remembered and a drain seeing that same value again does not walk
 *     (returns 0, counts nothing) until data_head changes.  Strict: the ring
 *     stops (ring.error) and later calls return the status without counting.
 *  The core's status at a corruption (rp_ring_next): head - tail > size ->
 *  RP_E_OVERRUN at tail; a partial header before head, or a size past
 *  head -> RP_E_TRUNCATED; size < 8 -> RP_E_HDR_SHORT; size % 8 ->
 *  RP_E_HDR_ALIGN.
 *  Batches (drain_batch, drain_samples): each is exactly min(fit, the budget
 *  left, the run available: the records before the walk's end, or for
 *  drain_samples the BPF-output samples before the next other record),
 *  where fit is RP_PERF_BATCH for a call's first batch and after it
 *  clamp(n * RP_BATCH_BYTES / bytes, 1, RP_PERF_BATCH) for the last batch's
 *  n records spanning bytes of the ring (an other record between sample
 *  batches leaves it as it was).
 *  Model simplification: after an explicit resync to a far data_head, the
 *  producer's next record is written at that position (a kernel cannot
 *  publish such a head; the bytes between are garbage the reader skipped).
 *
 * Input:
 *   [0] data size = 256 << (b % 6)      [1] bit 0: RP_STRICT, bit 1: RP_PERF_PREFETCH
 *   [2] corruption (b % 7): 0 none, 1 size 0, 2 size 1..7, 3 size % 8 != 0,
 *       4 size past head, 5 data_head misaligned, 6 data_head far ahead
 *       (> size past the tail), applied to record number [3] (in production
 *       order; 5 and 6: published right after that record, until the next
 *       production)                     [4] corruption parameter
 *   [5..13) initial tail, u64 LE, aligned down to 8 (u64 wrap reachable)
 *   [13] fill byte of the data area
 *   then up to 64 ops, op = b % 11:
 *     0 produce: n = 1 + b % 32 records, each 2 bytes (k, v):
 *        k % 8: 0-2 BPF-output SAMPLE, raw = v | ((k >> 3) & 3) << 8, body
 *               round_up(4 + raw, 8) (+ 8 if k & 0x20);
 *               3 LOST, body 16 (+ 8 if k & 8), lost = v * 1000 + (k >> 4),
 *               or UINT64_MAX - v if k & 0x80;
 *               4 another type (table[v % 10]), body 8 * ((k >> 3) & 7),
 *                 or for k = 0xfc all the room left: the ring is full;
 *               5 SAMPLE whose raw size does not fit its body;
 *               6 edge SAMPLEs (v % 4): size 8, body 8 raw 5, body 8 raw 4
 *               (valid), body 16 raw 0xffffffff;
 *               7 short LOST (body 0 or 8: no count).
 *        A record that does not fit (data_tail) is dropped.
 *     1 drain, 2 drain_batch, 3 drain_samples + other, 4 drain_samples,
 *     5 drain_payloads + other, 6 drain_payloads: 2 bytes, budget b
 *        (0: none; 1..160; else 64 * (b - 160)) and stop s (0: never; else
 *        the callback call number s & 31 returns 1 + (s >> 6), negated if
 *        s & 0x20);
 *     7 peek: max = b % 72 (recs allocated with exactly max entries);
 *     8 commit;  9 resync;
 *     10 a call with a bad argument (b % 8: NULL ring, NULL fn, a NULL recs
 *        with max > 0, an unmapped ring): -EINVAL, nothing changes
 *        (a NULL ring only where the header says it is checked).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "fz_model.h"
#include "fz_util.h"
#include "rp_perf_ring.h"
#include "rp_views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECS 4096u
#define MAX_OPS 64u
#define MAX_ITEMS 1100u /* records in [tail, head): at most 8192 / 8 */

enum corr { C_NONE, C_SIZE0, C_SIZE_SHORT, C_SIZE_ALIGN, C_SIZE_PAST_HEAD, C_HEAD_MISALIGN,
	    C_HEAD_FAR, C_COUNT };
enum api { A_DRAIN, A_BATCH, A_SAMPLES, A_PAYLOADS };

typedef fz_perf_rec mrec;

typedef struct walk {
	uint32_t idx[MAX_ITEMS];
	uint32_t n;
	int end; /* RP_EMPTY or the RP_E_* status at end_pos */
} walk;

static struct {
	uint8_t *buf;
	struct perf_event_mmap_page *pg;
	uint8_t *ring;
	uint64_t size;
	rp_perf_ring r;
	mrec recs[MAX_RECS];
	uint32_t nrecs;
	uint32_t next; /* first record at or after the model tail */
	uint64_t P;    /* the producer's real head */
	/* the model of the adapter */
	uint64_t head, tail, pub;
	int error;
	bool bad_seen;
	uint64_t bad_head;
	rp_perf_stats st;
	bool strict;
	int corr;
	uint32_t corr_at, corr_param;
} g;

static struct {
	walk w;
	int api;
	bool have_other;
	uint32_t budget;
	uint32_t cur;   /* items consumed as observed (delivered, or skipped before one) */
	uint32_t calls; /* callback invocations */
	uint32_t fit;   /* the next batch's size limit (see Batches above) */
	int stop_at, stop_val;
	bool stopped;
	uint32_t stop_cur;
} c;

/* The body byte i the producer wrote for m. */
static uint8_t exp_body(const mrec *m, uint32_t i)
{
	return fz_perf_body(m, i);
}

/* ---- the producer -------------------------------------------------------- */

/* Write one record from its spec (fz_perf_spec); true if written. */
static bool produce_one(uint8_t k, uint8_t v)
{
	mrec m;

	fz_perf_spec(&m, k, v);
	if (g.nrecs >= MAX_RECS)
		return false;
	const uint64_t used = g.P - g.pg->data_tail;
	if (used <= g.size)
		fz_perf_fill(&m, k, g.size - used);
	if (used > g.size || m.size > g.size - used)
		return false; /* no room: the kernel drops it */
	m.seq = g.nrecs;
	m.misc = (uint16_t)m.seq;
	m.pos = g.P;
	if (g.corr != C_NONE && m.seq == g.corr_at) {
		switch (g.corr) {
		case C_SIZE0: m.hdr_size = 0; break;
		case C_SIZE_SHORT: m.hdr_size = (uint16_t)(1u + g.corr_param % 7u); break;
		case C_SIZE_ALIGN: m.hdr_size = (uint16_t)(m.size + 1u + g.corr_param % 7u); break;
		case C_SIZE_PAST_HEAD:
			m.hdr_size = (uint16_t)(g.size + 8u + 8u * (g.corr_param % 64u));
			break;
		default: break;
		}
	}
	fz_perf_put(g.ring, g.size, &m);
	g.recs[g.nrecs++] = m;
	g.P += m.size;
	return true;
}

static void produce(fz_cur *in)
{
	const uint32_t n = 1u + fz_u8(in) % 32u;
	uint64_t head;
	bool bad = false;

	/* after a resync to a far head the kernel's next record lands there */
	if ((int64_t)(g.pg->data_tail - g.P) > 0)
		g.P = g.pg->data_tail;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t k = fz_u8(in), v = fz_u8(in);
		if (bad)
			continue;
		if (produce_one(k, v) && g.nrecs - 1 == g.corr_at &&
		    (g.corr == C_HEAD_MISALIGN || g.corr == C_HEAD_FAR))
			bad = true;
	}
	head = g.P;
	if (bad && g.corr == C_HEAD_MISALIGN)
		head = g.P + 1u + g.corr_param % 7u;
	else if (bad)
		head = g.P + g.size + 8u + 8u * (g.corr_param % 16u);
	g.head = head;
	__atomic_store_n(&g.pg->data_head, head, __ATOMIC_RELEASE);
}

/* ---- the model walk ------------------------------------------------------ */

static void model_walk(walk *w)
{
	const uint64_t H = g.head;
	uint64_t t = g.tail;
	uint32_t i = g.next;

	w->n = 0;
	if (H - t > g.size) {
		w->end = RP_E_OVERRUN;
		return;
	}
	for (;;) {
		const uint64_t avail = H - t;
		if (avail == 0) {
			w->end = RP_EMPTY;
			return;
		}
		if (avail < 8) {
			w->end = RP_E_TRUNCATED;
			return;
		}
		FZ_CHECK(i < g.nrecs && g.recs[i].pos == t, "model: no record at %" PRIu64 " (head %" PRIu64 ")",
		         t, H);
		const mrec *m = &g.recs[i];
		if (m->hdr_size < 8) {
			w->end = RP_E_HDR_SHORT;
			return;
		}
		if (m->hdr_size % 8) {
			w->end = RP_E_HDR_ALIGN;
			return;
		}
		if (m->hdr_size > avail) {
			w->end = RP_E_TRUNCATED;
			return;
		}
		FZ_CHECK(w->n < MAX_ITEMS, "model: too many items");
		w->idx[w->n++] = i;
		t += m->size;
		i++;
	}
}

static bool head_sane(uint64_t head, uint64_t tail)
{
	return (head & 7) == 0 && head - tail <= g.size;
}

static void model_next(void)
{
	while (g.next < g.nrecs && (int64_t)(g.recs[g.next].pos - g.tail) < 0)
		g.next++;
}

/* ---- delivery checks ----------------------------------------------------- */

static bool skippable(uint32_t item)
{
	return (c.api == A_SAMPLES || c.api == A_PAYLOADS) && !c.have_other &&
	       !g.recs[c.w.idx[item]].bpf;
}

static bool in_data(const uint8_t *p, uint64_t n)
{
	return p >= g.ring && n <= g.size && (uint64_t)(p - g.ring) <= g.size - n;
}

static uint8_t span_at(const rp_span *s, uint32_t i)
{
	return i < s->n0 ? s->p0[i] : s->p1[i - s->n0];
}

/* The next expected item; cls -1 any record, 1 a BPF-output sample, 0 another. */
static const mrec *expect_next(int cls)
{
	FZ_CHECK(!c.stopped, "callback called after a callback stopped the drain");
	while (c.cur < c.w.n && skippable(c.cur))
		c.cur++;
	FZ_CHECK(c.cur < c.w.n, "delivery %u past the %u records in [tail, head) (end %d)", c.cur, c.w.n,
	         c.w.end);
	FZ_CHECK(!c.budget || c.cur < c.budget, "delivery %u past the budget %u", c.cur, c.budget);
	const mrec *m = &g.recs[c.w.idx[c.cur]];
	/* R5 inside a callback: data_tail is not yet past a record being handed
	 * out (publishing it would let the kernel reuse the bytes being read). */
	const uint64_t pub = __atomic_load_n(&g.pg->data_tail, __ATOMIC_ACQUIRE);
	FZ_CHECK((int64_t)(m->pos - pub) >= 0, "record seq %u at %" PRIu64 " handed out with data_tail at %" PRIu64,
	         m->seq, m->pos, pub);
	if (cls >= 0)
		FZ_CHECK(m->bpf == (cls == 1), "record seq %u (type %u, bpf %d) given to the %s callback", m->seq,
		         m->type, m->bpf, cls ? "sample" : "other");
	c.cur++;
	return m;
}

static void check_rec(const rp_record *rec, const mrec *m)
{
	FZ_CHECK(rec->pos == m->pos && rec->type == m->type && rec->misc == m->misc && rec->size == m->size,
	         "record %" PRIu64 "/%u/%u/%u, want seq %u at %" PRIu64 "/%u/%u/%u", rec->pos, rec->type,
	         rec->misc, rec->size, m->seq, m->pos, m->type, m->misc, m->size);
	FZ_CHECK((uint64_t)rec->body.n0 + rec->body.n1 == m->size - 8u, "seq %u: body %u+%u", m->seq,
	         rec->body.n0, rec->body.n1);
	FZ_CHECK(in_data(rec->body.p0, rec->body.n0) && (rec->body.n1 == 0 || rec->body.p1 == g.ring),
	         "seq %u: body outside the data area", m->seq);
	for (uint32_t i = 0; i < m->size - 8u; i++)
		FZ_CHECK(span_at(&rec->body, i) == exp_body(m, i), "seq %u: body byte %u", m->seq, i);
}

/* A payload handed over in one piece: in place in the ring, or, for one
 * that wraps the ring end, a copy in the ring's scratch buffer (counted in
 * stats.copied). */
static void check_payload(const void *data, uint32_t size, const mrec *m)
{
	const uint64_t off = m->pos & (g.size - 1u);
	const uint64_t at = (off + 8u >= g.size ? 0 : off + 8u) + 4u; /* the raw size never wraps */
	const uint8_t *p = data;

	FZ_CHECK(size == m->raw, "sample seq %u: %u bytes, want %u", m->seq, size, m->raw);
	if (at + m->raw <= g.size) {
		FZ_CHECK(p == g.ring + at, "seq %u: payload at %p, want the ring's %p", m->seq, data,
		         (const void *)(g.ring + at));
	} else {
		FZ_CHECK(!in_data(p, 1) && p == g.r.scratch && g.r.scratch_size >= size,
		         "seq %u: a wrapped payload not in the ring's scratch buffer", m->seq);
		g.st.copied++;
	}
	for (uint32_t i = 0; i < m->raw; i++)
		FZ_CHECK(p[i] == exp_body(m, 4 + i), "seq %u: payload byte %u", m->seq, i);
}

static int cb_ret(void)
{
	const int r = (int)c.calls == c.stop_at ? c.stop_val : 0;
	c.calls++;
	if (r) {
		c.stopped = true;
		c.stop_cur = c.cur;
	}
	return r;
}

static uint32_t min3(uint32_t a, uint32_t b, uint32_t d)
{
	uint32_t m = a < b ? a : b;
	return m < d ? m : d;
}

static int fn_rec(void *ctx, const rp_record *rec)
{
	(void)ctx;
	check_rec(rec, expect_next(c.api == A_DRAIN ? -1 : 0));
	return cb_ret();
}

/* The batch of n items about to be handed over, from item first on: its
 * size is min(fit, the budget left, avail items), and it sets the next
 * fit (from the model's records, not the adapter's). */
static void check_batch_size(const char *what, uint32_t n, uint32_t first, uint32_t avail)
{
	const uint32_t left = !c.budget ? UINT32_MAX : c.budget > first ? c.budget - first : 0;

	FZ_CHECK(first <= c.w.n && n <= c.w.n - first, "%s of %u records from item %u of %u", what, n, first,
	         c.w.n);
	FZ_CHECK(n == min3(c.fit, left, avail), "%s of %u records from item %u, want min(fit %u, budget %u, %u)",
	         what, n, first, c.fit, c.budget, avail);
	const mrec *a = &g.recs[c.w.idx[first]], *z = &g.recs[c.w.idx[first + n - 1]];
	c.fit = fz_batch_fit(n, z->pos + z->size - a->pos, 1, RP_PERF_BATCH);
}

/* The item the next expect_next hands over (skippable ones passed). */
static uint32_t next_item(void)
{
	uint32_t i = c.cur;

	while (i < c.w.n && skippable(i))
		i++;
	return i;
}

static int fn_batch(void *ctx, const rp_record *recs, uint32_t n)
{
	(void)ctx;
	FZ_CHECK(n >= 1 && n <= RP_PERF_BATCH, "batch of %u", n);
	FZ_CHECK(!c.stopped, "batch after a callback stopped the drain");
	check_batch_size("batch", n, c.cur, c.cur < c.w.n ? c.w.n - c.cur : 0);
	for (uint32_t k = 0; k < n; k++)
		check_rec(&recs[k], expect_next(-1));
	return cb_ret();
}

static int fn_samples(void *ctx, const rp_payload *s, uint32_t n)
{
	(void)ctx;
	FZ_CHECK(n >= 1 && n <= RP_PERF_BATCH, "sample batch of %u", n);
	FZ_CHECK(!c.stopped, "sample batch after a callback stopped the drain");
	const uint32_t first = next_item();
	uint32_t run = 0;
	while (first + run < c.w.n && g.recs[c.w.idx[first + run]].bpf)
		run++;
	check_batch_size("sample batch", n, first, run);
	for (uint32_t k = 0; k < n; k++)
		check_payload(s[k].data, s[k].size, expect_next(1));
	return cb_ret();
}

static int fn_payload(void *ctx, const void *data, uint32_t size)
{
	(void)ctx;
	check_payload(data, size, expect_next(1));
	return cb_ret();
}

/* ---- the calls ------------------------------------------------------------ */

static void count_consumed(uint32_t n, bool payload_api)
{
	for (uint32_t k = 0; k < n; k++) {
		const mrec *m = &g.recs[c.w.idx[k]];
		g.st.records++;
		g.st.record_bytes += m->size;
		g.st.payload_bytes += m->size - 8u;
		if (m->lost_ok) {
			fz_sat_add(&g.st.lost, m->lost);
			g.st.lost_records++;
		} else if (payload_api && !c.have_other && !m->bpf) {
			g.st.malformed++;
		}
	}
}

/* The walk reached a corruption: count it, stop (strict) or resync. */
static void model_corrupt(int st)
{
	g.st.corrupt++;
	g.st.last_error = st;
	if (g.strict) {
		g.error = st;
	} else if (head_sane(g.head, g.tail)) {
		g.st.resynced_bytes += g.head - g.tail;
		g.tail = g.head;
	} else {
		g.bad_seen = true;
		g.bad_head = g.head;
	}
}

/* A drain's start: true to walk; else *ret is what it returns at once. */
static bool model_start(int *ret)
{
	if (g.error) {
		*ret = g.error;
		return false;
	}
	if (g.bad_seen && g.head == g.bad_head) {
		*ret = 0;
		return false;
	}
	g.bad_seen = false;
	return true;
}

static void do_drain(int api, bool other, uint8_t bb, uint8_t sb)
{
	const rp_perf_ring_fn ofn = other ? fn_rec : NULL;
	int ret, want;

	c.w.n = 0;
	c.api = api;
	c.have_other = other;
	c.budget = bb == 0 ? 0 : bb <= 160 ? bb : 64u * (bb - 160u);
	c.stop_at = sb ? (sb & 31) : -1;
	c.stop_val = (1 + (sb >> 6)) * ((sb & 0x20) ? -1 : 1);
	c.calls = 0;
	c.cur = 0;
	c.fit = RP_PERF_BATCH;
	c.stopped = false;

	const bool walks = model_start(&want);
	if (walks)
		model_walk(&c.w);
	else
		c.w.n = 0;

	switch (api) {
	case A_DRAIN: ret = rp_perf_ring_drain(&g.r, fn_rec, NULL, c.budget); break;
	case A_BATCH: ret = rp_perf_ring_drain_batch(&g.r, fn_batch, NULL, c.budget); break;
	case A_SAMPLES: ret = rp_perf_ring_drain_samples(&g.r, fn_samples, ofn, NULL, c.budget); break;
	default: ret = rp_perf_ring_drain_payloads(&g.r, fn_payload, ofn, NULL, c.budget); break;
	}
	if (!walks) {
		FZ_CHECK(c.calls == 0, "api %d: callback on a stopped ring / unchanged bad head", api);
		FZ_CHECK(ret == want, "api %d: returned %d, want %d (error %d, bad head)", api, ret, want, g.error);
		return;
	}
	uint32_t consumed;
	bool reached_end;
	if (c.stopped) {
		consumed = c.stop_cur;
		reached_end = false;
	} else {
		consumed = c.budget && c.budget < c.w.n ? c.budget : c.w.n;
		reached_end = !c.budget || c.budget > c.w.n;
	}
	FZ_CHECK(c.cur <= consumed, "api %d: %u records delivered, %u consumed", api, c.cur, consumed);
	for (uint32_t k = c.cur; k < consumed; k++)
		FZ_CHECK(skippable(k), "api %d: record seq %u (%u of %u, budget %u, stop %d) not delivered", api,
		         g.recs[c.w.idx[k]].seq, k, c.w.n, c.budget, c.stopped);
	count_consumed(consumed, api == A_SAMPLES || api == A_PAYLOADS);
	for (uint32_t k = 0; k < consumed; k++)
		g.tail += g.recs[c.w.idx[k]].size;
	want = c.stopped && c.stop_val < 0 ? c.stop_val : (int)consumed;
	if (reached_end && c.w.end < 0) {
		model_corrupt(c.w.end);
		if (g.strict)
			want = c.w.end;
	}
	g.pub = g.tail;
	model_next();
	FZ_CHECK(ret == want, "api %d (other %d): returned %d, want %d (%u records, budget %u, stop %d/%d, end %d)",
	         api, other, ret, want, c.w.n, c.budget, c.stopped, c.stop_val, c.w.end);
}

static void do_peek(uint8_t mb)
{
	const uint32_t max = mb % 72u;
	rp_record *recs = max ? malloc(max * sizeof(*recs)) : NULL;
	uint32_t n = 0;
	int want;

	c.api = A_DRAIN;
	c.have_other = false;
	c.w.n = 0;
	const int ret = rp_perf_ring_peek(&g.r, recs, max);
	if (g.error) {
		want = g.error;
	} else if (max == 0 || !model_start(&want)) {
		want = 0;
	} else {
		model_walk(&c.w);
		n = max < c.w.n ? max : c.w.n;
		count_consumed(n, false);
		for (uint32_t k = 0; k < n; k++)
			g.tail += g.recs[c.w.idx[k]].size;
		want = (int)n;
		if (max > c.w.n && c.w.end < 0) {
			model_corrupt(c.w.end);
			if (g.strict && n == 0)
				want = c.w.end;
		}
		model_next();
	}
	FZ_CHECK(ret == want, "peek(%u): returned %d, want %d (%u records, end %d)", max, ret, want, c.w.n,
	         c.w.end);
	for (uint32_t k = 0; k < n; k++)
		check_rec(&recs[k], &g.recs[c.w.idx[k]]);
	free(recs);
}

static void do_resync(void)
{
	const int ret = rp_perf_ring_resync(&g.r);

	FZ_CHECK(ret == 0, "resync returned %d", ret);
	if ((g.head & 7) == 0) {
		g.st.resynced_bytes += g.head - g.tail;
		g.tail = g.head;
		g.bad_seen = false;
	} else {
		g.bad_seen = true;
		g.bad_head = g.head;
	}
	g.error = 0;
	g.pub = g.tail;
	model_next();
}

/* Bad arguments: -EINVAL and no effect (check_state then sees the model). */
static void do_bad_args(uint8_t b)
{
	rp_perf_ring unmapped;
	rp_record rec;
	int ret;

	memset(&unmapped, 0, sizeof(unmapped));
	c.calls = 0;
	c.stopped = false;
	switch (b % 8) {
	case 0: ret = rp_perf_ring_drain(&g.r, NULL, NULL, 0); break;
	case 1: ret = rp_perf_ring_drain_batch(&g.r, NULL, NULL, 0); break;
	case 2: ret = rp_perf_ring_drain_samples(&g.r, NULL, fn_rec, NULL, 0); break;
	case 3: ret = rp_perf_ring_drain_payloads(&g.r, NULL, fn_rec, NULL, 0); break;
	case 4: ret = rp_perf_ring_peek(&g.r, NULL, 1u + b / 8u); break;
	case 5: ret = rp_perf_ring_drain(&unmapped, fn_rec, NULL, 0); break;
	case 6: ret = rp_perf_ring_peek(&unmapped, &rec, 1); break;
	default: ret = rp_perf_ring_resync(NULL); break;
	}
	FZ_CHECK(ret == -EINVAL, "bad argument %u: returned %d", b % 8u, ret);
	FZ_CHECK(c.calls == 0, "bad argument %u: a callback was called", b % 8u);
}

static void check_state(uint64_t pub_before, const char *op)
{
	const rp_perf_stats *s = &g.r.stats;
	const uint64_t pub = __atomic_load_n(&g.pg->data_tail, __ATOMIC_ACQUIRE);
	const uint64_t head = __atomic_load_n(&g.pg->data_head, __ATOMIC_ACQUIRE);

	FZ_CHECK((int64_t)(pub - pub_before) >= 0, "%s: data_tail moved back %" PRIu64 " -> %" PRIu64, op,
	         pub_before, pub);
	FZ_CHECK((int64_t)(head - pub) >= 0, "%s: data_tail %" PRIu64 " past data_head %" PRIu64, op, pub, head);
	FZ_CHECK(pub == g.pub, "%s: data_tail %" PRIu64 ", want %" PRIu64, op, pub, g.pub);
	FZ_CHECK(g.r.tail == g.tail, "%s: ring.tail %" PRIu64 ", want %" PRIu64, op, g.r.tail, g.tail);
	FZ_CHECK(g.r.error == g.error, "%s: ring.error %d, want %d", op, g.r.error, g.error);
	FZ_CHECK_COMMON_STATS(op, s, &g.st);
	FZ_CHECK(s->payload_bytes == s->record_bytes - 8u * s->records, "%s: payload_bytes", op);
	FZ_CHECK(s->lost == g.st.lost && s->lost_records == g.st.lost_records,
	         "%s: lost %" PRIu64 "/%" PRIu64 ", want %" PRIu64 "/%" PRIu64, op, s->lost, s->lost_records,
	         g.st.lost, g.st.lost_records);
	FZ_CHECK(s->malformed == g.st.malformed, "%s: malformed %" PRIu64 ", want %" PRIu64, op, s->malformed,
	         g.st.malformed);
	FZ_CHECK(s->copied == g.st.copied, "%s: copied %" PRIu64 ", want %" PRIu64, op, s->copied,
	         g.st.copied);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[11] = { "produce", "drain", "drain_batch", "drain_samples+other",
		"drain_samples", "drain_payloads+other", "drain_payloads", "peek", "commit", "resync",
		"bad-args" };
	fz_cur in = { data, size, 0 };

	if (size < 14)
		return 0;
	g.nrecs = 0;
	g.next = 0;
	g.size = 256u << (data[0] % 6);
	g.strict = data[1] & 1;
	g.corr = data[2] % C_COUNT;
	g.corr_at = data[3];
	g.corr_param = data[4];
	const uint64_t t0 = fz_le64(data + 5) & ~(uint64_t)7;
	in.i = 14;

	g.buf = fz_mem_ring(&g.r, g.size, t0, data[13],
	                    (g.strict ? RP_STRICT : 0) | (data[1] & 2 ? RP_PERF_PREFETCH : 0));
	if (!g.buf)
		return 0;
	g.pg = (struct perf_event_mmap_page *)g.buf;
	g.ring = g.buf + sizeof(struct perf_event_mmap_page);
	g.P = g.head = g.tail = g.pub = t0;
	g.error = 0;
	g.bad_seen = false;
	g.bad_head = 0;
	memset(&g.st, 0, sizeof(g.st));

	for (uint32_t ops = 0; ops < MAX_OPS && in.i < in.n; ops++) {
		const uint8_t o = fz_u8(&in) % 11u;
		const uint64_t pub_before = g.pg->data_tail;
		switch (o) {
		case 0: produce(&in); break;
		case 1: { const uint8_t b = fz_u8(&in), s = fz_u8(&in); do_drain(A_DRAIN, false, b, s); break; }
		case 2: { const uint8_t b = fz_u8(&in), s = fz_u8(&in); do_drain(A_BATCH, false, b, s); break; }
		case 3: case 4: { const uint8_t b = fz_u8(&in), s = fz_u8(&in); do_drain(A_SAMPLES, o == 3, b, s); break; }
		case 5: case 6: { const uint8_t b = fz_u8(&in), s = fz_u8(&in); do_drain(A_PAYLOADS, o == 5, b, s); break; }
		case 7: do_peek(fz_u8(&in)); break;
		case 8: rp_perf_ring_commit(&g.r); g.pub = g.tail; break;
		case 9: do_resync(); break;
		default: do_bad_args(fz_u8(&in)); break;
		}
		check_state(pub_before, names[o]);
	}
	fz_mem_ring_free(&g.r, g.buf);
	g.buf = NULL;
	return 0;
}
