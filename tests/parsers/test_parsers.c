/* Unit tests of the record and SAMPLE parsers.  Every record is written by
 * hand with pbuf (host byte order, values chosen here), so expected values
 * never come from the parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "pbuf.h"
#include "rp_cursor.h" /* internal: the cursor helpers are tested directly */
#include "rp_records.h"
#include "rp_sample.h"

static void assert_view(rp_span v, const void *exp, uint32_t n)
{
	uint8_t tmp[8192];
	assert_int_equal(v.n0 + v.n1, n);
	assert_int_equal(rp_span_copy(v, tmp, sizeof tmp), n);
	if (n)
		assert_memory_equal(tmp, exp, n);
}

static rp_sample_layout layout(uint64_t st, uint64_t rf, uint64_t bst, uint64_t ru,
                               uint64_t ri, bool id_all)
{
	rp_sample_layout L;
	assert_int_equal(rp_sample_layout_make(st, rf, bst, ru, ri, id_all, &L), RP_OK);
	return L;
}

static rp_record record(uint32_t type, uint16_t misc, rp_span body)
{
	rp_record r = { 0, type, misc, (uint16_t)(8 + body.n0 + body.n1), body };
	return r;
}

/* ---- layout descriptor ---- */

static void test_popcount(void **state)
{
	(void)state;
	assert_int_equal(rp_popcount64(0), 0);
	assert_int_equal(rp_popcount64(1), 1);
	assert_int_equal(rp_popcount64(0xff), 8);
	assert_int_equal(rp_popcount64(0x8000000000000001ull), 2);
	assert_int_equal(rp_popcount64(UINT64_MAX), 64);
	assert_int_equal(rp_popcount64(0x0000000000ff00ffull), 16);
}

static void test_layout_rejects(void **state)
{
	(void)state;
	rp_sample_layout L;
	memset(&L, 0x5a, sizeof L);
	assert_int_equal(rp_sample_layout_make(1ull << 25, 0, 0, 0, 0, false, &L), RP_E_SAMPLE_TYPE_BITS);
	assert_int_equal(rp_sample_layout_make(1ull << 63, 0, 0, 0, 0, false, &L), RP_E_SAMPLE_TYPE_BITS);
	assert_int_equal(rp_sample_layout_make(RP_SAMPLE_IP, 1u << 5, 0, 0, 0, false, &L), RP_E_READ_FORMAT_BITS);
	assert_int_equal(rp_sample_layout_make(RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT, 0, 0, 0, 0, false, &L),
	                 RP_E_WEIGHT_BOTH);
	assert_int_equal(L.sample_type, 0x5a5a5a5a5a5a5a5aull); /* untouched */
	assert_int_equal(rp_sample_layout_make((1ull << 25) - 1 - RP_SAMPLE_WEIGHT, 31, 0, 0, 0, false, &L), RP_OK);
}

static void test_layout_counts(void **state)
{
	(void)state;
	rp_sample_layout L = layout(RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_CPU | RP_SAMPLE_IP,
	                            0, 0, 0x7, 0xf0f0, true);
	assert_int_equal(L.regs_user_nr, 3);
	assert_int_equal(L.regs_intr_nr, 8);
	assert_int_equal(L.id_size, 24); /* TID, TIME, CPU; IP is not in the trailer */
	L = layout(RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID | RP_SAMPLE_STREAM_ID | RP_SAMPLE_CPU |
	           RP_SAMPLE_IDENTIFIER, 0, 0, 0, 0, true);
	assert_int_equal(L.id_size, 48);
	L = layout(RP_SAMPLE_TID, 0, 0, 0, 0, false);
	assert_int_equal(L.id_size, 0);

	/* each trailer field counts 8 bytes whatever other bits are set, above
	 * it or below: bits 0..23 are every bit but WEIGHT_STRUCT */
	static const uint64_t trailer[6] = { RP_SAMPLE_TID, RP_SAMPLE_TIME, RP_SAMPLE_ID,
	                                     RP_SAMPLE_STREAM_ID, RP_SAMPLE_CPU,
	                                     RP_SAMPLE_IDENTIFIER };
	const uint64_t every = (1ull << 24) - 1;
	uint64_t others = every;
	for (unsigned i = 0; i < 6; i++)
		others &= ~trailer[i];
	for (unsigned i = 0; i < 6; i++) {
		L = layout(others | trailer[i], 0, 0, 0, 0, true);
		assert_int_equal(L.id_size, 8);
	}
	L = layout(every, 0, 0, 0, 0, true);
	assert_int_equal(L.id_size, 48);
	L = layout(others, 0, 0, 0, 0, true);
	assert_int_equal(L.id_size, 0);
}

/* ---- the full sample: every field but WEIGHT_STRUCT (24 fields) ---- */

static const uint8_t RAW[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
static const uint8_t STACK[16] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                   0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf };
static const uint8_t AUXB[8] = { 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7 };

#define FULL_ST ((1ull << 24) - 1) /* bits 0..23: all but WEIGHT_STRUCT */

static void write_full(pbuf *w)
{
	w->n = 0;
	p64(w, 0x1111);                 /* IDENTIFIER */
	p64(w, 0xffffffff81000010ull);  /* IP */
	p32(w, 100); p32(w, 101);       /* TID */
	p64(w, 5000000000ull);          /* TIME */
	p64(w, 0xdead0000);             /* ADDR */
	p64(w, 0x2222);                 /* ID */
	p64(w, 0x3333);                 /* STREAM_ID */
	p32(w, 3); p32(w, 0);           /* CPU */
	p64(w, 4000);                   /* PERIOD */
	p64(w, 777); p64(w, 900); p64(w, 800); p64(w, 0x2222); p64(w, 4); /* READ: value enabled running id lost */
	p64(w, 3); p64(w, (uint64_t)-512); p64(w, 0x401000); p64(w, 0x401100); /* CALLCHAIN */
	p32(w, 12); pbytes(w, RAW, 12); /* RAW: 4 + 12 = 16 */
	p64(w, 1); p64(w, 0xa); p64(w, 0xb); p64(w, 0xc); /* BRANCH_STACK nr=1 (no HW_INDEX) */
	p64(w, 2); p64(w, 0x71); p64(w, 0x72); /* REGS_USER abi 64, 2 regs */
	p64(w, 16); pbytes(w, STACK, 16); p64(w, 10); /* STACK_USER size, data, dyn_size */
	p64(w, 55);                     /* WEIGHT */
	p64(w, 0x66);                   /* DATA_SRC */
	p64(w, 0x77);                   /* TRANSACTION */
	p64(w, 2); p64(w, 0x91); p64(w, 0x92); p64(w, 0x93); /* REGS_INTR abi, 3 regs */
	p64(w, 0x12345000);             /* PHYS_ADDR */
	p64(w, 0xc9);                   /* CGROUP */
	p64(w, 4096);                   /* DATA_PAGE_SIZE */
	p64(w, 2097152);                /* CODE_PAGE_SIZE */
	p64(w, 8); pbytes(w, AUXB, 8);  /* AUX */
}

static rp_sample_layout full_layout(void)
{
	return layout(FULL_ST,
	              RP_FORMAT_TOTAL_TIME_ENABLED | RP_FORMAT_TOTAL_TIME_RUNNING | RP_FORMAT_ID | RP_FORMAT_LOST,
	              0, 0x3, 0x7, false);
}

static void check_full(const rp_sample *s)
{
	assert_int_equal(s->present, FULL_ST);
	assert_int_equal(s->identifier, 0x1111);
	assert_int_equal(s->ip, 0xffffffff81000010ull);
	assert_int_equal(s->pid, 100);
	assert_int_equal(s->tid, 101);
	assert_int_equal(s->time, 5000000000ull);
	assert_int_equal(s->addr, 0xdead0000);
	assert_int_equal(s->id, 0x2222);
	assert_int_equal(s->stream_id, 0x3333);
	assert_int_equal(s->cpu, 3);
	assert_int_equal(s->period, 4000);
	assert_false(s->read.group);
	assert_int_equal(s->read.value, 777);
	assert_int_equal(s->read.time_enabled, 900);
	assert_int_equal(s->read.time_running, 800);
	assert_int_equal(s->read.id, 0x2222);
	assert_int_equal(s->read.lost, 4);
	assert_int_equal(s->callchain_nr, 3);
	uint64_t cc[3] = { (uint64_t)-512, 0x401000, 0x401100 };
	assert_view(s->callchain, cc, 24);
	assert_int_equal(s->raw_size, 12);
	assert_view(s->raw, RAW, 12);
	assert_int_equal(s->branch_nr, 1);
	assert_false(s->has_hw_idx);
	assert_false(s->has_branch_counters);
	uint64_t br[3] = { 0xa, 0xb, 0xc };
	assert_view(s->branch_entries, br, 24);
	assert_int_equal(s->regs_user_abi, 2);
	uint64_t ru[2] = { 0x71, 0x72 };
	assert_view(s->regs_user, ru, 16);
	assert_int_equal(s->stack_user_size, 16);
	assert_view(s->stack_user, STACK, 16);
	assert_true(s->has_dyn_size);
	assert_int_equal(s->stack_user_dyn_size, 10);
	assert_int_equal(s->weight, 55);
	assert_int_equal(s->data_src, 0x66);
	assert_int_equal(s->transaction, 0x77);
	assert_int_equal(s->regs_intr_abi, 2);
	uint64_t ri[3] = { 0x91, 0x92, 0x93 };
	assert_view(s->regs_intr, ri, 24);
	assert_int_equal(s->phys_addr, 0x12345000);
	assert_int_equal(s->cgroup, 0xc9);
	assert_int_equal(s->data_page_size, 4096);
	assert_int_equal(s->code_page_size, 2097152);
	assert_int_equal(s->aux_size, 8);
	assert_view(s->aux, AUXB, 8);
}

