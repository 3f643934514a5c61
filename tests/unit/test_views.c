/* rp_bpf_output_view and rp_lost_view over records decoded from rings. */
#include "unit.h"

static rp_record decode_one(const rb_ring *r, uint64_t pos, uint64_t head)
{
	const rp_ring g = ring_of(r);
	rp_record rec;
	uint64_t tail = pos;
	assert_int_equal(rp_ring_next(&g, head, &tail, &rec), RP_OK);
	assert_true(tail == head);
	return rec;
}

/* bpf_perf_event_output of n bytes: raw = round_up(n + 4, 8) - 4 (the
 * kernel's perf_prepare_sample), record = 8 + round_up(n + 4, 8), payload at
 * record offset 12, stale padding.  NB: that formula gives 16 bytes for
 * n = 0..4, 24 for 5..12, 32 for 13..20 (n = 4: round_up(8, 8) = 8, record 16;
 * a table of 0-3/4-11/12-19 seen elsewhere contradicts the formula). */
static void bpf_output_sizes(void **state)
{
	(void)state;
	static const struct { uint32_t n, raw, size; } table[] = {
		{ 0, 4, 16 },   { 1, 4, 16 },   { 3, 4, 16 },   { 4, 4, 16 },
		{ 5, 12, 24 },  { 8, 12, 24 },  { 11, 12, 24 }, { 12, 12, 24 },
		{ 13, 20, 32 }, { 16, 20, 32 }, { 19, 20, 32 }, { 20, 20, 32 },
		{ 21, 28, 40 },
	};
	rb_ring r = rb_new(256, 0);
	uint8_t payload[24];
	rb_pattern(payload, sizeof payload, 50);

	for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
		const uint64_t pos = 64;
		const uint64_t head = rb_put_bpf_output(&r, pos, payload, table[k].n, 0xcc);
		assert_true(head - pos == table[k].size);
		const rp_record rec = decode_one(&r, pos, head);
		assert_int_equal(rec.type, RP_RECORD_SAMPLE);
		assert_int_equal(rec.size, table[k].size);

		rp_bpf_output out;
		memset(&out, CANARY_BYTE, sizeof out);
		assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
		assert_int_equal(out.raw_size, table[k].raw);
		assert_int_equal(out.data.n0 + out.data.n1, table[k].raw);
		assert_ptr_equal(out.data.p0, r.data + pos + 12);
		for (uint32_t i = 0; i < table[k].n; i++)
			assert_int_equal(span_at(out.data, i), payload[i]);
		for (uint32_t i = table[k].n; i < table[k].raw; i++)
			assert_int_equal(span_at(out.data, i), 0xcc);
	}
	rb_free(&r);
}

/* The payload sits at 4 mod 8: record offset 12, body offset 4. */
static void bpf_output_payload_offset(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	const uint8_t payload[8] = { 'r', 'i', 'n', 'g', 'p', 'r', 'o', 'f' };
	const uint64_t head = rb_put_bpf_output(&r, 32, payload, 8, 0);
	assert_int_equal(r.data[32 + 8], 12);     /* raw size, little endian */
	assert_int_equal(r.data[32 + 12], 'r');   /* payload at record offset 12 */
	const rp_record rec = decode_one(&r, 32, head);
	rp_bpf_output out;
	memset(&out, CANARY_BYTE, sizeof out); /* unwritten fields show */
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
	assert_int_equal(((uintptr_t)out.data.p0 - (uintptr_t)r.data) % 8, 4);
	assert_int_equal(out.data.p0 - rec.body.p0, 4);
	uint8_t copy[12];
	assert_int_equal(rp_span_copy(out.data, copy, sizeof copy), 12);
	assert_memory_equal(copy, payload, 8);
	rb_free(&r);
}

