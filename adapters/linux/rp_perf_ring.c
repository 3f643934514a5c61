#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "rp_adapter_int.h"
#include "rp_perf_ring.h"
#include "rp_views.h"

static struct perf_event_mmap_page *ctl(const rp_perf_ring *ring)
{
	return (struct perf_event_mmap_page *)ring->base;
}

int rp_perf_ring_map(rp_perf_ring *ring, int fd, uint32_t data_pages,
                     unsigned flags)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	size_t len;
	uint64_t off, size;
	void *base;
	int prot;

	if (!ring)
		return -EINVAL;
	memset(ring, 0, sizeof(*ring));
	ring->fd = -1;
	if (flags & ~(unsigned)RP_PERF_RING_FLAGS)
		return -EINVAL;
	if (!rp_is_pow2(data_pages))
		return RP_E_PAGE_COUNT;
	if (fd < 0)
		return -EBADF;
	if (page <= 0)
		return -EINVAL;
	if ((uint64_t)data_pages * (uint64_t)page > (1ull << 32))
		return RP_E_PAGE_COUNT; /* the core handles rings up to 4 GiB */
	len = (size_t)(1 + (uint64_t)data_pages) * (size_t)page;
	prot = PROT_READ | ((flags & RP_PERF_OVERWRITE) ? 0 : PROT_WRITE);
	base = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;

	pg = base;
	off = pg->data_offset;
	size = pg->data_size;
	if (off == 0 && size == 0) {
		/* very old kernels: one control page, then the data (docs/abi.md) */
		off = (uint64_t)page;
		size = len - (size_t)page;
	}
	if (!rp_is_pow2(size) || size < 8 || size > (1ull << 32) || off < sizeof(*pg) ||
	    off > len || size > len - off) {
		munmap(base, len);
		return RP_E_DATA_SIZE;
	}
	ring->fd = fd;
	ring->flags = flags;
	ring->base = base;
	ring->map_len = len;
	ring->data.data = (const uint8_t *)base + off;
	ring->data.size = size;
	/* A tail left misaligned by an earlier consumer is rounded down to the
	 * record grid: the core refuses to walk from a misaligned position. */
	ring->tail = __atomic_load_n(&pg->data_tail, __ATOMIC_ACQUIRE) & ~(uint64_t)7;
	return 0;
}

void rp_perf_ring_unmap(rp_perf_ring *ring)
{
	if (!ring)
		return;
	free(ring->scratch);
	ring->scratch = NULL;
	ring->scratch_size = 0;
	if (!ring->base)
		return;
	munmap(ring->base, ring->map_len);
	ring->base = NULL;
	ring->map_len = 0;
	ring->data.data = NULL;
	ring->data.size = 0;
}

uint64_t rp_perf_ring_head(const rp_perf_ring *ring)
{
	return __atomic_load_n(&ctl(ring)->data_head, __ATOMIC_ACQUIRE);
}

uint64_t rp_perf_ring_tail(const rp_perf_ring *ring)
{
	return __atomic_load_n(&ctl(ring)->data_tail, __ATOMIC_ACQUIRE);
}

void rp_perf_ring_commit(rp_perf_ring *ring)
{
	__atomic_store_n(&ctl(ring)->data_tail, ring->tail, __ATOMIC_RELEASE);
}

/* Count n consumed records of bytes bytes (headers included). */
static void stats_count(rp_perf_stats *stats, uint32_t n, uint64_t bytes)
{
	stats->records += n;
	rp_sat_add(&stats->record_bytes, bytes);
	rp_sat_add(&stats->payload_bytes, bytes - 8u * (uint64_t)n);
}

/* A LOST record's count (any other record counts nothing here). */
static void stats_add_lost(rp_perf_stats *stats, const rp_record *rec)
{
	rp_lost l;

	if (rec->type == RP_RECORD_LOST && rp_lost_view(rec, &l) == RP_OK) {
		rp_sat_add(&stats->lost, l.lost);
		stats->lost_records++;
	}
}

void rp_perf_stats_add(rp_perf_stats *stats, const rp_record *recs, uint32_t n)
{
	uint64_t bytes = 0;
	uint32_t k;

	for (k = 0; k < n; k++) {
		bytes += recs[k].size;
		stats_add_lost(stats, &recs[k]);
	}
	stats_count(stats, n, bytes);
}

