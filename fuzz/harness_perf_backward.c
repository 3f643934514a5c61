/* perf_backward (adapter, structure-aware): rp_perf_backward_drain
 * (adapters/linux/rp_perf_backward.c) over an in-memory write_backward perf
 * ring mapped writable.  No syscalls: the rp_perf_backward_ring is built by
 * hand as rp_perf_backward_map would leave it (zeroed, then fd, flags, base,
 * map_len, data, tail = data_tail); the buffer is the control page then
 * exactly data_size bytes, so ASan sees any access past the data area.
 *
 * A model producer (the "kernel") writes sequence-numbered records (misc =
 * seq & 0xffff, body a pattern of seq) at DECREASING positions: a record of
 * n bytes goes to P - n and data_head = P - n.  It writes only if
 * (data_head - data_tail - 1) mod size >= n (data_tail as published by the
 * adapter), otherwise it drops the record and counts it; the next write that
 * fits together with a 24-byte LOST (id, count of dropped records) puts that
 * LOST at the lower address, just before the record (as the kernel does).
 *
 * The input then calls rp_perf_backward_drain with callbacks that stop at
 * fuzzed calls (positive or negative returns), produces more between the
 * drains, toggles RP_STRICT in ring.flags, and makes bad-argument calls.
 * The model simulates each drain from the header's rules BEFORE the call
 * (which records, in which order, where it stops, what it returns and
 * publishes); the callback compares every record with that list.
 *
 * Rules (derived from rp_perf_backward.h and .c; checked after every call):
 *  B1 Delivery: a drain walks [data_head, data_tail) in increasing addresses
 *     (newest first) and hands over every record not yet delivered, in that
 *     order, byte for byte (pos, type, misc, size, body; slices in the data
 *     area).  Records already delivered by an earlier (stopped) drain and not
 *     yet published are skipped, never delivered twice.  A record is lost
 *     only by the default corruption policy's resync (from the corruption
 *     point to data_tail) -- nothing else ever skips a record.
 *  B2 Stops: a callback's non-zero return (either sign) ends the drain right
 *     after its record if the delivered-but-unpublished set, after it, is at
 *     most RP_PERF_BACKWARD_RANGES maximal runs of records (the runs are
 *     the remembered ranges: done[] = exactly those runs, in walk order).
 *     Otherwise the stop is deferred (deferred_stops + 1, once per drain):
 *     the drain keeps delivering (callback returns ignored) and stops after
 *     the first record at which the set fits again.  A stopped drain
 *     publishes nothing.
 *  B3 Returns: the number of records delivered by this call; a callback's
 *     negative return is not propagated; a strict drain that reaches a
 *     corruption returns its RP_E_* status; -EINVAL for a NULL ring, NULL
 *     fn, unmapped ring (base NULL) or RP_PERF_OVERWRITE in flags, with no
 *     effect at all.
 *  B4 Tail: data_tail (= ring.tail) is published only as data_head at the
 *     start of the call, only by a drain that walked to data_tail (then the
 *     remembered ranges are cleared) or by the default resync, so it only
 *     moves down, to a sane head (8-aligned, at most the ring size below
 *     data_tail).  Stops, strict stops and bad heads publish nothing, and
 *     nothing is published while a callback runs (checked inside each).
 *  B5 Corruption (the core's status at the cursor: OVERRUN if data_tail -
 *     data_head > size, TAIL_ALIGN if data_head % 8, HDR_SHORT, HDR_ALIGN,
 *     TRUNCATED for a size past data_tail), counted in stats.corrupt and
 *     last_error unless the ring is stopped at that same status and position
 *     (ring.error, stopped_at):
 *     - strict: records before it delivered first, then they are remembered
 *       (ranges), ring.error = status, stopped_at = its position, nothing
 *       published, the status returned; the next strict drain delivers only
 *       newer records and returns the status again without counting; but
 *       when every range is in use and none starts at data_head, a
 *       corruption before the first range stops the drain before it
 *       delivers anything (the stop could not be remembered);
 *     - default (or RP_STRICT cleared later): ring.error = 0; a bad
 *       data_head (misaligned, or more than the size below data_tail) is
 *       not published, is remembered (bad_head, bad_head_seen), and a drain
 *       seeing that same value again returns 0 at once, counting nothing;
 *       any other corruption: resynced_bytes += data_tail - position,
 *       data_tail = data_head published, ranges cleared, the count returned.
 *     ring.error keeps a strict status until a drain handles a corruption in
 *     default mode (the code: a strict ring whose bad data_head is replaced
 *     by a sane one recovers and publishes, and keeps ring.error).
 *  B6 Stats, exact: records, record_bytes, payload_bytes grow by every
 *     record delivered (never by skipped ones); lost / lost_records by each
 *     delivered LOST whose body holds a count (saturating); malformed stays
 *     0; ring.stats stays zero (unused).
 *
 * Two adapter bugs this harness found, fixed; fuzz/regressions/perf_backward/
 * holds their inputs:
 *  strict-full-ranges-resyncs: a strict drain reaching a corruption when
 *     remembering [head, corruption) needed more than RP_PERF_BACKWARD_RANGES
 *     ranges fell into the default policy (published data_tail = head,
 *     skipping undelivered records) yet returned the status.  Now such a
 *     drain delivers nothing and stops (B5).
 *  bad-head-above-range-redelivers: a bad data_head above the start of a
 *     remembered range made the drain forget done[]; once a sane head came
 *     back, those records were delivered again.  Now a bad head keeps them.
 *
 * Input:
 *   [0] data size = 256 << (b % 6)   [1] bit 0: RP_STRICT at the start
 *   [2] corruption (b % 7): 0 none, 1 size 0, 2 size 1..7, 3 size % 8 != 0,
 *       4 size past data_tail, 5 data_head misaligned (P - d, or P + d
 *       if param & 0x20, d = 1 + param % 7 + 8 * ((param >> 3) & 3): P + d
 *       can lie above records delivered before), 6 data_head far (data_tail
 *       - size - 8 - 8k, or data_tail + 8 + 8k if param & 0x40, k = param
 *       % 16), applied to record seq [3]
 *       (5 and 6: published right after that record, the rest of that
 *       produce op is not written; the next produce republishes P)
 *   [4] corruption parameter   [5..13) initial data_head = data_tail (u64
 *       LE, aligned down to 8; u64 wrap reachable)   [13] fill byte
 *   then up to 64 ops, op = b % 4:
 *     0 produce: n = 1 + b % 32 records, each 2 bytes (k, v):
 *        k % 4: 0, 1 BPF-output SAMPLE, raw = v | ((k >> 2) & 3) << 8, body
 *               round_up(4 + raw, 8) (+ 8 if k & 0x40);
 *               2 another type (table[v % 8]), body 8 * ((k >> 2) & 7);
 *               3 LOST: k & 8: short (body 8 * (v & 1), no count); else body
 *               16 (+ 8 if k & 4), count v * 1000 + (k >> 4), or
 *               UINT64_MAX - v if k & 0x80.
 *        k = 0xfc (FZ_FILL_SPEC), no drop pending: another type (table[v %
 *        8]) taking all the room left, so the ring is full, 8 bytes past
 *        what the kernel fills (a drop pending: kind 0 as above).
 *     1 drain: 1 byte s: 0 never stop; else callback call number s & 31
 *        returns (1 + (s >> 6)), negated if s & 0x20
 *     2 toggle RP_STRICT in ring.flags
 *     3 bad argument (b % 4): NULL ring, NULL fn, unmapped, OVERWRITE flag
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "fz_model.h"
#include "fz_util.h"
#include "rp_perf_backward.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECS 4096u
#define MAX_OPS 64u
#define MAX_CHAIN 1100u /* records in [head, tail): at most 8192 / 8 */
#define LOST_SIZE 24u