static void test_full_sample_every_split(void **state)
{
	(void)state;
	static pbuf w;
	write_full(&w);
	assert_int_equal(w.n, 352); /* hand count: 9 x 8 + 40 + 32 + 16 + 32 + 24 + 32 + 24 + 32 + 32 + 16 */
	const rp_sample_layout L = full_layout();
	for (uint32_t split = 0; split <= w.n; split++) {
		rp_span b = span_of(&w, w.n, split);
		rp_record rec = record(RP_RECORD_SAMPLE, 2, b);
		rp_sample s;
		memset(&s, 0xee, sizeof s);
		assert_int_equal(rp_sample_parse(&L, &rec, &s), RP_OK);
		check_full(&s);
		span_free(b);
	}
}

static void test_full_sample_truncated(void **state)
{
	(void)state;
	static pbuf w;
	write_full(&w);
	const rp_sample_layout L = full_layout();
	for (uint32_t len = 0; len < w.n; len++) {
		rp_span b = span_of(&w, len, len / 2);
		rp_sample s;
		assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_BODY_SHORT);
		span_free(b);
	}
}

static void test_full_sample_leftover(void **state)
{
	(void)state;
	static pbuf w;
	write_full(&w);
	p64(&w, 0);
	const rp_sample_layout L = full_layout();
	rp_span b = span_of(&w, w.n, 100);
	rp_sample s;
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_LEFTOVER);
	span_free(b);
}

static void test_sample_wrong_type(void **state)
{
	(void)state;
	static pbuf w;
	write_full(&w);
	const rp_sample_layout L = full_layout();
	rp_span b = span_of(&w, w.n, 8);
	rp_record rec = record(RP_RECORD_MMAP, 0, b);
	rp_sample s;
	assert_int_equal(rp_sample_parse(&L, &rec, &s), RP_E_TYPE);
	span_free(b);
}

/* 21 fields exactly: the software-event set of the integration test plus a
 * few PMU-only ones, in kernel order. */
static void test_21_fields(void **state)
{
	(void)state;
	static pbuf w;
	const uint64_t st = RP_SAMPLE_IDENTIFIER | RP_SAMPLE_IP | RP_SAMPLE_TID | RP_SAMPLE_TIME |
	                    RP_SAMPLE_ADDR | RP_SAMPLE_ID | RP_SAMPLE_STREAM_ID | RP_SAMPLE_CPU |
	                    RP_SAMPLE_PERIOD | RP_SAMPLE_READ | RP_SAMPLE_CALLCHAIN | RP_SAMPLE_RAW |
	                    RP_SAMPLE_REGS_USER | RP_SAMPLE_STACK_USER | RP_SAMPLE_WEIGHT_STRUCT |
	                    RP_SAMPLE_DATA_SRC | RP_SAMPLE_REGS_INTR | RP_SAMPLE_PHYS_ADDR |
	                    RP_SAMPLE_CGROUP | RP_SAMPLE_DATA_PAGE_SIZE | RP_SAMPLE_CODE_PAGE_SIZE;
	assert_int_equal(rp_popcount64(st), 21);
	const rp_sample_layout L = layout(st, RP_FORMAT_ID, 0, 0x1, 0x1, false);
	w.n = 0;
	p64(&w, 1); p64(&w, 2); p32(&w, 3); p32(&w, 4); p64(&w, 5); p64(&w, 6); p64(&w, 7);
	p64(&w, 8); p32(&w, 9); p32(&w, 0); p64(&w, 10);
	p64(&w, 11); p64(&w, 12);           /* READ value, id */
	p64(&w, 0);                         /* CALLCHAIN nr 0 */
	p32(&w, 4); p32(&w, 0);             /* RAW: empty (size 4, zero bytes) */
	p64(&w, 0);                         /* REGS_USER abi 0: no regs */
	p64(&w, 0);                         /* STACK_USER size 0: no dyn_size */
	p64(&w, 0x0001000200030004ull);     /* WEIGHT_STRUCT */
	p64(&w, 13); p64(&w, 1); p64(&w, 14); /* DATA_SRC; REGS_INTR abi 1, 1 reg */
	p64(&w, 15); p64(&w, 16); p64(&w, 17); p64(&w, 18);
	rp_span b = span_of(&w, w.n, 13);
	rp_sample s;
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_int_equal(s.identifier, 1);
	assert_int_equal(s.tid, 4);
	assert_int_equal(s.cpu, 9);
	assert_int_equal(s.read.id, 12);
	assert_int_equal(s.callchain_nr, 0);
	assert_int_equal(s.raw_size, 4);
	assert_int_equal(s.regs_user_abi, 0);
	assert_int_equal(s.regs_user.n0 + s.regs_user.n1, 0);
	assert_int_equal(s.stack_user_size, 0);
	assert_false(s.has_dyn_size);
	assert_int_equal(s.weight, 0x0001000200030004ull);
	assert_int_equal(s.data_src, 13);
	uint64_t r14 = 14;
	assert_view(s.regs_intr, &r14, 8);
	assert_int_equal(s.code_page_size, 18);
	span_free(b);
}

/* ---- single parts ---- */

static void test_group_read_nr3(void **state)
{
	(void)state;
	static pbuf w;
	const rp_sample_layout L = layout(RP_SAMPLE_TID | RP_SAMPLE_READ,
	                                  RP_FORMAT_GROUP | RP_FORMAT_ID | RP_FORMAT_LOST |
	                                      RP_FORMAT_TOTAL_TIME_ENABLED | RP_FORMAT_TOTAL_TIME_RUNNING,
	                                  0, 0, 0, false);
	w.n = 0;
	p32(&w, 7); p32(&w, 8);
	p64(&w, 3); p64(&w, 1000); p64(&w, 900);
	p64(&w, 11); p64(&w, 101); p64(&w, 0);
	p64(&w, 22); p64(&w, 102); p64(&w, 1);
	p64(&w, 33); p64(&w, 103); p64(&w, 2);
	rp_span b = span_of(&w, w.n, 40);
	rp_sample s;
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_true(s.read.group);
	assert_int_equal(s.read.nr, 3);
	assert_int_equal(s.read.time_enabled, 1000);
	assert_int_equal(s.read.time_running, 900);
	assert_int_equal(s.read.entry_size, 24);
	for (uint32_t i = 0; i < 3; i++) {
		uint64_t v, id, lost;
		assert_true(rp_read_entry(&s.read, i, &v, &id, &lost));
		assert_int_equal(v, 11 * (i + 1));
		assert_int_equal(id, 101 + i);
		assert_int_equal(lost, i);
	}
	uint64_t v, id, lost;
	assert_false(rp_read_entry(&s.read, 3, &v, &id, &lost));
	span_free(b);
	/* the same layout with nr = 2 (a sibling went away): the record's nr rules */
	w.n = 0;
	p32(&w, 7); p32(&w, 8);
	p64(&w, 2); p64(&w, 1000); p64(&w, 900);
	p64(&w, 11); p64(&w, 101); p64(&w, 0);
	p64(&w, 22); p64(&w, 102); p64(&w, 1);
	b = span_of(&w, w.n, 3);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_int_equal(s.read.nr, 2);
	span_free(b);
	/* nr too large for the body */
	w.n = 0;
	p32(&w, 7); p32(&w, 8);
	p64(&w, 0x4000000000000000ull); p64(&w, 1000); p64(&w, 900);
	b = span_of(&w, w.n, 3);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_BODY_SHORT);
	span_free(b);
}

static void test_callchain_context(void **state)
{
	(void)state;
	static pbuf w;
	const rp_sample_layout L = layout(RP_SAMPLE_CALLCHAIN, 0, 0, 0, 0, false);
	const uint64_t ips[5] = { (uint64_t)-128, 0xffffffff81234567ull, (uint64_t)-512, 0x401000, 0x7f0000001000ull };
	w.n = 0;
	p64(&w, 5);
	for (int i = 0; i < 5; i++)
		p64(&w, ips[i]);
	rp_span b = span_of(&w, w.n, 20);
	rp_sample s;
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_int_equal(s.callchain_nr, 5);
	assert_view(s.callchain, ips, 40);
	bool ctx[5] = { true, false, true, false, false };
	for (uint32_t i = 0; i < 5; i++) {
		uint64_t ip;
		assert_true(rp_span_get_u64(s.callchain, 8 * i, &ip));
		assert_int_equal(rp_callchain_is_context(ip), ctx[i]);
	}
	assert_true(rp_callchain_is_context((uint64_t)-4095));
	assert_false(rp_callchain_is_context((uint64_t)-4096));
	span_free(b);
	/* nr that would overflow nr * 8 */
	w.n = 0;
	p64(&w, UINT64_MAX / 4);
	p64(&w, 1);
	b = span_of(&w, w.n, 0);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_BODY_SHORT);
	span_free(b);
}