/* data_head is what the kernel can have written: 8-aligned and at most the
 * ring size ahead of tail (u64 distance, so a head behind tail fails too;
 * the kernel never writes past the data_tail we publish). */
static bool head_sane(const rp_perf_ring *ring, uint64_t head)
{
	return (head & 7) == 0 && head - ring->tail <= ring->data.size;
}

/* Default policy at a corruption seen with this head: skip to a sane head,
 * keep the tail at an insane one (the kernel republishes data_head with its
 * next record). */
static void resync(rp_perf_ring *ring, uint64_t head)
{
	if (head_sane(ring, head)) {
		rp_sat_add(&ring->stats.resynced_bytes, head - ring->tail);
		ring->tail = head;
		ring->bad_head_seen = 0;
	} else {
		ring->bad_head = head;
		ring->bad_head_seen = 1;
	}
}

/* The core stopped at ring->tail with a corruption status st.  Returns what
 * the drain should return for it (0 = carry on, counted). */
static int corrupt(rp_perf_ring *ring, uint64_t head, int st)
{
	ring->stats.corrupt++;
	ring->stats.last_error = st;
	if (ring->flags & RP_STRICT)
		return st; /* the caller stops the ring once the walk reached it */
	resync(ring, head);
	return 0;
}

int rp_perf_ring_resync(rp_perf_ring *ring)
{
	if (!ring || !ring->base || (ring->flags & RP_PERF_OVERWRITE))
		return -EINVAL;
	const uint64_t head = rp_perf_ring_head(ring);
	resync(ring, head);
	if (ring->bad_head_seen && (head & 7) == 0) {
		/* asked explicitly: take an aligned head even if it is far from
		 * tail (a tail that fell behind by more than the ring) */
		rp_sat_add(&ring->stats.resynced_bytes, head - ring->tail);
		ring->tail = head;
		ring->bad_head_seen = 0;
	}
	ring->error = 0;
	rp_perf_ring_commit(ring);
	return 0;
}

/* Load data_head for a walk; false if there is nothing to walk: the ring
 * is stopped (strict) or data_head still holds the bad value already
 * counted. */
static bool load_head(rp_perf_ring *ring, uint64_t *head)
{
	*head = rp_perf_ring_head(ring);
	if (ring->bad_head_seen) {
		if (*head == ring->bad_head)
			return false;
		ring->bad_head_seen = 0;
	}
	return true;
}

/* The core stopped a walk at ring->tail with st.  Returns 1 if the walk
 * may go on (records remain: RP_MORE, or RP_OTHER before a record of
 * another kind), 0 if it ended (caught up or resynced), or a negative
 * strict status. */
static int walk_on(rp_perf_ring *ring, uint64_t head, rp_status st)
{
	if (st >= 0)
		return st == RP_MORE || st == RP_OTHER;
	return corrupt(ring, head, st);
}

/* One batch at ring->tail: up to want records into recs.  Returns as
 * walk_on (a negative strict status comes after the *count good records). */
static int next_batch(rp_perf_ring *ring, uint64_t head, rp_record *recs,
                      uint32_t want, uint32_t *count)
{
	*count = 0;
	return walk_on(ring, head, rp_ring_drain(&ring->data, head, &ring->tail, recs, want, count));
}

int rp_perf_ring_peek(rp_perf_ring *ring, rp_record *recs, uint32_t max)
{
	uint64_t head;
	uint32_t count = 0;
	int r;

	if (!ring || !ring->base || (ring->flags & RP_PERF_OVERWRITE) || (max && !recs))
		return -EINVAL;
	if (ring->error)
		return ring->error;
	if (max == 0 || !load_head(ring, &head))
		return 0;
	r = next_batch(ring, head, recs, max, &count);
	rp_perf_stats_add(&ring->stats, recs, count);
	if (r < 0)
		ring->error = r;
	/* the good records before a corruption first (the tail is past them):
	 * the next peek returns the error */
	return r < 0 && count == 0 ? r : (int)count;
}

static int clamp_count(uint64_t n)
{
	return n > 0x7fffffff ? 0x7fffffff : (int)n;
}

/* One drain from start to publication, shared by every delivery mode:
 * the head it walks to, its budget, what it consumed, what it returns. */
