/* Unit tests of the BPF ringbuf walk (core/rp_ringbuf.h: rp_ringbuf_next
 * and the iterator, one record at a time and in batches as the adapter's
 * batch walks) and the backward perf ring walk (core/rp_backward.h) over
 * synthetic rings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rb_builder.h"
#include "rp_backward.h"
#include "rp_ringbuf.h"

#define RB_BUSY 0x80000000u
#define RB_DISCARD 0x40000000u

static uint8_t ring_mem[4096];

static rp_ring mk_ring(uint64_t size, uint8_t fill)
{
	memset(ring_mem, fill, sizeof ring_mem);
	rp_ring r = { ring_mem, size };
	return r;
}

/* Up to max delivered records from *consumer into recs[0 .. *count - 1],
 * on a fresh iterator hinted with the last len word, as the adapter's batch
 * walk takes them: discarded records consumed and counted in *discarded;
 * RP_EMPTY at the producer, RP_MORE when recs is full and bytes remain,
 * else the step's stop (RP_BUSY, or the error there); *consumer after the
 * last record consumed. */
static rp_status iter_batch(const rp_ring *r, uint64_t producer, uint64_t *consumer,
                            rp_rb_record *recs, uint32_t max, uint32_t *count, uint64_t *discarded)
{
	rp_rb_iter it;
	rp_rb_record rec;
	rp_status st = RP_OK;
	uint32_t hint = 0;

	*count = 0;
	*discarded = 0;
	rp_rb_iter_init(&it, r, producer, *consumer);
	while (*count < max && (st = rp_rb_iter_next_hint(&it, &rec, hint)) == RP_OK) {
		hint = rec.len | (rec.discarded ? RB_DISCARD : 0);
		if (rec.discarded)
			(*discarded)++;
		else
			recs[(*count)++] = rec;
	}
	*consumer = rp_rb_iter_consumer(&it);
	if (st == RP_OK)
		return *consumer == producer ? RP_EMPTY : RP_MORE;
	return st;
}

/* Byte i of a span, computed by the test from the slices. */
static uint8_t span_at(rp_span s, uint32_t i)
{
	return i < s.n0 ? s.p0[i] : s.p1[i - s.n0];
}

static void fill_payload(uint8_t *p, uint32_t n, uint32_t seed)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = tb_pattern(seed, i);
}

static void assert_payload(rp_span s, uint32_t n, uint32_t seed)
{
	assert_int_equal(s.n0 + s.n1, n);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(span_at(s, i), tb_pattern(seed, i));
}

/* In place, never by value: an assignment of a struct need not copy its
 * padding, and the checks below compare every byte. */
static void canary_fill(rp_rb_record *r)
{
	memset(r, 0xa5, sizeof *r);
}

static void assert_rec_untouched(const rp_rb_record *r)
{
	rp_rb_record c;
	canary_fill(&c);
	assert_memory_equal(r, &c, sizeof c);
}

/* ---------------- BPF ringbuf ---------------- */

static void rb_empty(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint64_t cons = 64;
	rp_rb_record rec;
	canary_fill(&rec);
	assert_int_equal(rp_ringbuf_next(&r, 64, &cons, &rec), RP_EMPTY);
	assert_int_equal(cons, 64);
	assert_rec_untouched(&rec);
}

static void rb_one_record(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint8_t p[5];
	fill_payload(p, 5, 1);
	tb_rb_put(ring_mem, 256, 16, 5, p);
	uint64_t cons = 16;
	rp_rb_record rec;
	assert_int_equal(rp_ringbuf_next(&r, 32, &cons, &rec), RP_OK);
	assert_int_equal(rec.pos, 16);
	assert_int_equal(rec.len, 5);
	assert_int_equal(rec.size, 16);
	assert_false(rec.discarded);
	assert_ptr_equal(rec.data.p0, ring_mem + 24);
	assert_int_equal(rec.data.n1, 0);
	assert_payload(rec.data, 5, 1);
	assert_int_equal(cons, 32);
	assert_int_equal(rp_ringbuf_next(&r, 32, &cons, &rec), RP_EMPTY);
}

static void rb_sizes_round_up(void **state)
{
	(void)state;
	/* len 0..17 occupy 8,16,...: round_up(len + 8, 8), computed by hand */
	static const uint32_t expect[18] = { 8, 16, 16, 16, 16, 16, 16, 16, 16,
	                                     24, 24, 24, 24, 24, 24, 24, 24, 32 };
	for (uint32_t len = 0; len < 18; len++) {
		rp_ring r = mk_ring(256, 0);
		tb_rb_put(ring_mem, 256, 0, len, NULL);
		uint64_t cons = 0;
		rp_rb_record rec;
		assert_int_equal(rp_ringbuf_next(&r, 64, &cons, &rec), RP_OK);
		assert_int_equal(rec.size, expect[len]);
		assert_int_equal(cons, expect[len]);
		assert_int_equal(rec.len, len);
	}
}

static void rb_zero_length(void **state)
{
	(void)state;
	rp_ring r = mk_ring(64, 0xee);
	tb_rb_put(ring_mem, 64, 0, 0, NULL);
	uint64_t cons = 0;
	rp_rb_record rec;
	assert_int_equal(rp_ringbuf_next(&r, 8, &cons, &rec), RP_OK);
	assert_int_equal(rec.len, 0);
	assert_int_equal(rec.size, 8);
	assert_int_equal(rec.data.n0 + rec.data.n1, 0);
	assert_int_equal(cons, 8);
}