static void test_stack_user(void **state)
{
	(void)state;
	static pbuf w;
	const rp_sample_layout L = layout(RP_SAMPLE_STACK_USER | RP_SAMPLE_PERIOD, 0, 0, 0, 0, false);
	rp_sample s;
	/* size 0: no dyn_size, consumed exactly */
	w.n = 0;
	p64(&w, 9); p64(&w, 0);
	rp_span b = span_of(&w, w.n, 8);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_false(s.has_dyn_size);
	assert_int_equal(s.stack_user_size, 0);
	span_free(b);
	/* size 0 plus a stray dyn_size inside header.size: leftover */
	p64(&w, 0);
	b = span_of(&w, w.n, 8);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_LEFTOVER);
	span_free(b);
	/* dyn_size > size */
	w.n = 0;
	p64(&w, 9); p64(&w, 8); p64(&w, 0); p64(&w, 9);
	b = span_of(&w, w.n, 8);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_STACK_DYN);
	span_free(b);
	/* dyn_size == size: the whole copy was used, fine */
	w.n = 0;
	p64(&w, 9); p64(&w, 8); p64(&w, 0); p64(&w, 8);
	b = span_of(&w, w.n, 8);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_int_equal(s.stack_user_dyn_size, 8);
	span_free(b);
	/* dyn_size missing */
	w.n = 0;
	p64(&w, 9); p64(&w, 8); p64(&w, 0);
	b = span_of(&w, w.n, 8);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_BODY_SHORT);
	span_free(b);
}

static void test_raw(void **state)
{
	(void)state;
	static pbuf w;
	const rp_sample_layout L = layout(RP_SAMPLE_RAW, 0, 0, 0, 0, false);
	rp_sample s;
	w.n = 0;
	p32(&w, 5); p32(&w, 0x01020304); p8(&w, 9); /* 4 + 5 = 9: not aligned */
	for (int i = 0; i < 7; i++)
		p8(&w, 0);
	rp_span b = span_of(&w, w.n, 2);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_RAW_ALIGN);
	span_free(b);
	w.n = 0;
	p32(&w, 20); p32(&w, 0); /* claims 20, has 4 */
	b = span_of(&w, w.n, 2);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_BODY_SHORT);
	span_free(b);
	w.n = 0;
	p32(&w, 4); p32(&w, 0xaabbccdd);
	b = span_of(&w, w.n, 6);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	uint32_t exp = 0xaabbccdd;
	assert_view(s.raw, &exp, 4);
	span_free(b);
}

static void test_branch_stack(void **state)
{
	(void)state;
	static pbuf w;
	rp_sample s;
	/* HW_INDEX with nr = 2 */
	rp_sample_layout L = layout(RP_SAMPLE_BRANCH_STACK | RP_SAMPLE_WEIGHT, 0, RP_BRANCH_HW_INDEX, 0, 0, false);
	w.n = 0;
	p64(&w, 2); p64(&w, 5);
	for (int i = 0; i < 6; i++)
		p64(&w, 0x100 + i);
	p64(&w, 42);
	rp_span b = span_of(&w, w.n, 17);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_int_equal(s.branch_nr, 2);
	assert_true(s.has_hw_idx);
	assert_int_equal(s.branch_hw_idx, 5);
	assert_int_equal(s.branch_entries.n0 + s.branch_entries.n1, 48);
	assert_int_equal(s.weight, 42);
	span_free(b);
	/* HW_INDEX, nr = 0, no hw_idx (the kernel's no-branch-stack form) */
	w.n = 0;
	p64(&w, 0); p64(&w, 42);
	b = span_of(&w, w.n, 0);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_false(s.has_hw_idx);
	assert_int_equal(s.weight, 42);
	span_free(b);
	/* HW_INDEX, nr = 0 with hw_idx (an empty stack): second reading */
	w.n = 0;
	p64(&w, 0); p64(&w, 7); p64(&w, 42);
	b = span_of(&w, w.n, 0);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_true(s.has_hw_idx);
	assert_int_equal(s.branch_hw_idx, 7);
	assert_int_equal(s.weight, 42);
	span_free(b);
	/* COUNTERS: nr = 1, entries, counters */
	L = layout(RP_SAMPLE_BRANCH_STACK, 0, RP_BRANCH_COUNTERS, 0, 0, false);
	w.n = 0;
	p64(&w, 1); p64(&w, 1); p64(&w, 2); p64(&w, 3); p64(&w, 99);
	b = span_of(&w, w.n, 9);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_true(s.has_branch_counters);
	uint64_t c99 = 99;
	assert_view(s.branch_counters, &c99, 8);
	span_free(b);
	/* COUNTERS set but not supplied by the kernel */
	b = span_of(&w, 32, 9);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_false(s.has_branch_counters);
	span_free(b);
	/* too many entries */
	w.n = 0;
	p64(&w, 3); p64(&w, 1);
	b = span_of(&w, w.n, 9);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_BODY_SHORT);
	span_free(b);
}

/* ---- absent parts, cut-off branch stacks, array counts that overflow ---- */

/* Fill a stretch of stack with 0xee and return: the parser's scratch
 * rp_sample halves then start out non-zero, so a field the walk forgets to
 * store shows up as 0xee.. even in an ASan build; valgrind sees it too. */
static __attribute__((noinline)) void paint_stack(void)
{
	volatile uint8_t junk[16384];
	for (size_t i = 0; i < sizeof junk; i++)
		junk[i] = 0xee;
}

static void assert_empty(rp_span v)
{
	assert_int_equal(v.n0, 0);
	assert_int_equal(v.n1, 0);
}

/* Every part a sample_type leaves out reads as zero, false or empty: the
 * fixed fields, CALLCHAIN, RAW, BRANCH_STACK, REGS_*, STACK_USER (and its
 * dyn_size), WEIGHT .. CODE_PAGE_SIZE, AUX; READ (every value zero). */
static void assert_absent_parts(const rp_sample *s, uint64_t st)
{
	assert_int_equal(s->present, st);
	if (!(st & RP_SAMPLE_IDENTIFIER)) assert_int_equal(s->identifier, 0);
	if (!(st & RP_SAMPLE_IP)) assert_int_equal(s->ip, 0);
	if (!(st & RP_SAMPLE_TID)) { assert_int_equal(s->pid, 0); assert_int_equal(s->tid, 0); }
	if (!(st & RP_SAMPLE_TIME)) assert_int_equal(s->time, 0);
	if (!(st & RP_SAMPLE_ADDR)) assert_int_equal(s->addr, 0);
	if (!(st & RP_SAMPLE_ID)) assert_int_equal(s->id, 0);
	if (!(st & RP_SAMPLE_STREAM_ID)) assert_int_equal(s->stream_id, 0);
	if (!(st & RP_SAMPLE_CPU)) { assert_int_equal(s->cpu, 0); assert_int_equal(s->cpu_res, 0); }
	if (!(st & RP_SAMPLE_PERIOD)) assert_int_equal(s->period, 0);
	if (!(st & RP_SAMPLE_READ)) {
		assert_false(s->read.group || s->read.has_id || s->read.has_lost ||
		             s->read.has_enabled || s->read.has_running);
		assert_int_equal(s->read.nr, 0);
		assert_int_equal(s->read.time_enabled, 0);
		assert_int_equal(s->read.time_running, 0);
		assert_int_equal(s->read.value, 0);
		assert_int_equal(s->read.id, 0);
		assert_int_equal(s->read.lost, 0);
		assert_int_equal(s->read.entry_size, 0);
		assert_empty(s->read.entries);
	}
	if (!(st & RP_SAMPLE_CALLCHAIN)) { assert_int_equal(s->callchain_nr, 0); assert_empty(s->callchain); }
	if (!(st & RP_SAMPLE_RAW)) { assert_int_equal(s->raw_size, 0); assert_empty(s->raw); }
	if (!(st & RP_SAMPLE_BRANCH_STACK)) {
		assert_int_equal(s->branch_nr, 0);
		assert_false(s->has_hw_idx);
		assert_int_equal(s->branch_hw_idx, 0);
		assert_false(s->has_branch_counters);
		assert_empty(s->branch_entries);
		assert_empty(s->branch_counters);
	}
	if (!(st & RP_SAMPLE_REGS_USER)) { assert_int_equal(s->regs_user_abi, 0); assert_empty(s->regs_user); }
	if (!(st & RP_SAMPLE_STACK_USER)) {
		assert_int_equal(s->stack_user_size, 0);
		assert_empty(s->stack_user);
		assert_false(s->has_dyn_size);
		assert_int_equal(s->stack_user_dyn_size, 0);
	}
	if (!(st & (RP_SAMPLE_WEIGHT | RP_SAMPLE_WEIGHT_STRUCT))) assert_int_equal(s->weight, 0);
	if (!(st & RP_SAMPLE_DATA_SRC)) assert_int_equal(s->data_src, 0);
	if (!(st & RP_SAMPLE_TRANSACTION)) assert_int_equal(s->transaction, 0);
	if (!(st & RP_SAMPLE_REGS_INTR)) { assert_int_equal(s->regs_intr_abi, 0); assert_empty(s->regs_intr); }
	if (!(st & RP_SAMPLE_PHYS_ADDR)) assert_int_equal(s->phys_addr, 0);
	if (!(st & RP_SAMPLE_CGROUP)) assert_int_equal(s->cgroup, 0);
	if (!(st & RP_SAMPLE_DATA_PAGE_SIZE)) assert_int_equal(s->data_page_size, 0);
	if (!(st & RP_SAMPLE_CODE_PAGE_SIZE)) assert_int_equal(s->code_page_size, 0);
	if (!(st & RP_SAMPLE_AUX)) { assert_int_equal(s->aux_size, 0); assert_empty(s->aux); }
}