enum corr { C_NONE, C_SIZE0, C_SIZE_SHORT, C_SIZE_ALIGN, C_SIZE_PAST_TAIL, C_HEAD_MISALIGN,
	    C_HEAD_FAR, C_COUNT };
enum rstate { S_UNREAD, S_DELIVERED, S_GONE };

typedef struct mrec {
	uint64_t pos;
	uint32_t seq;
	uint32_t type;
	uint16_t misc;
	uint16_t size;     /* the record's real extent */
	uint16_t hdr_size; /* the size in its header (corrupted or not) */
	uint32_t raw;      /* has_raw: the u32 at the body start */
	uint64_t lost;     /* lost_ok: the count */
	bool has_raw, lost_ok;
	uint8_t state;
} mrec;

static struct {
	uint8_t *buf;
	struct perf_event_mmap_page *pg;
	uint8_t *ring;
	uint64_t size;
	rp_perf_backward_ring r;
	mrec recs[MAX_RECS];
	uint32_t nrecs;
	uint32_t live;     /* recs[live ..] are in [head, tail) (not gone) */
	uint64_t P;        /* the producer's real head */
	uint64_t dropped;  /* records dropped since the last LOST */
	/* the model of the adapter */
	uint64_t T;        /* published data_tail = ring.tail */
	int error;
	uint64_t stopped_at;
	bool bad_seen;
	uint64_t bad_head;
	rp_perf_stats st;
	uint64_t deferred;
	bool strict;
	int corr;
	uint32_t corr_at, corr_param;
} g;

