/* perf_buffer (adapter, structure-aware): the perf buffer SET's delivery and
 * scheduling (adapters/linux/rp_perf_buffer.c: deliver and its on_*
 * callbacks, consume_ring, consume_pending, consume, consume_ring, poll's
 * pending-first logic, resync_ring, stats), no libbpf, no system call: an
 * rp_perf_buffer built by hand over N (1..4) in-memory perf rings
 * (fz_mem_perf_buffer), each a buffer of exactly control page + data size.
 * A model kernel writes sequence-numbered records (fz_perf_spec: BPF-output
 * SAMPLEs, LOSTs, other types, malformed samples; a global sequence number,
 * so a record of one ring cannot pass for another's) honouring each ring's
 * data_tail, and arms the ring in a model epoll.  poll runs through
 * rp_perf_buffer_poll_wait with the model's wait: it reports a ring only if
 * it was written since it was last reported (perf_poll clears the flag: once
 * per wakeup), optionally only a fuzzed subset of them (a wakeup not seen
 * yet), an out-of-range or a repeated index, or -EINTR.  The delivery mode
 * (record fn; payload sample_fn + lost_fn, either or both NULL; batch_fn;
 * samples_fn with or without lost_fn), RP_STRICT, a corruption in one
 * ring or two, callbacks that return 0 / a positive stop / a negative error at a
 * fuzzed call (and write more records into their own ring at another) and
 * poll / consume / consume_ring / ready_consume / resync_ring calls are
 * fuzzed.
 *
 * Rules, from rp_perf_buffer.h (and, marked [impl], the documented design
 * in rp_perf_buffer.c), checked after every call from the model (what the
 * kernel wrote, what epoll reported, what the callbacks returned), never
 * from the code under test:
 *  P1 Delivery: every record is handed over exactly once, in its ring's
 *     order, byte for byte, across calls, with its ring's CPU.  Record and
 *     batch mode: every record.  Payload and samples mode: a BPF-output
 *     sample to sample_fn / samples_fn (skipped if NULL), a LOST with a count
 *     to lost_fn (skipped if NULL), anything else skipped and counted in that
 *     ring's stats.malformed.  Batches: records of one ring, each batch
 *     exactly min(fit, the run from its first record to its ring's walk end
 *     or, for a sample batch, to the next record that is not a BPF-output
 *     sample); fit is RP_PERF_BATCH for a ring's first batch in a drain,
 *     then about as many records as span RP_BATCH_BYTES, from the last
 *     batch's (fz_batch_fit).  Records are skipped only by
 *     those rules, by the default corruption policy (tail -> data_head) and
 *     by resync_ring.
 *  P2 Schedule: a drain visits the rings it owes, one at a time, each drained
 *     to its end (data_head, or a corruption) unless a callback stops:
 *     consume every ring, consume_ring its ring, poll and ready_consume the
 *     pending rings (reported by a wait, left by a stop, resynced), [impl] in
 *     ring order starting at the ring of the last stop of a poll/consume.
 *  P3 Stops: a callback's non-zero return ends the call after its record or
 *     batch (consumed): nothing is delivered after it in that call, its ring
 *     and the owed rings not reached stay pending and the next poll drains
 *     them first, without a new wakeup.
 *  P4 No record stranded, after every call: a ring whose tail is not at its
 *     data_head is pending, or armed in the model epoll (written since it was
 *     last reported), or a strict ring stopped at a corruption.  After a
 *     poll/consume that no callback stopped, no ring epoll reported (or that
 *     was pending) holds undelivered records unless strict-stopped, and no
 *     ring is pending but a strict-stopped one whose status is owed (P6).
 *  P5 poll: with rings pending it waits with timeout 0 first and returns what
 *     draining gives, waiting again (the caller's timeout) only if that
 *     drained nothing (0), left nothing pending and timeout != 0; without
 *     pending rings it waits once with the caller's timeout.  -EINTR (the
 *     wait's error) as is, nothing drained by that wait.
 *  P6 Returns (header "Drain results"): the callbacks made (records in
 *     record and batch mode, samples + LOST reports in payload and samples
 *     mode); a callback's negative return (the call stops there); a positive
 *     stop returns the count "without draining the other rings"; else, after
 *     every other ring was drained, the RP_E_* status of the first strict
 *     ring (in visit order) stopped at a corruption.  A poll/consume that a
 *     callback stops after the walk met a strict ring's corruption leaves
 *     that ring pending: its status is the next drain's, not lost; so does
 *     a strict ring met after the first whose status a call returns.
 *     consume_ring: its ring's count, the callback's negative value, or its
 *     strict status.
 *     resync_ring 0; bad index or NULL set -EINVAL; stats of a CPU not in
 *     the set -ENOENT.
 *  P7 Strict: the records before a corruption are delivered, the ring stops
 *     alone (ring_error = its status) while the others drain; it is not
 *     pending, and every drain that visits it returns the status until
 *     resync_ring, which skips to data_head and makes it pending.  Default:
 *     the ring skips [corruption, data_head) (resynced_bytes) and later
 *     records are delivered.
 *  P8 State and stats, exact per ring: ring.tail and the published
 *     data_tail = the end of the last consumed record (or the resync
 *     target), and inside a callback data_tail is not past a record that
 *     callback is handed; records / record_bytes / payload_bytes / lost / lost_records
 *     for every record consumed (delivered or skipped), malformed as P1,
 *     corrupt + 1 and last_error per corruption reached, resynced_bytes;
 *     rp_perf_buffer_malformed = the sum; pending = the model's owed set,
 *     npending its size.
 *  Model simplifications: data_head is always sane (the header corruptions
 *  only; bad heads are the perf_ring harness's); a blocking wait with no
 *  ring armed returns 0 (a timeout; a real wait of -1 would block);
 *  callbacks write records only into the ring being drained (its data_head
 *  was loaded when its drain began, so they wait for the next wakeup).
 *
 * Input:
 *   [0] rings n = 1 + b % 4             [1] mode (b % 8): 0 record fn,
 *       1 payload sample+lost, 2 payload sample, 3 payload lost,
 *       4 payload none, 5 batch, 6 samples+lost, 7 samples
 *   [2] bit 0 RP_STRICT; data size 256 << ((b >> 1) & 3); bit 3 RP_PERF_PREFETCH
 *   [3] corruption (b % 5): 0 none, 1 size 0, 2 size 1..7, 3 size % 8 != 0,
 *       4 size past head; [4] in ring b % n (and, b >= 128 with n > 1,
 *       in the next ring too), [5] at that ring's record number b;
 *       [6] parameter
 *   [7..15) start tail, u64 LE aligned down to 8 (ring i: + i * 0x1008)
 *   [15] fill byte                      [16] CPU id offset
 *   then up to 64 ops, op = b % 9:
 *     0 produce into ring r % n: r, c, then 1 + c % 16 specs (k, v)
 *       (fz_perf_spec; fz_perf_fill: one that fills the ring); a record
 *       that does not fit is dropped
 *     1 poll: t (timeout t % 3: 0, -1, 10), stop s, write w, wait x
 *     2 consume: s, w                    3 consume_ring: i (b % (n + 1)), s, w
 *     4 ready_consume: x, s, w           5 resync_ring: i (b % (n + 1))
 *     6 queries (ring_error, ring_cpu, ring_fd, ring_count, stats, malformed,
 *       left_out, epoll_fd, out-of-range and absent arguments)
 *     7 a NULL set (b % 6)               8 produce into every ring: c, specs
 *   stop s: 0 never, else callback call s & 15 of the call returns
 *     1 + (s >> 6), negated if s & 0x20.  write w: 0 none, else callback call
 *     w & 15 writes 1 + (w >> 4) % 4 records (specs follow) into its ring.
 *   wait x: bits 0-3 rings not reported even if armed; bit 4 -EINTR from the
 *     first wait, bit 5 from the second; bit 6 an out-of-range index too,
 *     bit 7 every index twice.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "fz_model.h"
#include "fz_util.h"
#include "rp_perf_buffer_int.h"
#include "rp_views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RINGS 4u
#define MAX_RECS 1100u  /* per ring: 64 ops x 16 records, plus callback writes */
#define MAX_OPS 64u
#define MAX_ITEMS 1100u /* records in [tail, head) of 4 rings of <= 2 KiB */

