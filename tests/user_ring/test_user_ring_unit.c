/* Unit tests of the user ring buffer producer (core/rp_user_ring.h) over
 * synthetic rings.  Every expectation is computed here from the kernel's
 * rules (kernel/bpf/ringbuf.c): header = u32 len | flags + u32 0, a record
 * takes round_up(len + 8, 8) bytes, the header at producer mod size.  A
 * second, independent reader (read_back) decodes what the producer wrote
 * the way __bpf_user_ringbuf_peek does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rp_user_ring.h"

#define BUSY 0x80000000u
#define DISCARD 0x40000000u
#define GUARD 64

/* the ring sits between two guard zones that must never change */
static uint8_t mem[GUARD + 4096 + GUARD];
static uint8_t *const ring = mem + GUARD;

static void reset(uint8_t fill)
{
	memset(mem, 0xee, sizeof mem);
	memset(ring, fill, 4096);
}

static void assert_guards(void)
{
	for (size_t i = 0; i < GUARD; i++) {
		assert_int_equal(mem[i], 0xee);
		assert_int_equal(mem[GUARD + 4096 + i], 0xee);
	}
}

static uint32_t word(uint64_t off)
{
	return (uint32_t)ring[off] | (uint32_t)ring[off + 1] << 8 |
	       (uint32_t)ring[off + 2] << 16 | (uint32_t)ring[off + 3] << 24;
}

static uint64_t total_of(uint32_t len)
{
	return ((uint64_t)len + 8 + 7) / 8 * 8;
}

/* In place, never by value: an assignment of a struct need not copy its
 * padding, and the failure checks compare every byte. */
static void canary_fill(rp_ur_rsv *r)
{
	memset(r, 0xa5, sizeof *r);
}

/* write len pattern bytes into the reservation's slices */
static void put_payload(const rp_ur_rsv *r, uint8_t seed)
{
	uint8_t *p0 = (uint8_t *)(uintptr_t)r->payload.p0;
	uint8_t *p1 = (uint8_t *)(uintptr_t)r->payload.p1;
	for (uint32_t i = 0; i < r->payload.n0; i++)
		p0[i] = (uint8_t)(seed + i);
	for (uint32_t i = 0; i < r->payload.n1; i++)
		p1[i] = (uint8_t)(seed + r->payload.n0 + i);
}

/* One reserve that must succeed: checks everything the contract promises,
 * from the bytes and the arithmetic, and that only the 8 header bytes
 * changed in the ring. */
static rp_ur_rsv reserve_ok(uint64_t size, uint64_t consumer, uint64_t *producer, uint32_t len)
{
	uint8_t before[4096];
	memcpy(before, ring, size);
	const uint64_t p = *producer;
	rp_ur_rsv r;
	canary_fill(&r);
	assert_int_equal(rp_user_ring_reserve(ring, size, consumer, producer, len, &r), RP_OK);
	const uint64_t off = p % size;
	assert_int_equal(r.pos, p);
	assert_int_equal(r.off, off);
	assert_int_equal(r.len, len);
	assert_int_equal(r.size, total_of(len));
	assert_int_equal(*producer, p + total_of(len));
	assert_int_equal(word(off), len | BUSY);
	assert_int_equal(word(off + 4), 0);
	for (uint64_t i = 0; i < size; i++)
		if (i < off || i >= off + 8)
			assert_int_equal(ring[i], before[i]);
	/* payload: right after the header, wrapping once to the ring start */
	const uint64_t body = off + 8 == size ? 0 : off + 8;
	const uint64_t n0 = len < size - body ? len : size - body;
	assert_ptr_equal(r.payload.p0, ring + body);
	assert_int_equal(r.payload.n0, n0);
	assert_ptr_equal(r.payload.p1, ring);
	assert_int_equal(r.payload.n1, len - n0);
	assert_true(r.payload.n1 <= off);
	assert_guards();
	return r;
}

