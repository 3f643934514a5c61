/* rp_ring_drain: batch decoding, early stop, errors after good records. */
#include "unit.h"

#define NREC 5

/* Five records of sizes 16, 24, 32, 16, 40 starting at `start` in a 128-byte
 * ring (so several bodies wrap); positions written to pos[0 .. NREC]. */
static void build_five(const rb_ring *r, uint64_t start, uint64_t pos[NREC + 1])
{
	static const uint16_t body_len[NREC] = { 8, 16, 24, 8, 32 };
	uint8_t body[32];
	pos[0] = start;
	for (int i = 0; i < NREC; i++) {
		rb_pattern(body, body_len[i], (uint8_t)(16 * i));
		pos[i + 1] = rb_put_record(r, pos[i], RP_RECORD_SAMPLE, (uint16_t)i,
		                           body, body_len[i]);
	}
}

static void check_five(const rb_ring *r, const rp_record *recs,
                       const uint64_t pos[NREC + 1], uint32_t from, uint32_t n)
{
	uint8_t body[32];
	for (uint32_t k = 0; k < n; k++) {
		const uint32_t i = from + k;
		assert_true(recs[k].pos == pos[i]);
		assert_int_equal(recs[k].type, RP_RECORD_SAMPLE);
		assert_int_equal(recs[k].misc, i);
		assert_int_equal(recs[k].size, pos[i + 1] - pos[i]);
		assert_ptr_equal(recs[k].body.p1, r->data);
		rb_pattern(body, recs[k].size - 8u, (uint8_t)(16 * i));
		assert_span_bytes(recs[k].body, body, recs[k].size - 8u);
	}
}

static void drain_all(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, 1000, pos); /* 1000 % 128 = 104: the 2nd header ends the ring */
	rp_ring g = ring_of(&r);
	rp_record recs[8];
	uint64_t tail = pos[0];
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, 8, &count), RP_EMPTY);
	assert_int_equal(count, NREC);
	assert_true(tail == pos[NREC]);
	assert_true(tail == 1000 + 128);
	check_five(&r, recs, pos, 0, NREC);
	rb_free(&r);
}

static void drain_stops_at_max(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, 0, pos);
	rp_ring g = ring_of(&r);
	rp_record recs[8];
	uint64_t tail = 0;
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, 3, &count), RP_MORE);
	assert_int_equal(count, 3);
	assert_true(tail == pos[3]);
	check_five(&r, recs, pos, 0, 3);

	/* resuming from the returned tail yields the rest */
	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, 8, &count), RP_EMPTY);
	assert_int_equal(count, 2);
	assert_true(tail == pos[NREC]);
	check_five(&r, recs, pos, 3, 2);
	rb_free(&r);
}

/* max equal to the number of records left: the ring is empty, not "more". */
static void drain_exact_fit_is_empty(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, 64, pos);
	rp_ring g = ring_of(&r);
	rp_record recs[NREC];
	uint64_t tail = 64;
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, NREC, &count), RP_EMPTY);
	assert_int_equal(count, NREC);
	assert_true(tail == pos[NREC]);
	check_five(&r, recs, pos, 0, NREC);
	rb_free(&r);
}

static void drain_max_zero(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, 0, pos);
	rp_ring g = ring_of(&r);
	rp_record recs[1], canary[1];
	memset(recs, CANARY_BYTE, sizeof recs);
	memcpy(canary, recs, sizeof recs);
	uint64_t tail = 0;
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, 0, &count), RP_MORE);
	assert_int_equal(count, 0);
	assert_true(tail == 0);
	assert_memory_equal(recs, canary, sizeof recs);

	/* max 0 on an empty ring: empty */
	tail = pos[NREC];
	count = 99;
	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, 0, &count), RP_EMPTY);
	assert_int_equal(count, 0);
	assert_true(tail == pos[NREC]);
	rb_free(&r);
}

static void drain_empty(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0x5a);
	rp_ring g = ring_of(&r);
	rp_record recs[4], canary[4];
	memset(recs, CANARY_BYTE, sizeof recs);
	memcpy(canary, recs, sizeof recs);
	uint64_t tail = 4096;
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, 4096, &tail, recs, 4, &count), RP_EMPTY);
	assert_int_equal(count, 0);
	assert_true(tail == 4096);
	assert_memory_equal(recs, canary, sizeof recs);
	rb_free(&r);
}