enum mode { M_RECORD, M_PAYLOAD, M_PAYLOAD_SAMPLE, M_PAYLOAD_LOST, M_PAYLOAD_NONE, M_BATCH,
	    M_SAMPLES, M_SAMPLES_ONLY, M_COUNT };
enum corr { C_NONE, C_SIZE0, C_SIZE_SHORT, C_SIZE_ALIGN, C_SIZE_PAST_HEAD, C_COUNT };
/* How the set hands a record over in the current mode. */
enum kind { K_SKIP, K_MALFORMED, K_REC, K_SAMPLE, K_LOST };
enum caller { D_PENDING, D_RING };

typedef struct mring {
	uint8_t *data;
	struct perf_event_mmap_page *pg;
	fz_perf_rec recs[MAX_RECS];
	uint32_t nrecs, next, produced; /* produced: records written (corruption ordinal) */
	uint64_t P;    /* the producer's head = data_head (always sane) */
	uint64_t tail; /* the model consumer */
	int error;     /* strict: the status it is stopped at */
	rp_perf_stats st;
	bool owed;     /* the model's pending: the set owes it a drain */
	bool armed;    /* model epoll: written since last reported */
} mring;

static struct {
	rp_perf_buffer *pb;
	uint8_t *bufs[MAX_RINGS];
	int cpus[MAX_RINGS];
	int left_out[3];
	uint32_t n;
	uint64_t size;
	int mode;
	bool strict;
	int corr;
	uint32_t corr_ring, corr_at, corr_param;
	bool corr_two; /* the next ring too, at the same record number */
	uint32_t seq;
	uint32_t resume; /* [impl] the ring the next drain of pending rings starts at */
	mring r[MAX_RINGS];
} g;

typedef struct item {
	uint8_t ring, kind;
	uint32_t rec;
} item;

/* The drain in progress: the records it should hand over, in order. */
static struct {
	bool active;
	int caller;
	item x[MAX_ITEMS];
	uint32_t nx;
	uint32_t visit[MAX_RINGS], vbeg[MAX_RINGS], vend[MAX_RINGS];
	uint64_t vhead[MAX_RINGS]; /* data_head when the ring's walk began */
	int vst[MAX_RINGS]; /* end of the ring's walk: 0, a corruption's status, or its stopped status */
	bool vpre[MAX_RINGS]; /* stopped before this drain (strict) */
	uint32_t nvisit;
	uint32_t cur;   /* items consumed as observed */
	uint32_t calls; /* callback invocations */
	int stop_at, stop_val;
	bool stopped;
	uint32_t stop_cur;
	int write_at;
	uint8_t wspec[8];
	uint32_t nw;
	uint32_t fit;       /* the next batch's size limit (check_batch_size) */
	uint32_t fit_visit; /* the visit fit belongs to */
} d;

/* ---- the kernel ----------------------------------------------------------- */

static bool produce_one(uint32_t ri, uint8_t k, uint8_t v)
{
	mring *m = &g.r[ri];
	fz_perf_rec rec;

	fz_perf_spec(&rec, k, v);
	if (m->nrecs >= MAX_RECS)
		return false;
	const uint64_t used = m->P - __atomic_load_n(&m->pg->data_tail, __ATOMIC_ACQUIRE);
	if (used <= g.size)
		fz_perf_fill(&rec, k, g.size - used);
	if (used > g.size || rec.size > g.size - used)
		return false; /* no room: the kernel drops it */
	rec.seq = g.seq++;
	rec.misc = (uint16_t)rec.seq;
	rec.pos = m->P;
	if (g.corr != C_NONE && m->produced == g.corr_at &&
	    (ri == g.corr_ring || (g.corr_two && ri == (g.corr_ring + 1) % g.n))) {
		switch (g.corr) {
		case C_SIZE0: rec.hdr_size = 0; break;
		case C_SIZE_SHORT: rec.hdr_size = (uint16_t)(1u + g.corr_param % 7u); break;
		case C_SIZE_ALIGN: rec.hdr_size = (uint16_t)(rec.size + 1u + g.corr_param % 7u); break;
		default: rec.hdr_size = (uint16_t)(g.size + 8u + 8u * (g.corr_param % 64u)); break;
		}
	}
	m->produced++;
	fz_perf_put(m->data, g.size, &rec);
	m->recs[m->nrecs++] = rec;
	m->P += rec.size;
	return true;
}