static rp_status parse_painted(const rp_sample_layout *L, rp_span b, rp_sample *s)
{
	memset(s, 0xee, sizeof *s);
	paint_stack();
	return rp_sample_parse_body(L, b, s);
}

static void test_absent_parts_read_empty(void **state)
{
	(void)state;
	static pbuf w;
	rp_sample s;
	/* PERIOD only: every other part absent */
	rp_sample_layout L = layout(RP_SAMPLE_PERIOD, 0, 0, 0, 0, false);
	w.n = 0;
	p64(&w, 4000);
	rp_span b = span_of(&w, w.n, 4);
	assert_int_equal(parse_painted(&L, b, &s), RP_OK);
	assert_int_equal(s.period, 4000);
	assert_absent_parts(&s, RP_SAMPLE_PERIOD);
	span_free(b);
	/* BRANCH_STACK and STACK_USER in sample_type, each in its empty form:
	 * nr = 0 (no hw_idx, no counters) and size = 0 (no dyn_size) */
	const uint64_t st = RP_SAMPLE_IP | RP_SAMPLE_BRANCH_STACK | RP_SAMPLE_STACK_USER;
	L = layout(st, 0, RP_BRANCH_HW_INDEX | RP_BRANCH_COUNTERS, 0, 0, false);
	w.n = 0;
	p64(&w, 0x401000); p64(&w, 0); p64(&w, 0);
	b = span_of(&w, w.n, 12);
	assert_int_equal(parse_painted(&L, b, &s), RP_OK);
	assert_absent_parts(&s, st);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.branch_nr, 0);
	assert_false(s.has_hw_idx);
	assert_empty(s.branch_entries);
	assert_empty(s.branch_counters); /* COUNTERS with nr = 0: an empty array */
	assert_int_equal(s.stack_user_size, 0);
	assert_false(s.has_dyn_size);
	assert_int_equal(s.stack_user_dyn_size, 0);
	span_free(b);
}

/* A BRANCH_STACK sample that ends just before nr, and just inside it, is
 * short in every reading of the ambiguous forms. */
static void test_branch_stack_cut_before_nr(void **state)
{
	(void)state;
	static pbuf w;
	static const uint64_t bsts[] = { 0, RP_BRANCH_HW_INDEX, RP_BRANCH_COUNTERS,
	                                 RP_BRANCH_HW_INDEX | RP_BRANCH_COUNTERS };
	for (size_t i = 0; i < sizeof bsts / sizeof bsts[0]; i++) {
		const rp_sample_layout L = layout(RP_SAMPLE_IP | RP_SAMPLE_BRANCH_STACK, 0, bsts[i], 0, 0, false);
		w.n = 0;
		p64(&w, 0x401000); p64(&w, 0);
		for (uint32_t len = 8; len < 16; len++) {
			rp_span b = span_of(&w, len, 8);
			rp_sample s;
			assert_int_equal(parse_painted(&L, b, &s), RP_E_BODY_SHORT);
			span_free(b);
		}
		/* the whole record: nr = 0 */
		rp_span b = span_of(&w, 16, 8);
		rp_sample s;
		assert_int_equal(parse_painted(&L, b, &s), RP_OK);
		assert_int_equal(s.branch_nr, 0);
		span_free(b);
	}
}

/* rp_take_opt_u32x2 on each of its contract's four behaviors (rp_cursor.h),
 * over every split of the span: fits (true, both values, *off + 8),
 * first_only (4 to 7 bytes left: false, *a stored, *c = 0, *off + 4),
 * outside (fewer than 4: false, *a = *c = 0, *off unchanged) and absent
 * (true, *a = *c = 0, *off unchanged).  *a and *c start as canaries, so
 * every zero is a store. */
static void test_take_opt_u32x2_behaviors(void **state)
{
	(void)state;
	static pbuf w;
	w.n = 0;
	p32(&w, 0xdddddddd); /* 4 bytes before the pair: the cursor starts at 4 */
	p32(&w, 0x11223344);
	p32(&w, 0x55667788);
	const struct {
		uint32_t len; bool present; bool ok; uint32_t off; uint32_t a; uint32_t c;
	} cases[] = {
		{ 12, true, true, 12, 0x11223344, 0x55667788 }, /* fits exactly */
		{ 11, true, false, 8, 0x11223344, 0 },          /* first_only, 7 left */
		{ 8, true, false, 8, 0x11223344, 0 },           /* first_only, 4 left */
		{ 7, true, false, 4, 0, 0 },                    /* outside, 3 left */
		{ 4, true, false, 4, 0, 0 },                    /* outside, none left */
		{ 12, false, true, 4, 0, 0 },                   /* absent */
		{ 4, false, true, 4, 0, 0 },                    /* absent, none left */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		for (uint32_t split = 0; split <= cases[k].len; split++) {
			rp_span b = span_of(&w, cases[k].len, split);
			uint32_t off = 4, a = 0xa5a5a5a5u, c = 0x5a5a5a5au;
			assert_int_equal(rp_take_opt_u32x2(b, &off, cases[k].present, &a, &c), cases[k].ok);
			assert_int_equal(off, cases[k].off);
			assert_int_equal(a, cases[k].a);
			assert_int_equal(c, cases[k].c);
			span_free(b);
		}
	}
}

/* rp_take_array's count guard: a count whose product with the element size
 * wraps 2^64 to a small number must fail, not yield a short array. */
static void test_array_count_overflow(void **state)
{
	(void)state;
	static pbuf w;
	w.n = 0;
	for (int i = 0; i < 4; i++)
		p64(&w, 0x1000 + i);
	rp_span b = span_of(&w, w.n, 12);
	rp_span v = { NULL, NULL, 77, 77 };
	uint32_t off = 8;
	/* 2^61 x 8 = 2^64 == 0 (mod 2^64) */
	assert_false(rp_take_array(b, &off, 1ull << 61, 8u, &v));
	assert_int_equal(off, 8);
	/* 768614336404564651 x 24 = 2^64 + 8 == 8 (mod 2^64) */
	assert_false(rp_take_array(b, &off, 768614336404564651ull, 24u, &v));
	assert_int_equal(off, 8);
	assert_false(rp_take_array(b, &off, 25, 1u, &v));
	assert_int_equal(off, 8);
	/* the largest that fits: exactly the rest */
	assert_true(rp_take_array(b, &off, 3, 8u, &v));
	assert_int_equal(off, 32);
	assert_int_equal(v.n0 + v.n1, 24);
	span_free(b);
	/* count <= rest but count x esz = 2^32 > rest: the byte count must be
	 * checked before it is narrowed to u32 (where it would read as 0).  The
	 * span claims 2^29 bytes it does not have; no byte of it is read. */
	static const uint8_t one;
	const rp_span big = { &one, &one, 1u << 29, 0u };
	off = 0;
	assert_false(rp_take_array(big, &off, 1u << 29, 8u, &v));
	assert_int_equal(off, 0);
	assert_false(rp_take_array(big, &off, (1u << 29) - 8u, 9u, &v));
	assert_int_equal(off, 0);
	/* the same counts as a SAMPLE's BRANCH_STACK nr, CALLCHAIN nr, AUX size */
	const struct { uint64_t st; uint64_t nr; } cases[] = {
		{ RP_SAMPLE_BRANCH_STACK, 768614336404564651ull }, /* x 24 */
		{ RP_SAMPLE_CALLCHAIN, 1ull << 61 },              /* x 8 */
		{ RP_SAMPLE_CALLCHAIN, (1ull << 61) + 1 },        /* x 8 = 8 */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const rp_sample_layout L = layout(cases[i].st, 0, 0, 0, 0, false);
		w.n = 0;
		p64(&w, cases[i].nr); p64(&w, 0x55);
		for (uint32_t len = 8; len <= 16; len += 8) {
			rp_span sb = span_of(&w, len, 4);
			rp_sample s;
			assert_int_equal(parse_painted(&L, sb, &s), RP_E_BODY_SHORT);
			span_free(sb);
		}
	}
}

static void test_regs(void **state)
{
	(void)state;
	static pbuf w;
	rp_sample s;
	const rp_sample_layout L = layout(RP_SAMPLE_REGS_USER | RP_SAMPLE_REGS_INTR, 0, 0, 0xf000000000000001ull, 0x3, false);
	assert_int_equal(L.regs_user_nr, 5);
	w.n = 0;
	p64(&w, 2);
	for (int i = 0; i < 5; i++)
		p64(&w, 10 + i);
	p64(&w, 0); /* intr abi 0: no regs */
	rp_span b = span_of(&w, w.n, 11);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_OK);
	assert_int_equal(s.regs_user.n0 + s.regs_user.n1, 40);
	uint64_t r;
	assert_true(rp_span_get_u64(s.regs_user, 32, &r));
	assert_int_equal(r, 14);
	assert_int_equal(s.regs_intr_abi, 0);
	span_free(b);
	/* one register short */
	b = span_of(&w, 40, 11);
	assert_int_equal(rp_sample_parse_body(&L, b, &s), RP_E_BODY_SHORT);
	span_free(b);
}

/* ---- other record types ---- */

static const uint64_t TRAILER_ST = RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_ID |
                                   RP_SAMPLE_STREAM_ID | RP_SAMPLE_CPU | RP_SAMPLE_IDENTIFIER;

