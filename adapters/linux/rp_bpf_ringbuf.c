/* One BPF ring buffer, walked: the consumer and producer positions, the
 * per-record and batch walks over the core's iterator, the corruption
 * policy (default resync, RP_STRICT stop), discards, budgets and stats.
 * No system call and no libbpf: the ring is whatever memory
 * rp_bpf_ringbuf_bind_pages was given (rp_bpf_ringbuf_map.c maps a map fd
 * and binds it; the fuzz harness binds an in-memory ring). */
#include "rp_bpf_ringbuf.h"
#include "rp_bpf_ringbuf_int.h"
#include "rp_adapter_int.h"

#include <errno.h>
#include <string.h>

void rp_bpf_ringbuf_bind_pages(rp_bpf_ringbuf *rb, int map_fd, void *cons_page, void *prod_map,
                               size_t page, uint64_t size, rp_bpf_ringbuf_fn fn,
                               rp_bpf_ringbuf_batch_fn batch_fn, void *ctx, unsigned flags)
{
	memset(rb, 0, sizeof *rb);
	rb->map_fd = map_fd;
	rb->flags = flags;
	rb->page_size = page;
	rb->cons_page = cons_page;
	rb->prod_map = prod_map;
	rb->prod_len = page + 2 * (size_t)size;
	rb->data.data = (const uint8_t *)prod_map + page;
	rb->data.size = size;
	rb->fn = fn;
	rb->batch_fn = batch_fn;
	rb->ctx = ctx;
	/* the walk starts on the record grid even if a previous consumer left
	 * consumer_pos misaligned */
	rb->consumer = rp_bpf_ringbuf_consumer(rb) & ~(uint64_t)7;
}

uint64_t rp_bpf_ringbuf_producer(const rp_bpf_ringbuf *rb)
{
	/* unsigned long on the kernel side; u64 on the 64-bit targets we build for */
	return __atomic_load_n((const unsigned long *)rb->prod_map, __ATOMIC_ACQUIRE);
}

uint64_t rp_bpf_ringbuf_consumer(const rp_bpf_ringbuf *rb)
{
	return __atomic_load_n((const unsigned long *)rb->cons_page, __ATOMIC_ACQUIRE);
}

static bool producer_sane(const rp_bpf_ringbuf *rb, uint64_t producer)
{
	return (producer & 7) == 0 && producer - rb->consumer <= rb->data.size;
}

uint64_t rp_bpf_ringbuf_avail(const rp_bpf_ringbuf *rb)
{
	if (!rb || !rb->prod_map)
		return 0;
	const uint64_t producer = rp_bpf_ringbuf_producer(rb);
	return producer_sane(rb, producer) ? producer - rb->consumer : 0;
}

uint64_t rp_bpf_ringbuf_size(const rp_bpf_ringbuf *rb)
{
	return rb ? rb->data.size : 0;
}

static void store_consumer(rp_bpf_ringbuf *rb)
{
	__atomic_store_n((unsigned long *)rb->cons_page, (unsigned long)rb->consumer,
	                 __ATOMIC_RELEASE);
}

/* consumer_pos must hold what we published: anything else was written by
 * someone else (the kernel never writes it).  Restore it, count it. */
static void check_consumer_page(rp_bpf_ringbuf *rb)
{
	if (rp_bpf_ringbuf_consumer(rb) != rb->consumer) {
		rb->stats.corrupt++;
		rb->stats.last_error = RP_E_CONSUMER_POS;
		store_consumer(rb);
	}
}

static void resync(rp_bpf_ringbuf *rb, uint64_t producer)
{
	if (producer_sane(rb, producer)) {
		rp_sat_add(&rb->stats.resynced_bytes, producer - rb->consumer);
		rb->consumer = producer;
		rb->bad_seen = 0;
		store_consumer(rb);
	} else {
		rb->bad_producer = producer;
		rb->bad_seen = 1;
	}
}

int rp_bpf_ringbuf_resync(rp_bpf_ringbuf *rb)
{
	if (!rb || !rb->prod_map)
		return -EINVAL;
	check_consumer_page(rb);
	resync(rb, rp_bpf_ringbuf_producer(rb));
	rb->error = 0;
	return 0;
}

/* What one walk from rb->consumer towards producer consumed. */
typedef struct rb_walk {
	rp_status st;      /* where the walk stopped (RP_MORE: at its budget) */
	int r;             /* the callback's return, 0 = go on */
	uint32_t used;     /* records delivered */
	uint64_t discarded;
	uint64_t bytes;    /* bytes the delivered records occupy */
	uint64_t payload;  /* their payload bytes */
} rb_walk;

