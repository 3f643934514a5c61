/* ringbuf_adapter (adapter, structure-aware): rp_bpf_ringbuf_consume and
 * _resync of adapters/linux/rp_bpf_ringbuf.c (the walk, no libbpf, no
 * system call) over an in-memory BPF ring buffer (fz_mem_ringbuf in
 * fz_model.h: consumer page, producer page, then the data area twice in a
 * row, as the kernel maps it; each part allocated with exactly its size and
 * the pages poisoned past their u64, so ASan sees any access outside the
 * positions and the two copies).  The adapter hands callers one contiguous
 * pointer per record and relies on the double mapping for a record that
 * wraps: the model producer writes every byte into both copies.
 *
 * The model producer is the kernel's (kernel/bpf/ringbuf.c): a record of
 * len bytes occupies round_up(len + 8, 8); reserve writes the len word
 * len | BUSY and publishes producer_pos at once; commit rewrites the word as
 * len (| DISCARD for a discard); a record is reserved only if the new
 * producer position stays at most size - 1 ahead of the consumer and of the
 * oldest record still BUSY (pending_pos), else dropped.  Each record's body
 * starts with its sequence number (u32 LE), then a pattern of it
 * (fz_body_byte).
 *
 * Rules, checked after every call (the model computes them from what the
 * producer wrote, never from the ring bytes or the adapter's results):
 *  U1 Delivery: every committed, non-discarded record in [consumer,
 *     producer) is handed over exactly once, in order, byte for byte: the
 *     per-record callback gets (data, len) with data the first copy's byte
 *     after the header (contiguous through the second copy when it wraps);
 *     the batch callback gets 1..RP_BPF_RINGBUF_BATCH samples, each the same
 *     (data, len) pair.  Nothing after a BUSY record, a
 *     corruption, producer_pos, a callback's stop or the budget.
 *  U2 Discards: a DISCARD record is consumed and never delivered; each
 *     consumed one counts in stats.discarded (once).  A walk consumes a
 *     discard only while its budget is not spent (a discard right after the
 *     budget's last record waits for the next call).
 *  U3 Stops: the walk goes until producer_pos, a BUSY record (that drain
 *     counts busy_stops + 1, nothing moves past it), the budget
 *     (max_records delivered, 0 = no limit), a callback's non-zero return
 *     (its record, or its whole batch, counts as consumed) or a corruption.
 *     A budget or a stop that ends the walk right before a BUSY record or a
 *     corruption leaves it to the next call (nothing counted).  Batches:
 *     each is min(fit, budget left, the deliverable records before the
 *     walk's end), exactly, where fit is RP_BPF_RINGBUF_BATCH for a call's
 *     first batch and after it clamp(n * RP_BATCH_BYTES / bytes,
 *     RP_BPF_RINGBUF_BATCH_MIN, RP_BPF_RINGBUF_BATCH) for the last
 *     non-empty batch's n records of bytes in all (their sizes).
 *  U4 Returns: the records delivered by the call, or the callback's negative
 *     value, or (RP_STRICT, the walk reached a corruption) its RP_E_* status
 *     -- in the same call that delivered the records before it -- and that
 *     status from every later consume until resync; resync returns 0; a
 *     NULL or unbound ring -EINVAL, nothing changed.
 *  U5 Consumer: rb.consumer = the end of the last consumed record (or the
 *     resync target); consumer_pos is stored from it by every consume that
 *     does not return at once on a stopped ring, and by resync; it never
 *     moves backward and never passes the producer's real position, nor,
 *     inside a callback, the first record that callback was handed.
 *     rp_bpf_ringbuf_producer/_consumer return the pages' values, _avail
 *     producer - consumer if producer_pos is sane (8-aligned, at most size
 *     ahead) else 0, _size the data size.
 *  U6 Stats, exact: records / record_bytes / payload_bytes grow by the
 *     delivered records (their size, their len), discarded by U2, busy_stops
 *     by U3, corrupt + 1 and last_error = the status each time a walk
 *     reaches a corruption, resynced_bytes by exactly what a resync skips.
 *  U3' Re-reads: a walk loads producer_pos once; a consume that caught up
 *     after consuming something (or stopped at a full batch) loads it again
 *     and walks on, so records the kernel produced while a callback ran are
 *     delivered by the same call (within its budget); a walk that stops at a
 *     BUSY record or a corruption does not look again (the resync target is
 *     the producer_pos that walk loaded).
 *  U7 Corruption, once per distinct bad state: consumer_pos found different
 *     from the adapter's consumer (rewritten by someone, or left misaligned
 *     by a previous consumer) is restored and counted (RP_E_CONSUMER_POS) at
 *     the start of the next consume (not on a stopped strict ring) or
 *     resync.  A walk that reaches a corruption (a len word whose record
 *     reaches past producer_pos: RP_E_RB_LEN; producer_pos misaligned:
 *     RP_E_RB_ALIGN, or more than the ring ahead or behind the consumer:
 *     RP_E_RB_OVERRUN, both at the consumer, before any record) counts it;
 *     default mode: the consumer skips to a sane producer_pos
 *     (resynced_bytes), an insane one is remembered (rb.bad_seen,
 *     rb.bad_producer) and a consume seeing that same value again returns 0
 *     without walking or counting, until producer_pos changes; RP_STRICT:
 *     the ring stops (rb.error) until rp_bpf_ringbuf_resync, which applies
 *     the default policy once.
 *  Model simplification: the model kernel reserves against the consumer the
 *  adapter last published (its stores of consumer_pos), not against a
 *  foreign value written into consumer_pos (a kernel would trust it and
 *  could overwrite unread records; that is the kernel's hazard, not the
 *  adapter's).  Production from a callback is planned by the model before
 *  the call (the records, the producer_pos) and written and published from
 *  inside that callback.
 *
 * Input:
 *   [0] data size = 256 << (b % 6)     [1] bit 0: RP_STRICT, bit 1: batch API
 *   [2] corruption (b % 6): 0 none, 1 a bad len word (always past producer:
 *       size - 7 + (p & 0x7f), or 2^30 - 1 if p & 0x80) at record [3],
 *       2 the same with the DISCARD bit, 3 producer_pos published misaligned
 *       (+1..7) right after record [3], 4 more than the ring ahead, 5 behind
 *       the consumer (3-5 until the next production) [4] its parameter p
 *   [5..13) initial consumer_pos, u64 LE (raw: may be misaligned; the
 *       producer starts at it aligned down; u64 wrap reachable)
 *   [13] fill byte of the data area
 *   then up to 64 ops, op = b % 9:
 *     0 produce: n = 1 + b % 32 records, each 2 bytes (k, v): len =
 *        v | ((k >> 3) & 3) << 8 (k & 0x60 == 0x60: len = size / 2 + v);
 *        k % 8: 0-3 committed, 4 discarded, 5-7 left BUSY (committed later);
 *        k = 0xfc (FZ_FILL_SPEC), no BUSY record pending: committed, taking
 *        all the room left, so the ring is full, 8 bytes past what the
 *        kernel fills (else as k % 8 = 4);
 *     1 consume: 2 bytes, budget b (0: none; 1..160; else 64 * (b - 160))
 *        and stop s (0: never; else callback call number s & 31 returns
 *        1 + (s >> 6), negated if s & 0x20);
 *     2 commit a BUSY record: b, the (b % pending)-th oldest, DISCARD if b & 0x80;
 *     3 resync;
 *     4 consumer_pos rewritten (b % 4: 8 * (1 + b / 4) back, 2^40 ahead,
 *       1 + (b / 4) % 7 ahead (misaligned), the value it holds);
 *     5 toggle RP_STRICT in rb.flags;
 *     6 bad arguments (b % 4: consume NULL, resync NULL, consume and resync
 *       an unbound ring; also avail/size of NULL): -EINVAL or 0, no effect;
 *     7 the queries: producer, consumer, avail, size;
 *     8 consume with production: budget b, stop s (as 1), x, then a
 *       production as 0 (n, pairs), produced from inside callback call
 *       x & 31 (after its records were checked; nothing if the call does
 *       not come).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fz_model.h"
#include "fz_util.h"
#include "rp_bpf_ringbuf.h"
#include "rp_bpf_ringbuf_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECS 4096u
#define MAX_OPS 64u
#define MAX_ITEMS 1100u /* records in [consumer, producer): at most 8192 / 8 */
#define MAX_CALLS 2200u
#define MAX_DELIV 2200u /* a consume with production from a callback: two rings' worth */