typedef struct drain_run {
	rp_perf_ring *ring;
	uint64_t head;
	uint32_t max_records; /* 0: no limit */
	uint64_t delivered;
	uint32_t fit;         /* records per batch that span about RP_BATCH_BYTES */
	bool prefetch;        /* prefetch_ahead (RP_PERF_PREFETCH) */
	uint64_t ahead;       /* the batch drains' prefetch_ahead position */
	int result;           /* a callback's or a strict ring's status */
} drain_run;

/* Bytes of ring the drains prefetch ahead of the record they decode, and
 * the most cache lines one call prefetches, on a ring mapped with
 * RP_PERF_PREFETCH (rp_adapter.h).  Measured (bench/RESULTS.md,
 * Run R): on a perf ring the kernel had just filled, the hardware
 * prefetchers did not stream a walk's reads (libbpf's neither: 28 ns per
 * 80-byte record, against 9 on a ring in memory the process wrote), which
 * waited for memory line after line; prefetching 2 KiB ahead made the perf
 * drains 1.2 to 3 times as fast at 8 to 512-byte payloads (512 B and 1 KiB
 * ahead gained less).  Unbounded, a run restarted at each 4000-byte record
 * (longer than the lead) made those drains 4 to 11 % slower than libbpf's;
 * 16 lines per call kept them within 0 to 4 %, and none after a walk moved
 * more than the lead since the last call (Run X: 4000-byte records, 15
 * rounds) took the adapter from 1.01 to 1.00 of libbpf's time and the
 * payload drain from 1.00 to 0.99, with no change at 8 to 512 bytes: within
 * a record that long, the hardware streams the reads.  The BPF ring
 * buffer's walks do not prefetch: there the reads streamed without it
 * (libbpf 9 ns per 72-byte record), the per-record test cost the 8-byte
 * drain about 10 %, and prefetching the next batch did not speed its
 * batches (Run S).  On an AMD EPYC whose hardware streamed the perf ring
 * too (Run Y: libbpf 3.3 ns per 8-byte record, half the Xeon's time), the
 * prefetch cost the perf drains 5 to 10 %, and 1 to 7 % once called per
 * chunk (Run AC).  It was the default until a consumer that reads two
 * bytes of each record showed what it costs there (Run AD): 1.33 to 1.40
 * times libbpf's time at 512-byte records, against 0.89 to 0.91 without
 * it, as it fetches every line of the ring where that consumer needs two
 * of the nine each record spans.  In a trial, prefetching only at the last
 * record's stride (the predicted headers) cost that consumer little, but
 * it would give up the payload lines a consumer that reads every byte
 * waits for where the hardware does not stream; so the prefetch is off by
 * default, as in libbpf, and whole-line where asked for. */
#define PREFETCH_AHEAD 2048u
#define PREFETCH_LINES 16u

/* Keep the ring's cache lines prefetched up to PREFETCH_AHEAD bytes past
 * tail, not past head: once less than half of that is ahead, prefetch from
 * *next on (at most PREFETCH_LINES lines) and leave *next after the last
 * line prefetched; otherwise do nothing.  Called once per batch, or per
 * chunk of the per-record drains (chunk_after).  data
 * holds mask + 1 bytes (a power of two: rp_perf_ring_map checks it; p & mask
 * stays inside any ring).  Positions are the walk's (u64, wrapping); a walk
 * starts with *next = tail.  A *next behind tail means the walk outran the
 * lead since the last call (a long record, or a first batch of many): by
 * at most PREFETCH_AHEAD, prefetching restarts at tail; by more (a record
 * longer than the lead, or a first batch that spanned more, or a resync),
 * it is left to the hardware this time and *next set to tail, so that the
 * next call measures the next step alone.  Only a
 * hint: it reads nothing into the walk, so each header is still fetched
 * once. */