static void put_trailer(pbuf *w)
{
	p32(w, 501); p32(w, 502); p64(w, 9000); p64(w, 31); p64(w, 32); p32(w, 1); p32(w, 0); p64(w, 33);
}

static void check_trailer(const rp_event *e)
{
	assert_true(e->has_sample_id);
	assert_int_equal(e->sample_id.pid, 501);
	assert_int_equal(e->sample_id.tid, 502);
	assert_int_equal(e->sample_id.time, 9000);
	assert_int_equal(e->sample_id.id, 31);
	assert_int_equal(e->sample_id.stream_id, 32);
	assert_int_equal(e->sample_id.cpu, 1);
	assert_int_equal(e->sample_id.identifier, 33);
	assert_int_equal(e->sample_id.present, TRAILER_ST);
}

/* Parse w as a record of type/misc with and without the trailer, at a few
 * split points; the payload is w's first n bytes. */
static rp_status parse_rec(pbuf *w, uint32_t type, uint16_t misc, rp_event *e, uint32_t split)
{
	const rp_sample_layout L = layout(TRAILER_ST | RP_SAMPLE_IP, RP_FORMAT_ID, 0, 0, 0, true);
	static pbuf t;
	static rp_span b; /* kept until the next call: e's views point into it */
	if (b.p0)
		span_free(b);
	t = *w;
	put_trailer(&t);
	b = span_of(&t, t.n, split);
	rp_record rec = record(type, misc, b);
	memset(e, 0xee, sizeof *e);
	rp_status r = rp_record_parse(&L, &rec, e);
	if (r == RP_OK)
		check_trailer(e);
	return r;
}

static void test_mmap(void **state)
{
	(void)state;
	static pbuf w;
	static rp_event e;
	w.n = 0;
	p32(&w, 10); p32(&w, 11); p64(&w, 0x400000); p64(&w, 0x1000); p64(&w, 0);
	pbytes(&w, "/bin/ls\0", 8);
	for (uint32_t split = 0; split <= w.n + 48; split += 5) {
		assert_int_equal(parse_rec(&w, RP_RECORD_MMAP, 0, &e, split), RP_OK);
		assert_int_equal(e.mmap.pid, 10);
		assert_int_equal(e.mmap.addr, 0x400000);
		assert_int_equal(e.mmap.len, 0x1000);
		assert_view(e.mmap.filename, "/bin/ls", 7);
	}
	/* filename field without a NUL: the whole field */
	w.n = 32;
	pbytes(&w, "abcdefgh", 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP, 0, &e, 37), RP_OK);
	assert_view(e.mmap.filename, "abcdefgh", 8);
	/* header cut short */
	w.n = 24;
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP, 0, &e, 37), RP_E_BODY_SHORT);
}

static void test_mmap2(void **state)
{
	(void)state;
	static pbuf w;
	static rp_event e;
	w.n = 0;
	p32(&w, 10); p32(&w, 11); p64(&w, 0x400000); p64(&w, 0x2000); p64(&w, 0x10);
	p32(&w, 8); p32(&w, 1); p64(&w, 123456); p64(&w, 7);
	p32(&w, 5); p32(&w, 2);
	pbytes(&w, "/usr/lib/libc.so\0\0\0\0\0\0\0\0", 24);
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP2, 0, &e, 50), RP_OK);
	assert_false(e.mmap2.has_build_id);
	assert_int_equal(e.mmap2.maj, 8);
	assert_int_equal(e.mmap2.min, 1);
	assert_int_equal(e.mmap2.ino, 123456);
	assert_int_equal(e.mmap2.ino_generation, 7);
	assert_int_equal(e.mmap2.prot, 5);
	assert_int_equal(e.mmap2.flags, 2);
	assert_view(e.mmap2.filename, "/usr/lib/libc.so", 16);
	/* build-id variant */
	const uint8_t id[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	w.n = 32;
	p8(&w, 20); p8(&w, 0); p16(&w, 0); pbytes(&w, id, 20);
	p32(&w, 5); p32(&w, 2);
	pbytes(&w, "/x\0\0\0\0\0\0", 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP2, RP_MISC_MMAP_BUILD_ID, &e, 33), RP_OK);
	assert_true(e.mmap2.has_build_id);
	assert_int_equal(e.mmap2.build_id_size, 20);
	assert_view(e.mmap2.build_id, id, 20);
	assert_view(e.mmap2.filename, "/x", 2);
	/* shorter build id */
	w.b[32] = 16;
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP2, RP_MISC_MMAP_BUILD_ID, &e, 60), RP_OK);
	assert_view(e.mmap2.build_id, id, 16);
	/* build id size above 20 */
	w.b[32] = 21;
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP2, RP_MISC_MMAP_BUILD_ID, &e, 60), RP_E_BUILD_ID_SIZE);
	/* the build-id form has no maj/min/ino/ino_generation: they read as 0
	 * (parse_rec fills e with 0xee first) */
	w.b[32] = 20;
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP2, RP_MISC_MMAP_BUILD_ID, &e, 33), RP_OK);
	assert_int_equal(e.mmap2.maj, 0);
	assert_int_equal(e.mmap2.min, 0);
	assert_int_equal(e.mmap2.ino, 0);
	assert_int_equal(e.mmap2.ino_generation, 0);
	/* cut inside the 20-byte id field: short, whatever build_id_size says */
	pbuf cut = w;
	for (uint32_t n = 36; n < 56; n++) {
		cut.n = n;
		cut.b[32] = 21;
		assert_int_equal(parse_rec(&cut, RP_RECORD_MMAP2, RP_MISC_MMAP_BUILD_ID, &e, 33), RP_E_BODY_SHORT);
		cut.b[32] = 4;
		assert_int_equal(parse_rec(&cut, RP_RECORD_MMAP2, RP_MISC_MMAP_BUILD_ID, &e, 33), RP_E_BODY_SHORT);
	}
	/* cut inside prot/flags: short, not an empty filename */
	for (uint32_t n = 56; n < 64; n++) {
		cut.n = n;
		cut.b[32] = 20;
		assert_int_equal(parse_rec(&cut, RP_RECORD_MMAP2, RP_MISC_MMAP_BUILD_ID, &e, 33), RP_E_BODY_SHORT);
	}
	/* the form without build id: no build id, size 0 and an empty view */
	w.n = 0;
	p32(&w, 10); p32(&w, 11); p64(&w, 0x400000); p64(&w, 0x2000); p64(&w, 0x10);
	p32(&w, 8); p32(&w, 1); p64(&w, 123456); p64(&w, 7);
	p32(&w, 5); p32(&w, 2);
	pbytes(&w, "/a\0\0\0\0\0\0", 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_MMAP2, 0, &e, 17), RP_OK);
	assert_int_equal(e.mmap2.build_id_size, 0);
	assert_int_equal(e.mmap2.build_id.n0, 0);
	assert_int_equal(e.mmap2.build_id.n1, 0);
	for (uint32_t n = 56; n < 64; n++) {
		cut = w;
		cut.n = n;
		assert_int_equal(parse_rec(&cut, RP_RECORD_MMAP2, 0, &e, 17), RP_E_BODY_SHORT);
	}
}

/* A BRANCH_STACK (HW_INDEX) sample that two readings parse exactly: nr = 0
 * then AUX {size 8, 8 bytes} without hw_idx, or hw_idx = 8 then AUX
 * {size 0}.  The first reading (the kernel's no-hw_idx form for nr = 0) is
 * the one returned. */
static void test_branch_stack_first_reading_wins(void **state)
{
	(void)state;
	static pbuf w;
	const rp_sample_layout L = layout(RP_SAMPLE_BRANCH_STACK | RP_SAMPLE_AUX, 0, RP_BRANCH_HW_INDEX, 0, 0, false);
	w.n = 0;
	p64(&w, 0); p64(&w, 8); p64(&w, 0);
	rp_span b = span_of(&w, w.n, 8);
	rp_sample s;
	assert_int_equal(parse_painted(&L, b, &s), RP_OK);
	assert_int_equal(s.branch_nr, 0);
	assert_false(s.has_hw_idx);
	assert_int_equal(s.aux_size, 8);
	uint64_t zero = 0;
	assert_view(s.aux, &zero, 8);
	span_free(b);
}

/* REGS_USER / REGS_INTR as the last part, cut before or inside abi: short
 * (a missing abi must not read as abi 0, "no registers"). */
static void test_regs_cut_before_abi(void **state)
{
	(void)state;
	static pbuf w;
	static const uint64_t parts[] = { RP_SAMPLE_REGS_USER, RP_SAMPLE_REGS_INTR };
	for (size_t i = 0; i < 2; i++) {
		const rp_sample_layout L = layout(RP_SAMPLE_IP | parts[i], 0, 0, 0x3, 0x3, false);
		w.n = 0;
		p64(&w, 0x401000); p64(&w, 0);
		for (uint32_t len = 8; len < 16; len++) {
			rp_span b = span_of(&w, len, 8);
			rp_sample s;
			assert_int_equal(parse_painted(&L, b, &s), RP_E_BODY_SHORT);
			span_free(b);
		}
		rp_span b = span_of(&w, 16, 8);
		rp_sample s;
		assert_int_equal(parse_painted(&L, b, &s), RP_OK);
		span_free(b);
	}
	/* REGS_INTR with abi != 0 but fewer registers than the mask says,
	 * followed by PHYS_ADDR: the registers are short even though the bytes
	 * left would fill PHYS_ADDR */
	const rp_sample_layout L = layout(RP_SAMPLE_REGS_INTR | RP_SAMPLE_PHYS_ADDR, 0, 0, 0, 0x7, false);
	w.n = 0;
	p64(&w, 2); p64(&w, 0x91); /* abi 64, 1 of 3 registers */
	rp_span b = span_of(&w, w.n, 8);
	rp_sample s;
	assert_int_equal(parse_painted(&L, b, &s), RP_E_BODY_SHORT);
	span_free(b);
	p64(&w, 0x92); p64(&w, 0x93); p64(&w, 0x12345000);
	b = span_of(&w, w.n, 8);
	assert_int_equal(parse_painted(&L, b, &s), RP_OK);
	assert_int_equal(s.phys_addr, 0x12345000);
	span_free(b);
}