enum corr { C_NONE, C_LEN, C_LEN_DISCARD, C_PROD_MISALIGN, C_PROD_FAR, C_PROD_BEHIND, C_COUNT };

typedef struct mrec {
	uint64_t pos;
	uint32_t seq;
	uint32_t len;   /* the payload length the producer reserved */
	uint32_t size;  /* round_up(len + 8, 8) */
	bool busy;      /* reserved, not committed */
	bool discard;   /* committed with DISCARD */
	bool corrupt;   /* its len word is a bad one */
	uint32_t hdr;   /* the len word written */
} mrec;

/* The records of [consumer, producer) as the walk will meet them. */
typedef struct walk {
	uint32_t idx[MAX_ITEMS];
	uint32_t n;
	int end; /* RP_EMPTY, RP_BUSY or the RP_E_* status after the n records */
} walk;

static struct {
	fz_mem_ringbuf m;
	uint64_t size;
	rp_bpf_ringbuf rb;
	bool batch;
	mrec recs[MAX_RECS];
	uint32_t nrecs;
	uint32_t next;  /* first record at or after the model consumer */
	uint32_t pend;  /* no BUSY record before this one */
	uint64_t P;     /* the producer's real position */
	uint64_t H;     /* what producer_pos holds */
	/* the model of the adapter */
	uint64_t cons;  /* rb.consumer */
	uint64_t kcons; /* the consumer the adapter last published (the kernel's room) */
	uint64_t page;  /* what consumer_pos holds */
	int error;
	bool bad_seen;
	uint64_t bad_producer;
	rp_bpf_ringbuf_stats st;
	bool strict;
	int corr;
	uint32_t corr_at, corr_param;
} g;

