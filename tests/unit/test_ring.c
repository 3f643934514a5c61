/* rp_ring_next over synthetic perf rings: framing, wraps, every error class. */
#include "unit.h"

static void empty_ring_at_zero(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	assert_next_fails(&r, 0, 0, RP_EMPTY);
	rb_free(&r);
}

static void empty_ring_at_later_position(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0xee);
	/* stale garbage in the ring must not be read when tail == head */
	assert_next_fails(&r, 4096 + 40, 4096 + 40, RP_EMPTY);
	rb_free(&r);
}

static void one_sample(void **state)
{
	(void)state;
	rb_ring r = rb_new(4096, 0);
	uint8_t body[16];
	rb_pattern(body, sizeof body, 7);
	const uint64_t head = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 2, body, sizeof body);
	assert_true(head == 24);

	uint64_t tail = 0;
	rp_record rec = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 2, 24);
	assert_true(tail == 24);
	assert_ptr_equal(rec.body.p0, r.data + 8);
	assert_int_equal(rec.body.n0, 16);
	assert_int_equal(rec.body.n1, 0);
	assert_span_bytes(rec.body, body, sizeof body);
	assert_next_fails(&r, head, tail, RP_EMPTY);
	rb_free(&r);
}

static void consecutive_samples(void **state)
{
	(void)state;
	rb_ring r = rb_new(4096, 0);
	uint8_t b0[8], b1[40], b2[0 + 1];
	rb_pattern(b0, sizeof b0, 1);
	rb_pattern(b1, sizeof b1, 2);
	uint64_t head = 0;
	head = rb_put_record(&r, head, RP_RECORD_SAMPLE, 1, b0, 8);
	head = rb_put_record(&r, head, RP_RECORD_COMM, 0x2002, b1, 40);
	head = rb_put_record(&r, head, RP_RECORD_SWITCH, 3, b2, 0);
	assert_true(head == 16 + 48 + 8);

	uint64_t tail = 0;
	rp_record a = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 1, 16);
	assert_ptr_equal(a.body.p0, r.data + 8);
	assert_span_bytes(a.body, b0, 8);
	rp_record b = expect_record(&r, head, &tail, RP_RECORD_COMM, 0x2002, 48);
	assert_true(b.pos == 16);
	assert_ptr_equal(b.body.p0, r.data + 24);
	assert_span_bytes(b.body, b1, 40);
	rp_record c = expect_record(&r, head, &tail, RP_RECORD_SWITCH, 3, 8);
	assert_true(c.pos == 64);
	assert_int_equal(c.body.n0 + c.body.n1, 0);
	assert_true(tail == 72);
	assert_next_fails(&r, head, tail, RP_EMPTY);
	rb_free(&r);
}

/* Ring of 64 bytes; a 32-byte record with its header at offset 48: the
 * 24-byte body is 8 bytes at 56..63 then 16 bytes at 0..15. */
static void body_wraps_ring_end(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t body[24];
	rb_pattern(body, sizeof body, 40);
	const uint64_t tail0 = 64 * 5 + 48;
	const uint64_t head = rb_put_record(&r, tail0, RP_RECORD_SAMPLE, 0, body, 24);

	uint64_t tail = tail0;
	rp_record rec = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 32);
	assert_ptr_equal(rec.body.p0, r.data + 56);
	assert_int_equal(rec.body.n0, 8);
	assert_ptr_equal(rec.body.p1, r.data);
	assert_int_equal(rec.body.n1, 16);
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(rec.body.p0[i], body[i]);
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(rec.body.p1[i], body[8 + i]);
	/* and the ring bytes themselves are where the builder put them */
	assert_int_equal(r.data[56], body[0]);
	assert_int_equal(r.data[0], body[8]);
	assert_int_equal(r.data[15], body[23]);

	uint8_t copy[32];
	memset(copy, 0, sizeof copy);
	assert_int_equal(rp_span_copy(rec.body, copy, sizeof copy), 24);
	assert_memory_equal(copy, body, 24);

	/* values across the wrap point (body offset 8 is ring offset 0) */
	uint16_t v16 = 0;
	assert_true(rp_span_get_u16(rec.body, 7, &v16));
	assert_int_equal(v16, (uint16_t)(body[7] | body[8] << 8));
	uint32_t v32 = 0;
	assert_true(rp_span_get_u32(rec.body, 6, &v32));
	assert_int_equal(v32, (uint32_t)body[6] | (uint32_t)body[7] << 8 |
	                      (uint32_t)body[8] << 16 | (uint32_t)body[9] << 24);
	uint64_t v64 = 0, want = 0;
	assert_true(rp_span_get_u64(rec.body, 5, &v64));
	for (int i = 7; i >= 0; i--)
		want = want << 8 | body[5 + i];
	assert_true(v64 == want);
	rb_free(&r);
}