/* Two good records, then a header of size 0: the drain returns the two, the
 * tail of the bad record and the error. */
static void drain_stops_at_error(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, 0, pos);
	rb_put_header(&r, pos[2], RP_RECORD_SAMPLE, 0, 0);
	rp_ring g = ring_of(&r);
	rp_record recs[8], canary;
	memset(recs, CANARY_BYTE, sizeof recs);
	memcpy(&canary, &recs[2], sizeof canary);
	uint64_t tail = 0;
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, 8, &count), RP_E_HDR_SHORT);
	assert_int_equal(count, 2);
	assert_true(tail == pos[2]);
	check_five(&r, recs, pos, 0, 2);
	assert_memory_equal(&recs[2], &canary, sizeof canary);
	rb_free(&r);
}

/* A record that reaches past head after three good ones: RP_E_TRUNCATED. */
static void drain_stops_at_truncated(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, 0, pos);
	rp_ring g = ring_of(&r);
	rp_record recs[8];
	uint64_t tail = 0;
	uint32_t count = 99;
	const uint64_t head = pos[4] - 8; /* mid-way through record 3 */

	assert_int_equal(rp_ring_drain(&g, head, &tail, recs, 8, &count), RP_E_TRUNCATED);
	assert_int_equal(count, 3);
	assert_true(tail == pos[3]);
	check_five(&r, recs, pos, 0, 3);
	rb_free(&r);
}

/* The very first record is bad: nothing returned, tail unchanged. */
static void drain_error_first(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	rb_put_header(&r, 40, RP_RECORD_SAMPLE, 0, 20);
	rp_ring g = ring_of(&r);
	rp_record recs[4], canary[4];
	memset(recs, CANARY_BYTE, sizeof recs);
	memcpy(canary, recs, sizeof recs);
	uint64_t tail = 40;
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, 40 + 64, &tail, recs, 4, &count), RP_E_HDR_ALIGN);
	assert_int_equal(count, 0);
	assert_true(tail == 40);
	assert_memory_equal(recs, canary, sizeof recs);

	/* and a ring error (overrun) is reported the same way */
	assert_int_equal(rp_ring_drain(&g, 40 + 136, &tail, recs, 4, &count), RP_E_OVERRUN);
	assert_int_equal(count, 0);
	assert_true(tail == 40);
	rb_free(&r);
}

/* Drain across the u64 wrap of positions. */
static void drain_u64_wrap(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, UINT64_MAX - 47, pos); /* 2^64 - 48: offset 80 */
	assert_true(pos[NREC] == 80);
	rp_ring g = ring_of(&r);
	rp_record recs[8];
	uint64_t tail = pos[0];
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, recs, 8, &count), RP_EMPTY);
	assert_int_equal(count, NREC);
	assert_true(tail == 80);
	check_five(&r, recs, pos, 0, NREC);
	rb_free(&r);
}

/* Drain across the u64 wrap in a 40-byte ring, which does not divide 2^64:
 * 2^64 mod 40 = 16, so the offset jumps back by 16 where the position wraps
 * (offset = position mod 40, as ring_builder writes it).  Positions
 * 2^64 - 16 .. 2^64 - 1 and 0 .. 15 share offsets 0 .. 15, so the four
 * 8-byte records at 2^64 - 16, 2^64 - 8, 0, 8 are the two headers at offsets
 * 0 and 8, each read twice.  A batch loop that carried the offset across the
 * wrap (8 + 8 = 16 after the record at 2^64 - 8, instead of 0 % 40 = 0) would
 * read the zero bytes at offset 16: RP_E_HDR_SHORT after two records. */
