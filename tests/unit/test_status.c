/* rp_status_text and the status code space.
 *
 * status_codes.h is generated at build time from core/rp_status.h (one
 * X(NAME) per enumerator, see mk/unit.mk), so a code added there without a
 * text in rp_status.c fails here. */
#include "unit.h"

typedef struct named_code {
	const char *name;
	int code;
} named_code;

static const named_code all_codes[] = {
#define X(name) { #name, name },
#include "status_codes.h"
#undef X
};
#define NCODES (sizeof all_codes / sizeof all_codes[0])

/* The framing and view codes keep their documented values (the ABI). */
static void code_values(void **state)
{
	(void)state;
	assert_int_equal(RP_OK, 0);
	assert_int_equal(RP_EMPTY, 1);
	assert_int_equal(RP_MORE, 2);
	assert_int_equal(RP_BUSY, 3);
	assert_int_equal(RP_OTHER, 4);
	assert_int_equal(RP_E_OVERRUN, -1001);
	assert_int_equal(RP_E_TAIL_ALIGN, -1002);
	assert_int_equal(RP_E_HDR_SHORT, -1003);
	assert_int_equal(RP_E_HDR_ALIGN, -1004);
	assert_int_equal(RP_E_TRUNCATED, -1005);
	assert_int_equal(RP_E_TYPE, -1100);
	assert_int_equal(RP_E_BODY_SHORT, -1101);
}

static void every_code_has_text(void **state)
{
	(void)state;
	assert_true(NCODES >= 11);
	for (size_t i = 0; i < NCODES; i++) {
		const char *t = rp_status_text(all_codes[i].code);
		if (t == NULL)
			fail_msg("rp_status_text(%s = %d) is NULL", all_codes[i].name,
			         all_codes[i].code);
		assert_true(strlen(t) > 0);
	}
}

static void texts_are_distinct(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCODES; i++)
		for (size_t j = i + 1; j < NCODES; j++) {
			const char *a = rp_status_text(all_codes[i].code);
			const char *b = rp_status_text(all_codes[j].code);
			if (all_codes[i].code == all_codes[j].code)
				fail_msg("%s and %s share code %d", all_codes[i].name,
				         all_codes[j].name, all_codes[i].code);
			if (a && b && strcmp(a, b) == 0)
				fail_msg("%s and %s share the text \"%s\"", all_codes[i].name,
				         all_codes[j].name, a);
		}
}

/* Codes stay inside the ranges rp_status.h documents. */
static void codes_in_documented_ranges(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCODES; i++) {
		const int c = all_codes[i].code;
		const int ok = (c >= 0 && c <= 4) || (c <= -1001 && c >= -1099) ||
		               (c <= -1100 && c >= -1499) || (c <= -1900 && c >= -1999);
		if (!ok)
			fail_msg("%s = %d is outside every documented range",
			         all_codes[i].name, c);
	}
}

static int is_listed(int code)
{
	for (size_t i = 0; i < NCODES; i++)
		if (all_codes[i].code == code)
			return 1;
	return 0;
}

static void unknown_codes_are_null(void **state)
{
	(void)state;
	static const int unknown[] = { 4, 5, 100, -1, -12, -22, -999, -1000,
	                               -1006, -1099, -1199, -1400, -1899, -2000,
	                               INT32_MAX, INT32_MIN };
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
		if (is_listed(unknown[i]))
			continue; /* a module has since claimed it */
		assert_null(rp_status_text(unknown[i]));
	}
	/* and over the whole ringproof range: text exactly for listed codes */
	for (int c = -2100; c <= 16; c++) {
		const char *t = rp_status_text(c);
		if (is_listed(c) != (t != NULL))
			fail_msg("code %d: listed %d but text %s", c, is_listed(c),
			         t ? t : "NULL");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(code_values),
		cmocka_unit_test(every_code_has_text),
		cmocka_unit_test(texts_are_distinct),
		cmocka_unit_test(codes_in_documented_ranges),
		cmocka_unit_test(unknown_codes_are_null),
	};
	return cmocka_run_group_tests_name("status", tests, NULL, NULL);
}