/* Header in the last 8 bytes of the ring: the body starts at offset 0. */
static void header_at_ring_end(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t body[16];
	rb_pattern(body, sizeof body, 90);
	const uint64_t head = rb_put_record(&r, 56, RP_RECORD_SAMPLE, 0, body, 16);
	assert_true(head == 80);

	uint64_t tail = 56;
	rp_record rec = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 24);
	assert_ptr_equal(rec.body.p0, r.data);
	assert_int_equal(rec.body.n0, 16);
	assert_int_equal(rec.body.n1, 0);
	assert_span_bytes(rec.body, body, 16);
	assert_true(tail == 80);
	rb_free(&r);
}

/* A record whose last byte is the last byte of the ring: no second slice,
 * and the next header is read at offset 0. */
static void record_ends_at_ring_end(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t body[24], next[8];
	rb_pattern(body, sizeof body, 3);
	rb_pattern(next, sizeof next, 9);
	uint64_t head = rb_put_record(&r, 32, RP_RECORD_SAMPLE, 0, body, 24);
	assert_true(head == 64);
	head = rb_put_record(&r, head, RP_RECORD_EXIT, 0, next, 8);

	uint64_t tail = 32;
	rp_record rec = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 32);
	assert_ptr_equal(rec.body.p0, r.data + 40);
	assert_int_equal(rec.body.n0, 24);
	assert_int_equal(rec.body.n1, 0);
	assert_span_bytes(rec.body, body, 24);
	assert_true(tail == 64);

	rp_record n = expect_record(&r, head, &tail, RP_RECORD_EXIT, 0, 16);
	assert_ptr_equal(n.body.p0, r.data + 8);
	assert_span_bytes(n.body, next, 8);
	rb_free(&r);
}

/* The largest 8-aligned size, 65528, in a 128 KiB ring: once at offset 0 and
 * once wrapping the ring end. */
static void max_size_record(void **state)
{
	(void)state;
	enum { RING = 128 * 1024, SIZE = 65528, BODY = SIZE - 8 };
	static uint8_t body[BODY];
	rb_ring r = rb_new(RING, 0);
	rb_pattern(body, BODY, 11);

	uint64_t head = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 0, body, BODY);
	uint64_t tail = 0;
	rp_record rec = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, SIZE);
	assert_int_equal(rec.body.n0, BODY);
	assert_int_equal(rec.body.n1, 0);
	assert_span_bytes(rec.body, body, BODY);

	const uint64_t at = RING - 1000;  /* 8-aligned; body wraps after 992 bytes */
	head = rb_put_record(&r, at, RP_RECORD_SAMPLE, 0, body, BODY);
	tail = at;
	rec = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, SIZE);
	assert_ptr_equal(rec.body.p0, r.data + at + 8);
	assert_int_equal(rec.body.n0, 992);
	assert_int_equal(rec.body.n1, BODY - 992);
	assert_span_bytes(rec.body, body, BODY);
	assert_true(tail == head);
	rb_free(&r);
}