/* the failing call leaves producer, rsv and every byte untouched */
static void reserve_fails(uint64_t size, uint64_t consumer, uint64_t producer, uint32_t len,
                          rp_status want)
{
	uint8_t before[sizeof mem];
	memcpy(before, mem, sizeof mem);
	uint64_t p = producer;
	rp_ur_rsv r, c;
	canary_fill(&r);
	canary_fill(&c);
	assert_int_equal(rp_user_ring_reserve(ring, size, consumer, &p, len, &r), want);
	assert_int_equal(p, producer);
	assert_memory_equal(&r, &c, sizeof r);
	assert_memory_equal(mem, before, sizeof mem);
}

/* The kernel's reader (__bpf_user_ringbuf_peek + release), written here
 * independently: returns 1 and the record at *cons, 0 at producer or at a
 * BUSY record, -1 on anything the kernel would reject. */
static int read_back(uint64_t size, uint64_t *cons, uint64_t prod, uint32_t *len,
                     bool *discarded, uint64_t *body)
{
	if (prod % 8)
		return -1;
	if (*cons >= prod)
		return 0;
	const uint64_t off = *cons % size;
	const uint32_t w = word(off);
	const uint32_t l = w & ~(BUSY | DISCARD);
	const uint64_t tot = total_of(l);
	if (tot > prod - *cons || tot > size || l > 0xffffffu)
		return -1;
	if (w & BUSY)
		return 0;
	*len = l;
	*discarded = (w & DISCARD) != 0;
	*body = (off + 8) % size;
	*cons += tot;
	return 1;
}

static void basic(void **state)
{
	(void)state;
	reset(0x11);
	uint64_t prod = 0;
	rp_ur_rsv r = reserve_ok(4096, 0, &prod, 13);
	assert_int_equal(prod, 24);
	put_payload(&r, 7);
	assert_int_equal(word(0), 13 | BUSY);
	assert_int_equal(rp_user_ring_commit(ring, 4096, r.off, false), RP_OK);
	assert_int_equal(word(0), 13);
	assert_int_equal(word(4), 0);
	/* the payload and the padding after it are untouched by commit */
	for (uint32_t i = 0; i < 13; i++)
		assert_int_equal(ring[8 + i], (uint8_t)(7 + i));
	for (uint32_t i = 21; i < 24; i++)
		assert_int_equal(ring[i], 0x11);
	assert_guards();
}

static void sizes_round_up(void **state)
{
	(void)state;
	for (uint32_t len = 0; len <= 64; len++) {
		reset(0);
		uint64_t prod = 0;
		rp_ur_rsv r = reserve_ok(4096, 0, &prod, len);
		assert_int_equal(r.size, (len + 15) / 8 * 8);
		assert_int_equal(prod % 8, 0);
	}
}

static void discard_sets_bit(void **state)
{
	(void)state;
	reset(0);
	uint64_t prod = 0;
	rp_ur_rsv a = reserve_ok(4096, 0, &prod, 100);
	rp_ur_rsv b = reserve_ok(4096, 0, &prod, 5);
	assert_int_equal(rp_user_ring_commit(ring, 4096, b.off, true), RP_OK);
	assert_int_equal(word(b.off), 5 | DISCARD);
	/* a still pending: the reader stops there, b waits behind it */
	uint64_t cons = 0, body;
	uint32_t len;
	bool disc;
	assert_int_equal(read_back(4096, &cons, prod, &len, &disc, &body), 0);
	assert_int_equal(cons, 0);
	assert_int_equal(rp_user_ring_commit(ring, 4096, a.off, false), RP_OK);
	assert_int_equal(read_back(4096, &cons, prod, &len, &disc, &body), 1);
	assert_int_equal(len, 100);
	assert_false(disc);
	assert_int_equal(read_back(4096, &cons, prod, &len, &disc, &body), 1);
	assert_int_equal(len, 5);
	assert_true(disc);
	assert_int_equal(cons, prod);
	assert_int_equal(read_back(4096, &cons, prod, &len, &disc, &body), 0);
}