/* one drain: the model's expectation, consumed by the callback */
static struct {
	uint32_t exp[MAX_CHAIN];
	uint32_t nexp;
	uint32_t calls;
	int stop_at, stop_val;
	uint64_t pub;  /* data_tail as published when the drain started */
} c;

static uint8_t exp_body(const mrec *m, uint32_t i)
{
	return fz_body_byte(m->seq, m->has_raw, m->raw, m->lost_ok, m->lost, i);
}

static const uint32_t other_types[8] = {
	RP_RECORD_MMAP, RP_RECORD_COMM, RP_RECORD_EXIT, RP_RECORD_FORK, RP_RECORD_SWITCH,
	RP_RECORD_THROTTLE, 0, 0x80000009u,
};

/* ---- the producer -------------------------------------------------------- */

static void put_rec(mrec *m, uint32_t body)
{
	uint8_t hdr[8];

	m->seq = g.nrecs;
	m->misc = (uint16_t)m->seq;
	m->hdr_size = m->size;
	if (g.corr != C_NONE && m->seq == g.corr_at) {
		switch (g.corr) {
		case C_SIZE0: m->hdr_size = 0; break;
		case C_SIZE_SHORT: m->hdr_size = (uint16_t)(1u + g.corr_param % 7u); break;
		case C_SIZE_ALIGN: m->hdr_size = (uint16_t)(m->size + 1u + g.corr_param % 7u); break;
		case C_SIZE_PAST_TAIL:
			m->hdr_size = (uint16_t)(g.size + 8u + 8u * (g.corr_param % 64u));
			break;
		default: break;
		}
	}
	fz_put_le32(hdr, m->type);
	fz_put_le16(hdr + 4, m->misc);
	fz_put_le16(hdr + 6, m->hdr_size);
	for (uint32_t i = 0; i < 8; i++)
		g.ring[(m->pos + i) & (g.size - 1)] = hdr[i];
	for (uint32_t i = 0; i < body; i++)
		g.ring[(m->pos + 8 + i) & (g.size - 1)] = exp_body(m, i);
	m->state = S_UNREAD;
	g.recs[g.nrecs++] = *m;
}

/* One record from its spec (and a LOST before it if records were dropped);
 * true if written. */