static void size_65535_is_hdr_align(void **state)
{
	(void)state;
	rb_ring r = rb_new(128 * 1024, 0);
	rb_put_header(&r, 0, RP_RECORD_SAMPLE, 0, 65535);
	/* enough bytes published that only the alignment can be wrong */
	assert_next_fails(&r, 128 * 1024, 0, RP_E_HDR_ALIGN);
	rb_free(&r);
}

/* Positions wrap the u64 circle: tail just below 2^64, head small. */
static void u64_wraparound(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t b0[24], b1[8];
	rb_pattern(b0, sizeof b0, 20);
	rb_pattern(b1, sizeof b1, 60);
	const uint64_t tail0 = UINT64_MAX - 15; /* offset 48 in a 64-byte ring */
	uint64_t head = rb_put_record(&r, tail0, RP_RECORD_SAMPLE, 0, b0, 24);
	assert_true(head == 16);
	head = rb_put_record(&r, head, RP_RECORD_SAMPLE, 0, b1, 8);
	assert_true(head == 32);

	uint64_t tail = tail0;
	rp_record a = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 32);
	assert_true(tail == 16);
	assert_ptr_equal(a.body.p0, r.data + 56);
	assert_int_equal(a.body.n0, 8);
	assert_int_equal(a.body.n1, 16);
	assert_span_bytes(a.body, b0, 24);
	rp_record b = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 16);
	assert_true(b.pos == 16);
	assert_ptr_equal(b.body.p0, r.data + 24);
	assert_span_bytes(b.body, b1, 8);
	assert_next_fails(&r, head, tail, RP_EMPTY);

	/* head exactly at the end of the record that crosses 2^64 */
	tail = tail0;
	(void)expect_record(&r, 16, &tail, RP_RECORD_SAMPLE, 0, 32);
	assert_true(tail == 16);
	assert_next_fails(&r, 15, tail0, RP_E_TRUNCATED); /* 31 of its 32 bytes */
	/* a record that ends exactly at 2^64: head and the new tail are 0 */
	rb_put_header(&r, UINT64_MAX - 7, RP_RECORD_SWITCH, 0, 8);
	tail = UINT64_MAX - 7;
	(void)expect_record(&r, 0, &tail, RP_RECORD_SWITCH, 0, 8);
	assert_true(tail == 0);

	/* tail at 2^64 - 8 and head equal: empty */
	assert_next_fails(&r, UINT64_MAX - 7, UINT64_MAX - 7, RP_EMPTY);
	/* head 8 bytes behind tail (across the top of the circle): overrun */
	assert_next_fails(&r, UINT64_MAX - 7, 0, RP_E_OVERRUN);
	/* head 8 bytes behind tail just below 2^64: overrun, not a tiny gap */
	assert_next_fails(&r, UINT64_MAX - 15, UINT64_MAX - 7, RP_E_OVERRUN);
	rb_free(&r);
}

/* head - tail == size exactly is a full ring, not an overrun. */
static void full_ring_is_not_overrun(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t body[56];
	rb_pattern(body, sizeof body, 5);
	const uint64_t head = rb_put_record(&r, 128 + 16, RP_RECORD_SAMPLE, 0, body, 56);
	assert_true(head - (128 + 16) == 64);
	uint64_t tail = 128 + 16;
	rp_record rec = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 64);
	assert_int_equal(rec.body.n0, 40);
	assert_int_equal(rec.body.n1, 16);
	assert_span_bytes(rec.body, body, 56);
	rb_free(&r);
}

static void err_overrun(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	rb_put_header(&r, 0, RP_RECORD_SAMPLE, 0, 16);
	assert_next_fails(&r, 64 + 8, 0, RP_E_OVERRUN);
	assert_next_fails(&r, 1000 + 65, 1000, RP_E_OVERRUN);
	/* overrun is reported before the tail alignment */
	assert_next_fails(&r, 4 + 72, 4, RP_E_OVERRUN);
	rb_free(&r);
}