static inline void prefetch_ahead(const uint8_t *data, uint64_t mask, uint64_t tail,
                                  uint64_t head, uint64_t *next)
{
	uint64_t p = *next;

	if (p - tail - PREFETCH_AHEAD / 2 <= PREFETCH_AHEAD / 2)
		return; /* half to all of PREFETCH_AHEAD ahead already */
	if (p - tail > UINT64_MAX / 2) { /* behind tail */
		*next = tail;
		if (tail - p > PREFETCH_AHEAD)
			return;
		p = tail;
	}
	/* the lines from p to the lead's end or head, at most PREFETCH_LINES:
	 * counted first, so that the loop tests one counter */
	const uint64_t lead = head - tail < PREFETCH_AHEAD ? head - tail : PREFETCH_AHEAD;
	const uint64_t from = p - tail; /* < PREFETCH_AHEAD here */
	uint64_t lines = from < lead ? (lead - from + 63) / 64 : 0;

	if (lines > PREFETCH_LINES)
		lines = PREFETCH_LINES;
	for (; lines; lines--) {
		__builtin_prefetch(data + (p & mask));
		p += 64;
	}
	*next = p;
}

/* The per-record drains make no prefetch test per record: on a ring that
 * prefetches they walk in chunks, call prefetch_ahead once before each,
 * and size each chunk to span about RP_BATCH_BYTES, half the lead, at the
 * last record's size, so that the lead is topped up when about half of it
 * has been walked, as a test per record did.  On 8-byte payloads that test
 * and a line loop that tested three bounds per line cost the payload drain
 * 7 of its 63 instructions per record, and in one comparison on an AMD
 * EPYC 5 to 8 % of its time (bench/RESULTS.md, Run Z).  A walk's first
 * chunk is one record: it sizes the next.  size is a record's size (0
 * before the first).  On a ring that does not prefetch one chunk takes the
 * whole budget: at 8 bytes the chunks' ends cost rp_perf_ring_drain 7 to
 * 14 % and the payload drain 2 to 6 % there, for nothing (Run AE). */
static inline uint32_t chunk_after(uint32_t size)
{
	const uint32_t n = size ? RP_BATCH_BYTES / size : 1;

	return n == 0 ? 1 : n > RP_PERF_BATCH ? RP_PERF_BATCH : n;
}
_Static_assert(RP_BATCH_BYTES == PREFETCH_AHEAD / 2, "a chunk spans half the lead");

/* Check the arguments and load data_head.  Returns 1 to walk, 0 if there
 * is nothing to walk (the drain returns 0 and publishes nothing), or the
 * negative value the drain returns. */
static int drain_start(drain_run *d, rp_perf_ring *ring, bool have_fn, uint32_t max_records)
{
	d->ring = ring;
	d->head = 0;
	d->max_records = max_records;
	d->delivered = 0;
	d->fit = RP_PERF_BATCH;
	d->prefetch = ring && (ring->flags & RP_PERF_PREFETCH);
	d->ahead = ring ? ring->tail : 0;
	d->result = 0;
	if (!ring || !ring->base || !have_fn || (ring->flags & RP_PERF_OVERWRITE))
		return -EINVAL;
	if (ring->error)
		return ring->error;
	return load_head(ring, &d->head) ? 1 : 0;
}

/* Records the next batch may take within max_records. */
static uint32_t drain_want(const drain_run *d)
{
	uint32_t want = d->fit;

	if (d->max_records && d->max_records - d->delivered < want)
		want = (uint32_t)(d->max_records - d->delivered);
	return want;
}

/* Records the next iterator run may take within max_records. */
static uint32_t iter_budget(const drain_run *d)
{
	return d->max_records ? (uint32_t)(d->max_records - d->delivered) : UINT32_MAX;
}

/* The last batch took n records spanning bytes of the ring: size the next
 * one (rp_batch_fit, rp_adapter_int.h).  No floor above one record: on the
 * EPYC, 4 records at least left 256- to 4000-byte batches where they were and
 * 8 cost 256-byte ones 15 % (bench/RESULTS.md, Run AB). */
static void drain_fit(drain_run *d, uint32_t n, uint64_t bytes)
{
	d->fit = rp_batch_fit(n, bytes, 1, RP_PERF_BATCH);
}

/* n more records consumed; r is the callback's return, more the walk's
 * state (walk_on).  True if the drain stops here. */
static bool drain_step(drain_run *d, uint32_t n, int r, int more)
{
	d->delivered += n;
	if (r) {
		d->result = r < 0 ? r : 0;
		return true;
	}
	if (more < 0) {
		d->ring->error = more;
		d->result = more;
		return true;
	}
	return more == 0 || (d->max_records && d->delivered >= d->max_records);
}