static void rb_busy_stops(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint8_t p[16];
	fill_payload(p, 16, 2);
	uint64_t pos = 0;
	pos += tb_rb_put(ring_mem, 256, pos, 3, p);
	const uint64_t busy_at = pos;
	pos += tb_rb_put(ring_mem, 256, pos, RB_BUSY | 16, p);
	pos += tb_rb_put(ring_mem, 256, pos, 4, p);
	rp_rb_record recs[4];
	uint64_t cons = 0, disc = 99;
	uint32_t n = 99;
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 4, &n, &disc), RP_BUSY);
	assert_int_equal(n, 1);
	assert_int_equal(disc, 0);
	assert_int_equal(cons, busy_at);
	/* single record call: BUSY leaves everything alone */
	rp_rb_record rec;
	canary_fill(&rec);
	assert_int_equal(rp_ringbuf_next(&r, pos, &cons, &rec), RP_BUSY);
	assert_int_equal(cons, busy_at);
	assert_rec_untouched(&rec);
	/* BUSY wins over DISCARD */
	tb_rb_put(ring_mem, 256, busy_at, RB_BUSY | RB_DISCARD | 16, p);
	assert_int_equal(rp_ringbuf_next(&r, pos, &cons, &rec), RP_BUSY);
	/* commit: the walk goes on */
	tb_rb_put(ring_mem, 256, busy_at, 16, p);
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 4, &n, &disc), RP_EMPTY);
	assert_int_equal(n, 2);
	assert_int_equal(recs[0].len, 16);
	assert_int_equal(recs[1].len, 4);
	assert_int_equal(cons, pos);
}

static void rb_discard_skipped(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint8_t p[32];
	fill_payload(p, 32, 3);
	uint64_t pos = 0;
	pos += tb_rb_put(ring_mem, 256, pos, 1, p);
	pos += tb_rb_put(ring_mem, 256, pos, RB_DISCARD | 20, p);
	pos += tb_rb_put(ring_mem, 256, pos, RB_DISCARD | 0, p);
	pos += tb_rb_put(ring_mem, 256, pos, 7, p);
	rp_rb_record recs[4];
	uint64_t cons = 0, disc = 0;
	uint32_t n = 0;
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 4, &n, &disc), RP_EMPTY);
	assert_int_equal(n, 2);
	assert_int_equal(disc, 2);
	assert_int_equal(cons, pos);
	assert_int_equal(pos, 16 + 32 + 8 + 16);
	assert_int_equal(recs[0].len, 1);
	assert_int_equal(recs[1].len, 7);
	assert_int_equal(recs[1].pos, 56);
	assert_false(recs[0].discarded);
	assert_false(recs[1].discarded);
	/* next() reports a discarded record as consumed with the flag set */
	cons = 16;
	rp_rb_record rec;
	assert_int_equal(rp_ringbuf_next(&r, pos, &cons, &rec), RP_OK);
	assert_true(rec.discarded);
	assert_int_equal(rec.len, 20);
	assert_int_equal(cons, 48);
}

static void rb_wrap(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	uint8_t p[40];
	fill_payload(p, 40, 4);
	/* header at offset 96, payload 104..127 then 0..15 */
	const uint64_t start = 128 * 5 + 96;
	tb_rb_put(ring_mem, 128, start, 40, p);
	uint64_t cons = start;
	rp_rb_record rec;
	assert_int_equal(rp_ringbuf_next(&r, start + 48, &cons, &rec), RP_OK);
	assert_ptr_equal(rec.data.p0, ring_mem + 104);
	assert_int_equal(rec.data.n0, 24);
	assert_ptr_equal(rec.data.p1, ring_mem);
	assert_int_equal(rec.data.n1, 16);
	assert_payload(rec.data, 40, 4);
	assert_int_equal(cons, start + 48);
}

static void rb_header_at_end(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	uint8_t p[12];
	fill_payload(p, 12, 5);
	tb_rb_put(ring_mem, 128, 120, 12, p);
	uint64_t cons = 120;
	rp_rb_record rec;
	assert_int_equal(rp_ringbuf_next(&r, 144, &cons, &rec), RP_OK);
	assert_ptr_equal(rec.data.p0, ring_mem);
	assert_int_equal(rec.data.n0, 12);
	assert_int_equal(rec.data.n1, 0);
	assert_payload(rec.data, 12, 5);
}

static void rb_corrupt_len(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint64_t cons = 0;
	rp_rb_record rec;
	canary_fill(&rec);
	/* 17 bytes need 32, only 24 available */
	tb_rb_put(ring_mem, 256, 0, 17, NULL);
	assert_int_equal(rp_ringbuf_next(&r, 24, &cons, &rec), RP_E_RB_LEN);
	assert_int_equal(cons, 0);
	assert_rec_untouched(&rec);
	/* the largest length field, far past the ring */
	tb_rb_put(ring_mem, 256, 0, 0x3fffffffu, NULL);
	assert_int_equal(rp_ringbuf_next(&r, 256, &cons, &rec), RP_E_RB_LEN);
	/* exactly fitting the ring is fine: 248 + 8 == 256 */
	tb_rb_put(ring_mem, 256, 0, 248, NULL);
	assert_int_equal(rp_ringbuf_next(&r, 256, &cons, &rec), RP_OK);
	assert_int_equal(cons, 256);
	/* a batch stops at the corrupt record after the good ones */
	memset(ring_mem, 0, 256);
	uint64_t pos = 0;
	pos += tb_rb_put(ring_mem, 256, 0, 8, NULL);
	tb_rb_put(ring_mem, 256, pos, 100, NULL);
	rp_rb_record recs[4];
	uint64_t disc;
	uint32_t n;
	cons = 0;
	assert_int_equal(iter_batch(&r, pos + 16, &cons, recs, 4, &n, &disc), RP_E_RB_LEN);
	assert_int_equal(n, 1);
	assert_int_equal(cons, pos);
}

