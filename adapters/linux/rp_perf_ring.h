/* One mapped perf ring: mmap, drain through the verified core, unmap.
 *
 * Forward rings are mapped read-write (the kernel then honours data_tail and
 * drops what does not fit, reporting LOST later).  Overwrite rings
 * (RP_RING_OVERWRITE) are mapped read-only; they are walked by the backward
 * adapter, not by rp_perf_ring_drain.
 *
 * Drain protocol (SPEC.md §1): acquire-load data_head once, decode
 * [tail, head) with rp_ring_drain in stack batches, hand each record to the
 * caller, then release-store data_tail once, after the caller is done with
 * the borrowed bytes.  A record's body points into the mapping and is valid
 * only until the next drain/commit on this ring.
 */
#ifndef RP_PERF_RING_H
#define RP_PERF_RING_H

#include <stddef.h>
#include <stdint.h>

#include "rp_ring.h"

enum rp_ring_flags {
	RP_RING_OVERWRITE = 1u << 0, /* map PROT_READ only: kernel overwrites */
	RP_RING_STRICT = 1u << 1,    /* stop on a corrupt ring instead of resyncing */
};

/* What a ring has seen, cumulative since it was mapped. */
typedef struct rp_ring_stats {
	uint64_t records;        /* records handed to the caller (all types) */
	uint64_t bytes;          /* their total size, headers included */
	uint64_t lost;           /* sum of PERF_RECORD_LOST counts */
	uint64_t lost_records;   /* number of PERF_RECORD_LOST records */
	uint64_t corrupt;        /* corrupt-ring events (resynced or, if strict, stopped) */
	uint64_t resynced_bytes; /* bytes skipped by resynchronising tail to head */
	int last_error;          /* last corruption status (RP_E_*), 0 if none */
} rp_ring_stats;

/* Count one delivered record in *stats (records, bytes, LOST counts). */
void rp_ring_stats_add(rp_ring_stats *stats, const rp_record *rec);

typedef struct rp_perf_ring {
	int fd;               /* the event fd; not owned, not closed by unmap */
	unsigned flags;       /* enum rp_ring_flags */
	void *base;           /* the mapping: control page then data */
	size_t map_len;       /* (1 + data pages) * page size */
	rp_ring data;         /* data area, size = data_size (a power of two) */
	uint64_t tail;        /* consumer position not yet published */
	rp_ring_stats stats;
} rp_perf_ring;

/* Map fd with 1 + data_pages pages.  data_pages must be a power of two
 * (>= 1): RP_E_PAGE_COUNT otherwise, before any mmap.  After mapping,
 * data_offset/data_size are read from the control page and checked
 * (RP_E_DATA_SIZE unless data_size is a power of two that fits the
 * mapping).  On error *ring is left unmapped (base == NULL). */
int rp_perf_ring_map(rp_perf_ring *ring, int fd, uint32_t data_pages,
                     unsigned flags);

/* Unmap; safe on a zeroed or already unmapped ring.  Does not close fd. */
void rp_perf_ring_unmap(rp_perf_ring *ring);

/* Acquire-load data_head / data_tail from the control page. */
uint64_t rp_perf_ring_head(const rp_perf_ring *ring);
uint64_t rp_perf_ring_tail(const rp_perf_ring *ring);

/* Called for each record; return 0 to continue, non-zero to stop the drain
 * after this record (it counts as consumed).  rec and its body are borrowed:
 * valid only during the call. */
typedef int (*rp_record_fn)(void *ctx, const rp_record *rec);

/* Deliver every record in [tail, head) to fn, then publish the tail once.
 * Returns the number of records delivered (>= 0).  Corrupt ring: by
 * default the status is recorded (stats.corrupt, stats.last_error,
 * stats.resynced_bytes), tail jumps to head and the drain returns normally;
 * with RP_RING_STRICT the records before the corruption are committed and
 * the RP_E_* status is returned.  max_records = 0 means no limit. */
int rp_perf_ring_drain(rp_perf_ring *ring, rp_record_fn fn, void *ctx,
                       uint32_t max_records);

/* Batch form: decode up to max records starting at the unpublished tail
 * into recs (borrowed), without publishing.  Returns the count (>= 0) or,
 * strict policy only, a negative RP_E_* status.  Call rp_perf_ring_commit
 * when done with the records; peeks between commits continue where the
 * previous one stopped. */
int rp_perf_ring_peek(rp_perf_ring *ring, rp_record *recs, uint32_t max);
/* Release-store the consumer position up to everything peeked so far. */
void rp_perf_ring_commit(rp_perf_ring *ring);

#endif
