/* Overwrite perf rings: events opened with attr.write_backward = 1 and
 * mapped read-only, so the kernel keeps overwriting the oldest data
 * (docs/abi.md).  Reading is a snapshot: pause output (PERF_EVENT_IOC_PAUSE_OUTPUT),
 * acquire-load data_head, walk newest first through the verified core
 * (core/rp_backward.h: each record is copied into scratch and validated
 * there), resume.
 *
 * Each read delivers the records written since the previous read (newest
 * first) and reports what it could not deliver: bytes written since the
 * previous read that were already overwritten, and the LOST records the
 * kernel emits after a resume for writes dropped while paused (those show
 * up at the next read).
 *
 * The mapping is the adapters' rp_perf_ring_map(..., RP_PERF_OVERWRITE).
 * Functions return 0 or a count, or a negative code (-errno, RP_E_*).
 */
#ifndef RP_PERF_OVERWRITE_H
#define RP_PERF_OVERWRITE_H

#include <stdint.h>

#include "rp_backward.h"
#include "rp_perf_ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one read saw. */
typedef struct rp_perf_overwrite_report {
	uint64_t head;              /* data_head of this snapshot */
	uint64_t new_bytes;         /* bytes written since the previous read */
	uint64_t read_bytes;        /* of those, bytes walked and delivered */
	uint64_t overwritten_bytes; /* of those, bytes not readable any more */
	uint64_t unread_bytes;      /* of those, bytes older than the record the
	                               callback stopped at, not delivered:
	                               new_bytes = read_bytes + overwritten_bytes
	                               + unread_bytes */
	uint32_t records;           /* records delivered */
	uint64_t lost;              /* sum of LOST counts among them */
	int stopped;                /* 1 if the callback stopped the walk */
	int end;                    /* why the walk ended: RP_EMPTY (previous head
	                               reached or whole ring walked), RP_MORE (the
	                               callback stopped it), RP_BW_END_*, or an
	                               RP_E_BW_* error */
} rp_perf_overwrite_report;

typedef struct rp_perf_overwrite_stats {
	rp_perf_stats perf;         /* records, bytes, LOST, corrupt walks (RP_E_BW_*) */
	uint64_t reads;
	uint64_t overwritten_bytes;
	uint64_t unread_bytes;      /* declined by a callback's stop */
} rp_perf_overwrite_stats;

typedef struct rp_perf_overwrite_ring {
	rp_perf_ring ring;   /* mapped read-only */
	uint8_t *scratch;    /* record copies, RP_PERF_OVERWRITE_SCRATCH bytes */
	uint64_t prev_head;  /* data_head at the previous read */
	rp_perf_overwrite_stats stats;
} rp_perf_overwrite_ring;

#define RP_PERF_OVERWRITE_SCRATCH 65536u /* any record body (< 64 KiB) fits */

/* Map fd (a write_backward event) read-only with 1 + data_pages pages. */
int rp_perf_overwrite_map(rp_perf_overwrite_ring *ow, int fd, uint32_t data_pages);
void rp_perf_overwrite_unmap(rp_perf_overwrite_ring *ow);

/* Pause, walk the records written since the previous read newest first
 * into fn (rec and its body borrowed: valid during the call), resume.  A
 * non-zero return stops the walk and ends the snapshot: the next read
 * starts at the records written after this one (the kernel overwrites the
 * older ones once output resumes), and the bytes not delivered are counted
 * in unread_bytes.  *rep (optional) describes the read.
 * Returns the records delivered or a negative code (pause/resume failure). */
int rp_perf_overwrite_read(rp_perf_overwrite_ring *ow, rp_perf_ring_fn fn, void *ctx,
                      rp_perf_overwrite_report *rep);

#ifdef __cplusplus
}
#endif

#endif