static void err_tail_align(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	rb_put_header(&r, 0, RP_RECORD_SAMPLE, 0, 16);
	rb_put_header(&r, 8, RP_RECORD_SAMPLE, 0, 16);
	assert_next_fails(&r, 20, 4, RP_E_TAIL_ALIGN);
	assert_next_fails(&r, 16, 1, RP_E_TAIL_ALIGN);
	/* even with tail == head a misaligned tail is an error, not EMPTY */
	assert_next_fails(&r, 12, 12, RP_E_TAIL_ALIGN);
	rb_free(&r);
}

static void err_hdr_short_size0(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0x77);
	rb_put_header(&r, 16, RP_RECORD_SAMPLE, 0, 0);
	assert_next_fails(&r, 48, 16, RP_E_HDR_SHORT);
	rb_free(&r);
}

static void err_hdr_short_size7(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0x77);
	rb_put_header(&r, 16, RP_RECORD_SAMPLE, 0, 7);
	assert_next_fails(&r, 48, 16, RP_E_HDR_SHORT);
	rb_free(&r);
}

static void err_hdr_align(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	rb_put_header(&r, 8, RP_RECORD_SAMPLE, 0, 12);
	assert_next_fails(&r, 40, 8, RP_E_HDR_ALIGN);
	rb_put_header(&r, 8, RP_RECORD_SAMPLE, 0, 9);
	assert_next_fails(&r, 40, 8, RP_E_HDR_ALIGN);
	rb_free(&r);
}

static void err_truncated_size_past_head(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	rb_put_header(&r, 0, RP_RECORD_SAMPLE, 0, 32);
	assert_next_fails(&r, 24, 0, RP_E_TRUNCATED);
	assert_next_fails(&r, 8, 0, RP_E_TRUNCATED);
	rb_free(&r);
}

static void err_truncated_partial_header(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	/* whatever the (unpublished) header says, fewer than 8 bytes is truncated */
	static const uint16_t sizes[] = { 0, 4, 8, 12, 65535 };
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		rb_put_header(&r, 0, RP_RECORD_SAMPLE, 0, sizes[k]);
		assert_next_fails(&r, 4, 0, RP_E_TRUNCATED);
		assert_next_fails(&r, 7, 0, RP_E_TRUNCATED);
		assert_next_fails(&r, 1, 0, RP_E_TRUNCATED);
	}
	rb_free(&r);
}

/* A 24-byte ring (not a power of two): offsets are position mod 24, bodies
 * wrap correctly and nothing is read outside the 24 bytes (valgrind). */
static void ring_size_24(void **state)
{
	(void)state;
	rb_ring r = rb_new(24, 0);
	uint8_t b0[8], b1[16];
	rb_pattern(b0, sizeof b0, 100);
	rb_pattern(b1, sizeof b1, 150);

	uint64_t head = rb_put_record(&r, 16, RP_RECORD_SAMPLE, 0, b0, 8);
	uint64_t tail = 16;
	rp_record a = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 16);
	assert_ptr_equal(a.body.p0, r.data); /* header at 16..23, body at 0 */
	assert_int_equal(a.body.n0, 8);
	assert_span_bytes(a.body, b0, 8);

	head = rb_put_record(&r, 32, RP_RECORD_SAMPLE, 0, b1, 16);
	assert_true(head == 56);
	rp_record b = expect_record(&r, head, &tail, RP_RECORD_SAMPLE, 0, 24);
	assert_ptr_equal(b.body.p0, r.data + 16);
	assert_int_equal(b.body.n0, 8);
	assert_int_equal(b.body.n1, 8);
	assert_span_bytes(b.body, b1, 16);

	assert_next_fails(&r, 56 + 32, 56, RP_E_OVERRUN);
	rb_put_header(&r, 56, RP_RECORD_SAMPLE, 0, 32);
	assert_next_fails(&r, 56 + 24, 56, RP_E_TRUNCATED);
	rb_free(&r);
}