/* Publish the tail once, after every callback is done with the bytes. */
static int drain_finish(const drain_run *d)
{
	rp_perf_ring_commit(d->ring);
	return d->result ? d->result : clamp_count(d->delivered);
}

/* The record at ring->tail that stopped a sample batch (RP_OTHER): read it
 * with rp_ring_next and hand it to other or, other NULL, skip it as the
 * payload APIs do (a LOST is counted by the stats like any other, anything
 * else in stats.malformed).  *n is the records consumed (0 or 1), *r the
 * callback's return; returns the walk's state as walk_on. */
static int other_record(rp_perf_ring *ring, uint64_t head, rp_perf_ring_fn other,
                        void *ctx, uint32_t *n, int *r)
{
	rp_record rec;
	rp_lost l;
	const rp_status st = rp_ring_next(&ring->data, head, &ring->tail, &rec);

	*n = 0;
	*r = 0;
	if (st != RP_OK) /* framed well a moment ago: a writer raced us */
		return walk_on(ring, head, st);
	if (other)
		*r = other(ctx, &rec);
	else if (rec.type != RP_RECORD_LOST || rp_lost_view(&rec, &l) != RP_OK)
		ring->stats.malformed++;
	rp_perf_stats_add(&ring->stats, &rec, 1);
	*n = 1;
	return 1;
}

/* The end of a run of n records (or samples) that stopped with the walk's
 * status st and the callback's return r, shared by every delivery mode: a
 * corruption counts (and resyncs, or stops a strict ring) only once the
 * callback consumed every record before it; a stop by the callback or the
 * budget leaves it to the next drain, which then counts it once.  A record
 * of another kind that stopped a sample run (RP_OTHER) goes to other.  True
 * if the drain stops here. */
static inline bool run_end(drain_run *d, uint32_t n, int r, rp_status st, rp_perf_ring_fn other,
                           void *ctx)
{
	uint32_t used;
	int more = r || st == RP_OK ? 1 : walk_on(d->ring, d->head, st);

	if (drain_step(d, n, r, more))
		return true;
	if (st != RP_OTHER)
		return false;
	more = other_record(d->ring, d->head, other, ctx, &used, &r);
	return drain_step(d, used, r, more);
}

/* The record-batch drain: the core's rp_ring_drain fills an array, fn gets
 * it whole. */
static int drain_batch(rp_perf_ring *ring, rp_perf_batch_fn fn, void *ctx, uint32_t max_records)
{
	rp_record batch[RP_PERF_BATCH];
	drain_run d;
	int go = drain_start(&d, ring, fn != NULL, max_records);

	if (go <= 0)
		return go;
	for (;;) {
		uint32_t count = 0;
		int r = 0;
		if (d.prefetch)
			prefetch_ahead(ring->data.data, ring->data.size - 1, ring->tail, d.head,
			               &d.ahead);
		const rp_status st = rp_ring_drain(&ring->data, d.head, &ring->tail, batch,
		                                   drain_want(&d), &count);

		if (count) {
			drain_fit(&d, count, batch[count - 1].pos + batch[count - 1].size - batch[0].pos);
			r = fn(ctx, batch, count);
		}
		rp_perf_stats_add(&ring->stats, batch, count);
		if (run_end(&d, count, r, st, NULL, ctx))
			break;
	}
	return drain_finish(&d);
}

/* The per-record drain, on the core's iterator (rp_ring_iter_next): each
 * record goes to fn as soon as it is decoded (no array), so that the walk
 * and the callbacks overlap.  The records' bytes are counted from the
 * tail's move (the records chain), a LOST's count as it passes. */
