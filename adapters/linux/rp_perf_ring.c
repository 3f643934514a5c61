#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "rp_perf_ring.h"
#include "rp_views.h"

enum { DRAIN_BATCH = 64 };

static bool is_pow2_u64(uint64_t v)
{
	return v && !(v & (v - 1));
}

static struct perf_event_mmap_page *ctl(const rp_perf_ring *ring)
{
	return (struct perf_event_mmap_page *)ring->base;
}

int rp_perf_ring_map(rp_perf_ring *ring, int fd, uint32_t data_pages,
                     unsigned flags)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	size_t len;
	uint64_t off, size;
	void *base;
	int prot;

	if (!ring)
		return -EINVAL;
	memset(ring, 0, sizeof(*ring));
	ring->fd = -1;
	if (!is_pow2_u64(data_pages))
		return RP_E_PAGE_COUNT;
	if (page <= 0)
		return -EINVAL;
	if ((uint64_t)data_pages * (uint64_t)page > (1ull << 32))
		return RP_E_PAGE_COUNT; /* the core handles rings up to 4 GiB */
	len = (size_t)(1 + (uint64_t)data_pages) * (size_t)page;
	prot = PROT_READ | ((flags & RP_RING_OVERWRITE) ? 0 : PROT_WRITE);
	base = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;

	pg = base;
	off = pg->data_offset;
	size = pg->data_size;
	if (off == 0 && size == 0) {
		/* very old kernels: one control page, then the data (SPEC.md §8) */
		off = (uint64_t)page;
		size = len - (size_t)page;
	}
	if (!is_pow2_u64(size) || size < 8 || size > (1ull << 32) || off < sizeof(*pg) ||
	    off > len || size > len - off) {
		munmap(base, len);
		return RP_E_DATA_SIZE;
	}
	ring->fd = fd;
	ring->flags = flags;
	ring->base = base;
	ring->map_len = len;
	ring->data.data = (const uint8_t *)base + off;
	ring->data.size = size;
	ring->tail = __atomic_load_n(&pg->data_tail, __ATOMIC_ACQUIRE);
	return 0;
}

void rp_perf_ring_unmap(rp_perf_ring *ring)
{
	if (!ring || !ring->base)
		return;
	munmap(ring->base, ring->map_len);
	ring->base = NULL;
	ring->map_len = 0;
	ring->data.data = NULL;
	ring->data.size = 0;
}

uint64_t rp_perf_ring_head(const rp_perf_ring *ring)
{
	return __atomic_load_n(&ctl(ring)->data_head, __ATOMIC_ACQUIRE);
}

uint64_t rp_perf_ring_tail(const rp_perf_ring *ring)
{
	return __atomic_load_n(&ctl(ring)->data_tail, __ATOMIC_ACQUIRE);
}

void rp_perf_ring_commit(rp_perf_ring *ring)
{
	__atomic_store_n(&ctl(ring)->data_tail, ring->tail, __ATOMIC_RELEASE);
}

void rp_ring_stats_add(rp_ring_stats *stats, const rp_record *rec)
{
	stats->records++;
	stats->bytes += rec->size;
	if (rec->type == RP_RECORD_LOST) {
		rp_lost l;
		if (rp_lost_view(rec, &l) == RP_OK) {
			stats->lost += l.lost;
			stats->lost_records++;
		}
	}
}

/* The core stopped at ring->tail with a corruption status st: count it and,
 * unless strict, skip everything up to head.  Returns what the drain
 * should return for it (0 = carry on). */
static int corrupt(rp_perf_ring *ring, uint64_t head, int st)
{
	ring->stats.corrupt++;
	ring->stats.last_error = st;
	if (ring->flags & RP_RING_STRICT)
		return st;
	ring->stats.resynced_bytes += head - ring->tail;
	ring->tail = head;
	return 0;
}

int rp_perf_ring_peek(rp_perf_ring *ring, rp_record *recs, uint32_t max)
{
	uint64_t head;
	uint32_t count = 0, k;
	rp_status st;

	if (!ring || !ring->base || (ring->flags & RP_RING_OVERWRITE) || (max && !recs))
		return -EINVAL;
	if (max == 0)
		return 0;
	head = rp_perf_ring_head(ring);
	st = rp_ring_drain(&ring->data, head, &ring->tail, recs, max, &count);
	for (k = 0; k < count; k++)
		rp_ring_stats_add(&ring->stats, &recs[k]);
	if (st < 0) {
		int r = corrupt(ring, head, st);
		if (r)
			return r;
	}
	return (int)count;
}

int rp_perf_ring_drain(rp_perf_ring *ring, rp_record_fn fn, void *ctx,
                       uint32_t max_records)
{
	rp_record batch[DRAIN_BATCH];
	uint64_t head;
	uint64_t delivered = 0;
	int result = 0;
	bool stop = false;

	if (!ring || !ring->base || !fn || (ring->flags & RP_RING_OVERWRITE))
		return -EINVAL;
	head = rp_perf_ring_head(ring);
	while (!stop) {
		uint32_t want = DRAIN_BATCH, count = 0, k;
		uint64_t start = ring->tail;
		rp_status st;

		if (max_records && max_records - delivered < want)
			want = (uint32_t)(max_records - delivered);
		st = rp_ring_drain(&ring->data, head, &ring->tail, batch, want, &count);
		for (k = 0; k < count; k++) {
			int r;
			rp_ring_stats_add(&ring->stats, &batch[k]);
			delivered++;
			r = fn(ctx, &batch[k]);
			if (r) {
				/* consumed up to and including this record */
				ring->tail = batch[k].pos + batch[k].size;
				stop = true;
				break;
			}
		}
		if (stop)
			break;
		if (st < 0) {
			result = corrupt(ring, head, st);
			break;
		}
		if (st == RP_EMPTY || ring->tail == start)
			break;
		if (max_records && delivered >= max_records)
			break;
	}
	rp_perf_ring_commit(ring);
	if (result)
		return result;
	return delivered > 0x7fffffff ? 0x7fffffff : (int)delivered;
}