static bool produce_one(uint8_t k, uint8_t v)
{
	mrec m;
	uint32_t body;

	memset(&m, 0, sizeof(m));
	switch (k % 4) {
	case 0: case 1:
		m.type = RP_RECORD_SAMPLE;
		m.has_raw = true;
		m.raw = v | ((uint32_t)(k >> 2) & 3u) << 8;
		body = ((4u + m.raw + 7u) & ~7u) + ((k & 0x40) ? 8u : 0u);
		break;
	case 2:
		m.type = other_types[v % 8];
		body = 8u * ((k >> 2) & 7u);
		break;
	default:
		m.type = RP_RECORD_LOST;
		if (k & 8) {
			body = 8u * (v & 1u);
		} else {
			body = 16u + ((k & 4) ? 8u : 0u);
			m.lost = (k & 0x80) ? UINT64_MAX - v : (uint64_t)v * 1000u + (k >> 4);
			m.lost_ok = true;
		}
		break;
	}
	m.size = (uint16_t)(8u + body);
	if (g.nrecs + 2 > MAX_RECS)
		return false;
	/* FZ_FILL_SPEC: another type taking all the room left, so that
	 * data_head ends exactly the ring's size below data_tail (the kernel
	 * keeps a byte spare: CIRC_SPACE, below). */
	const uint64_t used = g.pg->data_tail - g.P;
	const bool fill = k == FZ_FILL_SPEC && !g.dropped && used < g.size && g.size - used <= 0xfff8u;
	if (fill) {
		memset(&m, 0, sizeof(m));
		m.type = other_types[v % 8];
		m.size = (uint16_t)(g.size - used);
		body = m.size - 8u;
	}
	const uint32_t need = m.size + (g.dropped ? LOST_SIZE : 0u);
	const uint64_t space = (g.P - g.pg->data_tail - 1u) & (g.size - 1u);
	if (space < need && !fill) {
		g.dropped++;
		return false; /* the kernel drops it and reports it later */
	}
	g.P -= need;
	m.pos = g.P + need - m.size;
	put_rec(&m, body);
	if (g.dropped) {
		/* the LOST: at the lower address (the next seq, to keep
		 * positions decreasing with seq) */
		mrec l;
		memset(&l, 0, sizeof(l));
		l.type = RP_RECORD_LOST;
		l.size = LOST_SIZE;
		l.lost = g.dropped;
		l.lost_ok = true;
		l.pos = g.P;
		put_rec(&l, LOST_SIZE - 8u);
		g.dropped = 0;
	}
	return true;
}

static void produce(fz_cur *in)
{
	const uint32_t n = 1u + fz_u8(in) % 32u;
	bool bad = false, wrote = false;

	for (uint32_t i = 0; i < n; i++) {
		const uint8_t k = fz_u8(in), v = fz_u8(in);
		if (bad)
			continue;
		const uint32_t before = g.nrecs;
		if (produce_one(k, v)) {
			wrote = true;
			if ((g.corr == C_HEAD_MISALIGN || g.corr == C_HEAD_FAR) && g.corr_at >= before &&
			    g.corr_at < g.nrecs)
				bad = true;
		}
	}
	uint64_t head = g.P;
	if (bad && g.corr == C_HEAD_MISALIGN) {
		const uint64_t d = 1u + g.corr_param % 7u + 8u * ((g.corr_param >> 3) & 3u);
		head = (g.corr_param & 0x20) ? g.P + d : g.P - d;
	} else if (bad) {
		head = (g.corr_param & 0x40) ? g.pg->data_tail + 8u + 8u * (g.corr_param % 16u)
		                             : g.pg->data_tail - g.size - 8u - 8u * (g.corr_param % 16u);
	}
	if (wrote)
		__atomic_store_n(&g.pg->data_head, head, __ATOMIC_RELEASE);
}

/* ---- the model drain ------------------------------------------------------ */