/* Write specs[0 .. 2n) into ring ri, publish data_head, arm the ring. */
static void produce(uint32_t ri, const uint8_t *specs, uint32_t n)
{
	mring *m = &g.r[ri];
	bool any = false;

	/* after a resync the kernel's next record lands at the new tail */
	if ((int64_t)(m->tail - m->P) > 0)
		m->P = m->tail;
	for (uint32_t i = 0; i < n; i++)
		any |= produce_one(ri, specs[2 * i], specs[2 * i + 1]);
	__atomic_store_n(&m->pg->data_head, m->P, __ATOMIC_RELEASE);
	if (any)
		m->armed = true;
}

/* ---- the model of a drain ------------------------------------------------- */

static int kind_of(const fz_perf_rec *m)
{
	const bool has_sample = g.mode == M_PAYLOAD || g.mode == M_PAYLOAD_SAMPLE || g.mode == M_SAMPLES ||
	                        g.mode == M_SAMPLES_ONLY;
	const bool has_lost = g.mode == M_PAYLOAD || g.mode == M_PAYLOAD_LOST || g.mode == M_SAMPLES;

	if (g.mode == M_RECORD || g.mode == M_BATCH)
		return K_REC;
	if (m->bpf)
		return has_sample ? K_SAMPLE : K_SKIP;
	if (m->lost_ok)
		return has_lost ? K_LOST : K_SKIP;
	return K_MALFORMED;
}

static bool deliverable(int kind)
{
	return kind == K_REC || kind == K_SAMPLE || kind == K_LOST;
}

/* Append ring ri's walk: its records in [tail, data_head) up to a corruption. */
static void walk_ring(uint32_t ri)
{
	mring *m = &g.r[ri];
	const uint32_t v = d.nvisit++;
	uint64_t t = m->tail;
	uint32_t i = m->next;

	d.visit[v] = ri;
	d.vbeg[v] = d.nx;
	d.vpre[v] = m->error != 0;
	d.vst[v] = m->error;
	d.vhead[v] = m->P;
	while (!m->error) {
		const uint64_t avail = m->P - t;
		if (avail == 0)
			break;
		FZ_CHECK(avail <= g.size && i < m->nrecs && m->recs[i].pos == t,
		         "model: ring %u, no record at %" PRIu64, ri, t);
		const fz_perf_rec *r = &m->recs[i];
		if (r->hdr_size < 8) {
			d.vst[v] = RP_E_HDR_SHORT;
			break;
		}
		if (r->hdr_size % 8) {
			d.vst[v] = RP_E_HDR_ALIGN;
			break;
		}
		if (r->hdr_size > avail) {
			d.vst[v] = RP_E_TRUNCATED;
			break;
		}
		FZ_CHECK(d.nx < MAX_ITEMS, "model: too many items");
		d.x[d.nx].ring = (uint8_t)ri;
		d.x[d.nx].rec = i;
		d.x[d.nx].kind = (uint8_t)kind_of(r);
		d.nx++;
		t += r->size;
		i++;
	}
	d.vend[v] = d.nx;
}

static void start_drain(int caller, uint32_t only)
{
	d.active = true;
	d.caller = caller;
	d.nx = d.nvisit = d.cur = d.calls = 0;
	d.stopped = false;
	d.stop_cur = 0;
	d.fit_visit = UINT32_MAX;
	if (caller == D_RING) {
		walk_ring(only);
		return;
	}
	for (uint32_t j = 0; j < g.n; j++) {
		const uint32_t ri = (g.resume + j) % g.n;
		if (g.r[ri].owed)
			walk_ring(ri);
	}
}

static void consume_item(const item *it)
{
	mring *m = &g.r[it->ring];
	const fz_perf_rec *r = &m->recs[it->rec];

	FZ_CHECK(r->pos == m->tail, "model: consuming ring %u out of order", it->ring);
	m->st.records++;
	m->st.record_bytes += r->size;
	m->st.payload_bytes += r->size - 8u;
	if (r->lost_ok) {
		fz_sat_add(&m->st.lost, r->lost);
		m->st.lost_records++;
	}
	if (it->kind == K_MALFORMED)
		m->st.malformed++;
	m->tail += r->size;
	m->next = it->rec + 1;
}

/* The drain ended: check it handed over what it had to, apply it to the
 * model, return what the call must return. */
static int finish_drain(void)
{
	const uint32_t consumed = d.stopped ? d.stop_cur : d.nx;
	int first_err = 0;
	uint64_t count = 0;
	uint32_t v;

	FZ_CHECK(d.active, "model: no drain");
	d.active = false;
	for (uint32_t k = d.cur; k < consumed; k++)
		FZ_CHECK(!deliverable(d.x[k].kind), "ring %u: record seq %u (item %u of %u) not delivered%s",
		         d.x[k].ring, g.r[d.x[k].ring].recs[d.x[k].rec].seq, k, d.nx,
		         d.stopped ? " before the stop" : "");
	for (uint32_t k = 0; k < consumed; k++) {
		consume_item(&d.x[k]);
		count += deliverable(d.x[k].kind);
	}
	for (v = 0; v < d.nvisit; v++) {
		mring *m = &g.r[d.visit[v]];
		/* the stop's ring: the visit holding the stop's last item */
		if (d.stopped && d.stop_cur <= d.vend[v] && d.stop_cur > d.vbeg[v])
			break;
		if (d.vst[v] < 0) {
			if (g.strict && !first_err)
				first_err = d.vst[v]; /* default: resynced, not an error */
			if (!d.vpre[v]) {
				m->st.corrupt++;
				m->st.last_error = d.vst[v];
				if (g.strict) {
					m->error = d.vst[v];
				} else {
					/* to the data_head its walk loaded, not past
					 * what a callback wrote since */
					m->st.resynced_bytes += d.vhead[v] - m->tail;
					m->tail = d.vhead[v];
					while (m->next < m->nrecs && (int64_t)(m->recs[m->next].pos - m->tail) < 0)
						m->next++;
				}
			}
		}
		m->owed = false;
	}
	/* P6: a strict status the call does not return is a later drain's:
	 * every one met before a stop, every one after the first otherwise */
	bool returned = d.stopped;
	for (uint32_t u = 0; u < v && d.caller == D_PENDING && g.strict; u++)
		if (d.vst[u] < 0) {
			if (returned)
				g.r[d.visit[u]].owed = true;
			returned = true;
		}
	if (d.stopped) {
		FZ_CHECK(v < d.nvisit, "model: the stop's ring");
		g.r[d.visit[v]].owed = true;
		if (d.caller == D_PENDING)
			g.resume = d.visit[v];
		return d.stop_val < 0 ? d.stop_val : (int)count;
	}
	return first_err ? first_err : (int)count;
}