static void rb_misaligned(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	rp_rb_record rec;
	canary_fill(&rec);
	uint64_t cons = 4;
	assert_int_equal(rp_ringbuf_next(&r, 64, &cons, &rec), RP_E_RB_ALIGN);
	assert_int_equal(cons, 4);
	cons = 0;
	assert_int_equal(rp_ringbuf_next(&r, 60, &cons, &rec), RP_E_RB_ALIGN);
	assert_int_equal(cons, 0);
	cons = 0;
	assert_int_equal(rp_ringbuf_next(&r, 3, &cons, &rec), RP_E_RB_ALIGN);
	assert_rec_untouched(&rec);
}

static void rb_overrun(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	rp_rb_record rec;
	canary_fill(&rec);
	uint64_t cons = 8;
	assert_int_equal(rp_ringbuf_next(&r, 8 + 264, &cons, &rec), RP_E_RB_OVERRUN);
	assert_int_equal(cons, 8);
	/* producer behind consumer: a huge distance on the u64 circle */
	assert_int_equal(rp_ringbuf_next(&r, 0, &cons, &rec), RP_E_RB_OVERRUN);
	assert_rec_untouched(&rec);
	/* exactly size is allowed */
	tb_rb_put(ring_mem, 256, 8, 240, NULL);
	assert_int_equal(rp_ringbuf_next(&r, 8 + 256, &cons, &rec), RP_OK);
}

static void rb_u64_wrap(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint8_t p[20];
	fill_payload(p, 20, 6);
	uint64_t cons = UINT64_MAX - 15; /* 16 bytes before the u64 wrap */
	uint64_t pos = cons;
	pos += tb_rb_put(ring_mem, 256, pos, 20, p);
	pos += tb_rb_put(ring_mem, 256, pos, 3, p);
	assert_int_equal(pos, 32); /* wrapped around 2^64 */
	rp_rb_record recs[2];
	uint64_t disc;
	uint32_t n;
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 2, &n, &disc), RP_EMPTY);
	assert_int_equal(n, 2);
	assert_int_equal(cons, 32);
	assert_payload(recs[0].data, 20, 6);
	assert_int_equal(recs[1].pos, 16);
}

/* Positions across 2^64 with the ring exactly full (producer - consumer ==
 * size, mod 2^64): nothing is an overrun and every record comes out. */
static void rb_full_across_2_64(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint8_t p[56];
	fill_payload(p, 56, 11);
	uint64_t cons = (uint64_t)0 - 64;
	uint64_t pos = cons;
	for (int k = 0; k < 4; k++)
		pos += tb_rb_put(ring_mem, 256, pos, 56, p); /* 64 bytes each */
	assert_int_equal(pos, 192);
	rp_rb_record recs[8];
	uint64_t disc;
	uint32_t n;
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 8, &n, &disc), RP_EMPTY);
	assert_int_equal(n, 4);
	assert_int_equal(cons, 192);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(recs[k].pos, (uint64_t)0 - 64 + 64u * (uint64_t)k);
		assert_payload(recs[k].data, 56, 11);
	}
	/* one byte more than the ring, across 2^64: an overrun */
	cons = (uint64_t)0 - 64;
	rp_rb_record rec;
	canary_fill(&rec);
	assert_int_equal(rp_ringbuf_next(&r, 200, &cons, &rec), RP_E_RB_OVERRUN);
	assert_rec_untouched(&rec);
	/* one record that ends exactly at producer == 0, just past 2^64 */
	cons = (uint64_t)0 - 16;
	tb_rb_put(ring_mem, 256, cons, 8, p);
	canary_fill(&rec);
	assert_int_equal(rp_ringbuf_next(&r, 0, &cons, &rec), RP_OK);
	assert_int_equal(rec.len, 8);
	assert_int_equal(cons, 0);
	assert_int_equal(rp_ringbuf_next(&r, 0, &cons, &rec), RP_EMPTY);
}

/* The iterator carries the offset from record to record.  In a 40-byte ring,
 * which does not divide 2^64 (2^64 mod 40 = 16), the offset jumps back by 16
 * where the position wraps: positions 2^64 - 16 .. 2^64 - 1 and 0 .. 15
 * share offsets 0 .. 15, so the four empty records at 2^64 - 16, 2^64 - 8, 0
 * and 8 are the two headers at offsets 0 and 8, each read twice.  The rest
 * of the ring is 0xff (BUSY): a walk that carried the offset across the
 * wrap without the jump (8 + 8 = 16 after the record at 2^64 - 8) would stop
 * there with RP_BUSY after two records. */
