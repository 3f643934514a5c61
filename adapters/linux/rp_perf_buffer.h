/* A per-CPU perf buffer set bound into a BPF_MAP_TYPE_PERF_EVENT_ARRAY map
 * (what libbpf's perf_buffer__new does): one BPF-output event and one ring
 * per online CPU that fits the map, each fd stored at key = CPU id, one
 * epoll over all rings.
 *
 * Single consumer thread: the functions on one set must not run
 * concurrently.  Returns: 0 / a count on success, negative codes on error
 * (rp_error.h).
 *
 * Drain results (poll, consume, consume_ring):
 *   >= 0  callbacks made (records in record mode, samples + LOST reports in
 *         payload and samples mode, records in batch mode);
 *   < 0   a callback's own negative return (the drain stops there, as
 *         libbpf's perf_buffer__poll does), or -errno from epoll, or, after
 *         every other ring was drained, the RP_E_* status of the first
 *         strict ring that is stopped at a corruption
 *         (rp_perf_buffer_ring_error says which; rp_perf_buffer_resync_ring
 *         steps over it).
 * A callback that returns > 0 stops the drain after that record (consumed)
 * and the call returns the count without draining the other rings; the next
 * poll or consume goes on from there.  A strict ring's status that a call
 * met but does not return (it was stopped by a callback's > 0 or < 0, or
 * another strict ring's status came first) is returned by a later poll or
 * consume instead, one per call (the ring stays pending): no ring's stop
 * goes unreported, even a full one epoll will not report again. */
#ifndef RP_PERF_BUFFER_H
#define RP_PERF_BUFFER_H

#include <linux/perf_event.h>
#include <stdint.h>

#include "rp_perf_ring.h"
#include "rp_views.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_perf_buffer rp_perf_buffer;

typedef struct rp_perf_buffer_opts {
	uint32_t data_pages;   /* per CPU, power of two; 0 = 8 */
	uint32_t wakeup_events; /* wake after n records (default 1 if both 0) */
	uint32_t wakeup_bytes;  /* or after n bytes (watermark); wins if set */
	unsigned ring_flags;    /* RP_STRICT, RP_PERF_PREFETCH (RP_PERF_BUFFER_FLAGS) */
} rp_perf_buffer_opts;

/* Every record, with the CPU it came from (rp_perf_ring_fn return values). */
typedef int (*rp_perf_record_fn)(void *ctx, int cpu, const rp_record *rec);
/* Convenience callbacks, libbpf's perf_buffer shape: a BPF-output payload,
 * size bytes at data in one piece (the raw size: it includes the kernel's
 * padding, whose bytes are stale; a payload that wraps the ring end is
 * copied, as libbpf does), borrowed for the call; and a LOST count.  Either
 * may be NULL. */
typedef int (*rp_perf_sample_fn)(void *ctx, int cpu, const void *data, uint32_t size);
typedef int (*rp_perf_lost_fn)(void *ctx, int cpu, uint64_t lost);
/* Batch delivery: recs[0 .. n - 1] (1 <= n <= RP_PERF_BATCH) from one CPU's
 * ring, in ring order, one call per batch; samples and LOST records alike
 * (rp_bpf_output_view / rp_lost_view decode them).  Return values as
 * rp_perf_record_fn; a non-zero return consumes the whole batch. */
typedef int (*rp_perf_buffer_batch_fn)(void *ctx, int cpu, const rp_record *recs,
                                       uint32_t n);
/* Sample batch delivery: s[0 .. n - 1] (1 <= n <= RP_PERF_BATCH), the
 * consecutive BPF-output samples of one CPU's ring in ring order, one call
 * per batch (rp_perf_samples_fn: payload spans of raw_size bytes, padding
 * included).  Return values as rp_perf_record_fn; a non-zero return
 * consumes the whole batch. */
typedef int (*rp_perf_buffer_samples_fn)(void *ctx, int cpu, const rp_payload *s,
                                         uint32_t n);

/* Open the set on map_fd (not owned; it must stay open until free).
 * RP_E_MAP_TYPE if the map is not a PERF_EVENT_ARRAY, RP_E_MAP_SMALL if no
 * online CPU id is below max_entries (CPUs at or above it are left out, as
 * libbpf does: rp_perf_buffer_left_out lists them), -EBADF for a bad fd,
 * RP_E_PAGE_COUNT for a data_pages that is not a power of two, -EINVAL for
 * other bad opts (unknown ring_flags bits).  opts may be NULL. */
int rp_perf_buffer_new(int map_fd, const rp_perf_buffer_opts *opts,
                       rp_perf_record_fn fn, void *ctx, rp_perf_buffer **out);
/* The same with the payload/LOST convenience callbacks.  Records that are
 * neither a valid BPF-output sample nor LOST are counted per CPU in
 * rp_perf_stats.malformed and skipped. */
int rp_perf_buffer_new_payload(int map_fd, const rp_perf_buffer_opts *opts,
                               rp_perf_sample_fn sample, rp_perf_lost_fn lost,
                               void *ctx, rp_perf_buffer **out);
/* The same with batch delivery. */
int rp_perf_buffer_new_batch(int map_fd, const rp_perf_buffer_opts *opts,
                             rp_perf_buffer_batch_fn fn, void *ctx,
                             rp_perf_buffer **out);