static void commit_errors(void **state)
{
	(void)state;
	reset(0);
	uint64_t prod = 0;
	rp_ur_rsv r = reserve_ok(4096, 0, &prod, 20);
	uint8_t before[sizeof mem];
	memcpy(before, mem, sizeof mem);
	assert_int_equal(rp_user_ring_commit(ring, 4096, 4, false), RP_E_UR_OFF);
	assert_int_equal(rp_user_ring_commit(ring, 4096, 4096, false), RP_E_UR_OFF);
	assert_int_equal(rp_user_ring_commit(ring, 4096, UINT64_MAX - 7, true), RP_E_UR_OFF);
	/* nothing reserved at 32 (zero bytes) */
	assert_int_equal(rp_user_ring_commit(ring, 4096, 32, false), RP_E_UR_NOT_RESERVED);
	assert_memory_equal(mem, before, sizeof mem);
	assert_int_equal(rp_user_ring_commit(ring, 4096, r.off, false), RP_OK);
	memcpy(before, mem, sizeof mem);
	/* committed already: refused both ways, nothing written */
	assert_int_equal(rp_user_ring_commit(ring, 4096, r.off, false), RP_E_UR_NOT_RESERVED);
	assert_int_equal(rp_user_ring_commit(ring, 4096, r.off, true), RP_E_UR_NOT_RESERVED);
	assert_memory_equal(mem, before, sizeof mem);
	/* a header with DISCARD and BUSY both set is not a pending reservation */
	ring[r.off + 3] = 0xc0;
	memcpy(before, mem, sizeof mem);
	assert_int_equal(rp_user_ring_commit(ring, 4096, r.off, false), RP_E_UR_NOT_RESERVED);
	assert_memory_equal(mem, before, sizeof mem);
	/* the last header slot of the ring is a valid offset */
	ring[4088 + 3] = 0x80;
	assert_int_equal(rp_user_ring_commit(ring, 4096, 4088, true), RP_OK);
	assert_int_equal(ring[4091], 0x40);
	assert_guards();
}

static void length_limits(void **state)
{
	(void)state;
	reset(0x5a);
	/* over the dynptr limit: refused whatever the ring */
	reserve_fails(4096, 0, 0, 0x1000000, RP_E_UR_LEN);
	reserve_fails(4096, 0, 0, 0x3fffffff, RP_E_UR_LEN);
	reserve_fails(4096, 0, 0, 0x40000000, RP_E_UR_LEN);
	reserve_fails(4096, 0, 0, UINT32_MAX, RP_E_UR_LEN);
	/* larger than the ring: len + 8 rounded > size */
	reserve_fails(4096, 0, 0, 4089, RP_E_UR_TOO_BIG);
	reserve_fails(64, 0, 0, 57, RP_E_UR_TOO_BIG);
	/* exactly the ring: fits an empty ring */
	uint64_t prod = 0;
	rp_ur_rsv r = reserve_ok(4096, 0, &prod, 4088);
	assert_int_equal(prod, 4096);
	assert_int_equal(r.payload.n0, 4088);
	assert_int_equal(r.payload.n1, 0);
}

static void max_len_header(void **state)
{
	(void)state;
	/* RP_UR_LEN_MAX in a big ring: bytes 0..2 all ones, top byte 0x80 */
	static uint8_t big[(1u << 24) + 64];
	uint64_t prod = 0;
	rp_ur_rsv r;
	memset(big, 0, sizeof big);
	assert_int_equal(rp_user_ring_reserve(big, (1u << 24) + 8, 0, &prod, RP_UR_LEN_MAX, &r), RP_OK);
	assert_int_equal(big[0], 0xff);
	assert_int_equal(big[1], 0xff);
	assert_int_equal(big[2], 0xff);
	assert_int_equal(big[3], 0x80);
	assert_int_equal(prod, (uint64_t)RP_UR_LEN_MAX + 1 + 8);
}

/* A length whose three bytes all differ, with q = len / 256 = 0x0302 = 770
 * (770 / 256 = 3 but 770 / 257 = 2, and 0x01 + 0x02 * 256 + 0x03 * 65536
 * = 197121): the header holds 01 02 03 80 00 00 00 00, the record takes
 * round_up(197121, 8) + 8 = 197136 bytes. */
