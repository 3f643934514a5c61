#include "rp_bpf_user_ringbuf.h"
#include "rp_adapter_int.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct rp_bpf_user_ringbuf {
	int map_fd;        /* not owned */
	int epfd;
	size_t page_size;
	void *cons_page;   /* consumer page, RO */
	void *prod_map;    /* producer page + 2 * size, RW */
	size_t prod_len;
	uint8_t *data;     /* first copy of the data area */
	uint64_t size;
	uint64_t producer; /* our producer position (what we published) */
	int last_error;
};

static void ur_unmap(rp_bpf_user_ringbuf *ur)
{
	if (ur->prod_map)
		munmap(ur->prod_map, ur->prod_len);
	if (ur->cons_page)
		munmap(ur->cons_page, ur->page_size);
	if (ur->epfd >= 0)
		close(ur->epfd);
	ur->prod_map = NULL;
	ur->cons_page = NULL;
	ur->epfd = -1;
}

int rp_bpf_user_ringbuf_new(int map_fd, rp_bpf_user_ringbuf **out)
{
	uint64_t size;
	size_t page;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	err = rp_bpf_ring_map_check(map_fd, BPF_MAP_TYPE_USER_RINGBUF, RP_E_UR_MAP_TYPE,
	                            RP_E_UR_MAP_SIZE, &size, &page);
	if (err)
		return err;

	rp_bpf_user_ringbuf *ur = calloc(1, sizeof *ur);
	if (!ur)
		return -ENOMEM;
	ur->map_fd = map_fd;
	ur->page_size = (size_t)page;
	ur->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (ur->epfd < 0)
		goto fail_errno;
	/* The kernel refuses a writable mapping of the consumer page. */
	ur->cons_page = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, map_fd, 0);
	if (ur->cons_page == MAP_FAILED) {
		ur->cons_page = NULL;
		goto fail_errno;
	}
	ur->prod_len = (size_t)page + 2 * (size_t)size;
	ur->prod_map = mmap(NULL, ur->prod_len, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd,
	                    (off_t)page);
	if (ur->prod_map == MAP_FAILED) {
		ur->prod_map = NULL;
		goto fail_errno;
	}
	ur->data = (uint8_t *)ur->prod_map + page;
	ur->size = size;
	ur->producer = __atomic_load_n((const unsigned long *)ur->prod_map, __ATOMIC_ACQUIRE);
	/* Edge-triggered: level-triggered EPOLLOUT is ready whenever the ring
	 * is not completely full, so a record that does not fit would spin.
	 * Each drain that consumes a record wakes the queue again. */
	struct epoll_event ev = { .events = EPOLLOUT | EPOLLET };
	if (epoll_ctl(ur->epfd, EPOLL_CTL_ADD, map_fd, &ev) < 0)
		goto fail_errno;
	*out = ur;
	return 0;

fail_errno:
	err = -errno;
	ur_unmap(ur);
	free(ur);
	return err;
}

void rp_bpf_user_ringbuf_free(rp_bpf_user_ringbuf *ur)
{
	if (!ur)
		return;
	ur_unmap(ur);
	free(ur);
}

static uint64_t load_consumer(const rp_bpf_user_ringbuf *ur)
{
	return __atomic_load_n((const unsigned long *)ur->cons_page, __ATOMIC_ACQUIRE);
}

static int status_errno(int st)
{
	switch (st) {
	case RP_E_UR_FULL: return ENOSPC;
	case RP_E_UR_LEN:
	case RP_E_UR_TOO_BIG: return E2BIG;
	default: return EPROTO;
	}
}

void *rp_bpf_user_ringbuf_reserve(rp_bpf_user_ringbuf *ur, uint32_t len)
{
	rp_ur_rsv rsv;

	if (!ur || !ur->prod_map) {
		errno = EINVAL;
		return NULL;
	}
	uint64_t prod = ur->producer;
	const rp_status st = rp_user_ring_reserve(ur->data, ur->size, load_consumer(ur), &prod,
	                                          len, &rsv);
	if (st != RP_OK) {
		ur->last_error = st;
		errno = status_errno(st);
		return NULL;
	}
	ur->producer = prod;
	/* the header is written: publish the position after it */
	__atomic_store_n((unsigned long *)ur->prod_map, (unsigned long)prod, __ATOMIC_RELEASE);
	/* contiguous through the double mapping, even when it wraps */
	return ur->data + rsv.off + 8;
}

static int commit(rp_bpf_user_ringbuf *ur, void *sample, bool discard)
{
	if (!ur || !ur->prod_map || !sample)
		return -EINVAL;
	const uintptr_t p = (uintptr_t)sample, d = (uintptr_t)ur->data;
	/* _reserve returns data + off + 8 with off + 8 <= size */
	if (p < d + 8 || p - d > ur->size) {
		ur->last_error = RP_E_UR_OFF;
		return RP_E_UR_OFF;
	}
	const int st = rp_user_ring_commit(ur->data, ur->size, (uint64_t)(p - d - 8), discard);
	if (st != RP_OK)
		ur->last_error = st;
	return st;
}

int rp_bpf_user_ringbuf_submit(rp_bpf_user_ringbuf *ur, void *sample)
{
	return commit(ur, sample, false);
}

int rp_bpf_user_ringbuf_discard(rp_bpf_user_ringbuf *ur, void *sample)
{
	return commit(ur, sample, true);
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void *rp_bpf_user_ringbuf_reserve_blocking(rp_bpf_user_ringbuf *ur, uint32_t len,
                                           int timeout_ms)
{
	if (!ur || !ur->prod_map || timeout_ms < -1) {
		errno = EINVAL;
		return NULL;
	}
	const int64_t deadline = timeout_ms < 0 ? 0 : now_ns() + (int64_t)timeout_ms * 1000000;
	for (;;) {
		void *s = rp_bpf_user_ringbuf_reserve(ur, len);
		if (s || errno != ENOSPC)
			return s;
		int wait_ms = -1;
		if (timeout_ms >= 0) {
			const int64_t left = deadline - now_ns();
			if (left <= 0)
				break;
			/* round up: never wake before the deadline only to sleep again */
			wait_ms = (int)((left + 999999) / 1000000);
		}
		struct epoll_event ev;
		if (epoll_wait(ur->epfd, &ev, 1, wait_ms) < 0) {
			const int e = errno; /* EINTR: the caller decides whether to retry */
			ur->last_error = -e;
			errno = e;
			return NULL;
		}
	}
	/* the deadline passed: one last attempt (room may have appeared since) */
	return rp_bpf_user_ringbuf_reserve(ur, len);
}

int rp_bpf_user_ringbuf_last_error(const rp_bpf_user_ringbuf *ur)
{
	return ur ? ur->last_error : -EINVAL;
}

uint64_t rp_bpf_user_ringbuf_size(const rp_bpf_user_ringbuf *ur)
{
	return ur ? ur->size : 0;
}

uint64_t rp_bpf_user_ringbuf_used(const rp_bpf_user_ringbuf *ur)
{
	if (!ur || !ur->prod_map)
		return 0;
	return rp_pos_dist(ur->producer, load_consumer(ur));
}

int rp_bpf_user_ringbuf_epoll_fd(const rp_bpf_user_ringbuf *ur)
{
	return ur ? ur->epfd : -EINVAL;
}