/* ---- the callbacks -------------------------------------------------------- */

static uint32_t ring_of(int cpu)
{
	for (uint32_t i = 0; i < g.n; i++)
		if (g.cpus[i] == cpu)
			return i;
	FZ_CHECK(0, "callback with cpu %d, not in the set", cpu);
	return 0;
}

static const fz_perf_rec *expect(uint32_t ri, int kind, bool may_skip)
{
	FZ_CHECK(d.active, "callback outside a drain");
	FZ_CHECK(!d.stopped, "callback after a callback stopped the call");
	while (may_skip && d.cur < d.nx && !deliverable(d.x[d.cur].kind))
		d.cur++;
	FZ_CHECK(d.cur < d.nx, "delivery past the %u records owed (ring %u)", d.nx, ri);
	const item *it = &d.x[d.cur];
	const fz_perf_rec *m = &g.r[it->ring].recs[it->rec];
	FZ_CHECK(it->ring == ri, "record from ring %u, want ring %u seq %u (item %u)", ri, it->ring, m->seq,
	         d.cur);
	FZ_CHECK(it->kind == kind, "ring %u seq %u (type %u) handed over as kind %d, want %d", ri, m->seq,
	         m->type, kind, it->kind);
	/* P8 inside a callback: data_tail is not yet past a record being handed
	 * out (publishing it would let the kernel reuse the bytes being read). */
	const uint64_t pub = __atomic_load_n(&g.r[ri].pg->data_tail, __ATOMIC_ACQUIRE);
	FZ_CHECK((int64_t)(m->pos - pub) >= 0, "ring %u seq %u at %" PRIu64 " handed out with data_tail at %" PRIu64,
	         ri, m->seq, m->pos, pub);
	d.cur++;
	return m;
}

static bool in_data(uint32_t ri, const uint8_t *p, uint64_t n)
{
	const uint8_t *ring = g.r[ri].data;
	return p >= ring && n <= g.size && (uint64_t)(p - ring) <= g.size - n;
}

static uint8_t span_at(const rp_span *s, uint32_t i)
{
	return i < s->n0 ? s->p0[i] : s->p1[i - s->n0];
}

static void check_rec(uint32_t ri, const rp_record *rec, const fz_perf_rec *m)
{
	FZ_CHECK(rec->pos == m->pos && rec->type == m->type && rec->misc == m->misc && rec->size == m->size,
	         "ring %u: record %" PRIu64 "/%u/%u/%u, want seq %u at %" PRIu64 "/%u/%u/%u", ri, rec->pos,
	         rec->type, rec->misc, rec->size, m->seq, m->pos, m->type, m->misc, m->size);
	FZ_CHECK((uint64_t)rec->body.n0 + rec->body.n1 == m->size - 8u, "seq %u: body %u+%u", m->seq,
	         rec->body.n0, rec->body.n1);
	FZ_CHECK(in_data(ri, rec->body.p0, rec->body.n0) && (rec->body.n1 == 0 || rec->body.p1 == g.r[ri].data),
	         "seq %u: body outside its ring", m->seq);
	for (uint32_t i = 0; i < m->size - 8u; i++)
		FZ_CHECK(span_at(&rec->body, i) == fz_perf_body(m, i), "seq %u: body byte %u", m->seq, i);
}

/* A payload handed over in one piece: in place in its ring, or, for one
 * that wraps the ring end, a copy in the ring's scratch buffer (counted in
 * stats.copied). */
static void check_payload(uint32_t ri, const void *data, uint32_t raw, const fz_perf_rec *m)
{
	const uint64_t size = g.size;
	const uint64_t off = m->pos & (size - 1u);
	const uint64_t at = (off + 8u >= size ? 0 : off + 8u) + 4u; /* the raw size never wraps */
	const rp_perf_ring *ring = &g.pb->rings[ri].ring;
	const uint8_t *p = data;

	FZ_CHECK(raw == m->raw, "seq %u: raw_size %u, want %u", m->seq, raw, m->raw);
	if (at + m->raw <= size) {
		FZ_CHECK(p == g.r[ri].data + at, "seq %u: payload not in place in its ring", m->seq);
	} else {
		FZ_CHECK(!in_data(ri, p, 1) && p == ring->scratch && ring->scratch_size >= raw,
		         "seq %u: a wrapped payload not in its ring's scratch buffer", m->seq);
		g.r[ri].st.copied++;
	}
	for (uint32_t i = 0; i < m->raw; i++)
		FZ_CHECK(p[i] == fz_perf_body(m, 4 + i), "seq %u: payload byte %u", m->seq, i);
}

/* After a callback's checks: maybe write into its ring, then its return. */
static int cb_ret(uint32_t ri)
{
	const uint32_t call = d.calls++;
	const int r = (int)call == d.stop_at ? d.stop_val : 0;

	if ((int)call == d.write_at)
		produce(ri, d.wspec, d.nw);
	if (r) {
		d.stopped = true;
		d.stop_cur = d.cur;
	}
	return r;
}

static int fn_rec(void *ctx, int cpu, const rp_record *rec)
{
	const uint32_t ri = ring_of(cpu);

	FZ_CHECK(ctx == &g, "record fn: ctx %p", ctx);
	check_rec(ri, rec, expect(ri, K_REC, false));
	return cb_ret(ri);
}

static int fn_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	const uint32_t ri = ring_of(cpu);

	FZ_CHECK(ctx == &g, "sample fn: ctx %p", ctx);
	check_payload(ri, data, size, expect(ri, K_SAMPLE, true));
	return cb_ret(ri);
}