static void three_byte_len_header(void **state)
{
	(void)state;
	static uint8_t mid[1u << 18];
	uint64_t prod = 0;
	rp_ur_rsv r;
	memset(mid, 0x5a, sizeof mid);
	assert_int_equal(rp_user_ring_reserve(mid, sizeof mid, 0, &prod, 0x030201u, &r), RP_OK);
	static const uint8_t want[8] = { 0x01, 0x02, 0x03, 0x80, 0, 0, 0, 0 };
	assert_memory_equal(mid, want, 8);
	assert_int_equal(mid[8], 0x5a); /* the payload is not written */
	assert_int_equal(prod, 197136);
	assert_int_equal(r.pos, 0);
	assert_int_equal(r.off, 0);
	assert_int_equal(r.len, 197121);
	assert_int_equal(r.size, 197136);
	assert_ptr_equal(r.payload.p0, mid + 8);
	assert_int_equal(r.payload.n0, 197121);
	assert_int_equal(r.payload.n1, 0);
}

static void full_and_room(void **state)
{
	(void)state;
	reset(0);
	/* 40-byte payloads take 48: 85 fit in 4096, 16 bytes stay free */
	uint64_t prod = 0;
	for (int i = 0; i < 85; i++)
		(void)reserve_ok(4096, 0, &prod, 40);
	assert_int_equal(prod, 4080);
	reserve_fails(4096, 0, prod, 40, RP_E_UR_FULL);
	reserve_fails(4096, 0, prod, 9, RP_E_UR_FULL); /* 24 > 16 */
	(void)reserve_ok(4096, 0, &prod, 8);           /* exactly the 16 left */
	assert_int_equal(prod, 4096);
	reserve_fails(4096, 0, prod, 0, RP_E_UR_FULL); /* not even a header */
	/* the consumer moved by 48: one more 40-byte record, at offset 0 */
	rp_ur_rsv r = reserve_ok(4096, 48, &prod, 40);
	assert_int_equal(r.off, 0);
	reserve_fails(4096, 48, prod, 0, RP_E_UR_FULL);
}

static void wrap(void **state)
{
	(void)state;
	/* a payload that wraps the ring end: two slices, the second ends
	 * before the header */
	reset(0);
	uint64_t cons = 4000, prod = 4000;
	rp_ur_rsv r = reserve_ok(4096, cons, &prod, 200);
	assert_int_equal(r.off, 4000);
	assert_int_equal(r.payload.n0, 88);
	assert_int_equal(r.payload.n1, 112);
	put_payload(&r, 3);
	assert_int_equal(rp_user_ring_commit(ring, 4096, r.off, false), RP_OK);
	uint64_t body;
	uint32_t len;
	bool disc;
	assert_int_equal(read_back(4096, &cons, prod, &len, &disc, &body), 1);
	assert_int_equal(len, 200);
	for (uint32_t i = 0; i < 200; i++)
		assert_int_equal(ring[(body + i) % 4096], (uint8_t)(3 + i));
	/* a header in the last 8 bytes: the payload starts at the ring start */
	reset(0);
	cons = prod = 4088;
	r = reserve_ok(4096, cons, &prod, 30);
	assert_int_equal(r.off, 4088);
	assert_ptr_equal(r.payload.p0, ring);
	assert_int_equal(r.payload.n0, 30);
	assert_int_equal(r.payload.n1, 0);
}

static void u64_wrap(void **state)
{
	(void)state;
	/* positions across 2^64: the size divides 2^64, offsets stay continuous */
	reset(0);
	uint64_t cons = UINT64_MAX - 47, prod = UINT64_MAX - 47; /* 8-aligned */
	rp_ur_rsv a = reserve_ok(4096, cons, &prod, 40);         /* ends at 2^64 */
	assert_int_equal(prod, 0);
	rp_ur_rsv b = reserve_ok(4096, cons, &prod, 40);
	assert_int_equal(b.pos, 0);
	assert_int_equal(b.off, 0);
	assert_int_equal(a.off, 4096 - 48);
	/* producer - consumer across the wrap counts as 96 */
	for (int i = 0; i < 83; i++)
		(void)reserve_ok(4096, cons, &prod, 40);
	reserve_fails(4096, cons, prod, 40, RP_E_UR_FULL);
}