/* A production spec from the input (produce, and consume with production
 * from a callback). */
typedef struct spec {
	uint32_t n;
	uint8_t k[32], v[32];
} spec;

/* The script of one consume, computed before the call. */
static struct {
	walk w; /* the last walk */
	uint32_t deliv[MAX_DELIV]; /* the records delivered (seq), in order */
	uint32_t ndeliv;
	uint32_t call_first[MAX_CALLS], call_n[MAX_CALLS]; /* callback j: deliv[first .. first + n) */
	uint32_t ncalls;
	uint32_t calls; /* callback invocations seen */
	int stop_at, stop_val;
	int prod_at;     /* the callback call that produces, -1 none */
	bool prod_done;  /* the script reached it */
	spec prod;
	uint32_t defer_from, defer_to; /* the records it writes */
	uint64_t defer_h;              /* the producer_pos it publishes */
} c;

static uint8_t exp_body(const mrec *m, uint32_t i)
{
	return fz_body_byte(m->seq, m->len >= 4, m->seq, false, 0, i);
}

static void put_word(uint64_t pos, uint32_t w)
{
	for (uint32_t i = 0; i < 4; i++)
		fz_rb_put8(&g.m, pos + i, (uint8_t)(w >> (8 * i)));
}

static void publish_producer_page(uint64_t h)
{
	__atomic_store_n((uint64_t *)g.m.prod, h, __ATOMIC_RELEASE);
}

static uint64_t page_consumer(void)
{
	return __atomic_load_n((uint64_t *)g.m.cons, __ATOMIC_ACQUIRE);
}

/* ---- the producer (the kernel) -------------------------------------------- */

/* g.pend moved to the oldest BUSY record (g.nrecs if none). */
static void find_pending(void)
{
	while (g.pend < g.nrecs && !g.recs[g.pend].busy)
		g.pend++;
}

/* The kernel's room check: the new producer position at most size - 1
 * ahead of the consumer the adapter published and of the oldest BUSY
 * record (pending_pos). */
static bool reserve_ok(uint64_t new_p)
{
	if (new_p - g.kcons > g.size - 1)
		return false;
	find_pending();
	return g.pend == g.nrecs || new_p - g.recs[g.pend].pos <= g.size - 1;
}

/* The room left (size less what lies between the published consumer and
 * the producer) in *size if it is a whole number of 8-byte units, at least
 * one, and no BUSY record is pending (the room before it the kernel keeps,
 * as reserve_ok does). */