/* The kernel's empty raw sample: size 4 with 4 zero bytes, a 16-byte record. */
static void bpf_output_kernel_empty(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0xff);
	const uint8_t body[8] = { 4, 0, 0, 0, 0, 0, 0, 0 };
	const uint64_t head = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 0, body, 8);
	const rp_record rec = decode_one(&r, 0, head);
	rp_bpf_output out;
	memset(&out, CANARY_BYTE, sizeof out); /* unwritten fields show */
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
	assert_int_equal(out.raw_size, 4);
	const uint8_t zero[4] = { 0, 0, 0, 0 };
	assert_span_bytes(out.data, zero, 4);
	rb_free(&r);
}

/* A BPF output whose raw size word and payload both wrap the ring end. */
static void bpf_output_wraps(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t payload[19];
	rb_pattern(payload, sizeof payload, 70);
	/* header at 56: body (raw size + 20 bytes) starts at offset 0 */
	uint64_t head = rb_put_bpf_output(&r, 56, payload, 19, 0xab);
	rp_record rec = decode_one(&r, 56, head);
	rp_bpf_output out;
	memset(&out, CANARY_BYTE, sizeof out); /* unwritten fields show */
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
	assert_int_equal(out.raw_size, 20);
	assert_ptr_equal(out.data.p0, r.data + 4);

	/* header at 40: raw size at 48, payload 52..63 then 0..7 */
	head = rb_put_bpf_output(&r, 40, payload, 19, 0xab);
	rec = decode_one(&r, 40, head);
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
	assert_int_equal(out.raw_size, 20);
	assert_ptr_equal(out.data.p0, r.data + 52);
	assert_int_equal(out.data.n0, 12);
	assert_ptr_equal(out.data.p1, r.data);
	assert_int_equal(out.data.n1, 8);
	for (uint32_t i = 0; i < 19; i++)
		assert_int_equal(span_at(out.data, i), payload[i]);
	assert_int_equal(span_at(out.data, 19), 0xab);

	/* header at 48: the u32 raw size itself is at 56..59, payload wraps */
	head = rb_put_bpf_output(&r, 48, payload, 19, 0xab);
	rec = decode_one(&r, 48, head);
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
	assert_int_equal(out.raw_size, 20);
	assert_int_equal(out.data.n0, 4);
	assert_int_equal(out.data.n1, 16);
	for (uint32_t i = 0; i < 19; i++)
		assert_int_equal(span_at(out.data, i), payload[i]);
	rb_free(&r);
}

/* Hand-made bodies of 16 bytes (raw size 12) split across two slices at
 * every offset, each slice its own allocation of exactly its size, so that
 * a load past either is an out-of-bounds read under ASan and valgrind: the
 * u32 raw size itself split 1 + 3, 2 + 2 or 3 + 1, the payload starting in
 * the second slice or crossing into it. */
static void bpf_output_size_word_split(void **state)
{
	(void)state;
	uint8_t body[16];
	rb_le32(body, 12);
	rb_pattern(body + 4, 12, 33);
	for (uint32_t n0 = 1; n0 < 16; n0++) {
		uint8_t *a = malloc(n0), *b = malloc(16 - n0);
		assert_non_null(a);
		assert_non_null(b);
		memcpy(a, body, n0);
		memcpy(b, body + n0, 16 - n0);
		rp_record rec = { .pos = 0, .type = RP_RECORD_SAMPLE, .misc = 0, .size = 24,
		                  .body = { .p0 = a, .p1 = b, .n0 = n0, .n1 = 16 - n0 } };
		rp_bpf_output out;
		memset(&out, CANARY_BYTE, sizeof out); /* unwritten fields show */
		assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
		assert_int_equal(out.raw_size, 12);
		assert_int_equal(out.data.n0 + out.data.n1, 12);
		assert_span_bytes(out.data, body + 4, 12);
		free(a);
		free(b);
	}
}

static void bpf_output_wrong_type(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	const uint64_t head = rb_put_lost(&r, 0, 1, 2);
	const rp_record rec = decode_one(&r, 0, head);
	rp_bpf_output out, canary;
	memset(&out, CANARY_BYTE, sizeof out);
	memcpy(&canary, &out, sizeof out);
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_E_TYPE);
	assert_memory_equal(&out, &canary, sizeof out);
	rb_free(&r);
}