static void corrupt_positions(void **state)
{
	(void)state;
	reset(0x77);
	/* producer more than size ahead of the consumer, or behind it */
	reserve_fails(4096, 0, 4104, 8, RP_E_UR_OVERRUN);
	reserve_fails(4096, 64, 0, 8, RP_E_UR_OVERRUN);
	reserve_fails(4096, 0, UINT64_MAX - 7, 8, RP_E_UR_OVERRUN);
	/* misaligned either way (within size) */
	reserve_fails(4096, 4, 64, 8, RP_E_UR_ALIGN);
	reserve_fails(4096, 0, 12, 8, RP_E_UR_ALIGN);
	/* length errors come first, then ring errors, then room */
	reserve_fails(4096, 4, 64, 0x1000000, RP_E_UR_LEN);
	reserve_fails(4096, 0, 9000, 5000, RP_E_UR_TOO_BIG);
	reserve_fails(4096, 0, 4096, 8, RP_E_UR_FULL);
	/* a ring of 8 bytes holds only empty records */
	uint64_t prod = 0;
	reset(0);
	(void)reserve_ok(8, 0, &prod, 0);
	reserve_fails(8, 0, prod, 0, RP_E_UR_FULL);
	reserve_fails(8, 8, prod, 1, RP_E_UR_TOO_BIG);
}

/* A longer run against the independent reader: records reserved,
 * committed out of order, discarded, consumed in bursts.  Records are
 * reserved in seq order, so the reader must see seq 0, 1, 2, ... with the
 * length, discard flag and payload each was given. */
#define RUN_MAX 20000
static uint32_t run_len[RUN_MAX];
static bool run_disc[RUN_MAX];

static void random_run(void **state)
{
	(void)state;
	uint32_t x = 12345;
	uint64_t cons = 0, prod = 0;
	uint64_t next = 0, seq = 0;
	rp_ur_rsv pend[8];
	uint64_t pseq[8];
	int npend = 0;
	reset(0);
	for (int step = 0; step < RUN_MAX && seq < RUN_MAX; step++) {
		x = x * 1103515245u + 12345u;
		const uint32_t op = (x >> 16) % 4;
		if (op <= 1 && npend < 8) {
			const uint32_t len = (x >> 3) % 300;
			rp_ur_rsv r;
			canary_fill(&r);
			uint64_t p = prod;
			const rp_status st = rp_user_ring_reserve(ring, 1024, cons, &p, len, &r);
			const uint64_t t = total_of(len);
			if (t > 1024 - (prod - cons)) {
				assert_int_equal(st, RP_E_UR_FULL);
				assert_int_equal(p, prod);
				continue;
			}
			assert_int_equal(st, RP_OK);
			assert_int_equal(p, prod + t);
			assert_int_equal(word(prod % 1024), len | BUSY);
			put_payload(&r, (uint8_t)seq);
			run_len[seq] = len;
			prod = p;
			pend[npend] = r;
			pseq[npend++] = seq++;
		} else if (op == 2 && npend > 0) {
			const int k = (int)((x >> 8) % (uint32_t)npend);
			const bool disc = (x >> 20) % 4 == 0;
			assert_int_equal(rp_user_ring_commit(ring, 1024, pend[k].off, disc), RP_OK);
			assert_int_equal(word(pend[k].off), pend[k].len | (disc ? DISCARD : 0));
			run_disc[pseq[k]] = disc;
			pend[k] = pend[npend - 1];
			pseq[k] = pseq[npend - 1];
			npend--;
		} else {
			uint64_t body;
			uint32_t len;
			bool disc;
			int rr;
			while ((rr = read_back(1024, &cons, prod, &len, &disc, &body)) == 1) {
				assert_true(next < seq);
				assert_int_equal(len, run_len[next]);
				assert_int_equal(disc, run_disc[next]);
				for (uint32_t i = 0; i < len; i++)
					assert_int_equal(ring[(body + i) % 1024], (uint8_t)(next + i));
				next++;
			}
			assert_int_equal(rr, 0);
		}
	}
	assert_true(next > 1000);
	assert_guards();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(basic),
		cmocka_unit_test(sizes_round_up),
		cmocka_unit_test(discard_sets_bit),
		cmocka_unit_test(commit_errors),
		cmocka_unit_test(length_limits),
		cmocka_unit_test(max_len_header),
		cmocka_unit_test(three_byte_len_header),
		cmocka_unit_test(full_and_room),
		cmocka_unit_test(wrap),
		cmocka_unit_test(u64_wrap),
		cmocka_unit_test(corrupt_positions),
		cmocka_unit_test(random_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
