/* What the perf buffer set's files share (internal: not installed, not
 * exported).  rp_perf_buffer.c delivers records and schedules the rings (no
 * libbpf, no system call: a fuzz harness compiles it over in-memory rings);
 * rp_perf_buffer_open.c opens the rings (map checks, perf_event_open, mmap,
 * map slot writes, epoll), waits on epoll for poll, pauses and frees. */
#ifndef RP_PERF_BUFFER_INT_H
#define RP_PERF_BUFFER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "rp_adapter_int.h"
#include "rp_perf_buffer.h"

typedef struct rp_perf_buffer_cpu {
	int cpu;
	int key;      /* map key */
	int fd;
	bool in_map;  /* map slot written by us */
	bool pending; /* epoll reported it, its records not all consumed yet */
	rp_perf_ring ring;
} rp_perf_buffer_cpu;

struct rp_perf_buffer {
	int map_fd;
	bool own_map_fd;
	int epoll_fd;
	rp_perf_record_fn fn;
	rp_perf_sample_fn sample_fn;
	rp_perf_lost_fn lost_fn;
	rp_perf_buffer_batch_fn batch_fn;
	rp_perf_buffer_samples_fn samples_fn;
	void *ctx;
	int *left_out;     /* online CPUs without a map entry */
	uint32_t nleft_out;
	uint32_t npending; /* rings with pending set */
	uint32_t resume;   /* where the next drain of pending rings starts */
	uint32_t n;
	rp_perf_buffer_cpu rings[];
};

/* Ring indices reported per wait (the epoll_wait batch). */
#define RP_PERF_BUFFER_WAIT_MAX 64u

/* Wait up to timeout_ms for ready rings and write their indices (as epoll
 * reports them: unchecked) into ready[0 .. n - 1], n <= max.  Returns n, or
 * -errno (-EINTR included).  rp_perf_buffer_poll's is epoll_wait on
 * pb->epoll_fd (rp_perf_buffer_open.c). */
typedef int (*rp_perf_buffer_wait_fn)(rp_perf_buffer *pb, int timeout_ms, uint32_t *ready,
                                      uint32_t max);

/* Mark ready[0 .. n - 1] pending (indices >= pb->n ignored: the rings a
 * wakeup reported), then drain the pending rings (in ring order from where
 * the last stop was).  Returns as rp_perf_buffer_poll. */
int rp_perf_buffer_ready_consume(rp_perf_buffer *pb, const uint32_t *ready,
                                 uint32_t n);

/* rp_perf_buffer_poll with its wait made by wait (pb non-NULL). */
int rp_perf_buffer_poll_wait(rp_perf_buffer *pb, int timeout_ms,
                             rp_perf_buffer_wait_fn wait);

#endif