static bool head_sane(uint64_t head, uint64_t tail)
{
	return (head & 7) == 0 && tail - head <= g.size;
}

static void publish(uint64_t head)
{
	g.T = head;
	for (uint32_t i = g.live; i < g.nrecs; i++)
		g.recs[i].state = S_GONE;
	g.live = g.nrecs;
}

static void count_rec(const mrec *m)
{
	g.st.records++;
	g.st.record_bytes += m->size;
	g.st.payload_bytes += m->size - 8u;
	if (m->lost_ok) {
		fz_sat_add(&g.st.lost, m->lost);
		g.st.lost_records++;
	}
}

/* The callback's scripted return for call number k. */
static int script(uint32_t k)
{
	return (int)k == c.stop_at ? c.stop_val : 0;
}

/* The core's status for the record m of a walk whose end is data_tail T,
 * 0 if it frames well. */
static int corrupt_status(const mrec *m, uint64_t T)
{
	if (m->hdr_size < 8)
		return RP_E_HDR_SHORT;
	if (m->hdr_size % 8)
		return RP_E_HDR_ALIGN;
	if (m->hdr_size > T - m->pos)
		return RP_E_TRUNCATED;
	return 0;
}

/* Simulate one drain from the rules; fills c.exp and returns what the drain
 * must return. */
static int model_drain(void)
{
	static uint32_t chain[MAX_CHAIN];
	static uint32_t runs_from[MAX_CHAIN + 1];
	const uint64_t H = __atomic_load_n(&g.pg->data_head, __ATOMIC_ACQUIRE);
	const uint64_t T = g.T;
	uint32_t n = 0;

	c.nexp = 0;
	if (g.bad_seen) {
		if (H == g.bad_head)
			return 0;
		g.bad_seen = false;
	}
	/* the records in [H, T), increasing addresses: newest first */
	for (uint32_t i = g.nrecs; i-- > g.live;) {
		FZ_CHECK(n < MAX_CHAIN, "model: chain too long");
		chain[n++] = i;
	}
	if (n) {
		FZ_CHECK(g.recs[chain[n - 1]].pos + g.recs[chain[n - 1]].size == T,
		         "model: oldest live record does not end at data_tail");
		for (uint32_t k = 0; k + 1 < n; k++)
			FZ_CHECK(g.recs[chain[k]].pos + g.recs[chain[k]].size == g.recs[chain[k + 1]].pos,
			         "model: chain broken");
	}
	/* runs_from[k]: maximal runs of delivered records in chain[k ..] */
	runs_from[n] = 0;
	for (uint32_t k = n; k-- > 0;) {
		const bool d = g.recs[chain[k]].state == S_DELIVERED;
		const bool dn = k + 1 < n && g.recs[chain[k + 1]].state == S_DELIVERED;
		runs_from[k] = runs_from[k + 1] + (d && !dn ? 1u : 0u);
	}
	/* the walk: the core's status at each step */
	int st = RP_EMPTY;
	uint64_t curpos = H;
	uint32_t k = 0;
	if (T - H > g.size) {
		st = RP_E_OVERRUN;
	} else if (H & 7) {
		st = RP_E_TAIL_ALIGN;
	} else {
		FZ_CHECK(n == 0 ? H == T : g.recs[chain[0]].pos == H, "model: data_head %" PRIu64
		         " is not the newest record", H);
	}
	bool want_stop = false, deferred = false;
	uint32_t calls = 0, delivered = 0;
	/* strict, every range in use, none at data_head: the adapter first walks
	 * to the first range and, meeting a corruption there, stops before
	 * delivering anything (it could not remember the stop) */
	if (st == RP_EMPTY && g.strict && runs_from[0] == RP_PERF_BACKWARD_RANGES &&
	    g.recs[chain[0]].state != S_DELIVERED) {
		for (k = 0; k < n && g.recs[chain[k]].state != S_DELIVERED; k++) {
			const mrec *m = &g.recs[chain[k]];
			const int bad = corrupt_status(m, T);
			if (bad) {
				st = bad;
				curpos = m->pos;
				break;
			}
		}
	}
	/* first pass: decide, without changing the model */
	bool stopped = false;
	if (st == RP_EMPTY) {
		for (k = 0; k < n; k++) {
			const mrec *m = &g.recs[chain[k]];
			curpos = m->pos;
			st = corrupt_status(m, T);
			if (st)
				break;
			st = RP_EMPTY;
			if (m->state == S_DELIVERED)
				continue;
			c.exp[c.nexp++] = chain[k];
			delivered++;
			if (script(calls++) != 0)
				want_stop = true;
			if (!want_stop)
				continue;
			const uint32_t ranges = 1u + runs_from[k + 1] -
			                        (k + 1 < n && g.recs[chain[k + 1]].state == S_DELIVERED ? 1u : 0u);
			if (ranges <= RP_PERF_BACKWARD_RANGES) {
				stopped = true;
				break;
			}
			deferred = true;
		}
		if (!stopped && k == n)
			curpos = T;
	}
	/* documented: like a stop, nothing published */
	const bool strict_stop = !stopped && st < 0 && g.strict;
	/* second pass: apply */
	for (uint32_t j = 0; j < c.nexp; j++) {
		g.recs[c.exp[j]].state = S_DELIVERED;
		count_rec(&g.recs[c.exp[j]]);
	}
	if (deferred)
		g.deferred++;
	if (stopped)
		return (int)delivered;
	if (st == RP_EMPTY) {
		publish(H);
		return (int)delivered;
	}
	if (g.error != st || g.stopped_at != curpos) {
		g.st.corrupt++;
		g.st.last_error = st;
	}
	g.error = 0;
	if (strict_stop) {
		g.error = st;
		g.stopped_at = curpos;
		return st;
	}
	if (!head_sane(H, T)) {
		g.bad_seen = true;
		g.bad_head = H;
		return g.strict ? st : (int)delivered;
	}
	g.st.resynced_bytes += T - curpos;
	publish(H);
	return g.strict ? st : (int)delivered;
}