/* The smallest ring, 8 bytes: only header-only records fit. */
static void ring_size_8(void **state)
{
	(void)state;
	rb_ring r = rb_new(8, 0);
	rb_put_header(&r, 8000, RP_RECORD_SWITCH, 0x2000, 8);
	uint64_t tail = 8000;
	rp_record rec = expect_record(&r, 8008, &tail, RP_RECORD_SWITCH, 0x2000, 8);
	assert_ptr_equal(rec.body.p0, r.data); /* empty body at offset 0 */
	assert_int_equal(rec.body.n0, 0);
	assert_int_equal(rec.body.n1, 0);
	/* a 16-byte header can never fit: truncated, not an overrun */
	rb_put_header(&r, 8008, RP_RECORD_SAMPLE, 0, 16);
	assert_next_fails(&r, 8016, 8008, RP_E_TRUNCATED);
	assert_next_fails(&r, 8024, 8008, RP_E_OVERRUN);
	rb_free(&r);
}

/* A 24-byte ring is not continuous across the u64 wrap (2^64 is not a
 * multiple of 24), so the bytes are not meaningful there; the core must
 * still stay inside the ring and advance by exactly the record size. */
static void ring_size_24_u64_wrap_is_safe(void **state)
{
	(void)state;
	rb_ring r = rb_new(24, 0);
	const uint64_t t0 = UINT64_MAX - 7; /* 8 * ((2^61 - 1) % 3) = offset 8 */
	uint8_t h[8];
	rb_le32(h, RP_RECORD_SAMPLE);
	rb_le16(h + 4, 0);
	rb_le16(h + 6, 24);
	memcpy(r.data + 8, h, 8);
	uint64_t tail = t0;
	rp_record rec = expect_record(&r, 16, &tail, RP_RECORD_SAMPLE, 0, 24);
	assert_true(tail == 16);
	assert_ptr_equal(rec.body.p0, r.data + 16);
	assert_int_equal(rec.body.n0, 8);
	assert_int_equal(rec.body.n1, 8);
	rb_free(&r);
}

/* Unknown record types are framed like any other (skipped by size). */
static void unknown_type_is_framed(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t body[8];
	rb_pattern(body, sizeof body, 0);
	uint64_t head = rb_put_record(&r, 0, 0xdeadbeefu, 0xffff, body, 8);
	uint64_t tail = 0;
	rp_record rec = expect_record(&r, head, &tail, 0xdeadbeefu, 0xffff, 16);
	assert_span_bytes(rec.body, body, 8);
	rb_free(&r);
}

int main(void)
{
	if (!rb_host_is_le())
		return unit_skip_all("ring_next");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_ring_at_zero),
		cmocka_unit_test(empty_ring_at_later_position),
		cmocka_unit_test(one_sample),
		cmocka_unit_test(consecutive_samples),
		cmocka_unit_test(body_wraps_ring_end),
		cmocka_unit_test(header_at_ring_end),
		cmocka_unit_test(record_ends_at_ring_end),
		cmocka_unit_test(max_size_record),
		cmocka_unit_test(size_65535_is_hdr_align),
		cmocka_unit_test(u64_wraparound),
		cmocka_unit_test(full_ring_is_not_overrun),
		cmocka_unit_test(err_overrun),
		cmocka_unit_test(err_tail_align),
		cmocka_unit_test(err_hdr_short_size0),
		cmocka_unit_test(err_hdr_short_size7),
		cmocka_unit_test(err_hdr_align),
		cmocka_unit_test(err_truncated_size_past_head),
		cmocka_unit_test(err_truncated_partial_header),
		cmocka_unit_test(ring_size_24),
		cmocka_unit_test(ring_size_8),
		cmocka_unit_test(ring_size_24_u64_wrap_is_safe),
		cmocka_unit_test(unknown_type_is_framed),
	};
	return cmocka_run_group_tests_name("ring_next", tests, NULL, NULL);
}
