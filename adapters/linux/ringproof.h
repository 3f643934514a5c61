/* ringproof: read Linux perf rings and BPF ring buffers through a decoder
 * proved never to read out of bounds, never to hang and never to accept a
 * malformed record.  One include for the whole public API.
 *
 * Conventions (they hold for every function of the library):
 *   - Return values: 0, or a count (>= 0) of records delivered, on success;
 *     a negative code on failure: -errno from a system call (-EBADF for a
 *     bad fd, -EINVAL for a bad argument or an unknown flag bit), or one of
 *     ringproof's RP_E_* codes (rp_status.h; adapters use -1900 .. -1999).
 *     rp_strerror() gives a text for any of them.  Nothing prints, and
 *     nothing allocates on the drain path but the perf payload drains: to
 *     hand over in one piece a payload that wraps the ring end they copy it
 *     into a buffer of the ring's, grown to the largest such payload (as
 *     libbpf does), and return -ENOMEM, the payload left in the ring, if it
 *     cannot grow.
 *   - Walk statuses (core): RP_EMPTY = caught up, RP_MORE = more remains,
 *     RP_BUSY = the producer has not finished the next record; a negative
 *     status is always an error.
 *   - Callbacks return 0 to go on, > 0 to stop after this record (it counts
 *     as consumed), < 0 to stop and have the drain return that value (as
 *     libbpf's ring_buffer__poll does).  Everything handed to a callback is
 *     borrowed: valid only during the call.
 *   - Flags: one bit space (rp_adapter.h): RP_STRICT (stop a corrupt ring
 *     and report it instead of resynchronising) is accepted by every
 *     adapter; RP_PERF_OVERWRITE by perf ring mapping only.
 *   - Corruption: by default a ring skips what it cannot decode, but never
 *     past a position the kernel can have written, counts each corruption
 *     once (stats.corrupt, stats.last_error), and goes on; in strict mode it
 *     stops alone (other rings of a set keep draining) until resynchronised.
 *   - Names: rp_ring_*, rp_ringbuf_*, rp_backward_*, rp_span_*, rp_sample_*,
 *     rp_record_* are the proved core walks and views, rp_user_ring_* the
 *     proved user ring buffer producer (no system calls); rp_perf_*,
 *     rp_bpf_ringbuf_*, rp_bpf_user_ringbuf_*, rp_perf_backward_*,
 *     rp_perf_overwrite_* are the Linux adapters around them.
 *   - One consumer thread per ring or set.
 * Kernel ABI background: docs/abi.md in the source tree. */
#ifndef RINGPROOF_H
#define RINGPROOF_H

#include "rp_status.h"
#include "rp_span.h"
#include "rp_ring.h"
#include "rp_views.h"
#include "rp_records.h"
#include "rp_sample.h"
#include "rp_ringbuf.h"
#include "rp_backward.h"
#include "rp_user_ring.h"
#include "rp_adapter.h"
#include "rp_bpffs.h"
#include "rp_error.h"
#include "rp_perf.h"
#include "rp_perf_ring.h"
#include "rp_perf_buffer.h"
#include "rp_perf_backward.h"
#include "rp_perf_overwrite.h"
#include "rp_bpf_ringbuf.h"
#include "rp_bpf_user_ringbuf.h"

#endif
