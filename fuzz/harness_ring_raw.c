/* ring_raw: an arbitrary ring page with arbitrary head and tail (fuzz/fz_util.h
 * image format), drained with the batch API at varying batch sizes; every
 * call goes through the bounds/termination oracle, and a stop on an error is
 * checked to leave tail where rp_ring_next reports the same error again. */
#include <inttypes.h>
#include <string.h>

#include "fz_oracle.h"
#include "fz_util.h"
#include "rp_ring.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void page_header(void *ctx, uint64_t off, uint8_t out[8])
{
	memcpy(out, (const uint8_t *)ctx + off, 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_image img;
	if (!fz_image_parse(data, size, &img))
		return 0;
	const rp_ring ring = { img.page, img.size };
	const uint64_t tail0 = img.tail;
	const uint64_t avail0 = fz_dist(img.head, tail0);
	rp_record recs[FZ_MAX_BATCH + 1];
	uint64_t tail = tail0;
	uint32_t count = 7;
	uint64_t total = 0;

	/* max == 0 decodes nothing */
	rp_status st = rp_ring_drain(&ring, img.head, &tail, recs, 0, &count);
	FZ_CHECK(count == 0 && tail == tail0, "max 0: count %u, tail moved", count);
	FZ_CHECK(st == (tail0 == img.head ? RP_EMPTY : RP_MORE), "max 0: status %d", (int)st);

	for (uint32_t call = 0;; call++) {
		const uint32_t max = fz_batch_max(img.max_sel, call);
		const uint64_t before = tail;
		memset(recs, 0xA5, sizeof recs);
		st = rp_ring_drain(&ring, img.head, &tail, recs, max, &count);
		fz_check_drain(&ring, img.head, before, tail, recs, max, count, st, page_header, img.page);
		/* nothing written past recs[count - 1] */
		const uint8_t *guard = (const uint8_t *)&recs[max];
		for (size_t i = 0; i < sizeof recs - max * sizeof recs[0]; i++)
			FZ_CHECK(guard[i] == 0xA5, "drain wrote past recs[max]");
		total += count;
		FZ_CHECK(total <= avail0 / 8u, "%" PRIu64 " records from %" PRIu64 " bytes", total, avail0);
		FZ_CHECK(fz_dist(tail, tail0) <= avail0, "tail passed head");
		if (st != RP_MORE)
			break;
	}
	if (st < 0) {
		uint64_t t = tail;
		rp_record r, poison;
		memset(&r, 0x5A, sizeof r);
		memcpy(&poison, &r, sizeof r);
		const rp_status again = rp_ring_next(&ring, img.head, &t, &r);
		FZ_CHECK(again == st, "drain stopped with %d, rp_ring_next at that tail says %d", (int)st, (int)again);
		FZ_CHECK(t == tail && memcmp(&r, &poison, sizeof r) == 0, "error wrote tail or record");
	} else {
		FZ_CHECK(tail == img.head, "drain ended with %d before head", (int)st);
	}
	fz_image_free(&img);
	return 0;
}
