#include "rp_bpf_ringbuf.h"
#include "rp_adapter_int.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#define RP_RB_BATCH 64

static int ringbuf_map(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_fn fn,
                       rp_bpf_ringbuf_batch_fn batch_fn, void *ctx, unsigned flags)
{
	if (!rb)
		return -EINVAL;
	memset(rb, 0, sizeof *rb);
	if ((!fn && !batch_fn) || (flags & ~(unsigned)RP_BPF_RINGBUF_FLAGS))
		return -EINVAL;
	uint64_t size;
	size_t page;
	const int rc = rp_bpf_ring_map_check(map_fd, BPF_MAP_TYPE_RINGBUF, RP_E_RB_MAP_TYPE,
	                                     RP_E_RB_MAP_SIZE, &size, &page);
	if (rc)
		return rc;

	void *cons = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
	if (cons == MAP_FAILED)
		return -errno;
	const size_t prod_len = (size_t)page + 2 * (size_t)size;
	void *prod = mmap(NULL, prod_len, PROT_READ, MAP_SHARED, map_fd, (off_t)page);
	if (prod == MAP_FAILED) {
		int err = -errno;
		munmap(cons, (size_t)page);
		return err;
	}
	rb->map_fd = map_fd;
	rb->flags = flags;
	rb->page_size = (size_t)page;
	rb->cons_page = cons;
	rb->prod_map = prod;
	rb->prod_len = prod_len;
	rb->data.data = (const uint8_t *)prod + page;
	rb->data.size = size;
	rb->fn = fn;
	rb->batch_fn = batch_fn;
	rb->ctx = ctx;
	/* the walk starts on the record grid even if a previous consumer left
	 * consumer_pos misaligned */
	rb->consumer = rp_bpf_ringbuf_consumer(rb) & ~(uint64_t)7;
	return 0;
}

int rp_bpf_ringbuf_map(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_fn fn, void *ctx,
                       unsigned flags)
{
	return ringbuf_map(rb, map_fd, fn, NULL, ctx, flags);
}

int rp_bpf_ringbuf_map_batch(rp_bpf_ringbuf *rb, int map_fd, rp_bpf_ringbuf_batch_fn fn,
                             void *ctx, unsigned flags)
{
	return ringbuf_map(rb, map_fd, NULL, fn, ctx, flags);
}

void rp_bpf_ringbuf_unmap(rp_bpf_ringbuf *rb)
{
	if (!rb)
		return;
	if (rb->prod_map)
		munmap(rb->prod_map, rb->prod_len);
	if (rb->cons_page)
		munmap(rb->cons_page, rb->page_size);
	rb->prod_map = NULL;
	rb->cons_page = NULL;
	rb->data.data = NULL;
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
 * callbacks overlap; a discarded record is consumed and counted. */
static void walk_records(rp_bpf_ringbuf *rb, uint64_t producer, uint32_t budget, rb_walk *w)
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
	while (used < budget) {
		st = rp_rb_iter_next(&it, &rec);
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
		/* The double mapping makes the two slices one contiguous run. */
		r = fn(ctx, rec.data.p0, rec.len);
		if (r)
			break;
	}
	rb->consumer = it.consumer;
	w->st = st == RP_OK ? RP_MORE : st;
	w->r = r;
	w->used = used;
	w->discarded = discarded;
	w->bytes = it.consumer - start - skipped;
	w->payload = payload;
}

/* Batch delivery: the core's iterator fills an array (its common path
 * inlined here, as for walk_records), batch_fn gets it whole.  A discarded
 * record is consumed, counted and overwritten by the next one. */
