/* Overwrite perf rings: events opened with attr.write_backward = 1 and
 * mapped read-only, so the kernel keeps overwriting the oldest data (SPEC.md
 * §5).  Reading is a snapshot: pause output (PERF_EVENT_IOC_PAUSE_OUTPUT),
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
 * The mapping is the adapters' rp_perf_ring_map(..., RP_RING_OVERWRITE).
 * Functions return 0 or a count, or a negative code (-errno, RP_E_*).
 */
#ifndef RP_OVERWRITE_LINUX_H
#define RP_OVERWRITE_LINUX_H

#include <stdint.h>

#include "rp_backward.h"
#include "rp_perf_ring.h"

/* What one read saw. */
typedef struct rp_overwrite_report {
	uint64_t head;              /* data_head of this snapshot */
	uint64_t new_bytes;         /* bytes written since the previous read */
	uint64_t read_bytes;        /* of those, bytes walked and delivered */
	uint64_t overwritten_bytes; /* new_bytes - read_bytes: not readable any more */
	uint32_t records;           /* records delivered */
	uint64_t lost;              /* sum of LOST counts among them */
	int end;                    /* why the walk ended: RP_EMPTY (previous head
	                               reached or whole ring walked), RP_BW_END_*,
	                               or an RP_E_BW_* error */
} rp_overwrite_report;

typedef struct rp_overwrite_stats {
	uint64_t reads;
	uint64_t records;
	uint64_t bytes;
	uint64_t lost;              /* sum of LOST counts */
	uint64_t lost_records;
	uint64_t overwritten_bytes;
	uint64_t corrupt;           /* walks that ended in an RP_E_BW_* error */
	int last_error;
} rp_overwrite_stats;

typedef struct rp_overwrite_ring {
	rp_perf_ring ring;   /* mapped read-only */
	uint8_t *scratch;    /* record copies, RP_OVERWRITE_SCRATCH bytes */
	uint64_t prev_head;  /* data_head at the previous read */
	rp_overwrite_stats stats;
} rp_overwrite_ring;

#define RP_OVERWRITE_SCRATCH 65536u /* any record body (< 64 KiB) fits */

/* Map fd (a write_backward event) read-only with 1 + data_pages pages. */
int rp_overwrite_map(rp_overwrite_ring *ow, int fd, uint32_t data_pages);
void rp_overwrite_unmap(rp_overwrite_ring *ow);

/* Pause, walk the records written since the previous read newest first
 * into fn (rec and its body borrowed: valid during the call; a non-zero
 * return stops the walk), resume.  *rep (optional) describes the read.
 * Returns the records delivered or a negative code (pause/resume failure). */
int rp_overwrite_read(rp_overwrite_ring *ow, rp_record_fn fn, void *ctx,
                      rp_overwrite_report *rep);

#endif