static void rb_batch_offset_across_2_64(void **state)
{
	(void)state;
	rp_ring r = mk_ring(40, 0xff);
	const uint64_t start = UINT64_MAX - 15; /* 2^64 - 16: offset 0 */
	tb_rb_put(ring_mem, 40, start, 0, NULL);     /* offset 0 */
	tb_rb_put(ring_mem, 40, start + 8, 0, NULL); /* offset 8 */
	assert_int_equal(ring_mem[16], 0xff);
	rp_rb_record recs[6];
	uint64_t cons = start, disc = 99;
	uint32_t n = 99;
	static const uint64_t want_pos[4] = { UINT64_MAX - 15, UINT64_MAX - 7, 0, 8 };

	assert_int_equal(iter_batch(&r, 16, &cons, recs, 6, &n, &disc), RP_EMPTY);
	assert_int_equal(n, 4);
	assert_int_equal(disc, 0);
	assert_true(cons == 16);
	for (uint32_t k = 0; k < 4; k++) {
		assert_true(recs[k].pos == want_pos[k]);
		assert_int_equal(recs[k].len, 0);
		assert_ptr_equal(recs[k].data.p0, ring_mem + 8 + 8 * (k % 2));
	}
}

/* Header words at the edges of the busy, discard and length fields.  The
 * ring claims 2^31 bytes so that a 2^30-byte record fits; the walk reads
 * only the 8-byte header at offset 0 (ring_mem), never the data. */
static void rb_header_word_edges(void **state)
{
	(void)state;
	mk_ring(256, 0);
	rp_ring big = { ring_mem, 1ull << 31 };
	static const struct { uint32_t word; int status; bool discarded; uint32_t len; } cases[] = {
		{ 0x3fffffffu, RP_OK, false, 0x3fffffffu },      /* largest length, kept */
		{ 0x7ffffffeu, RP_OK, true, 0x3ffffffeu },       /* discard bit, large length */
		{ 0x7fffffffu, RP_OK, true, 0x3fffffffu },       /* every bit below busy */
		{ 0x40000000u, RP_OK, true, 0 },                 /* discard bit, empty */
		{ 0x7ffffff8u, RP_E_RB_LEN, false, 0 },          /* not busy: length past producer */
		{ 0x80000000u, RP_BUSY, false, 0 },              /* busy bit alone */
		{ 0xc0000008u, RP_BUSY, false, 0 },              /* busy and discard */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tb_put(ring_mem, 256, 0, &cases[i].word, 4);
		uint64_t cons = 0;
		const uint64_t prod = cases[i].status == RP_E_RB_LEN ? 1024 : (1ull << 30) + 8;
		rp_rb_record rec;
		canary_fill(&rec);
		assert_int_equal(rp_ringbuf_next(&big, prod, &cons, &rec), cases[i].status);
		if (cases[i].status != RP_OK) {
			assert_int_equal(cons, 0);
			assert_rec_untouched(&rec);
			continue;
		}
		assert_int_equal(rec.len, cases[i].len);
		assert_int_equal(rec.discarded, cases[i].discarded);
		assert_int_equal(rec.size, ((uint64_t)cases[i].len + 7u) / 8u * 8u + 8u);
		assert_int_equal(cons, rec.size);
	}
}

static void rb_batch_more_and_zero_max(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	uint64_t pos = 0;
	for (int i = 0; i < 5; i++)
		pos += tb_rb_put(ring_mem, 256, pos, (uint32_t)i, NULL);
	rp_rb_record recs[3];
	uint64_t cons = 0, disc;
	uint32_t n;
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 0, &n, &disc), RP_MORE);
	assert_int_equal(n, 0);
	assert_int_equal(cons, 0);
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 3, &n, &disc), RP_MORE);
	assert_int_equal(n, 3);
	assert_int_equal(cons, 8 + 16 + 16);
	assert_int_equal(recs[2].len, 2);
	assert_int_equal(iter_batch(&r, pos, &cons, recs, 3, &n, &disc), RP_EMPTY);
	assert_int_equal(n, 2);
	assert_int_equal(recs[1].len, 4);
	assert_int_equal(cons, pos);
}

static void rb_full_ring_of_records(void **state)
{
	(void)state;
	/* 32 eight-byte records fill a 256-byte ring exactly */
	rp_ring r = mk_ring(256, 0);
	for (uint64_t p = 0; p < 256; p += 8)
		tb_rb_put(ring_mem, 256, 1000 * 256 + p, 0, NULL);
	rp_rb_record recs[40];
	uint64_t cons = 1000 * 256, disc;
	uint32_t n;
	assert_int_equal(iter_batch(&r, cons + 256, &cons, recs, 40, &n, &disc), RP_EMPTY);
	assert_int_equal(n, 32);
	assert_int_equal(cons, 1000 * 256 + 256);
}

/* ---------------- backward perf ring ---------------- */

/* The iterator (rp_rb_iter): records in order with discarded ones flagged,
 * a payload that wraps (the full decoder's path), BUSY and every error
 * with the iterator and the record untouched. */