/* rp_take_span's result has the exact form its contract (rp_span_slice)
 * states, computed here from that formula: a view that starts in the second
 * slice is {p1 + (off - n0), len, p1, 0}; one that ends in the first is
 * {p0 + off, len, p1, 0}; one that crosses is {p0 + off, n0 - off, p1, rest}. */
static void test_take_span_form(void **state)
{
	(void)state;
	static pbuf w;
	w.n = 0;
	for (int i = 0; i < 16; i++)
		p8(&w, (uint8_t)(0x30 + i));
	for (uint32_t split = 0; split <= 16; split += 4) {
		rp_span b = span_of(&w, 16, split);
		for (uint32_t off = 0; off <= 16; off++) {
			for (uint32_t len = 0; off + len <= 16; len++) {
				rp_span v;
				memset(&v, 0xee, sizeof v);
				uint32_t o = off;
				assert_true(rp_take_span(b, &o, len, &v));
				assert_int_equal(o, off + len);
				assert_ptr_equal(v.p1, b.p1);
				if (off >= split) {
					assert_ptr_equal(v.p0, b.p1 + (off - split));
					assert_int_equal(v.n0, len);
					assert_int_equal(v.n1, 0);
				} else if (off + len <= split) {
					assert_ptr_equal(v.p0, b.p0 + off);
					assert_int_equal(v.n0, len);
					assert_int_equal(v.n1, 0);
				} else {
					assert_ptr_equal(v.p0, b.p0 + off);
					assert_int_equal(v.n0, split - off);
					assert_int_equal(v.n1, off + len - split);
				}
				assert_view(v, w.b + off, len);
			}
		}
		span_free(b);
	}
}

static void test_fixed_records(void **state)
{
	(void)state;
	static pbuf w;
	static rp_event e;
	w.n = 0; p64(&w, 77); p64(&w, 12);
	assert_int_equal(parse_rec(&w, RP_RECORD_LOST, 0, &e, 3), RP_OK);
	assert_int_equal(e.lost.id, 77);
	assert_int_equal(e.lost.lost, 12);
	p64(&w, 0);
	assert_int_equal(parse_rec(&w, RP_RECORD_LOST, 0, &e, 3), RP_E_LEFTOVER);
	w.n = 8;
	assert_int_equal(parse_rec(&w, RP_RECORD_LOST, 0, &e, 3), RP_E_BODY_SHORT);

	w.n = 0; p32(&w, 1); p32(&w, 2); p32(&w, 3); p32(&w, 4); p64(&w, 5);
	assert_int_equal(parse_rec(&w, RP_RECORD_EXIT, 0, &e, 9), RP_OK);
	assert_int_equal(e.task.pid, 1);
	assert_int_equal(e.task.ppid, 2);
	assert_int_equal(e.task.tid, 3);
	assert_int_equal(e.task.ptid, 4);
	assert_int_equal(e.task.time, 5);
	assert_int_equal(parse_rec(&w, RP_RECORD_FORK, 0, &e, 9), RP_OK);
	assert_int_equal(e.task.ptid, 4);

	w.n = 0; p64(&w, 6); p64(&w, 7); p64(&w, 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_THROTTLE, 0, &e, 9), RP_OK);
	assert_int_equal(e.throttle.stream_id, 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_UNTHROTTLE, 0, &e, 9), RP_OK);
	assert_int_equal(parse_rec(&w, RP_RECORD_AUX, 0, &e, 9), RP_OK);
	assert_int_equal(e.aux.aux_offset, 6);
	assert_int_equal(e.aux.flags, 8);

	w.n = 0; p32(&w, 40); p32(&w, 41);
	assert_int_equal(parse_rec(&w, RP_RECORD_ITRACE_START, 0, &e, 9), RP_OK);
	assert_int_equal(e.itrace_start.tid, 41);
	assert_int_equal(parse_rec(&w, RP_RECORD_SWITCH_CPU_WIDE, RP_MISC_SWITCH_OUT, &e, 9), RP_OK);
	assert_int_equal(e.switch_cpu_wide.next_prev_pid, 40);
	assert_int_equal(e.misc, RP_MISC_SWITCH_OUT);
	assert_int_equal(parse_rec(&w, RP_RECORD_LOST_SAMPLES, 0, &e, 9), RP_OK);
	assert_int_equal(e.lost_samples.lost, 40 + (41ull << 32));
	assert_int_equal(parse_rec(&w, RP_RECORD_AUX_OUTPUT_HW_ID, 0, &e, 9), RP_OK);
	assert_int_equal(e.aux_output_hw_id.hw_id, 40 + (41ull << 32));

	w.n = 0;
	assert_int_equal(parse_rec(&w, RP_RECORD_SWITCH, 0, &e, 9), RP_OK);
	p64(&w, 0);
	assert_int_equal(parse_rec(&w, RP_RECORD_SWITCH, 0, &e, 9), RP_E_LEFTOVER);

	w.n = 0; p16(&w, 1); p16(&w, 0); p32(&w, 99); pbytes(&w, "TAGTAG!!", 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_BPF_EVENT, 0, &e, 9), RP_OK);
	assert_int_equal(e.bpf_event.type, 1);
	assert_int_equal(e.bpf_event.id, 99);
	assert_view(e.bpf_event.tag, "TAGTAG!!", 8);
}

static void test_string_records(void **state)
{
	(void)state;
	static pbuf w;
	static rp_event e;
	w.n = 0; p32(&w, 5); p32(&w, 6); pbytes(&w, "bash\0\0\0\0", 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_COMM, RP_MISC_SWITCH_OUT, &e, 10), RP_OK);
	assert_int_equal(e.comm.pid, 5);
	assert_view(e.comm.comm, "bash", 4);
	w.n = 8; pbytes(&w, "0123456789abcdef", 16); /* a 16-byte comm with no NUL */
	assert_int_equal(parse_rec(&w, RP_RECORD_COMM, 0, &e, 10), RP_OK);
	assert_view(e.comm.comm, "0123456789abcdef", 16);
	w.n = 8; /* empty field */
	assert_int_equal(parse_rec(&w, RP_RECORD_COMM, 0, &e, 10), RP_OK);
	assert_int_equal(e.comm.comm.n0 + e.comm.comm.n1, 0);

	w.n = 0; p64(&w, 0xffffffffa0000000ull); p32(&w, 0x100); p16(&w, 1); p16(&w, 0);
	pbytes(&w, "bpf_prog_x\0\0\0\0\0\0", 16);
	assert_int_equal(parse_rec(&w, RP_RECORD_KSYMBOL, 0, &e, 21), RP_OK);
	assert_int_equal(e.ksymbol.addr, 0xffffffffa0000000ull);
	assert_int_equal(e.ksymbol.len, 0x100);
	assert_int_equal(e.ksymbol.ksym_type, 1);
	assert_view(e.ksymbol.name, "bpf_prog_x", 10);

	w.n = 0; p64(&w, 1234); pbytes(&w, "/sys/fs\0", 8);
	assert_int_equal(parse_rec(&w, RP_RECORD_CGROUP, 0, &e, 21), RP_OK);
	assert_int_equal(e.cgroup.id, 1234);
	assert_view(e.cgroup.path, "/sys/fs", 7);
	w.n = 4;
	assert_int_equal(parse_rec(&w, RP_RECORD_CGROUP, 0, &e, 21), RP_E_BODY_SHORT);
}