static bool fill_room(uint32_t *size)
{
	const uint64_t used = g.P - g.kcons;

	if (used > g.size - 8u || used % 8u)
		return false;
	find_pending();
	if (g.pend != g.nrecs)
		return false;
	*size = (uint32_t)(g.size - used);
	return true;
}

/* The bytes of record m: its len word (hdr), the kernel's pg_off word
 * (never read by a consumer), its body. */
static void write_rec(const mrec *m, uint32_t hdr)
{
	put_word(m->pos, hdr);
	for (uint32_t i = 4; i < 8; i++)
		fz_rb_put8(&g.m, m->pos + i, (uint8_t)(0xa0 + i));
	for (uint32_t i = 0; i < m->len; i++)
		fz_rb_put8(&g.m, m->pos + 8 + i, exp_body(m, i));
}

/* Reserve (and maybe commit) one record in the model; true if the kernel
 * had room.  The bytes are written by write_rec (at once, or from a
 * callback: flush_deferred). */
static bool produce_one(uint8_t k, uint8_t v)
{
	mrec m;

	memset(&m, 0, sizeof(m));
	m.len = (k & 0x60) == 0x60 ? (uint32_t)(g.size / 2 + v) : (v | ((uint32_t)(k >> 3) & 3u) << 8);
	m.size = (m.len + 8u + 7u) & ~7u;
	/* FZ_FILL_SPEC: a committed record taking all the room left, so that
	 * producer_pos ends exactly the ring's size ahead of the consumer (the
	 * kernel stops at size - 1: reserve_ok) */
	const bool fill = k == FZ_FILL_SPEC && fill_room(&m.size);
	if (fill)
		m.len = m.size - 8u;
	if (g.nrecs >= MAX_RECS || (!fill && !reserve_ok(g.P + m.size)))
		return false; /* the kernel fails the reserve */
	m.seq = g.nrecs;
	m.pos = g.P;
	m.busy = !fill && k % 8 >= 5;
	m.discard = !fill && k % 8 == 4;
	m.hdr = m.len | (m.busy ? RP_RB_BUSY_BIT : 0) | (m.discard ? RP_RB_DISCARD_BIT : 0);
	if ((g.corr == C_LEN || g.corr == C_LEN_DISCARD) && m.seq == g.corr_at) {
		m.busy = false;
		m.discard = false;
		m.corrupt = true;
		m.hdr = (g.corr_param & 0x80) ? RP_RB_LEN_MASK : (uint32_t)(g.size - 7u + (g.corr_param & 0x7f));
		if (g.corr == C_LEN_DISCARD)
			m.hdr |= RP_RB_DISCARD_BIT;
	}
	g.recs[g.nrecs++] = m;
	g.P += m.size;
	return true;
}

/* n = 1 + b % 32 records, (k, v) each. */
static void read_spec(fz_cur *in, spec *sp)
{
	sp->n = 1u + fz_u8(in) % 32u;
	for (uint32_t i = 0; i < sp->n; i++) {
		sp->k[i] = fz_u8(in);
		sp->v[i] = fz_u8(in);
	}
}

/* Produce sp into the model; returns the producer_pos to publish (the real
 * position, or the corrupted one right after record corr_at).  g.H is the
 * model's view of producer_pos from now on. */
static uint64_t produce_model(const spec *sp)
{
	uint64_t h;

	for (uint32_t i = 0; i < sp->n; i++) {
		if (produce_one(sp->k[i], sp->v[i]) && g.nrecs - 1 == g.corr_at &&
		    (g.corr == C_PROD_MISALIGN || g.corr == C_PROD_FAR || g.corr == C_PROD_BEHIND)) {
			switch (g.corr) {
			case C_PROD_MISALIGN: h = g.P + 1u + g.corr_param % 7u; break;
			case C_PROD_FAR: h = g.P + g.size + 8u * (g.corr_param % 16u); break;
			default: h = g.cons - 8u * (1u + g.corr_param % 16u); break;
			}
			g.H = h;
			return h;
		}
	}
	g.H = g.P;
	return g.P;
}

static void produce(fz_cur *in)
{
	spec sp;
	const uint32_t first = g.nrecs;

	read_spec(in, &sp);
	const uint64_t h = produce_model(&sp);
	for (uint32_t i = first; i < g.nrecs; i++)
		write_rec(&g.recs[i], g.recs[i].hdr);
	publish_producer_page(h);
}