/* raw size larger than the record holds: body 20 bytes, raw 17 (> 16). */
static void bpf_output_raw_too_long(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t body[24];
	memset(body, 0, sizeof body);
	const uint32_t bad_raw[] = { 21, 100, 65535, 0x7fffffffu, 0xfffffffcu, UINT32_MAX };
	for (size_t k = 0; k < sizeof bad_raw / sizeof bad_raw[0]; k++) {
		rb_le32(body, bad_raw[k]);
		const uint64_t head = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 0, body, 24);
		const rp_record rec = decode_one(&r, 0, head);
		rp_bpf_output out, canary;
		memset(&out, CANARY_BYTE, sizeof out);
		memcpy(&canary, &out, sizeof out);
		assert_int_equal(rp_bpf_output_view(&rec, &out), RP_E_BODY_SHORT);
		assert_memory_equal(&out, &canary, sizeof out);
	}
	/* raw = body - 4 exactly fits; raw = 0 fits too */
	rb_le32(body, 20);
	uint64_t head = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 0, body, 24);
	rp_record rec = decode_one(&r, 0, head);
	rp_bpf_output out;
	memset(&out, CANARY_BYTE, sizeof out); /* unwritten fields show */
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
	assert_int_equal(out.raw_size, 20);
	rb_le32(body, 0);
	head = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 0, body, 24);
	rec = decode_one(&r, 0, head);
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_OK);
	assert_int_equal(out.raw_size, 0);
	assert_int_equal(out.data.n0 + out.data.n1, 0);
	rb_free(&r);
}

/* A body shorter than the u32 raw size: empty (header only) or 3 bytes. */
static void bpf_output_body_short(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	const uint64_t head = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 0, NULL, 0);
	const rp_record rec = decode_one(&r, 0, head);
	rp_bpf_output out, canary;
	memset(&out, CANARY_BYTE, sizeof out);
	memcpy(&canary, &out, sizeof out);
	assert_int_equal(rp_bpf_output_view(&rec, &out), RP_E_BODY_SHORT);
	assert_memory_equal(&out, &canary, sizeof out);

	/* a hand-made record whose body is 3 bytes split over two slices */
	uint8_t *a = malloc(2), *b = malloc(1);
	assert_non_null(a);
	assert_non_null(b);
	a[0] = 0; a[1] = 0; b[0] = 0;
	rp_record small = { .pos = 0, .type = RP_RECORD_SAMPLE, .misc = 0, .size = 16,
	                    .body = { .p0 = a, .p1 = b, .n0 = 2, .n1 = 1 } };
	assert_int_equal(rp_bpf_output_view(&small, &out), RP_E_BODY_SHORT);
	assert_memory_equal(&out, &canary, sizeof out);
	free(a);
	free(b);
	rb_free(&r);
}

static void lost_view(void **state)
{
	(void)state;
	rb_ring r = rb_new(128, 0);
	const uint64_t head = rb_put_lost(&r, 16, 0x1122334455667788ull, 42);
	const rp_record rec = decode_one(&r, 16, head);
	assert_int_equal(rec.type, RP_RECORD_LOST);
	assert_int_equal(rec.size, 24);
	rp_lost out;
	memset(&out, CANARY_BYTE, sizeof out);
	assert_int_equal(rp_lost_view(&rec, &out), RP_OK);
	assert_true(out.id == 0x1122334455667788ull);
	assert_true(out.lost == 42);
	rb_free(&r);
}