static void drain_u64_wrap_size_not_dividing(void **state)
{
	(void)state;
	rb_ring r = rb_new(40, 0);
	const uint64_t start = UINT64_MAX - 15; /* 2^64 - 16: offset 0 */
	rb_put_header(&r, start, RP_RECORD_SWITCH, 0x11, 8);     /* offset 0 */
	rb_put_header(&r, start + 8, RP_RECORD_SWITCH, 0x22, 8); /* offset 8 */
	assert_int_equal(r.data[6], 8); /* the headers landed at offsets 0 and 8 */
	assert_int_equal(r.data[12], 0x22);
	rp_ring g = ring_of(&r);
	rp_record recs[6], canary;
	memset(recs, CANARY_BYTE, sizeof recs);
	memcpy(&canary, &recs[4], sizeof canary);
	uint64_t tail = start;
	uint32_t count = 99;
	static const uint64_t want_pos[4] = { UINT64_MAX - 15, UINT64_MAX - 7, 0, 8 };
	static const uint16_t want_misc[4] = { 0x11, 0x22, 0x11, 0x22 };

	assert_int_equal(rp_ring_drain(&g, 16, &tail, recs, 6, &count), RP_EMPTY);
	assert_int_equal(count, 4);
	assert_true(tail == 16);
	for (uint32_t k = 0; k < 4; k++) {
		assert_true(recs[k].pos == want_pos[k]);
		assert_int_equal(recs[k].type, RP_RECORD_SWITCH);
		assert_int_equal(recs[k].misc, want_misc[k]);
		assert_int_equal(recs[k].size, 8);
		assert_int_equal(recs[k].body.n0 + recs[k].body.n1, 0);
	}
	assert_memory_equal(&recs[4], &canary, sizeof canary);

	/* resumed one record at a time from the record before the wrap */
	tail = UINT64_MAX - 7;
	assert_int_equal(rp_ring_drain(&g, 16, &tail, recs, 2, &count), RP_MORE);
	assert_int_equal(count, 2);
	assert_true(tail == 8);
	assert_int_equal(recs[0].misc, 0x22);
	assert_int_equal(recs[1].misc, 0x11);
	assert_true(recs[1].pos == 0);
	rb_free(&r);
}

/* A ring full of 8-byte records: exactly size / 8 steps, then empty. */
static void drain_full_of_minimal_records(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	for (uint64_t p = 64; p < 128; p += 8)
		rb_put_header(&r, p, RP_RECORD_SWITCH, (uint16_t)p, 8);
	rp_ring g = ring_of(&r);
	rp_record recs[9];
	uint64_t tail = 64;
	uint32_t count = 99;

	assert_int_equal(rp_ring_drain(&g, 128, &tail, recs, 9, &count), RP_EMPTY);
	assert_int_equal(count, 8);
	assert_true(tail == 128);
	for (uint32_t k = 0; k < 8; k++) {
		assert_true(recs[k].pos == 64 + 8 * k);
		assert_int_equal(recs[k].misc, 64 + 8 * k);
		assert_int_equal(recs[k].body.n0 + recs[k].body.n1, 0);
	}
	rb_free(&r);
}

/* One record per call in a loop gives the same records as one batch. */
static void drain_one_at_a_time(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	uint64_t pos[NREC + 1];
	build_five(&r, 8, pos);
	rp_ring g = ring_of(&r);
	rp_record rec;
	uint64_t tail = 8;
	uint32_t count;

	for (uint32_t i = 0; i < NREC; i++) {
		const rp_status want = i + 1 < NREC ? RP_MORE : RP_EMPTY;
		assert_int_equal(rp_ring_drain(&g, pos[NREC], &tail, &rec, 1, &count), want);
		assert_int_equal(count, 1);
		assert_true(tail == pos[i + 1]);
		check_five(&r, &rec, pos, i, 1);
	}
	rb_free(&r);
}

int main(void)
{
	if (!rb_host_is_le())
		return unit_skip_all("ring_drain");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(drain_all),
		cmocka_unit_test(drain_stops_at_max),
		cmocka_unit_test(drain_exact_fit_is_empty),
		cmocka_unit_test(drain_max_zero),
		cmocka_unit_test(drain_empty),
		cmocka_unit_test(drain_stops_at_error),
		cmocka_unit_test(drain_stops_at_truncated),
		cmocka_unit_test(drain_error_first),
		cmocka_unit_test(drain_u64_wrap),
		cmocka_unit_test(drain_u64_wrap_size_not_dividing),
		cmocka_unit_test(drain_one_at_a_time),
		cmocka_unit_test(drain_full_of_minimal_records),
	};
	return cmocka_run_group_tests_name("ring_drain", tests, NULL, NULL);
}