static void walk_batch(rp_bpf_ringbuf *rb, uint64_t producer, uint32_t want, rb_walk *w)
{
	rp_rb_record recs[RP_BPF_RINGBUF_BATCH];
	const uint64_t start = rb->consumer;
	uint64_t skipped = 0, discarded = 0, payload = 0;
	uint32_t n = 0;
	rp_status st = RP_MORE;
	rp_rb_iter it;

	if (want > RP_BPF_RINGBUF_BATCH)
		want = RP_BPF_RINGBUF_BATCH;
	rp_rb_iter_init(&it, &rb->data, producer, start);
	while (n < want) {
		st = rp_rb_iter_next(&it, &recs[n]);
		if (st != RP_OK)
			break;
		if (recs[n].discarded) {
			discarded++;
			skipped += recs[n].size;
			continue;
		}
		payload += recs[n].len;
		n++;
	}
	/* Orders the iterator's len-word loads before the callback's payload
	 * reads (a compiler barrier on x86-64). */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	rb->consumer = it.consumer;
	w->st = st == RP_OK ? RP_MORE : st;
	w->used = n;
	w->discarded = discarded;
	w->bytes = it.consumer - start - skipped;
	w->payload = payload;
	if (n)
		w->r = rb->batch_fn(rb->ctx, recs, n);
}

/* rp_bpf_ringbuf_consume; *stopped tells a set whether a callback asked to
 * stop (a positive return, which the count alone cannot say). */
