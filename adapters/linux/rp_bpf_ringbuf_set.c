/* A set of BPF ring buffers behind one epoll instance (libbpf's
 * ring_buffer): each ring mapped by rp_bpf_ringbuf_map(_batch) and
 * registered with epoll, drained in order by rp_bpf_ringbuf.c's walk. */
#include "rp_bpf_ringbuf.h"
#include "rp_bpf_ringbuf_int.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

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
	/* a NULL fn goes to _map_batch, which rejects a NULL batch_fn too */
	int err = fn ? rp_bpf_ringbuf_map(rb, map_fd, fn, ctx, flags)
	             : rp_bpf_ringbuf_map_batch(rb, map_fd, batch_fn, ctx, flags);
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
		int n = rp_bpf_ringbuf_consume_stopped(rb, want, &stopped);
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