/* ---- the callback ---------------------------------------------------------- */

static bool in_data(const uint8_t *p, uint64_t n)
{
	return p >= g.ring && n <= g.size && (uint64_t)(p - g.ring) <= g.size - n;
}

static uint8_t span_at(const rp_span *s, uint32_t i)
{
	return i < s->n0 ? s->p0[i] : s->p1[i - s->n0];
}

static int fn_rec(void *ctx, const rp_record *rec)
{
	FZ_CHECK(ctx == &c, "callback: wrong ctx");
	/* B4: nothing is published while a record is in a callback's hands
	 * (the kernel could overwrite it). */
	const uint64_t pub = __atomic_load_n(&g.pg->data_tail, __ATOMIC_ACQUIRE);
	FZ_CHECK(pub == c.pub, "callback %u: data_tail published (%" PRIu64 ", was %" PRIu64
	         ") before the walk ended", c.calls, pub, c.pub);
	FZ_CHECK(c.calls < c.nexp, "callback %u: only %u records to deliver (record at %" PRIu64 " seq %u)",
	         c.calls, c.nexp, rec->pos, rec->misc);
	const mrec *m = &g.recs[c.exp[c.calls]];
	FZ_CHECK(rec->pos == m->pos && rec->type == m->type && rec->misc == m->misc && rec->size == m->size,
	         "delivery %u: record %" PRIu64 "/%u/%u/%u, want seq %u at %" PRIu64 "/%u/%u/%u", c.calls,
	         rec->pos, rec->type, rec->misc, rec->size, m->seq, m->pos, m->type, m->misc, m->size);
	FZ_CHECK((uint64_t)rec->body.n0 + rec->body.n1 == m->size - 8u, "seq %u: body %u+%u", m->seq,
	         rec->body.n0, rec->body.n1);
	FZ_CHECK(in_data(rec->body.p0, rec->body.n0) && (rec->body.n1 == 0 || rec->body.p1 == g.ring),
	         "seq %u: body outside the data area", m->seq);
	for (uint32_t i = 0; i < m->size - 8u; i++)
		FZ_CHECK(span_at(&rec->body, i) == exp_body(m, i), "seq %u: body byte %u", m->seq, i);
	return script(c.calls++);
}