/* Per-record delivery on the core's iterator: each record goes to fn as
 * soon as its len word is checked (no array), so that the walk and the
 * callbacks overlap; a discarded record is consumed and counted.  Each step
 * is given the last record's len word as a hint, as in walk_batches: with
 * a callback that reads a few bytes of each record the walk is then no
 * longer a chain of len-word loads (256-byte records: 0.41 of libbpf's
 * time against 1.02 without it; with one that sums every byte, no change;
 * bench/RESULTS.md, Run AF).  Out of
 * line, so that its code does not depend on the consume loop around it
 * (inlined there, gcc's register allocation of the walk changed with
 * unrelated edits of this file: 8-byte records took 3.6 or 4.3 ns). */
__attribute__((noinline)) static void walk_records(rp_bpf_ringbuf *rb, uint64_t producer,
                                                   uint32_t budget, rb_walk *w)
{
	/* Locals, not rb's or w's fields: across the callback, which may
	 * write any memory it can reach, they stay in registers. */
	const rp_bpf_ringbuf_fn fn = rb->fn;
	void *const ctx = rb->ctx;
	const uint64_t start = rb->consumer;
	uint64_t skipped = 0, discarded = 0, payload = 0;
	uint32_t used = 0;
	rp_status st = RP_MORE;
	int r = 0;
	rp_rb_iter it;
	rp_rb_record rec;

	rp_rb_iter_init(&it, &rb->data, producer, start);
	/* The iterator lives in memory, as libbpf's loop keeps its ring's
	 * fields: the empty asm takes its address, so the compiler assumes
	 * the callback may reach it and reloads its fields after each call
	 * (loads off the chain from one len word to the next), and a record
	 * stores one field, the offset.  Kept in registers, the iterator's
	 * fields and the counters outnumbered the callee-saved registers and
	 * gcc spilled and reloaded them around each callback: 8-byte records
	 * took 3.9-4.2 ns against libbpf's 3.4-3.6, in memory 3.2-3.5
	 * (bench/RESULTS.md, Run T). */
	__asm__ volatile("" : : "r"(&it) : "memory");
	uint32_t hint = 0; /* the len word expected next (any value is correct) */
	while (used < budget) {
		st = rp_rb_iter_next_hint(&it, &rec, hint);
		if (st != RP_OK)
			break;
		if (rec.discarded) {
			discarded++;
			skipped += rec.size;
			continue;
		}
		/* Orders the core's load of this len word before the payload
		 * reads of the callback (a compiler barrier on x86-64). */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		used++;
		payload += rec.len;
		hint = rec.len % RP_RB_DISCARD_BIT; /* as walk_batches' */
		/* The double mapping makes the two slices one contiguous run. */
		r = fn(ctx, rec.data.p0, rec.len);
		if (r)
			break;
	}
	rb->consumer = rp_rb_iter_consumer(&it);
	w->st = st == RP_OK ? RP_MORE : st;
	w->r = r;
	w->used = used;
	w->discarded = discarded;
	w->bytes = rb->consumer - start - skipped;
	w->payload = payload;
}

/* Batch delivery: the core's iterator decodes each record (its common
 * path inlined here, as for walk_records) into a 16-byte sample of an
 * array that batch_fn gets whole.  A discarded record is consumed and
 * counted, never written.  Each step is given the last record's len word
 * as a hint (rp_rb_iter_next_hint): in a run of records of one size the
 * next offset is then the last one plus a size already known, and the
 * len-word loads of the batch overlap instead of waiting for each other
 * (8-byte records: 4.6 ns against libbpf's 3.4 before, 3.2 now;
 * bench/RESULTS.md, Run U).
 *
 * One call walks batch after batch: after each callback it publishes
 * consumer_pos and, if the batch was full, loads producer_pos again and
 * goes on from there.  A batch thus costs a producer load and an iterator
 * start, not a round of the consume loop with its budget, stats and checks
 * (512-byte records, one to a batch: 200 instructions a batch outside the
 * callback before, 131 now; bench/RESULTS.md, Run V).  *producer is the
 * last producer_pos loaded, the resync target if the walk ends at a
 * corruption. */