static int fn_lost(void *ctx, int cpu, uint64_t lost)
{
	const uint32_t ri = ring_of(cpu);
	const fz_perf_rec *m;

	FZ_CHECK(ctx == &g, "lost fn: ctx %p", ctx);
	m = expect(ri, K_LOST, true);
	FZ_CHECK(lost == m->lost, "seq %u: lost %" PRIu64 ", want %" PRIu64, m->seq, lost, m->lost);
	return cb_ret(ri);
}

/* The visit (one ring's drain in this call) that item i belongs to. */
static uint32_t visit_of(uint32_t i)
{
	for (uint32_t v = 0; v < d.nvisit; v++)
		if (i >= d.vbeg[v] && i < d.vend[v])
			return v;
	FZ_CHECK(0, "batch at item %u, in no ring's walk (%u items)", i, d.nx);
	return 0;
}

/* A batch of n records from item first on: it holds min(fit, the records
 * of the run that starts there), the run ending at its ring's walk end or,
 * for sample batches, at the next record that is not a BPF-output sample.
 * fit is RP_PERF_BATCH for a ring's first batch in the call (each visit
 * is one drain of that ring, without a budget), then fz_batch_fit of the
 * last batch's records. */
static void check_batch_size(const char *what, uint32_t n, uint32_t first, bool samples)
{
	const uint32_t v = visit_of(first);
	uint32_t run = 0;

	if (v != d.fit_visit) {
		d.fit_visit = v;
		d.fit = RP_PERF_BATCH;
	}
	while (first + run < d.vend[v] && (!samples || d.x[first + run].kind == K_SAMPLE))
		run++;
	FZ_CHECK(n == (d.fit < run ? d.fit : run), "ring %u: %s of %u records from item %u, want min(fit %u, %u)",
	         d.visit[v], what, n, first, d.fit, run);
	const mring *m = &g.r[d.visit[v]];
	const fz_perf_rec *a = &m->recs[d.x[first].rec], *z = &m->recs[d.x[first + n - 1].rec];
	d.fit = fz_batch_fit(n, z->pos + z->size - a->pos, 1, RP_PERF_BATCH);
}

static int fn_batch(void *ctx, int cpu, const rp_record *recs, uint32_t n)
{
	const uint32_t ri = ring_of(cpu);

	FZ_CHECK(ctx == &g, "batch fn: ctx %p", ctx);
	FZ_CHECK(n >= 1 && n <= RP_PERF_BATCH, "batch of %u", n);
	FZ_CHECK(d.active && !d.stopped && d.cur < d.nx, "batch outside a drain, after a stop or past its end");
	check_batch_size("batch", n, d.cur, false);
	for (uint32_t k = 0; k < n; k++)
		check_rec(ri, &recs[k], expect(ri, K_REC, false));
	return cb_ret(ri);
}

static int fn_samples(void *ctx, int cpu, const rp_payload *s, uint32_t n)
{
	const uint32_t ri = ring_of(cpu);

	FZ_CHECK(ctx == &g, "samples fn: ctx %p", ctx);
	FZ_CHECK(n >= 1 && n <= RP_PERF_BATCH, "sample batch of %u", n);
	uint32_t first = d.cur; /* the item expect hands over first (skipped ones passed) */
	while (first < d.nx && !deliverable(d.x[first].kind))
		first++;
	FZ_CHECK(d.active && !d.stopped && first < d.nx, "sample batch outside a drain, after a stop or past its end");
	check_batch_size("sample batch", n, first, true);
	for (uint32_t k = 0; k < n; k++) {
		const fz_perf_rec *m = expect(ri, K_SAMPLE, k == 0);
		check_payload(ri, s[k].data, s[k].size, m);
	}
	return cb_ret(ri);
}

/* ---- the model epoll ------------------------------------------------------ */

static struct {
	int timeout;
	uint32_t waits;
	bool owed_before;
	uint8_t x;
	int last;
	bool eintr_last;
} w;

static bool any_owed(void)
{
	for (uint32_t i = 0; i < g.n; i++)
		if (g.r[i].owed)
			return true;
	return false;
}

/* Report the armed rings not masked by x (bits 0-3), disarm them, mark them
 * owed; bit 6 adds an out-of-range index, bit 7 repeats every index. */
static uint32_t report(uint8_t x, uint32_t *ready, uint32_t max)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < g.n; i++) {
		if (!g.r[i].armed || (x >> i & 1))
			continue;
		g.r[i].armed = false;
		g.r[i].owed = true;
		if (n < max)
			ready[n++] = i;
		if ((x & 0x80) && n < max)
			ready[n++] = i;
	}
	if ((x & 0x40) && n < max)
		ready[n++] = (x & 0x80) ? UINT32_MAX : g.n;
	return n;
}

static int wait_fn(rp_perf_buffer *pb, int timeout_ms, uint32_t *ready, uint32_t max)
{
	FZ_CHECK(pb == g.pb, "wait on another set");
	FZ_CHECK(max >= 2 * MAX_RINGS + 1, "wait with room for %u", max);
	if (w.waits == 0) {
		FZ_CHECK(timeout_ms == (w.owed_before ? 0 : w.timeout),
		         "poll(%d): first wait with timeout %d, want %d (rings pending: %d)", w.timeout, timeout_ms,
		         w.owed_before ? 0 : w.timeout, w.owed_before);
	} else {
		FZ_CHECK(w.waits == 1, "poll: a third wait");
		FZ_CHECK(w.owed_before, "poll: a second wait without rings pending before");
		FZ_CHECK(!w.eintr_last, "poll: a second wait after the first failed");
		w.last = finish_drain();
		FZ_CHECK(w.last == 0 && !any_owed() && w.timeout != 0,
		         "poll(%d): waited again although the pending drain gave %d (rings still pending: %d)",
		         w.timeout, w.last, any_owed());
		FZ_CHECK(timeout_ms == w.timeout, "poll(%d): second wait with timeout %d", w.timeout, timeout_ms);
	}
	const bool eintr = w.x & (w.waits == 0 ? 0x10 : 0x20);
	w.waits++;
	w.eintr_last = eintr;
	if (eintr)
		return -EINTR;
	const uint32_t n = report(w.x, ready, max);
	start_drain(D_PENDING, 0);
	return (int)n;
}