static void rb_iter_walk(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	uint8_t p[56];
	fill_payload(p, 56, 6);
	const uint64_t start = 128 * 3 + 32;
	uint64_t pos = start;
	pos += tb_rb_put(ring_mem, 128, pos, 5, p);              /* 32: 16 bytes */
	pos += tb_rb_put(ring_mem, 128, pos, RB_DISCARD | 9, p); /* 48: 24 bytes */
	pos += tb_rb_put(ring_mem, 128, pos, 56, p);             /* 72: 64 bytes, payload wraps */
	const uint64_t busy_at = pos;
	pos += tb_rb_put(ring_mem, 128, pos, RB_BUSY | 4, p);
	rp_rb_iter it;
	rp_rb_record rec;
	canary_fill(&rec);
	rp_rb_iter_init(&it, &r, pos, start);
	assert_int_equal(rp_rb_iter_next(&it, &rec), RP_OK);
	assert_true(!rec.discarded && rec.len == 5 && rec.pos == start);
	assert_int_equal(rp_rb_iter_consumer(&it), start + 16);
	assert_payload(rec.data, 5, 6);
	assert_int_equal(rp_rb_iter_next(&it, &rec), RP_OK);
	assert_true(rec.discarded && rec.len == 9);
	assert_int_equal(rp_rb_iter_consumer(&it), start + 40);
	assert_int_equal(rp_rb_iter_next(&it, &rec), RP_OK);
	assert_true(!rec.discarded && rec.len == 56 && rec.data.n1 == 8);
	assert_int_equal(rp_rb_iter_consumer(&it), busy_at);
	assert_payload(rec.data, 56, 6);
	rp_rb_iter before = it;
	canary_fill(&rec);
	assert_int_equal(rp_rb_iter_next(&it, &rec), RP_BUSY);
	assert_memory_equal(&it, &before, sizeof it);
	assert_rec_untouched(&rec);
	/* errors: a length past the producer, a misaligned producer, an overrun */
	const struct { uint64_t prod; uint32_t word; rp_status st; } bad[] = {
		{ start + 16, 17, RP_E_RB_LEN },
		{ start + 20, 4, RP_E_RB_ALIGN },
		{ start + 136, 4, RP_E_RB_OVERRUN },
	};
	for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
		tb_rb_put(ring_mem, 128, start, bad[b].word, p);
		rp_rb_iter_init(&it, &r, bad[b].prod, start);
		before = it;
		canary_fill(&rec);
		assert_int_equal(rp_rb_iter_next(&it, &rec), bad[b].st);
		assert_memory_equal(&it, &before, sizeof it);
		assert_rec_untouched(&rec);
	}
	rp_rb_iter_init(&it, &r, start, start);
	assert_int_equal(rp_rb_iter_next(&it, &rec), RP_EMPTY);
}

/* The iterator's limit (rp_ringbuf.h): its offset plus the room, rounded
 * down to 8, that rp_rb_room_at measures, from its definition: the bytes
 * from the position that are published (before producer), before the ring
 * end and before 2^64; 0 where the position or producer is not aligned or
 * producer is more than a ring ahead.  After rp_rb_iter_init and after every
 * step that succeeds the iterator holds exactly that (a step within it
 * leaves the limit, a step by the full decoder measures afresh).  Less would
 * still decode every record, sending those the common path could take to
 * the full decoder: only slower, so no other check sees it. */
static void assert_limit(const rp_rb_iter *it)
{
	const uint64_t c = rp_rb_iter_consumer(it);
	const uint64_t ahead = it->producer - c;
	uint64_t room = 0;
	if (c % 8 == 0 && it->producer % 8 == 0 && ahead <= it->size) {
		const uint64_t to_end = it->size - 1 - it->off;
		room = ahead < to_end ? ahead : to_end;
		if (room > UINT64_MAX - c)
			room = UINT64_MAX - c;
	}
	assert_true(c % 8 != 0 || it->off == c % it->size);
	assert_true(it->limit == it->off + room / 8 * 8);
}

/* rp_rb_iter_next_hint against rp_rb_iter_next, step by step from start:
 * the same status, the same iterator and the same record whatever the hint
 * (follow: each record's word becomes the next hint, as the adapter's batch
 * does).  Returns the status the walk stopped with. */
static rp_status iter_hint_lockstep(const rp_ring *r, uint64_t prod, uint64_t start, uint32_t hint,
                                    int follow)
{
	rp_rb_iter a, b;
	rp_rb_record ra, rb;
	rp_rb_iter_init(&a, r, prod, start);
	rp_rb_iter_init(&b, r, prod, start);
	assert_limit(&a);
	for (int i = 0; i < 64; i++) {
		canary_fill(&ra);
		canary_fill(&rb);
		const rp_status sa = rp_rb_iter_next(&a, &ra);
		const rp_status sb = rp_rb_iter_next_hint(&b, &rb, hint);
		assert_int_equal(sb, sa);
		assert_memory_equal(&b, &a, sizeof a);
		if (sa != RP_OK) {
			assert_rec_untouched(&ra);
			assert_rec_untouched(&rb);
			return sa;
		}
		assert_true(rb.pos == ra.pos && rb.len == ra.len && rb.size == ra.size &&
		            rb.discarded == ra.discarded);
		assert_true(rb.data.p0 == ra.data.p0 && rb.data.n0 == ra.data.n0 &&
		            rb.data.p1 == ra.data.p1 && rb.data.n1 == ra.data.n1);
		assert_limit(&a);
		if (follow)
			hint = ra.len | (ra.discarded ? RB_DISCARD : 0);
	}
	fail_msg("the walk did not stop");
	return RP_OK;
}

/* The hint changes nothing but the speed: a run of one size (the hint
 * matches), a discarded, a busy and an overlong record whose length bits
 * are the hint's, a payload that wraps the ring end, the errors, each with
 * hints that match, that do not, and that carry the BUSY or DISCARD bit. */