static int drain_records(rp_perf_ring *ring, rp_perf_ring_fn fn, void *ctx, uint32_t max_records)
{
	drain_run d;
	int go = drain_start(&d, ring, fn != NULL, max_records);

	if (go <= 0)
		return go;
	for (;;) {
		const uint32_t budget = iter_budget(&d);
		rp_ring_iter it;
		rp_record rec;
		rp_status st = RP_OK; /* RP_OK after the loop: the budget or fn ended it */
		uint32_t used;
		int r = 0;

		const uint64_t start = ring->tail;
		uint64_t ahead = start; /* prefetch_ahead */
		uint32_t left = budget; /* records the run may still take */

		rec.size = 0;
		rp_ring_iter_init(&it, &ring->data, d.head, start);
		while (st == RP_OK && r == 0 && left) {
			const uint32_t chunk = d.prefetch ? chunk_after(rec.size) : left;
			const uint32_t want = left < chunk ? left : chunk;
			uint32_t n = want; /* counted down to 0: one test per record */

			if (d.prefetch)
				prefetch_ahead(it.data, it.size - 1, it.tail, d.head, &ahead);
			do {
				st = rp_ring_iter_next(&it, &rec);
				if (st != RP_OK)
					break;
				n--;
				if (rec.type == RP_RECORD_LOST)
					stats_add_lost(&ring->stats, &rec);
				r = fn(ctx, &rec);
				if (r)
					break;
			} while (n);
			left -= want - n;
		}
		used = budget - left;
		ring->tail = it.tail;
		stats_count(&ring->stats, used, it.tail - start);
		if (run_end(&d, used, r, st, NULL, ctx))
			break;
	}
	return drain_finish(&d);
}

int rp_perf_ring_drain(rp_perf_ring *ring, rp_perf_ring_fn fn, void *ctx,
                       uint32_t max_records)
{
	return drain_records(ring, fn, ctx, max_records);
}

int rp_perf_ring_drain_batch(rp_perf_ring *ring, rp_perf_batch_fn fn, void *ctx,
                             uint32_t max_records)
{
	return drain_batch(ring, fn, ctx, max_records);
}

/* A payload that wraps the ring end, copied into the ring's scratch
 * buffer (grown to fit; freed by rp_perf_ring_unmap), as libbpf copies a
 * wrapped record, so that a payload callback gets it in one piece.  Each
 * byte is read once.  NULL if the buffer cannot grow. */
static RP_COLD const uint8_t *linearize(rp_perf_ring *ring, const uint8_t *p0, uint32_t n0,
                                       const uint8_t *p1, uint32_t n1)
{
	rp_span data;

	if (n0 + n1 > ring->scratch_size) {
		uint8_t *p = realloc(ring->scratch, n0 + n1);
		if (!p)
			return NULL;
		ring->scratch = p;
		ring->scratch_size = n0 + n1;
	}
	data.p0 = p0;
	data.n0 = n0;
	data.p1 = p1;
	data.n1 = n1;
	rp_span_copy(data, ring->scratch, n0 + n1);
	ring->stats.copied++;
	return ring->scratch;
}

const uint8_t *rp_perf_ring_contiguous(rp_perf_ring *ring, const rp_span *data)
{
	return data->n1 ? linearize(ring, data->p0, data->n0, data->p1, data->n1) : data->p0;
}

/* The payload of the sample s the walk just took, which wraps the ring
 * end, copied in one piece; NULL if it cannot be copied, and then the walk
 * is set back to s, which stays in the ring (the drain returns -ENOMEM).
 * Inline: the iterator's address must not reach a function out of line (it
 * would stay in memory for the whole walk). */
static RP_HOT const uint8_t *copy_or_rewind(rp_perf_ring *ring, rp_ring_iter *it, uint64_t head,
                                            const rp_bpf_sample *s)
{
	const uint8_t *p = linearize(ring, s->data.p0, s->data.n0, s->data.p1, s->data.n1);

	if (!p)
		rp_ring_iter_init(it, &ring->data, head, s->pos);
	return p;
}

/* The sample-batch drain, on the core's iterator: up to a batch of
 * payloads, each in one piece (rp_payload: in the ring, or copied as
 * the payload drain copies it; at most one payload of a drain wraps, since
 * a drain spans at most the ring), then fn gets the batch whole.  The
 * iterator lives for the whole run, so that its hint carries from batch to
 * batch. */