/* ---- the calls ------------------------------------------------------------ */

static void set_stop(fz_cur *in)
{
	const uint8_t s = fz_u8(in), wb = fz_u8(in);

	d.stop_at = s ? (s & 15) : -1;
	d.stop_val = (1 + (s >> 6)) * ((s & 0x20) ? -1 : 1);
	d.write_at = wb ? (wb & 15) : -1;
	d.nw = wb ? 1u + (wb >> 4) % 4u : 0;
	for (uint32_t i = 0; i < 2 * d.nw; i++)
		d.wspec[i] = fz_u8(in);
}

/* P4 after a poll / consume / ready_consume that no callback stopped:
 * nothing is pending but a strict-stopped ring whose status the call did
 * not return (P6), and a ring holds records only if strict-stopped or
 * written since epoll last reported it (masked, or written during its
 * drain). */
static void check_drained(const char *op)
{
	for (uint32_t i = 0; i < g.n; i++) {
		const rp_perf_buffer_cpu *cr = &g.pb->rings[i];
		FZ_CHECK(!cr->pending || cr->ring.error,
		         "%s: ring %u still pending after a drain no callback stopped", op, i);
		FZ_CHECK(cr->ring.tail == __atomic_load_n(&g.r[i].pg->data_head, __ATOMIC_ACQUIRE) ||
		                 cr->ring.error || g.r[i].armed,
		         "%s: ring %u left with records (tail %" PRIu64 ", head %" PRIu64 ") it was owed", op, i,
		         cr->ring.tail, g.r[i].P);
	}
}

static void do_poll(fz_cur *in)
{
	static const int timeouts[3] = { 0, -1, 10 };
	int ret, want;

	w.timeout = timeouts[fz_u8(in) % 3];
	set_stop(in);
	w.x = fz_u8(in);
	w.waits = 0;
	w.owed_before = any_owed();
	w.eintr_last = false;
	ret = rp_perf_buffer_poll_wait(g.pb, w.timeout, wait_fn);
	FZ_CHECK(w.waits >= 1, "poll: no wait");
	if (w.eintr_last) {
		want = -EINTR;
		FZ_CHECK(!d.active, "model: a drain after -EINTR");
	} else {
		if (d.active)
			w.last = finish_drain();
		want = w.last;
		if (w.waits == 1 && w.owed_before)
			FZ_CHECK(!(want == 0 && !any_owed() && w.timeout != 0),
			         "poll(%d): pending drain gave 0, nothing pending, but no wait for new records",
			         w.timeout);
	}
	FZ_CHECK(ret == want, "poll(%d): returned %d, want %d (waits %u, stop %d/%d)", w.timeout, ret, want,
	         w.waits, d.stopped, d.stop_val);
	if (!d.stopped && ret != -EINTR)
		check_drained("poll");
}

static void do_consume(fz_cur *in)
{
	set_stop(in);
	for (uint32_t i = 0; i < g.n; i++)
		g.r[i].owed = true;
	start_drain(D_PENDING, 0);
	const int ret = rp_perf_buffer_consume(g.pb);
	const int want = finish_drain();
	FZ_CHECK(ret == want, "consume: returned %d, want %d (stop %d/%d)", ret, want, d.stopped, d.stop_val);
	if (!d.stopped)
		check_drained("consume");
}

static void do_consume_ring(fz_cur *in)
{
	const uint32_t idx = fz_u8(in) % (g.n + 1);
	int ret, want;

	set_stop(in);
	if (idx == g.n) {
		d.active = false;
		d.calls = 0;
		ret = rp_perf_buffer_consume_ring(g.pb, idx);
		FZ_CHECK(ret == -EINVAL && d.calls == 0, "consume_ring(%u of %u): %d", idx, g.n, ret);
		return;
	}
	start_drain(D_RING, idx);
	ret = rp_perf_buffer_consume_ring(g.pb, idx);
	want = finish_drain();
	FZ_CHECK(ret == want, "consume_ring(%u): returned %d, want %d (stop %d/%d)", idx, ret, want, d.stopped,
	         d.stop_val);
}

static void do_ready_consume(fz_cur *in)
{
	uint32_t ready[2 * MAX_RINGS + 1];
	const uint8_t x = fz_u8(in);

	set_stop(in);
	const uint32_t n = report(x, ready, 2 * MAX_RINGS + 1);
	start_drain(D_PENDING, 0);
	const int ret = rp_perf_buffer_ready_consume(g.pb, ready, n);
	const int want = finish_drain();
	FZ_CHECK(ret == want, "ready_consume(%u rings): returned %d, want %d (stop %d/%d)", n, ret, want,
	         d.stopped, d.stop_val);
	if (!d.stopped)
		check_drained("ready_consume");
}

static void do_resync(uint8_t b)
{
	const uint32_t idx = b % (g.n + 1);
	const int ret = rp_perf_buffer_resync_ring(g.pb, idx);

	if (idx == g.n) {
		FZ_CHECK(ret == -EINVAL, "resync_ring(%u of %u): %d", idx, g.n, ret);
		return;
	}
	FZ_CHECK(ret == 0, "resync_ring(%u): %d", idx, ret);
	mring *m = &g.r[idx];
	m->st.resynced_bytes += m->P - m->tail;
	m->tail = m->P;
	while (m->next < m->nrecs && (int64_t)(m->recs[m->next].pos - m->tail) < 0)
		m->next++;
	m->error = 0;
	m->owed = true;
}

static bool stats_eq(const rp_perf_stats *a, const rp_perf_stats *b)
{
	return a->records == b->records && a->record_bytes == b->record_bytes &&
	       a->payload_bytes == b->payload_bytes && a->lost == b->lost && a->lost_records == b->lost_records &&
	       a->malformed == b->malformed && a->corrupt == b->corrupt && a->resynced_bytes == b->resynced_bytes &&
	       a->last_error == b->last_error && a->copied == b->copied;
}