static void commit_pending(uint8_t b)
{
	uint32_t npend = 0, want, j;

	for (j = 0; j < g.nrecs; j++)
		npend += g.recs[j].busy;
	if (!npend)
		return;
	want = b % npend;
	for (j = 0; j < g.nrecs; j++)
		if (g.recs[j].busy && want-- == 0)
			break;
	mrec *m = &g.recs[j];
	m->busy = false;
	m->discard = (b & 0x80) != 0;
	m->hdr = m->len | (m->discard ? RP_RB_DISCARD_BIT : 0);
	put_word(m->pos, m->hdr);
}

/* ---- the model walk ------------------------------------------------------- */

static bool producer_sane(uint64_t h)
{
	return (h & 7) == 0 && h - g.cons <= g.size;
}

/* The records from the model consumer to producer_pos h. */
static void model_walk(walk *w, uint64_t h)
{
	uint64_t t = g.cons;
	uint32_t i = g.next;

	w->n = 0;
	if (h - t > g.size) {
		w->end = RP_E_RB_OVERRUN;
		return;
	}
	if (h & 7) {
		w->end = RP_E_RB_ALIGN;
		return;
	}
	for (;;) {
		if (t == h) {
			w->end = RP_EMPTY;
			return;
		}
		FZ_CHECK(i < g.nrecs && g.recs[i].pos == t, "model: no record at %" PRIu64 " (producer %" PRIu64 ")",
		         t, h);
		const mrec *m = &g.recs[i];
		if (m->busy) {
			w->end = RP_BUSY;
			return;
		}
		if (m->corrupt) {
			w->end = RP_E_RB_LEN;
			return;
		}
		FZ_CHECK(w->n < MAX_ITEMS, "model: too many items");
		w->idx[w->n++] = i;
		t += m->size;
		i++;
	}
}

static void model_next(void)
{
	while (g.next < g.nrecs && (int64_t)(g.recs[g.next].pos - g.cons) < 0)
		g.next++;
}

static void model_publish(void)
{
	g.page = g.cons;
	g.kcons = g.cons;
}

/* consumer_pos checked at the start of a consume or resync. */
static void model_check_page(void)
{
	if (g.page != g.cons) {
		g.st.corrupt++;
		g.st.last_error = RP_E_CONSUMER_POS;
		model_publish();
	}
}

/* The default policy against producer_pos h. */
static void model_resync(uint64_t h)
{
	if (producer_sane(h)) {
		fz_sat_add(&g.st.resynced_bytes, h - g.cons);
		g.cons = h;
		model_publish();
		g.bad_seen = false;
	} else {
		g.bad_producer = h;
		g.bad_seen = true;
	}
	model_next();
}

/* ---- the callbacks --------------------------------------------------------- */

static void check_payload(const uint8_t *p, uint32_t len, const mrec *m)
{
	const uint8_t *want = g.m.data + ((m->pos + 8u) & (g.size - 1));

	FZ_CHECK(len == m->len, "seq %u: len %u, want %u", m->seq, len, m->len);
	FZ_CHECK(p == want, "seq %u: payload at data + %td, want data + %td", m->seq, p - g.m.data,
	         want - g.m.data);
	for (uint32_t i = 0; i < len; i++)
		FZ_CHECK(p[i] == exp_body(m, i), "seq %u: payload byte %u", m->seq, i);
}

/* The records the model produced "during" callback call c.prod_at: written
 * and published now, from inside that callback. */
static void flush_deferred(void)
{
	for (uint32_t i = c.defer_from; i < c.defer_to; i++)
		write_rec(&g.recs[i], g.recs[i].hdr);
	publish_producer_page(c.defer_h);
}

static int cb_ret(void)
{
	const int r = (int)c.calls == c.stop_at ? c.stop_val : 0;
	if ((int)c.calls == c.prod_at && c.prod_done)
		flush_deferred();
	c.calls++;
	return r;
}

/* U5 inside a callback: consumer_pos is not yet past the call's first
 * record (publishing it would let the kernel reuse the bytes being read). */
static void check_unpublished(void)
{
	const mrec *first = &g.recs[c.deliv[c.call_first[c.calls]]];
	const uint64_t page = page_consumer();

	FZ_CHECK((int64_t)(first->pos - page) >= 0,
	         "callback %u: consumer_pos %" PRIu64 " already past its record at %" PRIu64, c.calls, page,
	         first->pos);
}

