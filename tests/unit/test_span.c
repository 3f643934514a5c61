/* rp_span_*: sub-spans, copies and value reads over two-slice spans. */
#include "unit.h"

/* A span of 10 + 6 bytes in two separate heap slices; bytes 0..15 are
 * 0x10, 0x11, ..., 0x1f in span order. */
typedef struct two_slices {
	uint8_t *a;
	uint8_t *b;
	rp_span s;
} two_slices;

static two_slices make_span(void)
{
	two_slices t;
	t.a = malloc(10);
	t.b = malloc(6);
	assert_non_null(t.a);
	assert_non_null(t.b);
	for (int i = 0; i < 10; i++)
		t.a[i] = (uint8_t)(0x10 + i);
	for (int i = 0; i < 6; i++)
		t.b[i] = (uint8_t)(0x1a + i);
	t.s.p0 = t.a;
	t.s.n0 = 10;
	t.s.p1 = t.b;
	t.s.n1 = 6;
	return t;
}

static void free_span(two_slices *t)
{
	free(t->a);
	free(t->b);
}

static void sub_in_first_slice(void **state)
{
	(void)state;
	two_slices t = make_span();
	rp_span out;
	memset(&out, CANARY_BYTE, sizeof out);
	assert_true(rp_span_sub(t.s, 2, 5, &out));
	assert_ptr_equal(out.p0, t.a + 2);
	assert_int_equal(out.n0, 5);
	assert_int_equal(out.n1, 0);
	const uint8_t want[5] = { 0x12, 0x13, 0x14, 0x15, 0x16 };
	assert_span_bytes(out, want, 5);
	/* up to the last byte of the first slice */
	assert_true(rp_span_sub(t.s, 0, 10, &out));
	assert_ptr_equal(out.p0, t.a);
	assert_int_equal(out.n0, 10);
	assert_int_equal(out.n1, 0);
	free_span(&t);
}

/* Every (off, len) of the 10 + 6 span: the exact form of rp_span_sub's
 * result that its contract states (p1 is always the second slice; a view
 * starting in the second slice is one slice there; one ending in the first
 * is one slice there; a crossing view is split at the slice end). */
static void sub_form_every_range(void **state)
{
	(void)state;
	two_slices t = make_span();
	for (uint32_t off = 0; off <= 16; off++) {
		for (uint32_t len = 0; off + len <= 16; len++) {
			rp_span out;
			memset(&out, CANARY_BYTE, sizeof out);
			assert_true(rp_span_sub(t.s, off, len, &out));
			assert_ptr_equal(out.p1, t.b);
			if (off >= 10) {
				assert_ptr_equal(out.p0, t.b + (off - 10));
				assert_int_equal(out.n0, len);
				assert_int_equal(out.n1, 0);
			} else if (off + len <= 10) {
				assert_ptr_equal(out.p0, t.a + off);
				assert_int_equal(out.n0, len);
				assert_int_equal(out.n1, 0);
			} else {
				assert_ptr_equal(out.p0, t.a + off);
				assert_int_equal(out.n0, 10 - off);
				assert_int_equal(out.n1, off + len - 10);
			}
		}
	}
	free_span(&t);
}

static void sub_in_second_slice(void **state)
{
	(void)state;
	two_slices t = make_span();
	rp_span out;
	assert_true(rp_span_sub(t.s, 11, 4, &out));
	assert_ptr_equal(out.p0, t.b + 1);
	assert_int_equal(out.n0, 4);
	assert_int_equal(out.n1, 0);
	const uint8_t want[4] = { 0x1b, 0x1c, 0x1d, 0x1e };
	assert_span_bytes(out, want, 4);
	/* starting exactly at the slice boundary */
	assert_true(rp_span_sub(t.s, 10, 6, &out));
	assert_ptr_equal(out.p0, t.b);
	assert_int_equal(out.n0 + out.n1, 6);
	assert_int_equal(span_at(out, 0), 0x1a);
	assert_int_equal(span_at(out, 5), 0x1f);
	free_span(&t);
}

static void sub_straddling(void **state)
{
	(void)state;
	two_slices t = make_span();
	rp_span out;
	assert_true(rp_span_sub(t.s, 7, 6, &out));
	assert_ptr_equal(out.p0, t.a + 7);
	assert_int_equal(out.n0, 3);
	assert_ptr_equal(out.p1, t.b);
	assert_int_equal(out.n1, 3);
	const uint8_t want[6] = { 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c };
	assert_span_bytes(out, want, 6);
	/* the whole span */
	assert_true(rp_span_sub(t.s, 0, 16, &out));
	assert_int_equal(out.n0, 10);
	assert_int_equal(out.n1, 6);
	free_span(&t);
}

static void sub_empty_at_end(void **state)
{
	(void)state;
	two_slices t = make_span();
	rp_span out;
	memset(&out, CANARY_BYTE, sizeof out);
	assert_true(rp_span_sub(t.s, 16, 0, &out));
	assert_int_equal(out.n0 + out.n1, 0);
	/* an empty span at offset 0 too */
	assert_true(rp_span_sub(t.s, 0, 0, &out));
	assert_int_equal(out.n0 + out.n1, 0);
	uint8_t dst[4] = { 9, 9, 9, 9 };
	assert_int_equal(rp_span_copy(out, dst, 4), 0);
	assert_int_equal(dst[0], 9);
	free_span(&t);
}