static void test_counted_records(void **state)
{
	(void)state;
	static pbuf w;
	static rp_event e;
	w.n = 0; p32(&w, 5); p32(&w, 6); p64(&w, 2); p64(&w, 1); p64(&w, 2); p64(&w, 3); p64(&w, 4);
	assert_int_equal(parse_rec(&w, RP_RECORD_NAMESPACES, 0, &e, 30), RP_OK);
	assert_int_equal(e.namespaces.nr, 2);
	uint64_t ns[4] = { 1, 2, 3, 4 };
	assert_view(e.namespaces.entries, ns, 32);
	w.b[8] = 3;
	assert_int_equal(parse_rec(&w, RP_RECORD_NAMESPACES, 0, &e, 30), RP_E_BODY_SHORT);
	w.b[8] = 1;
	assert_int_equal(parse_rec(&w, RP_RECORD_NAMESPACES, 0, &e, 30), RP_E_LEFTOVER);

	w.n = 0; p64(&w, 0xc00c1e); p64(&w, 2); p64(&w, (uint64_t)-512); p64(&w, 0x401000);
	assert_int_equal(parse_rec(&w, RP_RECORD_CALLCHAIN_DEFERRED, 0, &e, 30), RP_OK);
	assert_int_equal(e.callchain_deferred.cookie, 0xc00c1e);
	assert_int_equal(e.callchain_deferred.nr, 2);
	uint64_t ips[2] = { (uint64_t)-512, 0x401000 };
	assert_view(e.callchain_deferred.ips, ips, 16);

	/* TEXT_POKE: 12 + 3 + 2 = 17 bytes, 7 bytes of padding */
	w.n = 0; p64(&w, 0xffffffff81000000ull); p16(&w, 3); p16(&w, 2);
	pbytes(&w, "\x90\x90\x90\xeb\x05", 5);
	pbytes(&w, "\0\0\0\0\0\0\0", 7);
	assert_int_equal(w.n, 24);
	assert_int_equal(parse_rec(&w, RP_RECORD_TEXT_POKE, 0, &e, 13), RP_OK);
	assert_int_equal(e.text_poke.old_len, 3);
	assert_int_equal(e.text_poke.new_len, 2);
	assert_view(e.text_poke.old_bytes, "\x90\x90\x90", 3);
	assert_view(e.text_poke.new_bytes, "\xeb\x05", 2);
	p64(&w, 0); /* 15 bytes after the bytes: more than padding */
	assert_int_equal(parse_rec(&w, RP_RECORD_TEXT_POKE, 0, &e, 13), RP_E_LEFTOVER);
	w.n = 14;
	assert_int_equal(parse_rec(&w, RP_RECORD_TEXT_POKE, 0, &e, 13), RP_E_BODY_SHORT);

	/* READ record: pid, tid, then read_format (ID) values */
	w.n = 0; p32(&w, 5); p32(&w, 6); p64(&w, 1000); p64(&w, 31);
	assert_int_equal(parse_rec(&w, RP_RECORD_READ, 0, &e, 13), RP_OK);
	assert_int_equal(e.read.pid, 5);
	assert_int_equal(e.read.values.value, 1000);
	assert_int_equal(e.read.values.id, 31);
}

static void test_trailer_and_unknown(void **state)
{
	(void)state;
	static pbuf w;
	static rp_event e;
	const rp_sample_layout L = layout(TRAILER_ST, 0, 0, 0, 0, true);
	/* body shorter than the trailer */
	w.n = 0; p64(&w, 1); p64(&w, 2);
	rp_span b = span_of(&w, w.n, 3);
	rp_record rec = record(RP_RECORD_LOST, 0, b);
	assert_int_equal(rp_record_parse(&L, &rec, &e), RP_E_BODY_SHORT);
	rp_sample_id sid;
	assert_int_equal(rp_sample_id_parse(&L, b, &sid), RP_E_BODY_SHORT);
	/* unknown types: distinct status */
	rec.type = 23;
	assert_int_equal(rp_record_parse(&L, &rec, &e), RP_E_UNKNOWN_TYPE);
	rec.type = 0;
	assert_int_equal(rp_record_parse(&L, &rec, &e), RP_E_UNKNOWN_TYPE);
	rec.type = 0x7fffffff;
	assert_int_equal(rp_record_parse(&L, &rec, &e), RP_E_UNKNOWN_TYPE);
	span_free(b);
	/* trailer with only TID and TIME, read from the end */
	const rp_sample_layout L2 = layout(RP_SAMPLE_TID | RP_SAMPLE_TIME | RP_SAMPLE_IP, 0, 0, 0, 0, true);
	w.n = 0; p64(&w, 5); p64(&w, 3); p32(&w, 8); p32(&w, 9); p64(&w, 1234);
	b = span_of(&w, w.n, 30);
	rec = record(RP_RECORD_LOST, 0, b);
	assert_int_equal(rp_record_parse(&L2, &rec, &e), RP_OK);
	assert_int_equal(e.lost.id, 5);
	assert_int_equal(e.lost.lost, 3);
	assert_int_equal(e.sample_id.pid, 8);
	assert_int_equal(e.sample_id.tid, 9);
	assert_int_equal(e.sample_id.time, 1234);
	assert_int_equal(e.sample_id.present, RP_SAMPLE_TID | RP_SAMPLE_TIME);
	/* a hand-made layout whose id_size is larger than its trailer fields:
	 * the fields leave bytes unread (RP_E_LEFTOVER), *out untouched; one
	 * smaller than the fields runs them past the body's end */
	rp_sample_layout L3 = L2;
	L3.id_size = L2.id_size + 8u;
	rp_sample_id before;
	memset(&before, 0xa5, sizeof before);
	sid = before;
	assert_int_equal(rp_sample_id_parse(&L3, b, &sid), RP_E_LEFTOVER);
	assert_memory_equal(&sid, &before, sizeof sid);
	assert_int_equal(rp_record_parse(&L3, &rec, &e), RP_E_LEFTOVER);
	L3.id_size = L2.id_size - 8u;
	assert_int_equal(rp_sample_id_parse(&L3, b, &sid), RP_E_BODY_SHORT);
	assert_memory_equal(&sid, &before, sizeof sid);
	assert_int_equal(rp_sample_id_parse(&L2, b, &sid), RP_OK);
	assert_int_equal(sid.time, 1234);
	/* hand-made: 8 trailer bytes and no trailer bit.  Shorter than 8 is
	 * short (the length check, not a take, refuses it: there is none);
	 * longer leaves the 8 bytes unread */
	const rp_sample_layout L4 = { .sample_type = RP_SAMPLE_IP, .id_size = 8u, .sample_id_all = true };
	rp_span tiny = span_of(&w, 4, 5);
	sid = before;
	assert_int_equal(rp_sample_id_parse(&L4, tiny, &sid), RP_E_BODY_SHORT);
	assert_memory_equal(&sid, &before, sizeof sid);
	span_free(tiny);
	assert_int_equal(rp_sample_id_parse(&L4, b, &sid), RP_E_LEFTOVER);
	assert_memory_equal(&sid, &before, sizeof sid);
	span_free(b);
	/* SAMPLE through rp_record_parse: no trailer */
	w.n = 0; p64(&w, 0x401000); p32(&w, 8); p32(&w, 9); p64(&w, 77);
	b = span_of(&w, w.n, 4);
	rec = record(RP_RECORD_SAMPLE, 2, b);
	assert_int_equal(rp_record_parse(&L2, &rec, &e), RP_OK);
	assert_false(e.has_sample_id);
	assert_int_equal(e.sample.ip, 0x401000);
	assert_int_equal(e.sample.tid, 9);
	assert_int_equal(e.sample.time, 77);
	span_free(b);
}

/* READ as the last part of a sample: a cut anywhere inside it is short (no
 * later part can fail in its place); fields its read_format leaves out read
 * as zero; rp_read_entry fails with zeroed outputs outside a group. */
static void test_read_cut_and_absent(void **state)
{
	(void)state;
	static pbuf w;
	static const uint64_t formats[] = {
		RP_FORMAT_TOTAL_TIME_ENABLED | RP_FORMAT_TOTAL_TIME_RUNNING | RP_FORMAT_ID | RP_FORMAT_LOST,
		RP_FORMAT_TOTAL_TIME_ENABLED, RP_FORMAT_ID, RP_FORMAT_LOST, 0,
		RP_FORMAT_GROUP | RP_FORMAT_ID,
	};
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		const uint64_t rf = formats[i];
		const rp_sample_layout L = layout(RP_SAMPLE_TIME | RP_SAMPLE_READ, rf, 0, 0, 0, false);
		w.n = 0;
		p64(&w, 1000); /* TIME */
		if (rf & RP_FORMAT_GROUP) {
			p64(&w, 2); /* nr */
			p64(&w, 900); p64(&w, 41); p64(&w, 800); p64(&w, 42); /* {value, id} x 2 */
		} else {
			p64(&w, 777);
			if (rf & RP_FORMAT_TOTAL_TIME_ENABLED) p64(&w, 900);
			if (rf & RP_FORMAT_TOTAL_TIME_RUNNING) p64(&w, 800);
			if (rf & RP_FORMAT_ID) p64(&w, 0x2222);
			if (rf & RP_FORMAT_LOST) p64(&w, 4);
		}
		for (uint32_t len = 8; len < w.n; len++) {
			rp_span b = span_of(&w, len, 5);
			rp_sample s;
			assert_int_equal(parse_painted(&L, b, &s), RP_E_BODY_SHORT);
			span_free(b);
		}
		rp_span b = span_of(&w, w.n, 5);
		rp_sample s;
		assert_int_equal(parse_painted(&L, b, &s), RP_OK);
		uint64_t v = 1, id = 1, lost = 1;
		if (rf & RP_FORMAT_GROUP) {
			assert_true(s.read.group);
			assert_int_equal(s.read.nr, 2);
			assert_int_equal(s.read.value, 0); /* no single value in a group */
			assert_int_equal(s.read.id, 0);
			assert_int_equal(s.read.lost, 0);
			assert_true(rp_read_entry(&s.read, 1, &v, &id, &lost));
			assert_int_equal(v, 800);
			assert_int_equal(id, 42);
			assert_int_equal(lost, 0);
			v = id = lost = 1;
			assert_false(rp_read_entry(&s.read, 2, &v, &id, &lost));
		} else {
			assert_false(s.read.group);
			assert_int_equal(s.read.nr, 1);
			assert_int_equal(s.read.value, 777);
			assert_empty(s.read.entries);
			assert_int_equal(s.read.id, rf & RP_FORMAT_ID ? 0x2222 : 0);
			assert_int_equal(s.read.lost, rf & RP_FORMAT_LOST ? 4 : 0);
			assert_false(rp_read_entry(&s.read, 0, &v, &id, &lost));
		}
		assert_int_equal(v, 0);
		assert_int_equal(id, 0);
		assert_int_equal(lost, 0);
		span_free(b);
	}
}

