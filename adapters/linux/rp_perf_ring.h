/* One mapped perf ring: mmap, drain through the verified core, unmap.
 *
 * Forward rings are mapped read-write (the kernel then honours data_tail and
 * drops what does not fit, reporting LOST later).  Overwrite rings
 * (RP_PERF_OVERWRITE) are mapped read-only; they are walked by the backward
 * adapter, not by rp_perf_ring_drain.
 *
 * Drain protocol (docs/abi.md): acquire-load data_head once, decode
 * [tail, head) with the core (its iterator for the per-record drains, so
 * that each record is handed over as soon as it is decoded, and for the
 * sample batches, which it fills as it walks; rp_ring_drain in stack
 * batches for the record batches), hand the records to the caller, then
 * release-store data_tail once, after the caller is done with the borrowed
 * bytes.  A record's body points into the mapping and is valid only until
 * the next drain/commit on this ring.
 */
#ifndef RP_PERF_RING_H
#define RP_PERF_RING_H

#include <stddef.h>
#include <stdint.h>

#include "rp_adapter.h"
#include "rp_ring.h"

#ifdef __cplusplus
extern "C" {
#endif


/* What a ring has seen, cumulative since it was mapped.  Shared by every
 * perf adapter (forward, backward, overwrite rings and perf buffer sets) and
 * filled by rp_perf_stats_add only.  Counters saturate instead of wrapping. */
typedef struct rp_perf_stats {
	uint64_t records;        /* records handed to the caller (all types) */
	uint64_t record_bytes;   /* bytes those records occupy, headers included */
	uint64_t payload_bytes;  /* bytes after their headers (record_bytes - 8 * records) */
	uint64_t lost;           /* sum of PERF_RECORD_LOST counts */
	uint64_t lost_records;   /* number of PERF_RECORD_LOST records */
	uint64_t malformed;      /* of those, records a payload API skipped (neither
	                            a valid BPF-output sample nor LOST) */
	uint64_t copied;         /* payloads copied to hand them over in one piece
	                            (they wrapped the ring end): the payload APIs,
	                            rp_perf_ring_contiguous */
	uint64_t corrupt;        /* corruption events (each distinct bad state once) */
	uint64_t resynced_bytes; /* bytes skipped by resynchronising the tail */
	int last_error;          /* last corruption status (RP_E_*), 0 if none */
} rp_perf_stats;

/* Count n delivered records in *stats: records, bytes, LOST counts. */
void rp_perf_stats_add(rp_perf_stats *stats, const rp_record *recs, uint32_t n);

typedef struct rp_perf_ring {
	int fd;               /* the event fd; not owned, not closed by unmap */
	unsigned flags;       /* enum rp_adapter_flags (RP_PERF_RING_FLAGS) */
	void *base;           /* the mapping: control page then data */
	size_t map_len;       /* (1 + data pages) * page size */
	rp_ring data;         /* data area, size = data_size (a power of two) */
	uint64_t tail;        /* consumer position not yet published */
	uint64_t bad_head;    /* last untrusted data_head seen (if bad_head_seen) */
	int bad_head_seen;    /* bad_head is valid: the same value is not recounted */
	int error;            /* strict mode: the RP_E_* status the ring is stopped
	                         at (0 = healthy); cleared by rp_perf_ring_resync */
	rp_perf_stats stats;
	uint8_t *scratch;     /* a wrapped payload in one piece (the payload drain) */
	uint32_t scratch_size;
} rp_perf_ring;

/* Map fd with 1 + data_pages pages.  data_pages must be a power of two
 * (>= 1): RP_E_PAGE_COUNT otherwise, before any mmap.  flags: a subset of
 * RP_PERF_RING_FLAGS, -EINVAL for any other bit; -EBADF for a bad fd.  After
 * mapping, data_offset/data_size are read from the control page and checked
 * (RP_E_DATA_SIZE unless data_size is a power of two that fits the
 * mapping).  On error *ring is left unmapped (base == NULL). */
int rp_perf_ring_map(rp_perf_ring *ring, int fd, uint32_t data_pages,
                     unsigned flags);

/* Unmap; safe on a zeroed or already unmapped ring.  Does not close fd. */
void rp_perf_ring_unmap(rp_perf_ring *ring);

/* Acquire-load data_head / data_tail from the control page. */
uint64_t rp_perf_ring_head(const rp_perf_ring *ring);
uint64_t rp_perf_ring_tail(const rp_perf_ring *ring);

/* Called for each record.  Return 0 to continue; > 0 to stop the drain
 * after this record (it counts as consumed; the drain returns its count);
 * < 0 to stop likewise and make the drain return that value (an error of
 * the caller's, as libbpf's ring_buffer__poll does).  rec and its body are
 * borrowed: valid only during the call. */
typedef int (*rp_perf_ring_fn)(void *ctx, const rp_record *rec);

/* Batch delivery: called once per batch with recs[0 .. n - 1] (n >= 1, at
 * most RP_PERF_BATCH), in ring order.  Return values as rp_perf_ring_fn;
 * a non-zero return consumes the whole batch.  Borrowed as above: the
 * array and the bodies are valid only during the call. */
typedef int (*rp_perf_batch_fn)(void *ctx, const rp_record *recs, uint32_t n);

/* Records decoded per batch: at most 64 rp_record descriptors (2.5 KiB),
 * and after the first batch of a drain about as many as span
 * RP_BATCH_BYTES of the ring (rp_adapter.h). */
#define RP_PERF_BATCH 64u
#define RP_PERF_BATCH_BYTES RP_BATCH_BYTES /* the perf rings' name for it */

/* Deliver every record in [tail, head) to fn, then publish the tail once.
 * max_records = 0 means no limit.  Returns the number of records delivered
 * (>= 0), or a negative code: a callback's negative return, -EINVAL for bad
 * arguments, or (RP_STRICT) the RP_E_* status of a corrupt ring.
 *
 * Corrupt ring, default policy (the core refused the record at tail):
 *   - data_head trusted only if it is 8-aligned and at most the ring size
 *     ahead of tail (what the kernel can have written): tail then skips the
 *     unreadable bytes [tail, head) (stats.resynced_bytes), and the next
 *     record the kernel writes is delivered;
 *   - any other data_head (misaligned, more than the ring size ahead, or
 *     behind tail) is not trusted: tail stays where the last good record
 *     ended, and the next record the kernel writes (which republishes
 *     data_head) is delivered.  The same bad value is counted once.
 * Each corruption counts once in stats.corrupt and sets stats.last_error;
 * the drain returns the records delivered.
 * RP_STRICT: the records before the corruption are committed, the ring
 * stops (ring.error) and every drain returns that status until
 * rp_perf_ring_resync. */
int rp_perf_ring_drain(rp_perf_ring *ring, rp_perf_ring_fn fn, void *ctx,
                       uint32_t max_records);
/* The same, one call per batch of up to RP_PERF_BATCH records. */
int rp_perf_ring_drain_batch(rp_perf_ring *ring, rp_perf_batch_fn fn, void *ctx,
                             uint32_t max_records);

/* Sample batch delivery: called once per batch with s[0 .. n - 1]
 * (1 <= n <= RP_PERF_BATCH), the payloads of consecutive BPF-output
 * samples in ring order, each in one piece (rp_payload, rp_adapter.h: the
 * raw size, the kernel's padding included, whose bytes are stale; a payload
 * that wraps the ring end copied as for rp_perf_payload_fn).  Return values
 * as rp_perf_ring_fn; a non-zero return consumes the whole batch.
 * Borrowed: the array and the payloads are valid only during the call. */
typedef int (*rp_perf_samples_fn)(void *ctx, const rp_payload *s, uint32_t n);

/* Payload batch drain of a ring of BPF-output events, on the core's
 * iterator (rp_ring_iter_next_bpf: one header load per record, compared
 * with the header before it, and one raw-size load), the batch filled as
 * the walk goes.  Samples go to fn in batches of up to RP_PERF_BATCH, sized
 * as rp_perf_ring_drain_batch's.  Every other record (LOST, another type, a
 * SAMPLE that rp_bpf_output_view refuses) ends the batch before it and goes
 * alone to other, in ring order; with other NULL it is skipped and counted
 * as the payload APIs count it (a LOST in stats.lost / lost_records,
 * anything else in stats.malformed).  Returns the number of records
 * consumed (samples, plus records handed to other or skipped: what
 * stats.records grows by), which max_records bounds; otherwise as
 * rp_perf_ring_drain_batch: -EINVAL (ring, fn NULL), a callback's negative
 * return, the same corruption policy and strict mode, the tail published
 * once.  Samples before a corrupt record are delivered before the policy
 * applies.  -ENOMEM as rp_perf_ring_drain_payloads: the samples before the
 * one that could not be copied are delivered. */
int rp_perf_ring_drain_samples(rp_perf_ring *ring, rp_perf_samples_fn fn,
                               rp_perf_ring_fn other, void *ctx, uint32_t max_records);

/* Per-sample delivery, libbpf's sample callback: called once per
 * BPF-output sample, in ring order, with its payload in one piece: size
 * bytes at data (the raw size, the kernel's padding included), in the ring,
 * or, for a payload that wraps the ring end, copied into a buffer of the
 * ring's (rp_perf_ring.scratch, grown as needed, freed by unmap), as libbpf
 * copies it.  Borrowed: valid only during the call.  Return values as
 * rp_perf_ring_fn: non-zero stops after this sample. */
typedef int (*rp_perf_payload_fn)(void *ctx, const void *data, uint32_t size);

/* One call per BPF-output sample, made as soon as the core's iterator
 * (rp_ring_iter_next_bpf) decoded it: the counterpart of libbpf's
 * perf_buffer sample callback.  Other records go to other as in
 * rp_perf_ring_drain_samples; returns, budget, errors and corruption policy
 * as there, and a callback that stops the drain leaves the samples after
 * its own to the next drain.  -ENOMEM: a wrapped payload could not be
 * copied; the drain stops before that sample (it stays in the ring, the
 * samples before it are delivered and published). */
int rp_perf_ring_drain_payloads(rp_perf_ring *ring, rp_perf_payload_fn fn,
                                rp_perf_ring_fn other, void *ctx, uint32_t max_records);

/* The payload span data in one piece: data->p0 if it does not wrap, else
 * a copy in the ring's scratch buffer (NULL: no memory to grow it).  Valid
 * until the next call on this ring. */
const uint8_t *rp_perf_ring_contiguous(rp_perf_ring *ring, const rp_span *data);

/* Resynchronise a ring on request: move tail to the current data_head if
 * it is 8-aligned (even one more than the ring size ahead: the caller
 * decided), keep it otherwise (as the default policy), clear ring.error and
 * publish.  Returns 0, or -EINVAL for a ring that is not mapped forward. */
int rp_perf_ring_resync(rp_perf_ring *ring);

/* Batch form: decode up to max records starting at the unpublished tail
 * into recs (borrowed), without publishing.  Returns the count (>= 0) or,
 * strict policy only, a negative RP_E_* status: the good records before a
 * corruption come first, with their count, and the peeks after return the
 * status until rp_perf_ring_resync.  Call rp_perf_ring_commit
 * when done with the records; peeks between commits continue where the
 * previous one stopped. */
int rp_perf_ring_peek(rp_perf_ring *ring, rp_record *recs, uint32_t max);
/* Release-store the consumer position up to everything peeked so far. */
void rp_perf_ring_commit(rp_perf_ring *ring);

#ifdef __cplusplus
}
#endif

#endif