static void rb_iter_hint(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	uint8_t p[56];
	fill_payload(p, 56, 6);
	const uint64_t start = 128 * 3 + 48;
	const uint32_t hints[] = { 0, 5, 9, 56, RB_DISCARD | 5, RB_DISCARD | 9, RB_BUSY | 5, RB_BUSY,
		                   17, UINT32_MAX };
	const uint32_t tails[] = { RB_BUSY | 5, RB_DISCARD | 5, 5 };
	for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
		for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
			for (int follow = 0; follow < 2; follow++) {
				/* at offsets 48 and 64 a 5, at 80 a 56 whose payload wraps
				 * the ring end, at 16 a 5, at 32 the tail: 128 bytes */
				uint64_t pos = start;
				for (int i = 0; i < 2; i++)
					pos += tb_rb_put(ring_mem, 128, pos, 5, p);
				pos += tb_rb_put(ring_mem, 128, pos, 56, p);
				pos += tb_rb_put(ring_mem, 128, pos, 5, p);
				const uint64_t tail_at = pos;
				pos += tb_rb_put(ring_mem, 128, pos, tails[t], p);
				const rp_status want = tails[t] & RB_BUSY ? RP_BUSY : RP_EMPTY;
				assert_int_equal(iter_hint_lockstep(&r, pos, start, hints[h], follow), want);
				/* the tail's 16 bytes not all published: a length past the producer */
				if (!(tails[t] & RB_BUSY))
					assert_int_equal(iter_hint_lockstep(&r, tail_at + 8, start, hints[h], follow),
					                 RP_E_RB_LEN);
			}
		}
	}
	/* a misaligned producer and an overrun */
	for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
		tb_rb_put(ring_mem, 128, start, 4, p);
		assert_int_equal(iter_hint_lockstep(&r, start + 20, start, hints[h], 1), RP_E_RB_ALIGN);
		assert_int_equal(iter_hint_lockstep(&r, start + 136, start, hints[h], 1), RP_E_RB_OVERRUN);
		assert_int_equal(iter_hint_lockstep(&r, start, start, hints[h], 1), RP_EMPTY);
	}
}

static void canary_fill_prec(rp_record *r)
{
	memset(r, 0x5a, sizeof *r);
}

static void bw_newest_first_zero_stop(void **state)
{
	(void)state;
	/* Three records written backward from 0: head = -64. */
	rp_ring r = mk_ring(256, 0);
	uint8_t b[64];
	fill_payload(b, 64, 7);
	const uint64_t head = (uint64_t)0 - 64;
	tb_perf_put(ring_mem, 256, head, 9, 1, 24, b);       /* newest */
	tb_perf_put(ring_mem, 256, head + 24, 2, 0, 24, b);  /* LOST */
	tb_perf_put(ring_mem, 256, head + 48, 9, 2, 16, b);  /* oldest */
	uint8_t scratch[256];
	rp_record recs[8];
	uint64_t walked = 0;
	uint32_t n;
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, sizeof scratch, recs, 8, &n),
	                 RP_BW_END_ZERO);
	assert_int_equal(n, 3);
	assert_int_equal(walked, 64);
	assert_int_equal(recs[0].type, 9);
	assert_int_equal(recs[0].misc, 1);
	assert_int_equal(recs[0].pos, head);
	assert_int_equal(recs[1].type, 2);
	assert_int_equal(recs[1].pos, head + 24);
	assert_int_equal(recs[2].size, 16);
	assert_int_equal(recs[2].pos, (uint64_t)0 - 16);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(recs[k].body.n1, 0);
		assert_true(recs[k].body.p0 >= scratch && recs[k].body.p0 + recs[k].body.n0 <= scratch + 256);
		for (uint32_t i = 0; i < recs[k].body.n0; i++)
			assert_int_equal(recs[k].body.p0[i], tb_pattern(7, i));
	}
	/* body copies are packed, not aliased */
	assert_ptr_equal(recs[1].body.p0, recs[0].body.p0 + 16);
}

static void bw_full_wrap_exact(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	const uint64_t head = 1000 * 128 + 40; /* any aligned head */
	for (uint64_t w = 0; w < 128; w += 32)
		tb_perf_put(ring_mem, 128, head + w, 9, 0, 32, NULL);
	uint8_t scratch[256];
	rp_record recs[8];
	uint64_t walked = 0;
	uint32_t n;
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, sizeof scratch, recs, 8, &n),
	                 RP_EMPTY);
	assert_int_equal(n, 4);
	assert_int_equal(walked, 128);
	/* the record at offset 104 wraps: its body is ring bytes 112..127, 0..7 */
	tb_perf_put(ring_mem, 128, 104, 9, 0, 32, NULL);
	for (int i = 0; i < 24; i++)
		ring_mem[(112 + i) % 128] = (uint8_t)(0x40 + i);
	rp_record rec;
	canary_fill_prec(&rec);
	walked = 64;
	assert_int_equal(rp_backward_next(&r, head, &walked, scratch, 24, &rec), RP_OK);
	assert_int_equal(rec.pos, head + 64);
	for (int i = 0; i < 24; i++)
		assert_int_equal(scratch[i], 0x40 + i);
	assert_int_equal(rp_backward_next(&r, head, &walked, scratch, 24, &rec), RP_OK);
	assert_int_equal(walked, 128);
	assert_int_equal(rp_backward_next(&r, head, &walked, scratch, 24, &rec), RP_EMPTY);
}