static int fn_rec(void *ctx, const void *p, uint32_t len)
{
	FZ_CHECK(ctx == NULL, "ctx");
	FZ_CHECK(c.calls < c.ncalls, "callback call %u, want %u calls", c.calls, c.ncalls);
	FZ_CHECK(c.call_n[c.calls] == 1, "per-record callback");
	check_unpublished();
	check_payload(p, len, &g.recs[c.deliv[c.call_first[c.calls]]]);
	return cb_ret();
}

static int fn_batch(void *ctx, const rp_payload *recs, uint32_t n)
{
	FZ_CHECK(ctx == NULL, "ctx");
	FZ_CHECK(c.calls < c.ncalls, "batch callback call %u, want %u calls", c.calls, c.ncalls);
	FZ_CHECK(n == c.call_n[c.calls], "batch %u of %u records, want %u", c.calls, n, c.call_n[c.calls]);
	check_unpublished();
	for (uint32_t k = 0; k < n; k++) {
		const mrec *m = &g.recs[c.deliv[c.call_first[c.calls] + k]];
		check_payload(recs[k].data, recs[k].size, m);
	}
	return cb_ret();
}

/* ---- the calls --------------------------------------------------------------- */

/* A callback call of the script: deliv[ndeliv - nb .. ndeliv); true if it
 * stops the walk.  The production planned for this call happens in the
 * model now (the bytes and producer_pos from inside the real callback). */
static bool script_call(uint32_t nb)
{
	FZ_CHECK(c.ncalls < MAX_CALLS, "model: too many calls");
	c.call_first[c.ncalls] = c.ndeliv - nb;
	c.call_n[c.ncalls] = nb;
	if ((int)c.ncalls == c.prod_at) {
		c.defer_from = g.nrecs;
		c.defer_h = produce_model(&c.prod);
		c.defer_to = g.nrecs;
		c.prod_done = true;
	}
	return (int)c.ncalls++ == c.stop_at;
}

/* consume(budget b, stop s), and (x != 0) the records of *sp produced from
 * inside callback call x & 31, as a kernel would while the consumer runs. */
static void do_consume(uint8_t bb, uint8_t sb, uint8_t x, const spec *sp)
{
	const uint32_t budget = bb == 0 ? 0 : bb <= 160 ? bb : 64u * (bb - 160u);
	uint32_t unit = g.batch ? RP_BPF_RINGBUF_BATCH : UINT32_MAX;
	int want = 0;

	c.stop_at = sb ? (sb & 31) : -1;
	c.stop_val = (1 + (sb >> 6)) * ((sb & 0x20) ? -1 : 1);
	c.prod_at = x ? (x & 31) : -1;
	c.prod_done = false;
	if (sp)
		c.prod = *sp;
	c.calls = 0;
	c.ncalls = 0;
	c.ndeliv = 0;
	c.w.n = 0;
	c.w.end = 0;

	/* The script: what the call must do, from the model alone. */
	bool walks = true;
	if (g.error) {
		want = g.error;
		walks = false;
	} else {
		model_check_page();
		if (g.bad_seen && g.H == g.bad_producer) {
			want = 0;
			walks = false;
		}
	}
	if (walks) {
		uint32_t d = 0;
		g.bad_seen = false;
		for (;;) {
			/* one walk: producer_pos loaded once, at most `unit` records
			 * (a batch) within the budget */
			const uint64_t h0 = g.H, start = g.cons;
			uint32_t cap = budget ? budget - d : UINT32_MAX, k = 0, nb = 0;
			uint64_t nbytes = 0;
			bool stopped = false, seen_end = false;
			if (cap > unit)
				cap = unit;
			model_walk(&c.w, h0);
			while (nb < cap) {
				if (k == c.w.n) {
					seen_end = true;
					break;
				}
				const mrec *m = &g.recs[c.w.idx[k++]];
				g.cons += m->size;
				if (m->discard) {
					g.st.discarded++;
					continue;
				}
				c.deliv[c.ndeliv++] = m->seq;
				g.st.records++;
				fz_sat_add(&g.st.record_bytes, m->size);
				fz_sat_add(&g.st.payload_bytes, m->len);
				nbytes += m->size;
				nb++;
				if (!g.batch && script_call(1)) {
					stopped = true;
					break;
				}
			}
			if (g.batch && nb && script_call(nb))
				stopped = true;
			if (g.batch && nb) /* the next batch's size, from this one's records */
				unit = fz_batch_fit(nb, nbytes, RP_BPF_RINGBUF_BATCH_MIN, RP_BPF_RINGBUF_BATCH);
			d += nb;
			model_next();
			model_publish();
			want = (int)d;
			if (stopped) {
				if (c.stop_val < 0)
					want = c.stop_val;
				break;
			}
			if (seen_end && c.w.end == RP_BUSY) {
				g.st.busy_stops++;
				break;
			}
			if (seen_end && c.w.end < 0) {
				g.st.corrupt++;
				g.st.last_error = c.w.end;
				if (g.strict) {
					g.error = c.w.end;
					want = c.w.end;
				} else {
					model_resync(h0);
				}
				break;
			}
			if (budget && d >= budget)
				break;
			if (seen_end && g.cons == start)
				break; /* caught up, nothing new */
		}
	}

	const int ret = rp_bpf_ringbuf_consume(&g.rb, budget);
	FZ_CHECK(c.calls == c.ncalls, "consume: %u callback calls, want %u (end %d, budget %u, stop %d)", c.calls,
	         c.ncalls, c.w.end, budget, c.stop_at);
	FZ_CHECK(ret == want, "consume: returned %d, want %d (end %d, budget %u, stop %d/%d)", ret, want, c.w.end,
	         budget, c.stop_at, c.stop_val);
	if (c.prod_done)
		FZ_CHECK(__atomic_load_n((uint64_t *)g.m.prod, __ATOMIC_ACQUIRE) == g.H, "model: deferred production");
}