static int drain_samples(rp_perf_ring *ring, rp_perf_samples_fn fn, rp_perf_ring_fn other,
                         void *ctx, uint32_t max_records)
{
	rp_payload batch[RP_PERF_BATCH];
	drain_run d;
	int go = drain_start(&d, ring, fn != NULL, max_records);

	if (go <= 0)
		return go;
	for (;;) {
		const uint32_t budget = iter_budget(&d);
		const uint64_t start = ring->tail;
		rp_ring_iter it;
		rp_status st = RP_OK; /* RP_OK after the loop: the budget or fn ended it */
		uint32_t left = budget; /* records the run may still take */
		int r = 0;

		rp_ring_iter_init(&it, &ring->data, d.head, start);
		while (st == RP_OK && r == 0 && left) {
			const uint32_t want = left < d.fit ? left : d.fit;
			const uint64_t from = it.tail;
			uint32_t n = 0;

			if (d.prefetch)
				prefetch_ahead(it.data, it.size - 1, it.tail, d.head, &d.ahead);
			while (n < want) {
				rp_bpf_sample s;
				st = rp_ring_iter_next_bpf(&it, &s);
				if (st != RP_OK)
					break;
				const uint8_t *p = s.data.p0;
				if (s.data.n1 && !(p = copy_or_rewind(ring, &it, d.head, &s))) {
					r = -ENOMEM;
					break;
				}
				batch[n].data = p;
				batch[n].size = s.raw_size;
				n++;
			}
			if (n) {
				const int cr = fn(ctx, batch, n);
				drain_fit(&d, n, it.tail - from);
				if (r == 0)
					r = cr;
			}
			left -= n;
		}
		const uint32_t used = budget - left;
		ring->tail = it.tail;
		stats_count(&ring->stats, used, it.tail - start);
		if (run_end(&d, used, r, st, other, ctx))
			break;
	}
	return drain_finish(&d);
}

/* The per-sample drain, on the core's iterator: each payload goes to fn as
 * soon as it is decoded (no array, no batch), so that the walk and the
 * callbacks overlap.  The stats are counted once per run of samples, from
 * the tail's move (the samples chain: the core proves it).  A wrapped
 * payload that cannot be copied (no memory) ends the drain before that
 * sample with -ENOMEM: the sample stays in the ring for the next drain.
 * drain_records's twin: one always-inlined body for both, with a constant
 * telling records from samples, gave clang 14 the same code and gcc 12 one
 * more register move per record in each loop (tried 29 Nov 2026), so the
 * two stay. */
static int drain_payloads(rp_perf_ring *ring, rp_perf_payload_fn fn, rp_perf_ring_fn other,
                          void *ctx, uint32_t max_records)
{
	drain_run d;
	int go = drain_start(&d, ring, fn != NULL, max_records);

	if (go <= 0)
		return go;
	for (;;) {
		const uint32_t budget = iter_budget(&d);
		const uint64_t start = ring->tail;
		rp_ring_iter it;
		rp_bpf_sample s;
		rp_status st = RP_OK; /* RP_OK after the loop: the budget or fn ended it */
		uint32_t used;
		int r = 0;

		uint64_t ahead = start; /* prefetch_ahead */
		uint32_t left = budget; /* records the run may still take */

		s.size = 0;
		rp_ring_iter_init(&it, &ring->data, d.head, start);
		while (st == RP_OK && r == 0 && left) {
			const uint32_t chunk = d.prefetch ? chunk_after(s.size) : left;
			const uint32_t want = left < chunk ? left : chunk;
			uint32_t n = want; /* counted down to 0: one test per record */

			if (d.prefetch)
				prefetch_ahead(it.data, it.size - 1, it.tail, d.head, &ahead);
			do {
				st = rp_ring_iter_next_bpf(&it, &s);
				if (st != RP_OK)
					break;
				const uint8_t *p = s.data.p0;
				if (s.data.n1 && !(p = copy_or_rewind(ring, &it, d.head, &s))) {
					r = -ENOMEM;
					break;
				}
				n--;
				r = fn(ctx, p, s.raw_size);
				if (r)
					break;
			} while (n);
			left -= want - n;
		}
		used = budget - left;
		ring->tail = it.tail;
		stats_count(&ring->stats, used, it.tail - start);
		if (run_end(&d, used, r, st, other, ctx))
			break;
	}
	return drain_finish(&d);
}

int rp_perf_ring_drain_samples(rp_perf_ring *ring, rp_perf_samples_fn fn,
                               rp_perf_ring_fn other, void *ctx, uint32_t max_records)
{
	return drain_samples(ring, fn, other, ctx, max_records);
}

int rp_perf_ring_drain_payloads(rp_perf_ring *ring, rp_perf_payload_fn fn,
                                rp_perf_ring_fn other, void *ctx, uint32_t max_records)
{
	return drain_payloads(ring, fn, other, ctx, max_records);
}