static void bw_overwritten_discarded(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	const uint64_t head = 0x1000;
	tb_perf_put(ring_mem, 128, head, 9, 0, 48, NULL);
	tb_perf_put(ring_mem, 128, head + 48, 9, 0, 48, NULL);
	/* an older record whose tail was overwritten by the newest one */
	tb_perf_put(ring_mem, 128, head + 96, 9, 0, 40, NULL);
	uint8_t scratch[256];
	rp_record recs[8];
	uint64_t walked = 0;
	uint32_t n;
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, sizeof scratch, recs, 8, &n),
	                 RP_BW_END_OVERWRITTEN);
	assert_int_equal(n, 2);
	assert_int_equal(walked, 96);
	/* one byte less and it fits exactly */
	tb_perf_put(ring_mem, 128, head + 96, 9, 0, 32, NULL);
	walked = 0;
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, sizeof scratch, recs, 8, &n),
	                 RP_EMPTY);
	assert_int_equal(n, 3);
}

static void bw_header_errors(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	uint8_t scratch[128];
	const uint64_t head = 64;
	static const struct { uint16_t size; int status; } cases[] = {
		{ 0, RP_BW_END_ZERO }, { 1, RP_E_BW_HDR_SHORT }, { 7, RP_E_BW_HDR_SHORT },
		{ 12, RP_E_BW_HDR_ALIGN }, { 65535, RP_E_BW_HDR_ALIGN },
		{ 136, RP_BW_END_OVERWRITTEN }, { 65528, RP_BW_END_OVERWRITTEN },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tb_perf_put(ring_mem, 128, head, 9, 0, cases[i].size, NULL);
		uint64_t walked = 0;
		rp_record rec, c;
		canary_fill_prec(&rec);
		canary_fill_prec(&c);
		memset(scratch, 0x77, sizeof scratch);
		assert_int_equal(rp_backward_next(&r, head, &walked, scratch, 128, &rec), cases[i].status);
		assert_int_equal(walked, 0);
		assert_memory_equal(&rec, &c, sizeof c);
		assert_int_equal(scratch[0], 0x77);
	}
}

static void bw_misaligned(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	uint8_t scratch[64];
	rp_record rec;
	uint64_t walked = 0;
	assert_int_equal(rp_backward_next(&r, 4, &walked, scratch, 64, &rec), RP_E_BW_POS_ALIGN);
	walked = 12;
	assert_int_equal(rp_backward_next(&r, 8, &walked, scratch, 64, &rec), RP_E_BW_POS_ALIGN);
	assert_int_equal(walked, 12);
}

static void bw_scratch_too_small(void **state)
{
	(void)state;
	rp_ring r = mk_ring(256, 0);
	const uint64_t head = 0;
	tb_perf_put(ring_mem, 256, 0, 9, 0, 40, NULL);
	tb_perf_put(ring_mem, 256, 40, 9, 0, 40, NULL);
	uint8_t scratch[64];
	rp_record rec;
	canary_fill_prec(&rec);
	uint64_t walked = 0;
	assert_int_equal(rp_backward_next(&r, head, &walked, scratch, 31, &rec), RP_E_BW_SCRATCH);
	assert_int_equal(walked, 0);
	assert_int_equal(rp_backward_next(&r, head, &walked, scratch, 32, &rec), RP_OK);
	assert_int_equal(walked, 40);
	/* batch: the second body does not fit after the first -> RP_MORE */
	rp_record recs[4];
	uint32_t n;
	walked = 0;
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, 48, recs, 4, &n), RP_MORE);
	assert_int_equal(n, 1);
	assert_int_equal(walked, 40);
	/* a record larger than the whole scratch */
	walked = 0;
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, 16, recs, 4, &n), RP_E_BW_SCRATCH);
	assert_int_equal(n, 0);
	assert_int_equal(walked, 0);
	/* max reached */
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, 64, recs, 1, &n), RP_MORE);
	assert_int_equal(n, 1);
}

static void bw_copy_not_alias(void **state)
{
	(void)state;
	/* after the walk, rewriting the ring must not change returned bodies */
	rp_ring r = mk_ring(128, 0);
	uint8_t b[16];
	fill_payload(b, 16, 8);
	tb_perf_put(ring_mem, 128, 32, 9, 0, 24, b);
	uint8_t scratch[64];
	rp_record rec;
	uint64_t walked = 0;
	assert_int_equal(rp_backward_next(&r, 32, &walked, scratch, 64, &rec), RP_OK);
	memset(ring_mem, 0xff, 128);
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(rec.body.p0[i], tb_pattern(8, i));
	assert_int_equal(rec.size, 24);
}

/* head just below 2^64: the records' positions (head + walked, mod 2^64)
 * pass 2^64 in the middle of the walk.  Every field of every record is
 * checked, from rp_backward_next into a canary and from the drain. */