static void do_resync(void)
{
	model_check_page();
	model_resync(g.H);
	g.error = 0;
	const int ret = rp_bpf_ringbuf_resync(&g.rb);
	FZ_CHECK(ret == 0, "resync returned %d", ret);
}

static void do_rewrite(uint8_t b)
{
	uint64_t v = g.page;

	switch (b % 4) {
	case 0: v -= 8u * (1u + b / 4u); break;
	case 1: v += UINT64_C(1) << 40; break;
	case 2: v += 1u + (b / 4u) % 7u; break;
	default: break;
	}
	g.page = v;
	__atomic_store_n((uint64_t *)g.m.cons, v, __ATOMIC_RELEASE);
}

static void do_bad_args(uint8_t b)
{
	rp_bpf_ringbuf unbound;
	int ret;

	memset(&unbound, 0, sizeof(unbound));
	c.calls = 0;
	c.ncalls = 0;
	switch (b % 4) {
	case 0: ret = rp_bpf_ringbuf_consume(NULL, b); break;
	case 1: ret = rp_bpf_ringbuf_resync(NULL); break;
	case 2: ret = rp_bpf_ringbuf_consume(&unbound, b); break;
	default: ret = rp_bpf_ringbuf_resync(&unbound); break;
	}
	FZ_CHECK(ret == -EINVAL, "bad argument %u: returned %d", b % 4u, ret);
	FZ_CHECK(rp_bpf_ringbuf_avail(NULL) == 0 && rp_bpf_ringbuf_avail(&unbound) == 0 &&
	         rp_bpf_ringbuf_size(NULL) == 0, "avail/size of NULL or unbound");
	FZ_CHECK(c.calls == 0, "bad argument: a callback was called");
}

static void do_queries(void)
{
	const uint64_t want_avail = producer_sane(g.H) ? g.H - g.cons : 0;

	FZ_CHECK(rp_bpf_ringbuf_producer(&g.rb) == g.H, "producer %" PRIu64 ", want %" PRIu64,
	         rp_bpf_ringbuf_producer(&g.rb), g.H);
	FZ_CHECK(rp_bpf_ringbuf_consumer(&g.rb) == g.page, "consumer %" PRIu64 ", want %" PRIu64,
	         rp_bpf_ringbuf_consumer(&g.rb), g.page);
	FZ_CHECK(rp_bpf_ringbuf_avail(&g.rb) == want_avail, "avail %" PRIu64 ", want %" PRIu64,
	         rp_bpf_ringbuf_avail(&g.rb), want_avail);
	FZ_CHECK(rp_bpf_ringbuf_size(&g.rb) == g.size, "size %" PRIu64, rp_bpf_ringbuf_size(&g.rb));
}

