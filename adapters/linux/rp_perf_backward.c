#include "rp_perf_backward.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "rp_abi.h"

enum { BWRW_BATCH = 64 };

int rp_perf_backward_map(rp_perf_backward_ring *r, int fd, uint32_t data_pages,
                       unsigned flags)
{
	if (!r)
		return -EINVAL;
	memset(r, 0, sizeof *r);
	if (flags & ~(unsigned)RP_STRICT)
		return -EINVAL;
	/* flags without RP_PERF_OVERWRITE: PROT_READ | PROT_WRITE, and
	 * ring.tail starts at the control page's data_tail */
	return rp_perf_ring_map(&r->ring, fd, data_pages, flags);
}

void rp_perf_backward_unmap(rp_perf_backward_ring *r)
{
	if (!r)
		return;
	rp_perf_ring_unmap(&r->ring);
	r->ndone = 0;
}

/* The remembered ranges must be ordered, disjoint and inside
 * [head, head + span), span = data_tail - head. */
static bool ranges_valid(const rp_perf_backward_ring *r, uint64_t head, uint64_t span)
{
	uint64_t prev = 0;
	if (r->ndone > RP_PERF_BACKWARD_RANGES)
		return false;
	for (uint32_t i = 0; i < r->ndone; i++) {
		const uint64_t lo = r->done[i].lo - head, hi = r->done[i].hi - head;
		if (lo < prev || lo >= hi || hi > span)
			return false;
		prev = hi;
	}
	return true;
}

static bool in_done(const rp_perf_backward_ring *r, uint64_t head, uint64_t pos)
{
	const uint64_t d = pos - head;
	for (uint32_t i = 0; i < r->ndone; i++)
		if (d >= r->done[i].lo - head && d < r->done[i].hi - head)
			return true;
	return false;
}

/* Everything in [head, end) has now been delivered (by this drain or an
 * earlier one): replace the ranges it covers by one [head, end'), merging
 * an adjacent one.  false (nothing changed) if that needs more than
 * RP_PERF_BACKWARD_RANGES ranges. */
static bool remember(rp_perf_backward_ring *r, uint64_t head, uint64_t end)
{
	uint64_t de = end - head;
	uint32_t i = 0;
	while (i < r->ndone && r->done[i].lo - head < de) {
		if (r->done[i].hi - head > de)
			de = r->done[i].hi - head; /* defensive: never forget a delivered byte */
		i++;
	}
	if (i < r->ndone && r->done[i].lo - head == de) {
		de = r->done[i].hi - head;
		i++;
	}
	const uint32_t keep = r->ndone - i;
	if (keep + 1 > RP_PERF_BACKWARD_RANGES)
		return false;
	memmove(&r->done[1], &r->done[i], keep * sizeof r->done[0]);
	r->done[0].lo = head;
	r->done[0].hi = head + de;
	r->ndone = keep + 1;
	return true;
}

/* A data_head the kernel can have written: 8-aligned, at most the ring
 * size below data_tail. */
static bool head_sane(const rp_perf_backward_ring *r, uint64_t head, uint64_t tail)
{
	return (head & 7) == 0 && tail - head <= r->ring.data.size;
}

/* Stop a strict ring at the corruption st found at cur: counted once (a
 * ring stopped there already counted it). */
static int strict_stop(rp_perf_backward_ring *r, uint64_t cur, rp_status st)
{
	if (r->ring.error != st || r->stopped_at != cur) {
		r->stats.corrupt++;
		r->stats.last_error = st;
	}
	r->ring.error = st;
	r->stopped_at = cur;
	return st;
}

/* Strict, every range in use and none at head: a corruption met before the
 * first range could not be remembered as a stop (one range too many).  So
 * the walk up to that range is checked first, delivering nothing: finding
 * a corruption there, the ring stops before the records ahead of it, which
 * the default policy delivers once RP_STRICT is cleared.  *st is its
 * status; false if there is none. */
