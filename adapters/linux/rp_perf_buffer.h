/* A per-CPU perf buffer set bound into a BPF_MAP_TYPE_PERF_EVENT_ARRAY map
 * (what libbpf's perf_buffer__new does): one BPF-output event and one ring
 * per online CPU, each fd stored at key = CPU id, one epoll over all rings.
 *
 * Single consumer thread: the functions on one set must not run
 * concurrently.  Returns: 0 / a count on success, negative codes on error
 * (rp_error.h). */
#ifndef RP_PERF_BUFFER_H
#define RP_PERF_BUFFER_H

#include <stdint.h>

#include "rp_perf_ring.h"
#include "rp_views.h"

typedef struct rp_perf_buffer rp_perf_buffer;

typedef struct rp_perf_buffer_opts {
	uint32_t data_pages;   /* per CPU, power of two; 0 = 8 */
	uint32_t wakeup_events; /* wake after n records (default 1 if both 0) */
	uint32_t wakeup_bytes;  /* or after n bytes (watermark); wins if set */
	unsigned ring_flags;    /* RP_RING_STRICT to stop on corruption */
} rp_perf_buffer_opts;

/* Every record, with the CPU it came from.  Return non-zero to stop early:
 * that record counts as consumed, and the poll/consume call returns after
 * that ring without draining the others. */
typedef int (*rp_perf_record_fn)(void *ctx, int cpu, const rp_record *rec);
/* Convenience callbacks: a BPF-output payload (raw_size includes padding;
 * the padding bytes are stale) and a LOST count.  Either may be NULL. */
typedef int (*rp_perf_sample_fn)(void *ctx, int cpu, const rp_bpf_output *out);
typedef int (*rp_perf_lost_fn)(void *ctx, int cpu, uint64_t lost);

/* Open the set on map_fd (not owned; it must stay open until free).
 * RP_E_MAP_TYPE if the map is not a PERF_EVENT_ARRAY, RP_E_MAP_SMALL if an
 * online CPU id is >= max_entries, -EBADF for a bad fd, -EINVAL for bad
 * opts.  opts may be NULL. */
int rp_perf_buffer_new(int map_fd, const rp_perf_buffer_opts *opts,
                       rp_perf_record_fn fn, void *ctx, rp_perf_buffer **out);
/* The same with the payload/LOST convenience callbacks.  Records that are
 * neither a valid BPF-output sample nor LOST are counted in
 * rp_perf_buffer_malformed and skipped. */
int rp_perf_buffer_new_payload(int map_fd, const rp_perf_buffer_opts *opts,
                               rp_perf_sample_fn sample, rp_perf_lost_fn lost,
                               void *ctx, rp_perf_buffer **out);
/* Open a pinned map (bpf_obj_get); the set owns and closes that map fd. */
int rp_perf_buffer_new_pinned(const char *path, const rp_perf_buffer_opts *opts,
                              rp_perf_record_fn fn, void *ctx,
                              rp_perf_buffer **out);

/* Wait up to timeout_ms (-1 forever, 0 no wait) for a ready ring, then
 * drain the ready rings.  Returns records delivered (>= 0) or an error;
 * -EINTR is returned as is. */
int rp_perf_buffer_poll(rp_perf_buffer *pb, int timeout_ms);
/* Drain every ring without waiting.  Returns records delivered. */
int rp_perf_buffer_consume(rp_perf_buffer *pb);
/* Drain one ring by index (0 .. rp_perf_buffer_ring_count - 1). */
int rp_perf_buffer_consume_ring(rp_perf_buffer *pb, uint32_t idx);
/* The epoll fd (level-triggered, data.u32 = ring index) for own loops. */
int rp_perf_buffer_epoll_fd(const rp_perf_buffer *pb);

/* PERF_EVENT_IOC_PAUSE_OUTPUT on every ring: writes while paused are
 * dropped and reported as one LOST record after resume. */
int rp_perf_buffer_pause(rp_perf_buffer *pb);
int rp_perf_buffer_resume(rp_perf_buffer *pb);

uint32_t rp_perf_buffer_ring_count(const rp_perf_buffer *pb);
/* CPU id of ring idx, or -1 if idx is out of range. */
int rp_perf_buffer_ring_cpu(const rp_perf_buffer *pb, uint32_t idx);
/* The event fd of ring idx (-1 if out of range). */
int rp_perf_buffer_ring_fd(const rp_perf_buffer *pb, uint32_t idx);
/* Statistics of the ring of this CPU id: 0, or -ENOENT if not in the set. */
int rp_perf_buffer_stats(const rp_perf_buffer *pb, int cpu, rp_ring_stats *out);
/* Records skipped by the payload convenience API as malformed. */
uint64_t rp_perf_buffer_malformed(const rp_perf_buffer *pb);

/* Disable, delete the map entries, unmap, close.  NULL is ignored. */
void rp_perf_buffer_free(rp_perf_buffer *pb);

/* Online CPU ids (from /sys/devices/system/cpu/online, gaps allowed) into
 * ids[0 .. *n - 1].  -ENOSPC if more than max, RP_E_CPU_LIST on bad text. */
int rp_online_cpus(int *ids, uint32_t max, uint32_t *n);
/* The parser behind it, for any kernel CPU list text ("0-3,5,8-9\n"). */
int rp_parse_cpu_list(const char *text, int *ids, uint32_t max, uint32_t *n);

#endif