static void walk_batches(rp_bpf_ringbuf *rb, uint64_t *producer, uint32_t budget, uint32_t *fit,
                         rb_walk *w)
{
	rp_payload recs[RP_BPF_RINGBUF_BATCH];
	const uint64_t start = rb->consumer;
	uint64_t skipped = 0, discarded = 0, payload = 0;
	uint32_t used = 0, want = *fit; /* records delivered; the next batch's size */
	rp_status st;
	int r = 0;
	rp_rb_iter it;
	rp_rb_record rec;
	uint32_t hint = 0; /* the len word expected next (any value is correct) */

	for (;;) {
		const uint64_t from = rb->consumer, skipped_before = skipped;
		rp_payload *out = recs, *end;

		if (want > budget - used)
			want = budget - used;
		end = recs + want;
		rp_rb_iter_init(&it, &rb->data, *producer, from);
		do {
			st = rp_rb_iter_next_hint(&it, &rec, hint);
			if (st != RP_OK)
				break;
			if (rec.discarded) {
				discarded++;
				skipped += rec.size;
				continue;
			}
			/* The double mapping makes the two slices one contiguous run. */
			out->data = rec.data.p0;
			out->size = rec.len;
			payload += rec.len;
			out++;
			/* This record's len word (committed, not discarded: its
			 * length).  Written mod 2^30, so that the compiler knows the
			 * hint has neither flag bit and drops the step's flag tests
			 * of it. */
			hint = rec.len % RP_RB_DISCARD_BIT;
		} while (out < end);
		const uint32_t n = (uint32_t)(out - recs);
		rb->consumer = rp_rb_iter_consumer(&it);
		if (n) {
			/* Orders the iterator's len-word loads before the callback's
			 * payload reads (a compiler barrier on x86-64). */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			used += n;
			want = rp_batch_fit(n, rb->consumer - from - (skipped - skipped_before),
			                    RP_BPF_RINGBUF_BATCH_MIN, RP_BPF_RINGBUF_BATCH);
			r = rb->batch_fn(rb->ctx, recs, n);
		}
		/* After the callback: the producer may then reuse the space. */
		if (rb->consumer != from)
			store_consumer(rb);
		if (r || st != RP_OK || used >= budget)
			break;
		*producer = rp_bpf_ringbuf_producer(rb); /* a full batch: look again */
	}
	*fit = want;
	w->st = st == RP_OK ? RP_MORE : st;
	w->r = r;
	w->used = used;
	w->discarded = discarded;
	w->bytes = rb->consumer - start - skipped;
	w->payload = payload;
}

/* rp_bpf_ringbuf_consume, telling whether a callback stopped the walk
 * (rp_bpf_ringbuf_int.h). */
int rp_bpf_ringbuf_consume_stopped(rp_bpf_ringbuf *rb, uint32_t max_records, bool *stopped)
{
	uint64_t delivered = 0;
	uint32_t fit = RP_BPF_RINGBUF_BATCH; /* records the next batch may take */

	*stopped = false;
	if (!rb || !rb->prod_map)
		return -EINVAL;
	if (rb->error)
		return rb->error;
	check_consumer_page(rb);
	for (;;) {
		uint64_t producer = rp_bpf_ringbuf_producer(rb);
		const uint64_t start = rb->consumer;
		const uint32_t budget = max_records ? (uint32_t)(max_records - delivered) : UINT32_MAX;
		rb_walk w = { RP_MORE, 0, 0, 0, 0, 0 };

		if (rb->bad_seen) {
			if (producer == rb->bad_producer)
				break; /* counted already; wait for a new producer_pos */
			rb->bad_seen = 0;
		}
		if (rb->fn) {
			walk_records(rb, producer, budget, &w);
			if (rb->consumer != start)
				store_consumer(rb);
		} else {
			walk_batches(rb, &producer, budget, &fit, &w); /* publishes per batch */
		}
		rb->stats.discarded += w.discarded;
		rb->stats.records += w.used;
		rp_sat_add(&rb->stats.record_bytes, w.bytes);
		rp_sat_add(&rb->stats.payload_bytes, w.payload);
		delivered += w.used;
		if (w.r) {
			*stopped = true;
			return w.r < 0 ? w.r : (int)(delivered > INT32_MAX ? INT32_MAX : delivered);
		}

		if (w.st == RP_BUSY) {
			rb->stats.busy_stops++;
			break;
		}
		if (w.st < 0) {
			rb->stats.corrupt++;
			rb->stats.last_error = w.st;
			if (rb->flags & RP_STRICT) {
				rb->error = w.st;
				return w.st;
			}
			resync(rb, producer);
			break;
		}
		if (max_records && delivered >= max_records)
			break;
		if (w.st == RP_EMPTY && rb->consumer == start)
			break; /* nothing new since the last producer load */
		/* RP_MORE, or caught up: look at producer_pos again */
	}
	return delivered > INT32_MAX ? INT32_MAX : (int)delivered;
}

int rp_bpf_ringbuf_consume(rp_bpf_ringbuf *rb, uint32_t max_records)
{
	bool stopped;

	return rp_bpf_ringbuf_consume_stopped(rb, max_records, &stopped);
}
