#include "rp_ringbuf_linux.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <unistd.h>

#define RP_RB_BATCH 64

static bool is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

int rp_ringbuf_map(rp_ringbuf *rb, int map_fd, rp_ringbuf_fn fn, void *ctx,
                   unsigned flags)
{
	struct bpf_map_info info;
	uint32_t info_len = sizeof info;

	if (!rb || !fn || map_fd < 0)
		return -EINVAL;
	memset(rb, 0, sizeof *rb);
	memset(&info, 0, sizeof info);
	if (bpf_obj_get_info_by_fd(map_fd, &info, &info_len) < 0)
		return -errno;
	if (info.type != BPF_MAP_TYPE_RINGBUF)
		return RP_E_RB_MAP_TYPE;

	const long page = sysconf(_SC_PAGESIZE);
	const uint64_t size = info.max_entries;
	if (page <= 0 || !is_pow2(size) || size % (uint64_t)page != 0 ||
	    size > (UINT64_C(1) << 32) / 2)
		return RP_E_RB_MAP_SIZE;

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
	rb->ctx = ctx;
	return 0;
}

void rp_ringbuf_unmap(rp_ringbuf *rb)
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

uint64_t rp_ringbuf_producer(const rp_ringbuf *rb)
{
	/* unsigned long on the kernel side; u64 on the 64-bit targets we build for */
	return __atomic_load_n((const unsigned long *)rb->prod_map, __ATOMIC_ACQUIRE);
}

uint64_t rp_ringbuf_consumer(const rp_ringbuf *rb)
{
	return __atomic_load_n((const unsigned long *)rb->cons_page, __ATOMIC_ACQUIRE);
}

static void store_consumer(rp_ringbuf *rb, uint64_t pos)
{
	__atomic_store_n((unsigned long *)rb->cons_page, (unsigned long)pos, __ATOMIC_RELEASE);
}

int rp_ringbuf_consume(rp_ringbuf *rb, uint32_t max_records)
{
	rp_rb_record recs[RP_RB_BATCH];
	int delivered = 0;

	if (!rb || !rb->prod_map)
		return -EINVAL;
	for (;;) {
		const uint64_t producer = rp_ringbuf_producer(rb);
		uint64_t cons = rp_ringbuf_consumer(rb);
		const uint64_t start = cons;
		uint32_t want = RP_RB_BATCH;
		uint32_t n = 0;
		uint64_t disc = 0;

		if (max_records && max_records - (uint32_t)delivered < want)
			want = max_records - (uint32_t)delivered;
		const rp_status st = rp_ringbuf_drain(&rb->data, producer, &cons, recs, want, &n, &disc);
		/* Orders the core's len-word loads before the payload reads below. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		rb->stats.discarded += disc;

		uint64_t commit = cons;
		bool stop = false;
		for (uint32_t i = 0; i < n; i++) {
			const rp_rb_record *r = &recs[i];
			rb->stats.records++;
			rb->stats.bytes += r->len;
			delivered++;
			/* The double mapping makes the two slices one contiguous run. */
			if (rb->fn(rb->ctx, r->data.p0, r->len) != 0) {
				commit = r->pos + r->size;
				stop = true;
				break;
			}
		}
		if (commit != start)
			store_consumer(rb, commit);
		if (stop)
			return delivered;

		if (st == RP_BUSY) {
			rb->stats.busy_stops++;
			return delivered;
		}
		if (st < 0) {
			rb->stats.corrupt++;
			rb->stats.last_error = st;
			if (rb->flags & RP_RINGBUF_STRICT)
				return st;
			rb->stats.resynced_bytes += producer - cons;
			store_consumer(rb, producer);
			return delivered;
		}
		if (max_records && (uint32_t)delivered >= max_records)
			return delivered;
		if (st == RP_EMPTY && cons == start)
			return delivered; /* nothing new since the last producer load */
		/* RP_MORE, or caught up: look at producer_pos again */
	}
}

struct rp_ringbuf_set {
	int epfd;
	uint32_t count;
	uint32_t cap;
	rp_ringbuf **rings;
};

int rp_ringbuf_set_new(rp_ringbuf_set **out)
{
	if (!out)
		return -EINVAL;
	*out = NULL;
	rp_ringbuf_set *set = calloc(1, sizeof *set);
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

int rp_ringbuf_set_add(rp_ringbuf_set *set, int map_fd, rp_ringbuf_fn fn,
                       void *ctx, unsigned flags)
{
	if (!set)
		return -EINVAL;
	if (set->count == set->cap) {
		const uint32_t cap = set->cap ? 2 * set->cap : 4;
		rp_ringbuf **r = realloc(set->rings, cap * sizeof *r);
		if (!r)
			return -ENOMEM;
		set->rings = r;
		set->cap = cap;
	}
	rp_ringbuf *rb = calloc(1, sizeof *rb);
	if (!rb)
		return -ENOMEM;
	int err = rp_ringbuf_map(rb, map_fd, fn, ctx, flags);
	if (err) {
		free(rb);
		return err;
	}
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = set->count };
	if (epoll_ctl(set->epfd, EPOLL_CTL_ADD, map_fd, &ev) < 0) {
		err = -errno;
		rp_ringbuf_unmap(rb);
		free(rb);
		return err;
	}
	set->rings[set->count] = rb;
	return (int)set->count++;
}

int rp_ringbuf_set_consume(rp_ringbuf_set *set)
{
	if (!set)
		return -EINVAL;
	int total = 0;
	int first_err = 0;
	for (uint32_t i = 0; i < set->count; i++) {
		int n = rp_ringbuf_consume(set->rings[i], 0);
		if (n < 0) {
			if (!first_err)
				first_err = n;
		} else {
			total += n;
		}
	}
	return first_err ? first_err : total;
}

int rp_ringbuf_set_poll(rp_ringbuf_set *set, int timeout_ms)
{
	struct epoll_event evs[16];

	if (!set)
		return -EINVAL;
	const int n = epoll_wait(set->epfd, evs, 16, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (n == 0)
		return 0;
	/* A commit wakes the consumer only if it had caught up: drain every ring
	 * fully, not only the ones reported ready. */
	return rp_ringbuf_set_consume(set);
}

int rp_ringbuf_set_epoll_fd(const rp_ringbuf_set *set)
{
	return set ? set->epfd : -EINVAL;
}

uint32_t rp_ringbuf_set_count(const rp_ringbuf_set *set)
{
	return set ? set->count : 0;
}

int rp_ringbuf_set_stats(const rp_ringbuf_set *set, uint32_t idx,
                         rp_ringbuf_stats *out)
{
	if (!set || !out || idx >= set->count)
		return -EINVAL;
	*out = set->rings[idx]->stats;
	return 0;
}

void rp_ringbuf_set_free(rp_ringbuf_set *set)
{
	if (!set)
		return;
	for (uint32_t i = 0; i < set->count; i++) {
		rp_ringbuf_unmap(set->rings[i]);
		free(set->rings[i]);
	}
	free(set->rings);
	if (set->epfd >= 0)
		close(set->epfd);
	free(set);
}