static int consume(rp_bpf_ringbuf *rb, uint32_t max_records, bool *stopped)
{
	uint64_t delivered = 0;

	*stopped = false;
	if (!rb || !rb->prod_map)
		return -EINVAL;
	if (rb->error)
		return rb->error;
	check_consumer_page(rb);
	for (;;) {
		const uint64_t producer = rp_bpf_ringbuf_producer(rb);
		const uint64_t start = rb->consumer;
		const uint32_t budget = max_records ? (uint32_t)(max_records - delivered) : UINT32_MAX;
		rb_walk w = { RP_MORE, 0, 0, 0, 0, 0 };

		if (rb->bad_seen) {
			if (producer == rb->bad_producer)
				break; /* counted already; wait for a new producer_pos */
			rb->bad_seen = 0;
		}
		if (rb->fn)
			walk_records(rb, producer, budget, &w);
		else
			walk_batch(rb, producer, budget, &w);
		rb->stats.discarded += w.discarded;
		rb->stats.records += w.used;
		rp_sat_add(&rb->stats.record_bytes, w.bytes);
		rp_sat_add(&rb->stats.payload_bytes, w.payload);
		delivered += w.used;
		if (rb->consumer != start)
			store_consumer(rb);
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

struct rp_bpf_ringbuf_set {
	int epfd;
	uint32_t count;
	uint32_t cap;
	rp_bpf_ringbuf **rings;
};

int rp_bpf_ringbuf_set_new(rp_bpf_ringbuf_set **out)
{
	if (!out)
		return -EINVAL;
	*out = NULL;
	rp_bpf_ringbuf_set *set = calloc(1, sizeof *set);
	if (!set)
		return -ENOMEM;
	set->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (set->epfd < 0) {
		int err = -errno;
		free(set);
		return err;
	}
	*out = set;
	return 0;
}

static int set_add(rp_bpf_ringbuf_set *set, int map_fd, rp_bpf_ringbuf_fn fn,
                   rp_bpf_ringbuf_batch_fn batch_fn, void *ctx, unsigned flags)
{
	if (!set)
		return -EINVAL;
	if (set->count == set->cap) {
		const uint32_t cap = set->cap ? 2 * set->cap : 4;
		rp_bpf_ringbuf **r = realloc(set->rings, cap * sizeof *r);
		if (!r)
			return -ENOMEM;
		set->rings = r;
		set->cap = cap;
	}
	rp_bpf_ringbuf *rb = calloc(1, sizeof *rb);
	if (!rb)
		return -ENOMEM;
	int err = ringbuf_map(rb, map_fd, fn, batch_fn, ctx, flags);
	if (err) {
		free(rb);
		return err;
	}
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = set->count };
	if (epoll_ctl(set->epfd, EPOLL_CTL_ADD, map_fd, &ev) < 0) {
		err = -errno;
		rp_bpf_ringbuf_unmap(rb);
		free(rb);
		return err;
	}
	set->rings[set->count] = rb;
	return (int)set->count++;
}

int rp_bpf_ringbuf_set_add(rp_bpf_ringbuf_set *set, int map_fd, rp_bpf_ringbuf_fn fn,
                           void *ctx, unsigned flags)
{
	return set_add(set, map_fd, fn, NULL, ctx, flags);
}

int rp_bpf_ringbuf_set_add_batch(rp_bpf_ringbuf_set *set, int map_fd,
                                 rp_bpf_ringbuf_batch_fn fn, void *ctx, unsigned flags)
{
	return set_add(set, map_fd, NULL, fn, ctx, flags);
}

/* Drain the rings in order, at most limit records in all (0 = no limit).
 * A strict ring's error does not stop the others; a callback's stop does
 * (the rings after it are left to the next call: their fds stay readable). */
static int set_drain(rp_bpf_ringbuf_set *set, uint32_t limit)
{
	uint64_t total = 0;
	int first_err = 0;

	if (!set)
		return -EINVAL;
	for (uint32_t i = 0; i < set->count; i++) {
		rp_bpf_ringbuf *rb = set->rings[i];
		uint32_t want = limit ? limit - (uint32_t)total : 0;
		bool stopped;
		if (limit && want == 0)
			break;
		int n = consume(rb, want, &stopped);
		if (stopped && n < 0)
			return n; /* the callback's error */
		if (n >= 0)
			total += (uint64_t)n;
		else if (!first_err)
			first_err = n; /* strict ring stopped: the others go on */
		if (stopped)
			break;
	}
	if (first_err)
		return first_err;
	return total > INT32_MAX ? INT32_MAX : (int)total;
}

int rp_bpf_ringbuf_consume(rp_bpf_ringbuf *rb, uint32_t max_records)
{
	bool stopped;

	return consume(rb, max_records, &stopped);
}

int rp_bpf_ringbuf_set_consume(rp_bpf_ringbuf_set *set)
{
	return set_drain(set, 0);
}

int rp_bpf_ringbuf_set_consume_n(rp_bpf_ringbuf_set *set, uint32_t n)
{
	if (n == 0)
		return 0;
	return set_drain(set, n);
}

int rp_bpf_ringbuf_set_consume_ring(rp_bpf_ringbuf_set *set, uint32_t idx, uint32_t n)
{
	if (!set || idx >= set->count)
		return -EINVAL;
	return rp_bpf_ringbuf_consume(set->rings[idx], n);
}

rp_bpf_ringbuf *rp_bpf_ringbuf_set_ring(rp_bpf_ringbuf_set *set, uint32_t idx)
{
	return set && idx < set->count ? set->rings[idx] : NULL;
}

int rp_bpf_ringbuf_set_error(const rp_bpf_ringbuf_set *set, uint32_t idx)
{
	if (!set || idx >= set->count)
		return -EINVAL;
	return set->rings[idx]->error;
}

int rp_bpf_ringbuf_set_resync(rp_bpf_ringbuf_set *set, uint32_t idx)
{
	if (!set || idx >= set->count)
		return -EINVAL;
	return rp_bpf_ringbuf_resync(set->rings[idx]);
}

int rp_bpf_ringbuf_set_poll(rp_bpf_ringbuf_set *set, int timeout_ms)
{
	struct epoll_event evs[16];

	if (!set)
		return -EINVAL;
	const int n = epoll_wait(set->epfd, evs, 16, timeout_ms);
	if (n < 0)
		return -errno; /* -EINTR included, as libbpf and rp_perf_buffer_poll */
	if (n == 0)
		return 0;
	/* A commit wakes the consumer only if it had caught up: drain every ring
	 * fully, not only the ones reported ready. */
	return set_drain(set, 0);
}

int rp_bpf_ringbuf_set_epoll_fd(const rp_bpf_ringbuf_set *set)
{
	return set ? set->epfd : -EINVAL;
}

uint32_t rp_bpf_ringbuf_set_count(const rp_bpf_ringbuf_set *set)
{
	return set ? set->count : 0;
}

int rp_bpf_ringbuf_set_stats(const rp_bpf_ringbuf_set *set, uint32_t idx,
                         rp_bpf_ringbuf_stats *out)
{
	if (!set || !out || idx >= set->count)
		return -EINVAL;
	*out = set->rings[idx]->stats;
	return 0;
}

void rp_bpf_ringbuf_set_free(rp_bpf_ringbuf_set *set)
{
	if (!set)
		return;
	for (uint32_t i = 0; i < set->count; i++) {
		rp_bpf_ringbuf_unmap(set->rings[i]);
		free(set->rings[i]);
	}
	free(set->rings);
	if (set->epfd >= 0)
		close(set->epfd);
	free(set);
}