static bool strict_blocked(rp_perf_backward_ring *r, uint64_t head, uint64_t tail,
                           rp_record *batch, uint64_t *cur, rp_status *st)
{
	const uint64_t first = r->done[0].lo - head;

	*cur = head;
	if (!(r->ring.flags & RP_STRICT) || r->ndone < RP_PERF_BACKWARD_RANGES || first == 0)
		return false;
	while (*cur - head < first) {
		uint32_t count = 0;
		*st = rp_ring_drain(&r->ring.data, tail, cur, batch, BWRW_BATCH, &count);
		if (*st < 0)
			return *cur - head < first;
		if (*st == RP_EMPTY)
			break;
	}
	return false;
}

static void publish(rp_perf_backward_ring *r, uint64_t head)
{
	r->ring.tail = head;
	r->ndone = 0;
	rp_perf_ring_commit(&r->ring);
}

int rp_perf_backward_drain(rp_perf_backward_ring *r, rp_perf_ring_fn fn, void *ctx)
{
	rp_record batch[BWRW_BATCH];
	uint64_t delivered = 0;
	bool want_stop = false, stopped = false, deferred = false;
	int result = 0;

	if (!r || !r->ring.base || !fn || (r->ring.flags & RP_PERF_OVERWRITE))
		return -EINVAL;
	const uint64_t head = rp_perf_ring_head(&r->ring);
	const uint64_t tail = r->ring.tail; /* we are data_tail's only writer */
	if (r->ring.bad_head_seen) {
		if (head == r->ring.bad_head)
			return 0; /* the untrusted head is still there: counted already */
		r->ring.bad_head_seen = 0;
	}
	/* a head the kernel cannot have written is refused below before any
	 * record is walked; its ranges are kept for the next sane head
	 * (forgetting them would deliver their records again) */
	if (head_sane(r, head, tail) && !ranges_valid(r, head, tail - head))
		r->ndone = 0;
	uint64_t cur;
	rp_status blocked;
	if (strict_blocked(r, head, tail, batch, &cur, &blocked))
		return strict_stop(r, cur, blocked);
	cur = head;
	for (;;) {
		uint32_t count = 0;
		const uint64_t start = cur;
		/* the forward core over [head, tail): its "head" is our data_tail */
		rp_status st = rp_ring_drain(&r->ring.data, tail, &cur, batch, BWRW_BATCH, &count);
		for (uint32_t k = 0; k < count && !stopped; k++) {
			const rp_record *rec = &batch[k];
			if (in_done(r, head, rec->pos))
				continue;
			rp_perf_stats_add(&r->stats, rec, 1);
			delivered++;
			if (fn(ctx, rec) != 0)
				want_stop = true;
			if (!want_stop)
				continue;
			if (remember(r, head, rec->pos + rec->size)) {
				stopped = true;
			} else if (!deferred) {
				deferred = true;
				r->deferred_stops++;
			}
		}
		if (stopped)
			break;
		if (st < 0) {
			/* nothing published, nothing forgotten (strict_blocked
			 * leaves remember room) */
			if ((r->ring.flags & RP_STRICT) &&
			    (cur == head || remember(r, head, cur)))
				return strict_stop(r, cur, st);
			/* a strict ring stopped here counted it already */
			if (r->ring.error != st || r->stopped_at != cur) {
				r->stats.corrupt++;
				r->stats.last_error = st;
			}
			r->ring.error = 0;
			if (!head_sane(r, head, tail)) {
				/* data_head is not what the kernel can have written
				 * (misaligned, or more than the ring below data_tail):
				 * publish nothing; its next record republishes a sane
				 * data_head */
				r->ring.bad_head = head;
				r->ring.bad_head_seen = 1;
				result = (r->ring.flags & RP_STRICT) ? st : 0;
				break;
			}
			r->stats.resynced_bytes += tail - cur; /* < ring size: cannot wrap */
			publish(r, head);
			result = (r->ring.flags & RP_STRICT) ? st : 0;
			break;
		}
		if (st == RP_EMPTY || cur == start) {
			publish(r, head);
			break;
		}
	}
	if (result)
		return result;
	return delivered > 0x7fffffff ? 0x7fffffff : (int)delivered;
}