/* ---- the calls ------------------------------------------------------------- */

static void do_drain(uint8_t s)
{
	c.stop_at = s ? (s & 31) : -1;
	c.stop_val = (1 + (s >> 6)) * ((s & 0x20) ? -1 : 1);
	c.calls = 0;
	c.pub = __atomic_load_n(&g.pg->data_tail, __ATOMIC_ACQUIRE);
	const int want = model_drain();
	const int ret = rp_perf_backward_drain(&g.r, fn_rec, &c);
	FZ_CHECK(c.calls == c.nexp, "drain: %u records delivered, want %u", c.calls, c.nexp);
	FZ_CHECK(ret == want, "drain: returned %d, want %d", ret, want);
}

static void do_bad_args(uint8_t b)
{
	rp_perf_backward_ring copy;
	int ret;

	c.calls = 0;
	c.nexp = 0;
	switch (b % 4) {
	case 0: ret = rp_perf_backward_drain(NULL, fn_rec, &c); break;
	case 1: ret = rp_perf_backward_drain(&g.r, NULL, &c); break;
	case 2:
		copy = g.r;
		copy.ring.base = NULL;
		ret = rp_perf_backward_drain(&copy, fn_rec, &c);
		break;
	default:
		copy = g.r;
		copy.ring.flags |= RP_PERF_OVERWRITE;
		ret = rp_perf_backward_drain(&copy, fn_rec, &c);
		break;
	}
	FZ_CHECK(ret == -EINVAL, "bad argument %u: returned %d", b % 4u, ret);
	FZ_CHECK(c.calls == 0, "bad argument %u: a callback was called", b % 4u);
}