static void do_queries(void)
{
	rp_perf_stats st;
	int ids[4] = { -7, -7, -7, -7 };
	uint64_t malformed = 0;

	FZ_CHECK(rp_perf_buffer_ring_count(g.pb) == g.n, "ring_count");
	FZ_CHECK(rp_perf_buffer_epoll_fd(g.pb) == -1, "epoll_fd");
	for (uint32_t i = 0; i < g.n; i++) {
		FZ_CHECK(rp_perf_buffer_ring_error(g.pb, i) == g.r[i].error, "ring_error(%u)", i);
		FZ_CHECK(rp_perf_buffer_ring_cpu(g.pb, i) == g.cpus[i], "ring_cpu(%u)", i);
		FZ_CHECK(rp_perf_buffer_ring_fd(g.pb, i) == -1, "ring_fd(%u)", i);
		FZ_CHECK(rp_perf_buffer_stats(g.pb, g.cpus[i], &st) == 0 && stats_eq(&st, &g.r[i].st),
		         "stats(cpu %d)", g.cpus[i]);
		malformed += g.r[i].st.malformed;
	}
	FZ_CHECK(rp_perf_buffer_malformed(g.pb) == malformed, "malformed sum");
	FZ_CHECK(rp_perf_buffer_ring_error(g.pb, g.n) == -EINVAL, "ring_error(n)");
	FZ_CHECK(rp_perf_buffer_ring_cpu(g.pb, g.n) == -1 && rp_perf_buffer_ring_fd(g.pb, g.n) == -1,
	         "ring_cpu/fd(n)");
	FZ_CHECK(rp_perf_buffer_stats(g.pb, -1, &st) == -ENOENT, "stats of an absent CPU");
	FZ_CHECK(rp_perf_buffer_stats(g.pb, g.cpus[0], NULL) == -EINVAL, "stats into NULL");
	FZ_CHECK(rp_perf_buffer_left_out(g.pb, ids, 2) == 3 && ids[0] == g.left_out[0] &&
	                 ids[1] == g.left_out[1] && ids[2] == -7,
	         "left_out");
	FZ_CHECK(rp_perf_buffer_left_out(g.pb, NULL, 0) == 3, "left_out count");
	FZ_CHECK(rp_perf_buffer_left_out(g.pb, ids, 4) == 3 && ids[2] == g.left_out[2] && ids[3] == -7,
	         "left_out, room for more");
}

static void do_null(uint8_t b)
{
	rp_perf_stats st;
	int r;

	switch (b % 6) {
	case 0: r = rp_perf_buffer_consume(NULL); break;
	case 1: r = rp_perf_buffer_consume_ring(NULL, 0); break;
	case 2: r = rp_perf_buffer_resync_ring(NULL, 0); break;
	case 3: r = rp_perf_buffer_ring_error(NULL, 0); break;
	case 4: r = rp_perf_buffer_stats(NULL, 0, &st); break;
	default:
		r = rp_perf_buffer_epoll_fd(NULL);
		FZ_CHECK(rp_perf_buffer_ring_count(NULL) == 0 && rp_perf_buffer_ring_cpu(NULL, 0) == -1 &&
		                 rp_perf_buffer_ring_fd(NULL, 0) == -1 && rp_perf_buffer_left_out(NULL, NULL, 0) == 0 &&
		                 rp_perf_buffer_malformed(NULL) == 0,
		         "NULL set accessors");
		break;
	}
	FZ_CHECK(r == -EINVAL, "NULL set (%u): %d", b % 6u, r);
}

/* P4, P8 after every call. */
static void check_state(const char *op)
{
	uint32_t npending = 0;

	FZ_CHECK(!d.active, "model: a drain left open");
	for (uint32_t i = 0; i < g.n; i++) {
		const rp_perf_buffer_cpu *cr = &g.pb->rings[i];
		const mring *m = &g.r[i];
		const uint64_t pub = __atomic_load_n(&m->pg->data_tail, __ATOMIC_ACQUIRE);
		FZ_CHECK(cr->ring.tail == m->tail && pub == m->tail,
		         "%s: ring %u tail %" PRIu64 " / data_tail %" PRIu64 ", want %" PRIu64, op, i, cr->ring.tail,
		         pub, m->tail);
		FZ_CHECK(cr->ring.error == m->error, "%s: ring %u error %d, want %d", op, i, cr->ring.error,
		         m->error);
		FZ_CHECK(stats_eq(&cr->ring.stats, &m->st),
		         "%s: ring %u stats records %" PRIu64 "/%" PRIu64 " lost %" PRIu64 "/%" PRIu64
		         " malformed %" PRIu64 " corrupt %" PRIu64 " (%d) resynced %" PRIu64 ", want records %" PRIu64
		         "/%" PRIu64 " lost %" PRIu64 "/%" PRIu64 " malformed %" PRIu64 " corrupt %" PRIu64
		         " (%d) resynced %" PRIu64,
		         op, i, cr->ring.stats.records, cr->ring.stats.record_bytes, cr->ring.stats.lost,
		         cr->ring.stats.lost_records, cr->ring.stats.malformed, cr->ring.stats.corrupt,
		         cr->ring.stats.last_error, cr->ring.stats.resynced_bytes, m->st.records, m->st.record_bytes,
		         m->st.lost, m->st.lost_records, m->st.malformed, m->st.corrupt, m->st.last_error,
		         m->st.resynced_bytes);
		FZ_CHECK(cr->pending == m->owed, "%s: ring %u pending %d, want %d", op, i, cr->pending, m->owed);
		npending += cr->pending;
		/* P4: records waiting are owed, or epoll will report them */
		FZ_CHECK(cr->ring.tail == m->P || cr->pending || m->armed || cr->ring.error,
		         "%s: ring %u stranded: records in [%" PRIu64 ", %" PRIu64 ") neither pending nor reported",
		         op, i, cr->ring.tail, m->P);
	}
	FZ_CHECK(g.pb->npending == npending, "%s: npending %u, %u rings pending", op, g.pb->npending, npending);
}

/* Once per process, whatever the input: a sample the walk refused (its raw
 * size too long) and that the samples callback rewrites into a good one
 * before the drain reads it again (as a writer racing the reader could)
 * still reaches the samples callback, as a batch of one, in ring order,
 * and nothing counts as malformed.  Samples 0, 1, 2 of 32 bytes each. */
static struct {
	uint8_t *raw1; /* sample 1's raw size, until the first callback */
	uint32_t calls, n;
	uint8_t seq[4];
} rw;

