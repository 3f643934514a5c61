#include "rp_perf_overwrite.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rp_abi.h"
#include "rp_adapter_int.h"
#include "rp_perf.h"
#include "rp_views.h"

#define RP_OW_BATCH 32

int rp_perf_overwrite_map(rp_perf_overwrite_ring *ow, int fd, uint32_t data_pages)
{
	if (!ow)
		return -EINVAL;
	memset(ow, 0, sizeof *ow);
	int err = rp_perf_ring_map(&ow->ring, fd, data_pages, RP_PERF_OVERWRITE);
	if (err)
		return err;
	ow->scratch = malloc(RP_PERF_OVERWRITE_SCRATCH);
	if (!ow->scratch) {
		rp_perf_ring_unmap(&ow->ring);
		return -ENOMEM;
	}
	ow->prev_head = rp_perf_ring_head(&ow->ring);
	return 0;
}

void rp_perf_overwrite_unmap(rp_perf_overwrite_ring *ow)
{
	if (!ow)
		return;
	rp_perf_ring_unmap(&ow->ring);
	free(ow->scratch);
	ow->scratch = NULL;
}

int rp_perf_overwrite_read(rp_perf_overwrite_ring *ow, rp_perf_ring_fn fn, void *ctx,
                      rp_perf_overwrite_report *rep)
{
	rp_record recs[RP_OW_BATCH];
	rp_perf_overwrite_report r;

	if (!ow || !ow->ring.base || !ow->scratch || !fn)
		return -EINVAL;
	memset(&r, 0, sizeof r);
	int err = rp_perf_pause_output(ow->ring.fd, true);
	if (err)
		return err;

	const rp_ring *data = &ow->ring.data;
	r.head = rp_perf_ring_head(&ow->ring);
	/* Backward heads go down: the new records lie in [head, prev_head). */
	r.new_bytes = ow->prev_head - r.head;
	const uint64_t limit = r.new_bytes < data->size ? r.new_bytes : data->size;
	uint64_t walked = 0;
	bool stopped = false;
	r.end = RP_EMPTY;

	while (walked < limit && !stopped) {
		uint64_t next = walked;
		uint32_t n = 0;
		const rp_status st = rp_backward_drain(data, r.head, &next, ow->scratch,
		                                       RP_PERF_OVERWRITE_SCRATCH, recs, RP_OW_BATCH, &n);
		uint64_t at = walked;
		for (uint32_t i = 0; i < n && !stopped; i++) {
			if (at >= limit) {
				stopped = true; /* older than the previous read */
				break;
			}
			const rp_record *rec = &recs[i];
			rp_lost lost;
			if (rec->type == RP_RECORD_LOST && rp_lost_view(rec, &lost) == RP_OK)
				r.lost += lost.lost;
			at += rec->size;
			r.read_bytes = at;
			r.records++;
			rp_perf_stats_add(&ow->stats.perf, rec, 1);
			if (fn(ctx, rec) != 0) {
				stopped = true;
				r.stopped = 1;
				r.end = RP_MORE; /* the caller stopped; older records remain */
			}
		}
		if (stopped)
			break;
		walked = next;
		if (st == RP_MORE)
			continue;
		r.end = st;
		if (st < 0 && st != RP_BW_END_ZERO && st != RP_BW_END_OVERWRITTEN) {
			ow->stats.perf.corrupt++;
			ow->stats.perf.last_error = st;
		}
		break;
	}
	if (r.stopped) {
		/* a stop ends the snapshot: what lies beyond the ring is
		 * overwritten, the rest of the window the caller declined */
		r.overwritten_bytes = r.new_bytes - limit;
		r.unread_bytes = limit - r.read_bytes;
	} else {
		r.overwritten_bytes = r.new_bytes - r.read_bytes;
	}
	rp_sat_add(&ow->stats.overwritten_bytes, r.overwritten_bytes);
	rp_sat_add(&ow->stats.unread_bytes, r.unread_bytes);
	ow->stats.reads++;
	ow->prev_head = r.head;

	err = rp_perf_pause_output(ow->ring.fd, false);
	if (rep)
		*rep = r;
	return err ? err : (int)r.records;
}