static void check_state(uint64_t pub_before, uint64_t head_before, const char *op)
{
	const rp_perf_stats *s = &g.r.stats;
	const uint64_t pub = __atomic_load_n(&g.pg->data_tail, __ATOMIC_ACQUIRE);
	static const rp_perf_stats zero;

	FZ_CHECK(pub == pub_before || (pub == head_before && head_sane(head_before, pub_before)),
	         "%s: data_tail %" PRIu64 " -> %" PRIu64 " (data_head %" PRIu64 ")", op, pub_before, pub,
	         head_before);
	FZ_CHECK(pub == g.T, "%s: data_tail %" PRIu64 ", want %" PRIu64, op, pub, g.T);
	FZ_CHECK(g.r.ring.tail == g.T, "%s: ring.tail %" PRIu64 ", want %" PRIu64, op, g.r.ring.tail, g.T);
	FZ_CHECK(g.r.ring.error == g.error, "%s: ring.error %d, want %d", op, g.r.ring.error, g.error);
	if (g.error)
		FZ_CHECK(g.r.stopped_at == g.stopped_at, "%s: stopped_at %" PRIu64 ", want %" PRIu64, op,
		         g.r.stopped_at, g.stopped_at);
	FZ_CHECK(!!g.r.ring.bad_head_seen == g.bad_seen && (!g.bad_seen || g.r.ring.bad_head == g.bad_head),
	         "%s: bad_head_seen %d (%" PRIu64 "), want %d (%" PRIu64 ")", op, g.r.ring.bad_head_seen,
	         g.r.ring.bad_head, g.bad_seen, g.bad_head);
	FZ_CHECK_COMMON_STATS(op, s, &g.st);
	FZ_CHECK(s->lost == g.st.lost && s->lost_records == g.st.lost_records,
	         "%s: lost %" PRIu64 "/%" PRIu64 ", want %" PRIu64 "/%" PRIu64, op, s->lost, s->lost_records,
	         g.st.lost, g.st.lost_records);
	FZ_CHECK(s->malformed == 0, "%s: malformed %" PRIu64, op, s->malformed);
	FZ_CHECK(g.r.deferred_stops == g.deferred, "%s: deferred_stops %" PRIu64 ", want %" PRIu64, op,
	         g.r.deferred_stops, g.deferred);
	FZ_CHECK(memcmp(&g.r.ring.stats, &zero, sizeof(zero)) == 0, "%s: ring.stats used", op);
	/* done[] = the maximal runs of delivered, unpublished records, in walk order */
	uint32_t nr = 0;
	for (uint32_t i = g.nrecs; i-- > g.live;) {
		const mrec *m = &g.recs[i];
		if (m->state != S_DELIVERED)
			continue;
		const bool cont = i + 1 < g.nrecs && g.recs[i + 1].state == S_DELIVERED;
		if (!cont) {
			FZ_CHECK(nr < g.r.ndone && nr < RP_PERF_BACKWARD_RANGES && g.r.done[nr].lo == m->pos,
			         "%s: range %u (of %u) should start at seq %u (%" PRIu64 ")", op, nr, g.r.ndone,
			         m->seq, m->pos);
			nr++;
		}
		const bool ends = i == g.live || g.recs[i - 1].state != S_DELIVERED;
		if (ends)
			FZ_CHECK(g.r.done[nr - 1].hi == m->pos + m->size, "%s: range %u should end at %" PRIu64
			         ", ends at %" PRIu64, op, nr - 1, m->pos + m->size, g.r.done[nr - 1].hi);
	}
	FZ_CHECK(g.r.ndone == nr, "%s: %u ranges remembered, want %u", op, g.r.ndone, nr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[4] = { "produce", "drain", "toggle-strict", "bad-args" };
	fz_cur in = { data, size, 0 };

	if (size < 14)
		return 0;
	g.nrecs = 0;
	g.live = 0;
	g.dropped = 0;
	g.size = 256u << (data[0] % 6);
	g.strict = data[1] & 1;
	g.corr = data[2] % C_COUNT;
	g.corr_at = data[3];
	g.corr_param = data[4];
	const uint64_t t0 = fz_le64(data + 5) & ~(uint64_t)7;
	in.i = 14;

	/* what rp_perf_backward_map leaves (memset, then rp_perf_ring_map) */
	memset(&g.r, 0, sizeof(g.r));
	g.buf = fz_mem_ring(&g.r.ring, g.size, t0, data[13], g.strict ? RP_STRICT : 0);
	if (!g.buf)
		return 0;
	g.pg = (struct perf_event_mmap_page *)g.buf;
	g.ring = g.buf + sizeof(struct perf_event_mmap_page);
	g.P = g.T = t0;
	g.error = 0;
	g.stopped_at = 0;
	g.bad_seen = false;
	g.bad_head = 0;
	g.deferred = 0;
	memset(&g.st, 0, sizeof(g.st));

	for (uint32_t ops = 0; ops < MAX_OPS && in.i < in.n; ops++) {
		const uint8_t o = fz_u8(&in) % 4u;
		const uint64_t pub_before = g.pg->data_tail, head_before = g.pg->data_head;
		switch (o) {
		case 0: produce(&in); break;
		case 1: do_drain(fz_u8(&in)); break;
		case 2:
			g.strict = !g.strict;
			g.r.ring.flags ^= RP_STRICT;
			break;
		default: do_bad_args(fz_u8(&in)); break;
		}
		check_state(pub_before, head_before, names[o]);
	}
	fz_mem_ring_free(&g.r.ring, g.buf);
	g.buf = NULL;
	return 0;
}