static int rw_samples(void *ctx, int cpu, const rp_payload *s, uint32_t n)
{
	const uint32_t good = 20;

	(void)ctx;
	(void)cpu;
	rw.calls++;
	if (rw.raw1) {
		memcpy(rw.raw1, &good, 4);
		rw.raw1 = NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		if (rw.n < 4 && s[i].size == good)
			rw.seq[rw.n++] = ((const uint8_t *)s[i].data)[0];
	return 0;
}

static void check_rewrite_under_walk(void)
{
	static bool done;
	const uint64_t t0 = 0;
	const int cpu = 0;
	uint8_t *buf = NULL;
	rp_perf_stats st;

	if (done)
		return;
	done = true;
	rp_perf_buffer *pb = fz_mem_perf_buffer(1, 4096, &t0, &cpu, 0, 0, &buf);
	FZ_CHECK(pb != NULL, "rewrite check: out of memory");
	pb->samples_fn = rw_samples;
	uint8_t *d = buf + sizeof(struct perf_event_mmap_page); /* fz_mem_ring's data */
	for (uint32_t k = 0; k < 3; k++) {
		const uint32_t type = RP_RECORD_SAMPLE, raw = k == 1 ? 4096u : 20u;
		const uint16_t misc = 0, rsize = 32;
		memcpy(d + 32 * k, &type, 4);
		memcpy(d + 32 * k + 4, &misc, 2);
		memcpy(d + 32 * k + 6, &rsize, 2);
		memcpy(d + 32 * k + 8, &raw, 4);
		d[32 * k + 12] = (uint8_t)k;
	}
	rw.raw1 = d + 32 + 8;
	((struct perf_event_mmap_page *)pb->rings[0].ring.base)->data_head = 96;
	const int r = rp_perf_buffer_consume_ring(pb, 0);
	FZ_CHECK(rp_perf_buffer_stats(pb, cpu, &st) == 0, "rewrite check: stats");
	FZ_CHECK(r == 3 && rw.n == 3 && rw.seq[0] == 0 && rw.seq[1] == 1 && rw.seq[2] == 2 &&
	         rw.calls == 3 && st.records == 3 && st.malformed == 0 && pb->rings[0].ring.tail == 96,
	         "rewrite check: consume %d, %u samples in %u calls, records %" PRIu64
	         ", malformed %" PRIu64 ", tail %" PRIu64 " (want 3, 3 in 3, 3, 0, 96)", r, rw.n,
	         rw.calls, st.records, st.malformed, pb->rings[0].ring.tail);
	fz_mem_perf_buffer_free(pb, &buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[9] = { "produce", "poll", "consume", "consume_ring", "ready_consume",
		"resync_ring", "queries", "null", "produce-all" };
	fz_cur in = { data, size, 0 };

	check_rewrite_under_walk();
	uint64_t t0[MAX_RINGS];
	uint8_t specs[32];

	if (size < 17)
		return 0;
	memset(&g, 0, sizeof(g));
	memset(&d, 0, sizeof(d));
	g.n = 1u + data[0] % MAX_RINGS;
	g.mode = data[1] % M_COUNT;
	g.strict = data[2] & 1;
	g.size = 256u << ((data[2] >> 1) & 3);
	g.corr = data[3] % C_COUNT;
	g.corr_ring = data[4] % g.n;
	g.corr_two = data[4] >= 128 && g.n > 1;
	g.corr_at = data[5];
	g.corr_param = data[6];
	for (uint32_t i = 0; i < g.n; i++) {
		t0[i] = (fz_le64(data + 7) & ~(uint64_t)7) + (uint64_t)i * 0x1008u;
		g.cpus[i] = (int)((i * 5u + data[16]) % 16u);
	}
	in.i = 17;
	g.pb = fz_mem_perf_buffer(g.n, g.size, t0, g.cpus, data[15],
	                          (g.strict ? RP_STRICT : 0) | (data[2] & 8 ? RP_PERF_PREFETCH : 0), g.bufs);
	if (!g.pb)
		return 0;
	g.left_out[0] = 16;
	g.left_out[1] = 40;
	g.left_out[2] = 99;
	g.pb->left_out = g.left_out;
	g.pb->nleft_out = 3;
	g.pb->ctx = &g;
	switch (g.mode) {
	case M_RECORD: g.pb->fn = fn_rec; break;
	case M_PAYLOAD: g.pb->sample_fn = fn_sample; g.pb->lost_fn = fn_lost; break;
	case M_PAYLOAD_SAMPLE: g.pb->sample_fn = fn_sample; break;
	case M_PAYLOAD_LOST: g.pb->lost_fn = fn_lost; break;
	case M_PAYLOAD_NONE: break;
	case M_BATCH: g.pb->batch_fn = fn_batch; break;
	case M_SAMPLES: g.pb->samples_fn = fn_samples; g.pb->lost_fn = fn_lost; break;
	default: g.pb->samples_fn = fn_samples; break;
	}
	for (uint32_t i = 0; i < g.n; i++) {
		g.r[i].pg = (struct perf_event_mmap_page *)g.bufs[i];
		g.r[i].data = g.bufs[i] + sizeof(struct perf_event_mmap_page);
		g.r[i].P = g.r[i].tail = t0[i];
	}

	for (uint32_t ops = 0; ops < MAX_OPS && in.i < in.n; ops++) {
		const uint8_t o = fz_u8(&in) % 9u;
		switch (o) {
		case 0: case 8: {
			const uint8_t rb = o == 0 ? fz_u8(&in) : 0;
			const uint32_t c = 1u + fz_u8(&in) % 16u;
			for (uint32_t i = 0; i < 2 * c; i++)
				specs[i] = fz_u8(&in);
			for (uint32_t i = 0; i < g.n; i++)
				if (o == 8 || i == rb % g.n)
					produce(i, specs, c);
			break;
		}
		case 1: do_poll(&in); break;
		case 2: do_consume(&in); break;
		case 3: do_consume_ring(&in); break;
		case 4: do_ready_consume(&in); break;
		case 5: do_resync(fz_u8(&in)); break;
		case 6: do_queries(); break;
		default: do_null(fz_u8(&in)); break;
		}
		check_state(names[o]);
	}
	g.pb->left_out = NULL;
	fz_mem_perf_buffer_free(g.pb, g.bufs);
	g.pb = NULL;
	return 0;
}
