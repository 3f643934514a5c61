/* Backward non-overwrite perf rings: events opened with
 * attr.write_backward = 1 whose ring is mapped WRITABLE (docs/abi.md).
 *
 * In this mode the kernel writes records at decreasing positions (data_head
 * starts at 0 and goes down as a wrapping u64; each record is laid out front
 * to back starting at data_head) and honours data_tail: it writes a record
 * only if (data_head - data_tail - 1) mod data_size >= its size, otherwise
 * it drops the record, counts it lost (bpf_perf_event_output returns
 * -ENOSPC) and emits a LOST record together with the next write that fits
 * (LOST at the lower address: a drain delivers it just before the record
 * written with it).  Verified on Linux 6.18 by the ringbuf-integration
 * tests; mapped read-only the same event overwrites instead.  The unread records
 * therefore occupy exactly [data_head, data_tail) in increasing addresses,
 * newest first, and are walked by the verified forward core unchanged:
 * rp_ring_drain(data, head = data_tail, &cursor = data_head, ...).
 * Reading frees space by moving data_tail DOWN to data_head.
 *
 * Mapping: rp_perf_ring_map(..., flags without RP_PERF_OVERWRITE), i.e.
 * PROT_READ|PROT_WRITE.  The first mapping of an event decides the mode: the
 * event must not have been mapped read-only before, and must have been
 * opened with write_backward = 1 (the adapter cannot check this).
 *
 * Drain protocol: acquire-load data_head once, walk [head, data_tail)
 * newest first in stack batches, hand each record to fn, then release-store
 * data_tail = head once at the end.  Records are borrowed: valid during the
 * callback only.
 *
 * Callback stop (fn returns non-zero): the kernel frees space only from the
 * data_tail side (the oldest records), so a stop cannot publish a partial
 * tail without losing the older, undelivered records.  Instead the drain
 * publishes nothing (data_tail stays) and remembers the delivered range
 * [head, end of the stopping record) in done[].  The next drain walks from
 * its new head to data_tail, delivering every record except those whose
 * position lies in a remembered range (positions compared as u64 modular
 * distances from the new head), and publishes data_tail = new head only when
 * it completes.  Every record is thus delivered exactly once, newest first
 * within each drain.  While data_tail stays, the kernel keeps dropping what
 * does not fit.
 * The remembered ranges are at most RP_PERF_BACKWARD_RANGES intervals (a new one
 * appears only when a drain stops before reaching the records of the
 * previous ones).  If honouring a stop would need one more, the stop is
 * deferred: the drain keeps delivering until the delivered set fits again
 * (at the latest when it reaches a remembered range) and stops there;
 * stats.deferred_stops counts these.
 *
 * Corrupt ring (the core refuses the record at the cursor): by default the
 * status is counted (stats.corrupt, stats.last_error, stats.resynced_bytes
 * = bytes from the corruption point to data_tail), data_tail is resynced to
 * head, the remembered ranges are cleared and the drain returns its count.
 * A data_head the kernel cannot have written (misaligned, or more than the
 * ring size below data_tail) is never published: data_tail stays, the
 * remembered ranges stay, the bad value is counted once, and the kernel's
 * next record republishes a sane data_head.
 * With RP_STRICT the drain treats the corruption like a callback stop
 * (nothing published, records before it remembered as delivered) and
 * returns the RP_E_* status (also in ring.error); the next drain hits it
 * again without re-delivering or counting it again.  When all
 * RP_PERF_BACKWARD_RANGES ranges are in use and none starts at head, the
 * stop could not be remembered: such a drain first walks to the first
 * range and, meeting the corruption there, stops before delivering
 * anything (the records ahead of it come once RP_STRICT is cleared).  Clear RP_STRICT in
 * ring.flags to resync.  Nothing is ever delivered twice.
 */
#ifndef RP_PERF_BACKWARD_H
#define RP_PERF_BACKWARD_H

#include <stdint.h>

#include "rp_perf_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RP_PERF_BACKWARD_RANGES 8

/* Delivered but unpublished records: ring positions [lo, hi). */
typedef struct rp_perf_backward_range {
	uint64_t lo, hi;
} rp_perf_backward_range;

typedef struct rp_perf_backward_ring {
	rp_perf_ring ring;    /* mapped read-write; ring.tail = published data_tail */
	rp_perf_backward_range done[RP_PERF_BACKWARD_RANGES]; /* in walk order (increasing from head) */
	uint32_t ndone;
	uint64_t deferred_stops; /* stops postponed because done[] was full */
	uint64_t stopped_at;  /* RP_STRICT: where the corruption ring.error is */
	rp_perf_stats stats;  /* cumulative; ring.stats is unused */
} rp_perf_backward_ring;

/* Map fd (a write_backward event) read-write with 1 + data_pages pages
 * (a power of two).  flags: 0 or RP_STRICT; RP_PERF_OVERWRITE is
 * refused (-EINVAL): read-only backward rings are rp_perf_overwrite.h. */
int rp_perf_backward_map(rp_perf_backward_ring *r, int fd, uint32_t data_pages,
                       unsigned flags);
void rp_perf_backward_unmap(rp_perf_backward_ring *r);

/* Deliver the unread records newest first (see above).  Returns the number
 * of records delivered by this call (>= 0), or a negative code: -EINVAL for
 * bad arguments, an RP_E_* status on a corrupt ring in strict mode. */
int rp_perf_backward_drain(rp_perf_backward_ring *r, rp_perf_ring_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif

#endif