/* LOST with both u64 fields cut by the ring end (body at 60..63, 0..11). */
static void lost_view_wraps(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	/* header at 48 in a 64-byte ring: body 56..63 and 0..7 */
	uint64_t head = rb_put_lost(&r, 64 + 48, 0xa1a2a3a4a5a6a7a8ull, 0xffffffff00000001ull);
	rp_record rec = decode_one(&r, 64 + 48, head);
	assert_int_equal(rec.body.n0, 8);
	assert_int_equal(rec.body.n1, 8);
	rp_lost out;
	assert_int_equal(rp_lost_view(&rec, &out), RP_OK);
	assert_true(out.id == 0xa1a2a3a4a5a6a7a8ull);
	assert_true(out.lost == 0xffffffff00000001ull);

	/* a hand-made span cut mid-field: 5 + 11 bytes */
	uint8_t bytes[16];
	rb_le64(bytes, 0x0807060504030201ull);
	rb_le64(bytes + 8, 0x100f0e0d0c0b0a09ull);
	rec.body.p0 = bytes;
	rec.body.n0 = 5;
	rec.body.p1 = bytes + 5;
	rec.body.n1 = 11;
	assert_int_equal(rp_lost_view(&rec, &out), RP_OK);
	assert_true(out.id == 0x0807060504030201ull);
	assert_true(out.lost == 0x100f0e0d0c0b0a09ull);
	rb_free(&r);
}

static void lost_view_errors(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t payload[4] = { 1, 2, 3, 4 };
	uint64_t head = rb_put_bpf_output(&r, 0, payload, 4, 0);
	rp_record rec = decode_one(&r, 0, head);
	rp_lost out, canary;
	memset(&out, CANARY_BYTE, sizeof out);
	memcpy(&canary, &out, sizeof out);
	assert_int_equal(rp_lost_view(&rec, &out), RP_E_TYPE);
	assert_memory_equal(&out, &canary, sizeof out);

	/* LOST with an 8-byte body (only id): short */
	uint8_t body[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
	head = rb_put_record(&r, 0, RP_RECORD_LOST, 0, body, 8);
	rec = decode_one(&r, 0, head);
	assert_int_equal(rp_lost_view(&rec, &out), RP_E_BODY_SHORT);
	assert_memory_equal(&out, &canary, sizeof out);

	/* a 15-byte body by hand */
	uint8_t fifteen[15] = { 0 };
	rec.body.p0 = fifteen;
	rec.body.n0 = 15;
	rec.body.p1 = fifteen;
	rec.body.n1 = 0;
	assert_int_equal(rp_lost_view(&rec, &out), RP_E_BODY_SHORT);
	assert_memory_equal(&out, &canary, sizeof out);
	rb_free(&r);
}

/* A LOST record with a trailer (sample_id_all) still reads id and lost. */
static void lost_view_with_trailer(void **state)
{
	(void)state;
	rb_ring r = rb_new(64, 0);
	uint8_t body[24];
	rb_le64(body, 7);
	rb_le64(body + 8, 9000);
	rb_le64(body + 16, 0xdeadull); /* sample_id trailer: IDENTIFIER */
	const uint64_t head = rb_put_record(&r, 0, RP_RECORD_LOST, 0, body, 24);
	const rp_record rec = decode_one(&r, 0, head);
	rp_lost out;
	assert_int_equal(rp_lost_view(&rec, &out), RP_OK);
	assert_true(out.id == 7);
	assert_true(out.lost == 9000);
	rb_free(&r);
}

int main(void)
{
	if (!rb_host_is_le())
		return unit_skip_all("views");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bpf_output_sizes),
		cmocka_unit_test(bpf_output_payload_offset),
		cmocka_unit_test(bpf_output_kernel_empty),
		cmocka_unit_test(bpf_output_wraps),
		cmocka_unit_test(bpf_output_size_word_split),
		cmocka_unit_test(bpf_output_wrong_type),
		cmocka_unit_test(bpf_output_raw_too_long),
		cmocka_unit_test(bpf_output_body_short),
		cmocka_unit_test(lost_view),
		cmocka_unit_test(lost_view_wraps),
		cmocka_unit_test(lost_view_errors),
		cmocka_unit_test(lost_view_with_trailer),
	};
	return cmocka_run_group_tests_name("views", tests, NULL, NULL);
}