static void sub_out_of_range(void **state)
{
	(void)state;
	two_slices t = make_span();
	rp_span out, canary;
	memset(&out, CANARY_BYTE, sizeof out);
	memcpy(&canary, &out, sizeof out);
	assert_false(rp_span_sub(t.s, 16, 1, &out));
	assert_false(rp_span_sub(t.s, 17, 0, &out));
	assert_false(rp_span_sub(t.s, 0, 17, &out));
	assert_false(rp_span_sub(t.s, 9, 8, &out));
	/* off + len overflows 32 bits */
	assert_false(rp_span_sub(t.s, UINT32_MAX, 2, &out));
	assert_false(rp_span_sub(t.s, 8, UINT32_MAX - 4, &out));
	assert_false(rp_span_sub(t.s, UINT32_MAX, UINT32_MAX, &out));
	assert_memory_equal(&out, &canary, sizeof out);
	free_span(&t);
}

/* A sub-span of a sub-span keeps reading the same bytes. */
static void sub_of_sub(void **state)
{
	(void)state;
	two_slices t = make_span();
	rp_span mid, inner;
	assert_true(rp_span_sub(t.s, 4, 10, &mid)); /* bytes 4..13 */
	assert_true(rp_span_sub(mid, 5, 4, &inner)); /* bytes 9..12 */
	const uint8_t want[4] = { 0x19, 0x1a, 0x1b, 0x1c };
	assert_span_bytes(inner, want, 4);
	assert_false(rp_span_sub(mid, 5, 6, &inner));
	free_span(&t);
}

static void copy_caps(void **state)
{
	(void)state;
	two_slices t = make_span();
	uint8_t dst[20];

	memset(dst, 0xee, sizeof dst);
	assert_int_equal(rp_span_copy(t.s, dst, 20), 16);
	for (int i = 0; i < 16; i++)
		assert_int_equal(dst[i], 0x10 + i);
	for (int i = 16; i < 20; i++)
		assert_int_equal(dst[i], 0xee); /* nothing written past the span */

	memset(dst, 0xee, sizeof dst);
	assert_int_equal(rp_span_copy(t.s, dst, 4), 4); /* inside the first slice */
	for (int i = 0; i < 4; i++)
		assert_int_equal(dst[i], 0x10 + i);
	assert_int_equal(dst[4], 0xee);

	memset(dst, 0xee, sizeof dst);
	assert_int_equal(rp_span_copy(t.s, dst, 12), 12); /* into the second */
	for (int i = 0; i < 12; i++)
		assert_int_equal(dst[i], 0x10 + i);
	assert_int_equal(dst[12], 0xee);

	assert_int_equal(rp_span_copy(t.s, dst, 0), 0);
	free_span(&t);
}

static void values_in_range(void **state)
{
	(void)state;
	two_slices t = make_span();
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;
	assert_true(rp_span_get_u16(t.s, 0, &v16));
	assert_int_equal(v16, 0x1110);
	assert_true(rp_span_get_u16(t.s, 9, &v16)); /* straddles */
	assert_int_equal(v16, 0x1a19);
	assert_true(rp_span_get_u16(t.s, 14, &v16)); /* last two bytes */
	assert_int_equal(v16, 0x1f1e);
	assert_true(rp_span_get_u32(t.s, 8, &v32));
	assert_int_equal(v32, 0x1b1a1918);
	assert_true(rp_span_get_u32(t.s, 12, &v32));
	assert_int_equal(v32, 0x1f1e1d1c);
	assert_true(rp_span_get_u64(t.s, 3, &v64));
	assert_true(v64 == 0x1a19181716151413ull);
	assert_true(rp_span_get_u64(t.s, 8, &v64));
	assert_true(v64 == 0x1f1e1d1c1b1a1918ull);
	assert_int_equal(rp_span_byte(t.s, 9), 0x19);
	assert_int_equal(rp_span_byte(t.s, 10), 0x1a);
	assert_int_equal(rp_span_byte(t.s, 15), 0x1f);
	free_span(&t);
}

static void values_out_of_range(void **state)
{
	(void)state;
	two_slices t = make_span();
	uint16_t v16 = 0xabcd;
	uint32_t v32 = 0xabcdef01u;
	uint64_t v64 = 0x0123456789abcdefull;
	assert_false(rp_span_get_u16(t.s, 15, &v16));
	assert_false(rp_span_get_u16(t.s, UINT32_MAX, &v16));
	assert_false(rp_span_get_u32(t.s, 13, &v32));
	assert_false(rp_span_get_u32(t.s, UINT32_MAX - 2, &v32));
	assert_false(rp_span_get_u64(t.s, 9, &v64));
	assert_false(rp_span_get_u64(t.s, UINT32_MAX - 6, &v64));
	assert_int_equal(v16, 0xabcd);
	assert_int_equal(v32, 0xabcdef01u);
	assert_true(v64 == 0x0123456789abcdefull);
	free_span(&t);
}

int main(void)
{
	if (!rb_host_is_le())
		return unit_skip_all("span");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sub_in_first_slice),
		cmocka_unit_test(sub_in_second_slice),
		cmocka_unit_test(sub_straddling),
		cmocka_unit_test(sub_empty_at_end),
		cmocka_unit_test(sub_out_of_range),
		cmocka_unit_test(sub_of_sub),
		cmocka_unit_test(sub_form_every_range),
		cmocka_unit_test(copy_caps),
		cmocka_unit_test(values_in_range),
		cmocka_unit_test(values_out_of_range),
	};
	return cmocka_run_group_tests_name("span", tests, NULL, NULL);
}