static void check_state(uint64_t cons_before, const char *op)
{
	const rp_bpf_ringbuf_stats *s = &g.rb.stats;
	const uint64_t page = page_consumer();

	FZ_CHECK(g.rb.consumer == g.cons, "%s: rb.consumer %" PRIu64 ", want %" PRIu64, op, g.rb.consumer,
	         g.cons);
	FZ_CHECK(page == g.page, "%s: consumer_pos %" PRIu64 ", want %" PRIu64, op, page, g.page);
	FZ_CHECK((int64_t)(g.rb.consumer - cons_before) >= 0, "%s: consumer moved back %" PRIu64 " -> %" PRIu64,
	         op, cons_before, g.rb.consumer);
	FZ_CHECK((int64_t)(g.P - g.rb.consumer) >= 0, "%s: consumer %" PRIu64 " past the producer %" PRIu64, op,
	         g.rb.consumer, g.P);
	FZ_CHECK(g.rb.error == g.error, "%s: rb.error %d, want %d", op, g.rb.error, g.error);
	FZ_CHECK(!!g.rb.bad_seen == g.bad_seen && (!g.bad_seen || g.rb.bad_producer == g.bad_producer),
	         "%s: bad_seen %d (%" PRIu64 "), want %d (%" PRIu64 ")", op, g.rb.bad_seen, g.rb.bad_producer,
	         g.bad_seen, g.bad_producer);
	FZ_CHECK_COMMON_STATS(op, s, &g.st);
	FZ_CHECK(s->discarded == g.st.discarded, "%s: discarded %" PRIu64 ", want %" PRIu64, op, s->discarded,
	         g.st.discarded);
	FZ_CHECK(s->busy_stops == g.st.busy_stops, "%s: busy_stops %" PRIu64 ", want %" PRIu64, op,
	         s->busy_stops, g.st.busy_stops);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[9] = { "produce", "consume", "commit", "resync", "rewrite-consumer",
		"toggle-strict", "bad-args", "queries", "consume+produce" };
	fz_cur in = { data, size, 0 };

	if (size < 14)
		return 0;
	g.nrecs = 0;
	g.next = 0;
	g.pend = 0;
	g.size = 256u << (data[0] % 6);
	g.strict = data[1] & 1;
	g.batch = (data[1] & 2) != 0;
	g.corr = data[2] % C_COUNT;
	g.corr_at = data[3];
	g.corr_param = data[4];
	const uint64_t c0 = fz_le64(data + 5);
	in.i = 14;

	if (!fz_mem_ringbuf_new(&g.m, &g.rb, g.size, c0, data[13], g.batch ? NULL : fn_rec,
	                        g.batch ? fn_batch : NULL, g.strict ? RP_STRICT : 0))
		return 0;
	g.cons = g.kcons = g.P = g.H = c0 & ~(uint64_t)7;
	g.page = c0;
	g.error = 0;
	g.bad_seen = false;
	g.bad_producer = 0;
	memset(&g.st, 0, sizeof(g.st));
	check_state(g.cons, "bind");

	for (uint32_t ops = 0; ops < MAX_OPS && in.i < in.n; ops++) {
		const uint8_t o = fz_u8(&in) % 9u;
		const uint64_t cons_before = g.rb.consumer;
		switch (o) {
		case 0: produce(&in); break;
		case 1: { const uint8_t b = fz_u8(&in), s = fz_u8(&in); do_consume(b, s, 0, NULL); break; }
		case 2: commit_pending(fz_u8(&in)); break;
		case 3: do_resync(); break;
		case 4: do_rewrite(fz_u8(&in)); break;
		case 5: g.rb.flags ^= RP_STRICT; g.strict = !g.strict; break;
		case 6: do_bad_args(fz_u8(&in)); break;
		case 7: do_queries(); break;
		default: {
			spec sp;
			const uint8_t b = fz_u8(&in), s = fz_u8(&in), x = fz_u8(&in);
			read_spec(&in, &sp);
			do_consume(b, s, x | 0x80, &sp);
			break;
		}
		}
		check_state(cons_before, names[o]);
	}
	fz_mem_ringbuf_free(&g.m);
	return 0;
}