/* Payload mode in batches, on the core's fused BPF-output walk
 * (rp_perf_ring_drain_samples): BPF-output samples to `samples` one batch
 * per call (required: -EINVAL if NULL), each LOST between them to `lost`
 * (may be NULL), in ring order; records that are neither are counted in
 * rp_perf_stats.malformed and skipped, as in payload mode. */
int rp_perf_buffer_new_samples(int map_fd, const rp_perf_buffer_opts *opts,
                               rp_perf_buffer_samples_fn samples, rp_perf_lost_fn lost,
                               void *ctx, rp_perf_buffer **out);
/* The same on a pinned map (bpf_obj_get); the set owns and closes that map fd. */
int rp_perf_buffer_new_pinned(const char *path, const rp_perf_buffer_opts *opts,
                              rp_perf_record_fn fn, void *ctx,
                              rp_perf_buffer **out);

/* perf_buffer__new_raw: the caller's perf_event_attr (any sample_type,
 * wakeup, clock; copied, attr->size 0 means sizeof), on cpu_cnt CPUs
 * cpus[i], each ring stored at map key map_keys[i] (map_keys NULL: key =
 * CPU id).  cpu_cnt 0: every online CPU, key = CPU id.  Records are
 * delivered with fn (record mode, since the layout is the caller's). */
typedef struct rp_perf_buffer_raw_opts {
	uint32_t data_pages;    /* per CPU, power of two; 0 = 8 */
	unsigned ring_flags;    /* as rp_perf_buffer_opts' */
	uint32_t cpu_cnt;
	const int *cpus;
	const int *map_keys;
} rp_perf_buffer_raw_opts;
int rp_perf_buffer_new_raw(int map_fd, const struct perf_event_attr *attr,
                           const rp_perf_buffer_raw_opts *opts,
                           rp_perf_record_fn fn, void *ctx, rp_perf_buffer **out);

/* Wait up to timeout_ms (-1 forever, 0 no wait) for a ready ring, then
 * drain the ready rings.  Returns as described above; -EINTR as is.  The
 * records a callback's stop left behind (in its ring and in the other rings
 * epoll had reported) are drained by the next poll first, without waiting:
 * the kernel reports a perf ring once per wakeup, not while it holds data. */
int rp_perf_buffer_poll(rp_perf_buffer *pb, int timeout_ms);
/* Drain every ring without waiting. */
int rp_perf_buffer_consume(rp_perf_buffer *pb);
/* Drain one ring by index (0 .. rp_perf_buffer_ring_count - 1). */
int rp_perf_buffer_consume_ring(rp_perf_buffer *pb, uint32_t idx);
/* The epoll fd (data.u32 = ring index) for own loops.  A perf fd is
 * reported once per wakeup (the kernel clears its ready state when polled),
 * not while data waits: a loop of its own must drain a reported ring
 * (rp_perf_buffer_consume_ring) until it returns without a callback's stop,
 * or remember it. */
int rp_perf_buffer_epoll_fd(const rp_perf_buffer *pb);

/* The RP_E_* status ring idx is stopped at (strict mode), 0 if it is
 * healthy, -EINVAL if idx is out of range. */
int rp_perf_buffer_ring_error(const rp_perf_buffer *pb, uint32_t idx);
/* Step over the corruption of ring idx (rp_perf_ring_resync) and let it
 * drain again. */
int rp_perf_buffer_resync_ring(rp_perf_buffer *pb, uint32_t idx);

/* PERF_EVENT_IOC_PAUSE_OUTPUT on every ring: writes while paused are
 * dropped and reported as one LOST record after resume. */
int rp_perf_buffer_pause(rp_perf_buffer *pb);
int rp_perf_buffer_resume(rp_perf_buffer *pb);

uint32_t rp_perf_buffer_ring_count(const rp_perf_buffer *pb);
/* CPU id of ring idx, or -1 if idx is out of range. */
int rp_perf_buffer_ring_cpu(const rp_perf_buffer *pb, uint32_t idx);
/* The event fd of ring idx (-1 if out of range). */
int rp_perf_buffer_ring_fd(const rp_perf_buffer *pb, uint32_t idx);
/* Online CPUs left out because the map has no entry for them: up to max
 * ids into ids (may be NULL if max is 0); returns how many were left out. */
uint32_t rp_perf_buffer_left_out(const rp_perf_buffer *pb, int *ids, uint32_t max);
/* Statistics of the ring of this CPU id: 0, or -ENOENT if not in the set. */
int rp_perf_buffer_stats(const rp_perf_buffer *pb, int cpu, rp_perf_stats *out);
/* Sum of every ring's stats.malformed. */
uint64_t rp_perf_buffer_malformed(const rp_perf_buffer *pb);

/* Disable, delete the map entries, unmap, close.  NULL is ignored. */
void rp_perf_buffer_free(rp_perf_buffer *pb);

/* Online CPU ids (from /sys/devices/system/cpu/online, gaps allowed) into
 * ids[0 .. *n - 1].  -ENOSPC if more than max, RP_E_CPU_LIST on bad text. */
int rp_online_cpus(int *ids, uint32_t max, uint32_t *n);
/* The parser behind it, for any kernel CPU list text ("0-3,5,8-9\n"). */
int rp_parse_cpu_list(const char *text, int *ids, uint32_t max, uint32_t *n);

#ifdef __cplusplus
}
#endif

#endif