static void bw_pos_past_2_64(void **state)
{
	(void)state;
	rp_ring r = mk_ring(128, 0);
	const uint64_t head = (uint64_t)0 - 16;
	static const uint16_t sizes[] = { 16, 24, 32, 8, 40 };
	uint8_t b[64];
	uint64_t w = 0;
	for (int k = 0; k < 5; k++) {
		fill_payload(b, sizes[k] - 8u, 20u + (uint32_t)k);
		tb_perf_put(ring_mem, 128, head + w, 9u + 0x10000u * (uint32_t)k, (uint16_t)(100 + k), sizes[k], b);
		w += sizes[k];
	}
	/* 120 bytes used; bytes 120..127 after them stay zero: END_ZERO */
	uint8_t scratch[128];
	uint64_t walked = 0;
	w = 0;
	for (int k = 0; k < 5; k++) {
		rp_record rec;
		canary_fill_prec(&rec);
		assert_int_equal(rp_backward_next(&r, head, &walked, scratch, sizeof scratch, &rec), RP_OK);
		assert_int_equal(rec.pos, head + w); /* wraps: -16, 0, 24, 56, 64 */
		assert_int_equal(rec.type, 9u + 0x10000u * (uint32_t)k); /* types above 2^16 too */
		assert_int_equal(rec.misc, 100 + k);
		assert_int_equal(rec.size, sizes[k]);
		assert_ptr_equal(rec.body.p0, scratch);
		assert_ptr_equal(rec.body.p1, scratch);
		assert_int_equal(rec.body.n0, sizes[k] - 8u);
		assert_int_equal(rec.body.n1, 0);
		assert_payload(rec.body, sizes[k] - 8u, 20u + (uint32_t)k);
		w += sizes[k];
		assert_int_equal(walked, w);
	}
	rp_record end;
	canary_fill_prec(&end);
	assert_int_equal(rp_backward_next(&r, head, &walked, scratch, sizeof scratch, &end), RP_BW_END_ZERO);
	assert_int_equal(walked, 120);
	/* the drain: the same records, in a canary-filled array */
	rp_record recs[8];
	memset(recs, 0x5a, sizeof recs);
	uint32_t n = 99;
	walked = 0;
	assert_int_equal(rp_backward_drain(&r, head, &walked, scratch, sizeof scratch, recs, 8, &n),
	                 RP_BW_END_ZERO);
	assert_int_equal(n, 5);
	assert_int_equal(walked, 120);
	w = 0;
	for (int k = 0; k < 5; k++) {
		assert_int_equal(recs[k].pos, head + w);
		assert_int_equal(recs[k].type, 9u + 0x10000u * (uint32_t)k);
		assert_int_equal(recs[k].misc, 100 + k);
		assert_int_equal(recs[k].size, sizes[k]);
		assert_int_equal(recs[k].body.n0, sizes[k] - 8u);
		assert_int_equal(recs[k].body.n1, 0);
		assert_ptr_equal(recs[k].body.p1, recs[k].body.p0);
		assert_payload(recs[k].body, sizes[k] - 8u, 20u + (uint32_t)k);
		w += sizes[k];
	}
	/* the largest head: the first record at 2^64 - 8, the next at 0 */
	mk_ring(128, 0);
	tb_perf_put(ring_mem, 128, (uint64_t)0 - 8, 7, 0, 8, NULL);
	tb_perf_put(ring_mem, 128, 0, 7, 1, 16, b);
	walked = 0;
	rp_record rec;
	canary_fill_prec(&rec);
	assert_int_equal(rp_backward_next(&r, (uint64_t)0 - 8, &walked, scratch, sizeof scratch, &rec), RP_OK);
	assert_int_equal(rec.pos, (uint64_t)0 - 8);
	assert_int_equal(rp_backward_next(&r, (uint64_t)0 - 8, &walked, scratch, sizeof scratch, &rec), RP_OK);
	assert_int_equal(rec.pos, 0);
	assert_int_equal(rec.misc, 1);
}

static void status_texts(void **state)
{
	(void)state;
	static const int codes[] = { RP_BW_END_ZERO, RP_BW_END_OVERWRITTEN, RP_E_BW_HDR_SHORT,
	                             RP_E_BW_HDR_ALIGN, RP_E_BW_POS_ALIGN, RP_E_BW_SCRATCH,
	                             RP_E_RB_OVERRUN, RP_E_RB_ALIGN, RP_E_RB_LEN };
	const size_t n = sizeof codes / sizeof codes[0];
	for (size_t i = 0; i < n; i++) {
		assert_non_null(rp_status_text(codes[i]));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(rp_status_text(codes[i]), rp_status_text(codes[j]));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rb_empty),
		cmocka_unit_test(rb_one_record),
		cmocka_unit_test(rb_sizes_round_up),
		cmocka_unit_test(rb_zero_length),
		cmocka_unit_test(rb_busy_stops),
		cmocka_unit_test(rb_discard_skipped),
		cmocka_unit_test(rb_wrap),
		cmocka_unit_test(rb_header_at_end),
		cmocka_unit_test(rb_corrupt_len),
		cmocka_unit_test(rb_misaligned),
		cmocka_unit_test(rb_overrun),
		cmocka_unit_test(rb_u64_wrap),
		cmocka_unit_test(rb_full_across_2_64),
		cmocka_unit_test(rb_batch_offset_across_2_64),
		cmocka_unit_test(rb_header_word_edges),
		cmocka_unit_test(rb_batch_more_and_zero_max),
		cmocka_unit_test(rb_full_ring_of_records),
		cmocka_unit_test(rb_iter_walk),
		cmocka_unit_test(rb_iter_hint),
		cmocka_unit_test(bw_newest_first_zero_stop),
		cmocka_unit_test(bw_full_wrap_exact),
		cmocka_unit_test(bw_overwritten_discarded),
		cmocka_unit_test(bw_header_errors),
		cmocka_unit_test(bw_misaligned),
		cmocka_unit_test(bw_scratch_too_small),
		cmocka_unit_test(bw_copy_not_alias),
		cmocka_unit_test(bw_pos_past_2_64),
		cmocka_unit_test(status_texts),
	};
	return cmocka_run_group_tests_name("ringbuf-unit", tests, NULL, NULL);
}