/* rp_read_entry's guards on a hand-built rp_read_values: entry sizes
 * outside 8..24, an index at nr (nr is the authority, not the span), and
 * offsets near 2^32.  For those the entries are 4 GiB of zero pages mapped
 * without backing (only the one read page is touched). */
static void test_read_entry_guards(void **state)
{
	(void)state;
	static const uint64_t vals[6] = { 11, 12, 13, 14, 15, 16 };
	rp_read_values r;
	memset(&r, 0, sizeof r);
	r.group = true;
	r.entries = (rp_span){ (const uint8_t *)vals, (const uint8_t *)vals, sizeof vals, 0 };
	r.nr = 2;
	uint64_t v, id, lost;
	for (uint32_t es = 0; es <= 32; es++) {
		r.entry_size = es;
		const bool ok = es >= 8 && es <= 24;
		assert_int_equal(rp_read_entry(&r, 0, &v, &id, &lost), ok);
		if (ok)
			assert_int_equal(v, 11);
	}
	/* entries shorter than nr says: each missing field fails the read */
	r.nr = 2;
	r.entry_size = 8;
	r.entries.n0 = 8; /* entry 1's value missing */
	assert_false(rp_read_entry(&r, 1, &v, &id, &lost));
	r.has_id = true;
	r.entry_size = 16;
	r.entries.n0 = 24; /* entry 1's id missing */
	assert_false(rp_read_entry(&r, 1, &v, &id, &lost));
	r.has_lost = true;
	r.entry_size = 24;
	r.entries.n0 = 40; /* entry 1's lost missing */
	assert_false(rp_read_entry(&r, 1, &v, &id, &lost));
	r.entries.n0 = 48;
	assert_true(rp_read_entry(&r, 1, &v, &id, &lost));
	assert_int_equal(v, 14);
	assert_int_equal(id, 15);
	assert_int_equal(lost, 16);
	/* LOST without ID: {value, lost} entries, id reads 0 */
	r.has_id = false;
	r.entry_size = 16;
	assert_true(rp_read_entry(&r, 1, &v, &id, &lost));
	assert_int_equal(v, 13);
	assert_int_equal(id, 0);
	assert_int_equal(lost, 14);
	r.has_lost = false;
	r.entries.n0 = sizeof vals;
	r.entry_size = 8;
	r.nr = 1; /* the span holds more, nr says one */
	assert_true(rp_read_entry(&r, 0, &v, &id, &lost));
	assert_false(rp_read_entry(&r, 1, &v, &id, &lost));
	const size_t big = (size_t)1 << 32;
	void *m = mmap(NULL, big, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		skip(); /* no 4 GiB of address space: the guards near 2^32 go untested */
		return;
	}
	r.entries = (rp_span){ m, m, UINT32_MAX, 0 };
	r.nr = 1u << 29;
	/* entry 2^29 - 4 starts at 2^32 - 32: read (a zero page) */
	v = 1;
	assert_true(rp_read_entry(&r, (1u << 29) - 4, &v, &id, &lost));
	assert_int_equal(v, 0);
	/* entry 2^29 - 3 starts at 2^32 - 24: refused, as any later one */
	v = 1;
	assert_false(rp_read_entry(&r, (1u << 29) - 3, &v, &id, &lost));
	assert_int_equal(v, 0);
	assert_false(rp_read_entry(&r, (1u << 29) - 1, &v, &id, &lost));
	/* 19-byte entries: entry 226050909 starts at 2^32 - 25, the last start
	 * the guard lets through */
	r.entry_size = 19;
	v = 1;
	assert_true(rp_read_entry(&r, 226050909u, &v, &id, &lost));
	assert_int_equal(v, 0);
	munmap(m, big);
}

/* rp_record_parse's header fields: type and misc on RP_OK for a SAMPLE
 * (has_sample_id false: a SAMPLE has no trailer) and for RP_E_UNKNOWN_TYPE,
 * which fills only them; a COMM too short for pid/tid is short. */
static void test_record_header_fields(void **state)
{
	(void)state;
	static pbuf w;
	static rp_event e;
	const rp_sample_layout L = layout(RP_SAMPLE_IP | RP_SAMPLE_TID, 0, 0, 0, 0, true);
	w.n = 0;
	p64(&w, 0x401000); p32(&w, 7); p32(&w, 8);
	rp_span b = span_of(&w, w.n, 3);
	rp_record rec = record(RP_RECORD_SAMPLE, 0x4002, b);
	memset(&e, 0xee, sizeof e);
	assert_int_equal(rp_record_parse(&L, &rec, &e), RP_OK);
	assert_int_equal(e.type, RP_RECORD_SAMPLE);
	assert_int_equal(e.misc, 0x4002);
	assert_false(e.has_sample_id);
	assert_int_equal(e.sample.ip, 0x401000);
	static const uint32_t unknown[] = { 0, 23, 64, 0x10000, UINT32_MAX };
	for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
		rec = record(unknown[i], 0x1234, b);
		memset(&e, 0xee, sizeof e);
		assert_int_equal(rp_record_parse(&L, &rec, &e), RP_E_UNKNOWN_TYPE);
		assert_int_equal(e.type, unknown[i]);
		assert_int_equal(e.misc, 0x1234);
	}
	span_free(b);
	/* COMM: pid/tid cut short, before an (always present) comm string */
	const rp_sample_layout N = layout(RP_SAMPLE_IP, 0, 0, 0, 0, false);
	w.n = 0;
	p32(&w, 5); p32(&w, 6); pbytes(&w, "sh\0\0\0\0\0\0", 8);
	for (uint32_t len = 0; len < 8; len++) {
		b = span_of(&w, len, len / 2);
		rec = record(RP_RECORD_COMM, 0, b);
		memset(&e, 0xee, sizeof e);
		assert_int_equal(rp_record_parse(&N, &rec, &e), RP_E_BODY_SHORT);
		span_free(b);
	}
	b = span_of(&w, w.n, 4);
	rec = record(RP_RECORD_COMM, 0, b);
	assert_int_equal(rp_record_parse(&N, &rec, &e), RP_OK);
	assert_int_equal(e.comm.pid, 5);
	assert_false(e.has_sample_id);
	span_free(b);
	/* PERF_RECORD_READ, not a group: one value, no entries view */
	w.n = 0;
	p32(&w, 5); p32(&w, 6); p64(&w, 777);
	b = span_of(&w, w.n, 4);
	rec = record(RP_RECORD_READ, 0, b);
	memset(&e, 0xee, sizeof e);
	assert_int_equal(rp_record_parse(&N, &rec, &e), RP_OK);
	assert_int_equal(e.read.pid, 5);
	assert_int_equal(e.read.values.value, 777);
	assert_int_equal(e.read.values.nr, 1);
	assert_empty(e.read.values.entries);
	span_free(b);
	/* KSYMBOL: cut inside addr/len/type/flags, before its name string */
	w.n = 0;
	p64(&w, 0xffffffffa0000000ull); p32(&w, 0x100); p16(&w, 1); p16(&w, 0);
	pbytes(&w, "x\0\0\0\0\0\0\0", 8);
	for (uint32_t len = 0; len < 16; len++) {
		b = span_of(&w, len, len / 2);
		rec = record(RP_RECORD_KSYMBOL, 0, b);
		assert_int_equal(rp_record_parse(&N, &rec, &e), RP_E_BODY_SHORT);
		span_free(b);
	}
}

static void test_status_texts(void **state)
{
	(void)state;
	for (int c = -1109; c <= -1102; c++)
		assert_non_null(rp_status_text(c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_popcount),
		cmocka_unit_test(test_layout_rejects),
		cmocka_unit_test(test_layout_counts),
		cmocka_unit_test(test_full_sample_every_split),
		cmocka_unit_test(test_full_sample_truncated),
		cmocka_unit_test(test_full_sample_leftover),
		cmocka_unit_test(test_sample_wrong_type),
		cmocka_unit_test(test_21_fields),
		cmocka_unit_test(test_group_read_nr3),
		cmocka_unit_test(test_callchain_context),
		cmocka_unit_test(test_stack_user),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_branch_stack),
		cmocka_unit_test(test_absent_parts_read_empty),
		cmocka_unit_test(test_branch_stack_cut_before_nr),
		cmocka_unit_test(test_array_count_overflow),
		cmocka_unit_test(test_take_opt_u32x2_behaviors),
		cmocka_unit_test(test_regs),
		cmocka_unit_test(test_mmap),
		cmocka_unit_test(test_mmap2),
		cmocka_unit_test(test_take_span_form),
		cmocka_unit_test(test_regs_cut_before_abi),
		cmocka_unit_test(test_branch_stack_first_reading_wins),
		cmocka_unit_test(test_fixed_records),
		cmocka_unit_test(test_string_records),
		cmocka_unit_test(test_counted_records),
		cmocka_unit_test(test_trailer_and_unknown),
		cmocka_unit_test(test_read_cut_and_absent),
		cmocka_unit_test(test_read_entry_guards),
		cmocka_unit_test(test_record_header_fields),
		cmocka_unit_test(test_status_texts),
	};
	return cmocka_run_group_tests_name("parsers", tests, NULL, NULL);
}
