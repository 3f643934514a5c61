/* rp_perf_ring_drain_samples and _drain_payloads on a perf ring in memory
 * (no kernel): a memfd laid out as a control page and one data page, mapped
 * by rp_perf_ring_map, records written with the unit tests' ring builder.
 * Every expected value comes from the builder's positions or is computed
 * here by hand; the corruption cases run both and rp_perf_ring_drain_batch
 * on the same ring and expect the same hand-computed outcome of all three. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "../unit/ring_builder.h"
#include "rp_error.h"
#include "rp_perf_ring.h"
#include "tests.h"

enum { MAXR = 160, PAD = 0xee };

/* ---- the ring ---- */

typedef struct mem_ring {
	int fd;
	rp_perf_ring r;
	rb_ring b; /* the data area, for the builder */
} mem_ring;

/* Control page (data_offset/data_size as the kernel sets them, data_head
 * and data_tail at start) and one data page of stale bytes. */
static int mem_ring_open(mem_ring *m, uint64_t start, unsigned flags)
{
	const long page = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page pg;
	int err;

	memset(m, 0, sizeof(*m));
	m->fd = memfd_create("rp_samples", MFD_CLOEXEC);
	if (m->fd < 0)
		return -errno;
	if (ftruncate(m->fd, 2 * page) < 0)
		return -errno;
	memset(&pg, 0, sizeof(pg));
	pg.data_offset = (uint64_t)page;
	pg.data_size = (uint64_t)page;
	pg.data_head = start;
	pg.data_tail = start;
	if (pwrite(m->fd, &pg, sizeof(pg), 0) != (ssize_t)sizeof(pg))
		return -EIO;
	err = rp_perf_ring_map(&m->r, m->fd, 1, flags);
	if (err)
		return err;
	m->b.data = (uint8_t *)(uintptr_t)m->r.data.data; /* mapped writable */
	m->b.size = m->r.data.size;
	memset(m->b.data, 0x5a, m->b.size);
	return 0;
}

static void mem_ring_close(mem_ring *m)
{
	rp_perf_ring_unmap(&m->r);
	if (m->fd >= 0)
		close(m->fd);
	m->fd = -1;
}

static void mem_ring_head(mem_ring *m, uint64_t head)
{
	struct perf_event_mmap_page *pg = m->r.base;
	__atomic_store_n(&pg->data_head, head, __ATOMIC_RELEASE);
}

/* What the ring holds: record i at pos[i] .. pos[i + 1]. */
typedef struct built {
	uint64_t pos[MAXR + 1];
	char kind[MAXR]; /* 'S' BPF output, 'L' LOST, 'C' COMM, 'M' malformed SAMPLE */
	uint32_t len[MAXR]; /* 'S': payload bytes; 'L': the lost count */
	uint32_t n;
} built;

static void built_init(built *b, uint64_t start)
{
	memset(b, 0, sizeof(*b));
	b->pos[0] = start;
}

/* Append one record; a sample's payload is rb_pattern(len, seed i + 1). */
static void put(mem_ring *m, built *b, char kind, uint32_t len)
{
	const uint32_t i = b->n;
	uint64_t p = b->pos[i];
	uint8_t buf[64];

	memset(buf, 0, sizeof(buf));
	switch (kind) {
	case 'S':
		rb_pattern(buf, len, (uint8_t)(i + 1));
		p = rb_put_bpf_output(&m->b, p, buf, len, PAD);
		break;
	case 'L':
		p = rb_put_lost(&m->b, p, 77, len);
		break;
	case 'C':
		p = rb_put_record(&m->b, p, RP_RECORD_COMM, 0, buf, 16);
		break;
	default: /* a SAMPLE whose raw size (13) does not fit its 8-byte body */
		rb_le32(buf, 13);
		p = rb_put_record(&m->b, p, RP_RECORD_SAMPLE, 0, buf, 8);
		break;
	}
	b->kind[i] = kind;
	b->len[i] = len;
	b->pos[i + 1] = p;
	b->n++;
}

/* Records from a string of kinds; every sample carries i % 21 bytes. */
static void put_all(mem_ring *m, built *b, const char *kinds)
{
	for (; *kinds; kinds++)
		put(m, b, *kinds, *kinds == 'L' ? 7u : b->n % 21u);
	mem_ring_head(m, b->pos[b->n]);
}

/* n samples of i % 21 bytes: 16 .. 32-byte records, at most 3200 bytes for
 * 100, wrapping the 4 KiB data page once from the start used below. */
static void put_samples(mem_ring *m, built *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		put(m, b, 'S', b->n % 21u);
	mem_ring_head(m, b->pos[b->n]);
}

/* ---- what the callbacks saw ---- */

typedef struct got {
	uint32_t n;      /* records seen, in order */
	char kind[MAXR]; /* 'S' through fn, 'O' through other, 'R' through a batch fn */
	uint64_t pos[MAXR];   /* 'O' and 'R' (a payload comes without its place) */
	uint32_t size[MAXR];  /* 'O' and 'R': the record's size */
	uint32_t raw[MAXR];   /* 'S': the payload's size */
	uint8_t bytes[MAXR][64]; /* the payload's first bytes */
	uint32_t calls, batch[MAXR]; /* fn calls and their n */
	uint32_t other_calls;
	int fn_ret;              /* fn returns this on call fn_ret_call (1-based) */
	uint32_t fn_ret_call;
	int other_ret;           /* other returns this on call other_ret_call */
	uint32_t other_ret_call;
} got;

static int on_samples(void *p, const rp_payload *s, uint32_t n)
{
	got *g = p;

	if (g->calls < MAXR)
		g->batch[g->calls] = n;
	g->calls++;
	for (uint32_t k = 0; k < n && g->n < MAXR; k++, g->n++) {
		g->kind[g->n] = 'S';
		g->raw[g->n] = s[k].size;
		memcpy(g->bytes[g->n], s[k].data, s[k].size < 64 ? s[k].size : 64);
	}
	return g->calls == g->fn_ret_call ? g->fn_ret : 0;
}

static int on_other(void *p, const rp_record *rec)
{
	got *g = p;

	g->other_calls++;
	if (g->n < MAXR) {
		g->kind[g->n] = 'O';
		g->pos[g->n] = rec->pos;
		g->size[g->n] = rec->size;
		g->n++;
	}
	return g->other_calls == g->other_ret_call ? g->other_ret : 0;
}

static int on_records(void *p, const rp_record *recs, uint32_t n)
{
	got *g = p;

	g->calls++;
	for (uint32_t k = 0; k < n && g->n < MAXR; k++, g->n++) {
		g->kind[g->n] = 'R';
		g->pos[g->n] = recs[k].pos;
		g->size[g->n] = recs[k].size;
	}
	return g->calls == g->fn_ret_call ? g->fn_ret : 0;
}

static char why[256];

/* got[gi ..] holds built records [first, last): the samples through fn,
 * the others through other (with_other) or not at all; any record through
 * a batch fn.  False with the reason in why otherwise. */
static bool seen(const built *b, const got *g, uint32_t gi, uint32_t first, uint32_t last,
                 bool with_other)
{
	for (uint32_t i = first; i < last; i++) {
		const uint32_t size = (uint32_t)(b->pos[i + 1] - b->pos[i]);
		if (b->kind[i] != 'S' && !with_other && (gi >= g->n || g->kind[gi] != 'R'))
			continue;
		if (gi >= g->n) {
			snprintf(why, sizeof(why), "record %u (%c) not delivered", i, b->kind[i]);
			return false;
		}
		const char want = g->kind[gi] == 'R' ? 'R' : b->kind[i] == 'S' ? 'S' : 'O';
		if (g->kind[gi] != want ||
		    (want != 'S' && (g->pos[gi] != b->pos[i] || g->size[gi] != size))) {
			snprintf(why, sizeof(why), "record %u (%c at %llu, %u bytes): got %c at %llu, %u bytes",
			         i, b->kind[i], (unsigned long long)b->pos[i], size, g->kind[gi],
			         (unsigned long long)g->pos[gi], g->size[gi]);
			return false;
		}
		if (want == 'S') {
			/* raw = round_up(len + 4, 8) - 4: the payload, then padding */
			const uint32_t raw = ((b->len[i] + 4u + 7u) & ~7u) - 4u;
			uint8_t pay[64];
			rb_pattern(pay, b->len[i], (uint8_t)(i + 1));
			memset(pay + b->len[i], PAD, raw - b->len[i]);
			if (g->raw[gi] != raw || raw + 12 != size || memcmp(g->bytes[gi], pay, raw) != 0) {
				snprintf(why, sizeof(why), "sample %u: raw %u (want %u) or bytes differ",
				         i, g->raw[gi], raw);
				return false;
			}
		}
		gi++;
	}
	if (gi != g->n) {
		snprintf(why, sizeof(why), "%u records delivered, %u expected", g->n, gi);
		return false;
	}
	return true;
}

/* The consumer position the control page holds. */
static uint64_t published(const mem_ring *m)
{
	return rp_perf_ring_tail(&m->r);
}

/* Past two laps of the data page, 296 bytes before its end: record 13 of
 * put_samples (32 bytes; records 0 .. 12 take 272) starts 24 bytes before
 * the end, so its 20-byte payload wraps: 12 bytes, then 8. */
static uint64_t start_pos(const mem_ring *m)
{
	return 3 * m->b.size - 296;
}

/* Every test's ring: open (CHECK, so it needs t and out:), the records
 * to come from start_pos, the tail there. */
#define START(m, b, flags)                                                    \
	do {                                                                  \
		int err_ = mem_ring_open(m, 0, flags);                       \
		CHECK(err_ == 0, "in-memory ring: %s", rp_strerror(err_));   \
		built_init(b, start_pos(m));                                 \
		(m)->r.tail = (b)->pos[0];                                   \
	} while (0)

/* ---- tests ---- */

/* 100 samples: two calls (64 + 36), every payload byte, positions, the
 * payloads that wrap the data page, the tail published once at head,
 * the stats. */
void test_samples_batches(itest *t)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	memset(&g, 0, sizeof(g));
	START(&m, &b, 0);
	put_samples(&m, &b, 100);
	CHECK(rp_perf_ring_drain_samples(&m.r, NULL, NULL, NULL, 0) == -EINVAL, "fn NULL");
	r = rp_perf_ring_drain_samples(&m.r, on_samples, NULL, &g, 0);
	CHECK(r == 100, "drained %d", r);
	CHECK(g.calls == 2 && g.batch[0] == 64 && g.batch[1] == 36, "%u calls: %u + %u", g.calls,
	      g.batch[0], g.batch[1]);
	CHECK(seen(&b, &g, 0, 0, 100, false), "%s", why);
	CHECK(m.r.stats.copied == 1, "%llu payloads copied (wrapped)",
	      (unsigned long long)m.r.stats.copied);
	CHECK(published(&m) == b.pos[100], "published %llu, head %llu",
	      (unsigned long long)published(&m), (unsigned long long)b.pos[100]);
	CHECK(m.r.stats.records == 100 && m.r.stats.record_bytes == b.pos[100] - b.pos[0] &&
	      m.r.stats.payload_bytes == b.pos[100] - b.pos[0] - 800 && m.r.stats.malformed == 0 &&
	      m.r.stats.lost_records == 0 && m.r.stats.corrupt == 0,
	      "stats: %llu records %llu bytes", (unsigned long long)m.r.stats.records,
	      (unsigned long long)m.r.stats.record_bytes);
	CHECK(rp_perf_ring_drain_samples(&m.r, on_samples, NULL, &g, 0) == 0 && g.calls == 2,
	      "empty ring");
out:
	mem_ring_close(&m);
}

/* Records of other kinds between samples: LOST, COMM, a SAMPLE whose raw
 * size does not fit.  With other: each alone, in ring order, between the
 * sample batches.  Without: skipped, LOST counted as lost, the others as
 * malformed; the samples the same. */
void test_samples_other_records(itest *t)
{
	static const char kinds[] = "SSLSCSMS";
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	for (int with_other = 1; with_other >= 0; with_other--) {
		memset(&g, 0, sizeof(g));
		START(&m, &b, 0);
		put_all(&m, &b, kinds);
		r = rp_perf_ring_drain_samples(&m.r, on_samples, with_other ? on_other : NULL, &g, 0);
		CHECK(r == 8, "other %d: drained %d", with_other, r);
		CHECK(seen(&b, &g, 0, 0, 8, with_other), "other %d: %s", with_other, why);
		CHECK(g.calls == 4 && g.batch[0] == 2 && g.batch[1] == 1 && g.batch[2] == 1 &&
		      g.batch[3] == 1, "other %d: %u sample calls", with_other, g.calls);
		CHECK(g.other_calls == (with_other ? 3u : 0u), "%u other calls", g.other_calls);
		CHECK(published(&m) == b.pos[8], "published %llu",
		      (unsigned long long)published(&m));
		CHECK(m.r.stats.records == 8 && m.r.stats.record_bytes == b.pos[8] - b.pos[0] &&
		      m.r.stats.lost == 7 && m.r.stats.lost_records == 1 &&
		      m.r.stats.malformed == (with_other ? 0u : 2u) && m.r.stats.corrupt == 0,
		      "other %d stats: records %llu lost %llu/%llu malformed %llu", with_other,
		      (unsigned long long)m.r.stats.records, (unsigned long long)m.r.stats.lost,
		      (unsigned long long)m.r.stats.lost_records,
		      (unsigned long long)m.r.stats.malformed);
		mem_ring_close(&m);
	}
out:
	mem_ring_close(&m);
}

/* The records of kinds, then a SAMPLE header of size 4 (RP_E_HDR_SHORT)
 * where the next record would start, data_head 32 bytes past it (8-aligned
 * and inside the ring: a head the default policy trusts).  Returns it. */
static uint64_t put_then_short_header(mem_ring *m, built *b, const char *kinds)
{
	put_all(m, b, kinds);
	rb_put_header(&m->b, b->pos[b->n], RP_RECORD_SAMPLE, 0, 4);
	mem_ring_head(m, b->pos[b->n] + 32);
	return b->pos[b->n] + 32;
}

static int on_payload(void *p, const void *data, uint32_t size)
{
	const rp_payload one = { data, size };
	return on_samples(p, &one, 1);
}

/* The drains the corruption cases run, each expected to give the same
 * hand-computed outcome. */
enum { SAMPLES, BATCH, PAYLOADS, NMODES };

static int drain_with(mem_ring *m, int mode, got *g)
{
	switch (mode) {
	case BATCH:
		return rp_perf_ring_drain_batch(&m->r, on_records, g, 0);
	case PAYLOADS:
		return rp_perf_ring_drain_payloads(&m->r, on_payload, on_other, g, 0);
	default:
		return rp_perf_ring_drain_samples(&m->r, on_samples, on_other, g, 0);
	}
}

/* A record with a 4-byte header size after "SLS": the good records are
 * delivered, then the corruption policy, the same for both drains.
 * Default: counted once, tail resynced to the (sane) head, the ring goes
 * on.  Strict: the good records committed, the ring stopped with the
 * status until an explicit resync. */
static void corrupt_after_good(itest *t, int mode, bool strict)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	uint64_t head;
	int r;

	memset(&g, 0, sizeof(g));
	START(&m, &b, strict ? RP_STRICT : 0);
	head = put_then_short_header(&m, &b, "SLS");
	r = drain_with(&m, mode, &g);
	CHECK(r == (strict ? RP_E_HDR_SHORT : 3), "mode %d strict %d: drained %d", mode, strict,
	      r);
	CHECK(seen(&b, &g, 0, 0, 3, true), "mode %d strict %d: %s", mode, strict, why);
	CHECK(m.r.stats.records == 3 && m.r.stats.corrupt == 1 &&
	      m.r.stats.last_error == RP_E_HDR_SHORT, "mode %d strict %d: records %llu corrupt %llu",
	      mode, strict, (unsigned long long)m.r.stats.records,
	      (unsigned long long)m.r.stats.corrupt);
	if (strict) {
		CHECK(published(&m) == b.pos[3] && m.r.error == RP_E_HDR_SHORT &&
		      m.r.stats.resynced_bytes == 0, "mode %d strict: published %llu error %d", mode,
		      (unsigned long long)published(&m), m.r.error);
		r = drain_with(&m, mode, &g);
		CHECK(r == RP_E_HDR_SHORT && g.n == 3 && m.r.stats.corrupt == 1,
		      "mode %d stopped ring: %d, %u delivered", mode, r, g.n);
		CHECK(rp_perf_ring_resync(&m.r) == 0 && m.r.error == 0 && published(&m) == head,
		      "mode %d resync: published %llu", mode, (unsigned long long)published(&m));
	} else {
		CHECK(published(&m) == head && m.r.error == 0 && m.r.stats.resynced_bytes == 32,
		      "mode %d default: published %llu resynced %llu", mode,
		      (unsigned long long)published(&m),
		      (unsigned long long)m.r.stats.resynced_bytes);
	}
	/* the kernel's next records, after the skipped bytes */
	b.pos[3] = head;
	b.n = 3;
	put_all(&m, &b, "SS");
	memset(&g, 0, sizeof(g));
	r = drain_with(&m, mode, &g);
	CHECK(r == 2 && seen(&b, &g, 0, 3, 5, true), "mode %d after: %d: %s", mode, r, why);
	CHECK(m.r.stats.corrupt == 1, "recounted");
out:
	mem_ring_close(&m);
}

/* "SS" then a corruption, and the callback stops the drain on the batch
 * that ends there: the corruption is not reached yet (not counted, no
 * resync, the ring not stopped); the next drain reaches it and counts it
 * once. */
static void corrupt_after_stop(itest *t, int mode, bool strict)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	uint64_t head;
	int r;

	memset(&g, 0, sizeof(g));
	START(&m, &b, strict ? RP_STRICT : 0);
	head = put_then_short_header(&m, &b, "SS");
	g.fn_ret = 1;
	g.fn_ret_call = mode == PAYLOADS ? 2 : 1; /* the call with the second sample */
	r = drain_with(&m, mode, &g);
	CHECK(r == 2 && g.n == 2 && m.r.stats.corrupt == 0 && m.r.error == 0 &&
	      m.r.stats.resynced_bytes == 0 && published(&m) == b.pos[2],
	      "mode %d strict %d stopped: %d, %u seen, corrupt %llu, error %d", mode, strict, r, g.n,
	      (unsigned long long)m.r.stats.corrupt, m.r.error);
	r = drain_with(&m, mode, &g);
	CHECK(r == (strict ? RP_E_HDR_SHORT : 0) && g.n == 2 && m.r.stats.corrupt == 1,
	      "mode %d strict %d next: %d, corrupt %llu", mode, strict, r,
	      (unsigned long long)m.r.stats.corrupt);
	CHECK(strict ? m.r.error == RP_E_HDR_SHORT && published(&m) == b.pos[2]
	             : m.r.stats.resynced_bytes == 32 && published(&m) == head,
	      "mode %d strict %d: error %d published %llu", mode, strict, m.r.error,
	      (unsigned long long)published(&m));
	r = drain_with(&m, mode, &g);
	CHECK(m.r.stats.corrupt == 1 && r == (strict ? RP_E_HDR_SHORT : 0),
	      "mode %d strict %d: counted again (%llu)", mode, strict,
	      (unsigned long long)m.r.stats.corrupt);
out:
	mem_ring_close(&m);
}

/* data_head misaligned by 4 after two samples: both delivered, the head
 * not trusted (tail stays after them, nothing skipped), counted once, the
 * next record the kernel writes delivered. */
static void bad_head_after_good(itest *t, int mode)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	memset(&g, 0, sizeof(g));
	START(&m, &b, 0);
	put_all(&m, &b, "SS");
	mem_ring_head(&m, b.pos[2] + 4);
	r = drain_with(&m, mode, &g);
	CHECK(r == 2 && seen(&b, &g, 0, 0, 2, true), "mode %d: %d: %s", mode, r, why);
	CHECK(m.r.stats.corrupt == 1 && m.r.stats.last_error == RP_E_TRUNCATED &&
	      published(&m) == b.pos[2] && m.r.stats.resynced_bytes == 0,
	      "mode %d: corrupt %llu last %d published %llu", mode,
	      (unsigned long long)m.r.stats.corrupt, m.r.stats.last_error,
	      (unsigned long long)published(&m));
	r = drain_with(&m, mode, &g);
	CHECK(r == 0 && m.r.stats.corrupt == 1, "mode %d: same bad head: %d", mode, r);
	put_all(&m, &b, "S");
	memset(&g, 0, sizeof(g));
	r = drain_with(&m, mode, &g);
	CHECK(r == 1 && seen(&b, &g, 0, 2, 3, true), "mode %d next: %d: %s", mode, r, why);
out:
	mem_ring_close(&m);
}

/* A header of size 0 at the tail, data_head exactly the ring's size ahead
 * (a full ring: the kernel stops 8 bytes short, a corrupted page may not):
 * that head is sane, so the default policy resyncs the tail to it, and the
 * record written there next is delivered.  The fuzzers' model kernel
 * fills the ring only when asked (FZ_FILL_SPEC), so this pins the boundary
 * too (fuzz/README.md, adapter mutants). */
static void full_ring_resync(itest *t, int mode)
{
	static const uint8_t hdr_size0[8] = { RP_RECORD_SAMPLE, 0, 0, 0, 0, 0, 0, 0 };
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	memset(&g, 0, sizeof(g));
	START(&m, &b, 0);
	const uint64_t head = b.pos[0] + m.b.size;
	memcpy(m.b.data + (b.pos[0] & (m.b.size - 1)), hdr_size0, sizeof hdr_size0);
	mem_ring_head(&m, head);
	r = drain_with(&m, mode, &g);
	CHECK(r == 0 && g.n == 0, "mode %d: %d, %u records", mode, r, g.n);
	CHECK(m.r.stats.corrupt == 1 && m.r.stats.last_error == RP_E_HDR_SHORT && published(&m) == head &&
	      m.r.stats.resynced_bytes == m.b.size && !m.r.bad_head_seen,
	      "mode %d: corrupt %llu last %d published %llu (head %llu) resynced %llu bad_head_seen %d", mode,
	      (unsigned long long)m.r.stats.corrupt, m.r.stats.last_error,
	      (unsigned long long)published(&m), (unsigned long long)head,
	      (unsigned long long)m.r.stats.resynced_bytes, m.r.bad_head_seen);
	built_init(&b, head);
	put_all(&m, &b, "S");
	r = drain_with(&m, mode, &g);
	CHECK(r == 1 && seen(&b, &g, 0, 0, 1, true) && m.r.stats.corrupt == 1, "mode %d next: %d: %s", mode,
	      r, why);
out:
	mem_ring_close(&m);
}

void test_samples_corrupt(itest *t)
{
	for (int mode = 0; mode < NMODES && t->status == TAP_PASS; mode++) {
		corrupt_after_good(t, mode, false);
		if (t->status == TAP_PASS)
			corrupt_after_good(t, mode, true);
		if (t->status == TAP_PASS)
			corrupt_after_stop(t, mode, false);
		if (t->status == TAP_PASS)
			corrupt_after_stop(t, mode, true);
		if (t->status == TAP_PASS)
			bad_head_after_good(t, mode);
		if (t->status == TAP_PASS)
			full_ring_resync(t, mode);
	}
}

/* fn > 0 / < 0 consumes its whole batch and stops (the drain returns the
 * count / that value); other > 0 / < 0 consumes its record and stops.
 * The next drain goes on after what was consumed. */
void test_samples_callback_stops(itest *t)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	for (int neg = 0; neg < 2; neg++) {
		memset(&g, 0, sizeof(g));
		START(&m, &b, 0);
		put_samples(&m, &b, 100);
		g.fn_ret = neg ? -42 : 1;
		g.fn_ret_call = 1;
		r = rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 0);
		CHECK(r == (neg ? -42 : 64) && g.calls == 1 && seen(&b, &g, 0, 0, 64, true),
		      "fn %d: drained %d in %u calls: %s", g.fn_ret, r, g.calls, why);
		CHECK(published(&m) == b.pos[64] && m.r.stats.records == 64, "fn %d: published %llu",
		      g.fn_ret, (unsigned long long)published(&m));
		memset(&g, 0, sizeof(g));
		r = rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 0);
		CHECK(r == 36 && seen(&b, &g, 0, 64, 100, true), "fn: the rest: %d: %s", r, why);
		mem_ring_close(&m);

		memset(&g, 0, sizeof(g));
		START(&m, &b, 0);
		put_all(&m, &b, "SSLSS");
		g.other_ret = neg ? -7 : 1;
		g.other_ret_call = 1;
		r = rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 0);
		CHECK(r == (neg ? -7 : 3) && seen(&b, &g, 0, 0, 3, true), "other %d: drained %d: %s",
		      g.other_ret, r, why);
		CHECK(published(&m) == b.pos[3] && m.r.stats.lost == 7, "other %d: published %llu",
		      g.other_ret, (unsigned long long)published(&m));
		memset(&g, 0, sizeof(g));
		r = rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 0);
		CHECK(r == 2 && seen(&b, &g, 0, 3, 5, true), "other: the rest: %d: %s", r, why);
		mem_ring_close(&m);
	}
out:
	mem_ring_close(&m);
}

/* rp_perf_ring_drain_payloads: one call per sample, the others alone in
 * ring order; fn > 0 / < 0 on sample 5 consumes samples 0 .. 4 only (the
 * drain returns 5 / that value, the tail published after sample 4), and
 * the next drain delivers the other 95 from sample 5 on. */
void test_samples_payloads(itest *t)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	memset(&g, 0, sizeof(g));
	START(&m, &b, 0);
	put_all(&m, &b, "SSLSCSMS");
	CHECK(rp_perf_ring_drain_payloads(&m.r, NULL, on_other, &g, 0) == -EINVAL, "fn NULL");
	r = rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 0);
	CHECK(r == 8 && g.calls == 5 && g.other_calls == 3 && seen(&b, &g, 0, 0, 8, true),
	      "mixed: %d, %u calls, %u other: %s", r, g.calls, g.other_calls, why);
	CHECK(published(&m) == b.pos[8] && m.r.stats.records == 8 && m.r.stats.lost == 7,
	      "mixed: published %llu", (unsigned long long)published(&m));
	mem_ring_close(&m);

	for (int neg = 0; neg < 2; neg++) {
		memset(&g, 0, sizeof(g));
		START(&m, &b, 0);
		put_samples(&m, &b, 100);
		g.fn_ret = neg ? -42 : 1;
		g.fn_ret_call = 5;
		r = rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 0);
		CHECK(r == (neg ? -42 : 5) && g.calls == 5 && seen(&b, &g, 0, 0, 5, true),
		      "fn %d on sample 5: drained %d in %u calls: %s", g.fn_ret, r, g.calls, why);
		CHECK(published(&m) == b.pos[5] && m.r.stats.records == 5 &&
		      m.r.stats.record_bytes == b.pos[5] - b.pos[0],
		      "fn %d: published %llu, stats %llu records", g.fn_ret,
		      (unsigned long long)published(&m), (unsigned long long)m.r.stats.records);
		memset(&g, 0, sizeof(g));
		r = rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 0);
		CHECK(r == 95 && g.calls == 95 && seen(&b, &g, 0, 5, 100, true),
		      "fn: the rest: %d: %s", r, why);
		CHECK(published(&m) == b.pos[100] && m.r.stats.records == 100, "published %llu",
		      (unsigned long long)published(&m));
		mem_ring_close(&m);
	}
out:
	mem_ring_close(&m);
}

/* realloc as the library sees it (linked with -Wl,--wrap=realloc,
 * mk/integration.mk): it fails while realloc_fails is set. */
static bool realloc_fails;
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
	return realloc_fails ? NULL : __real_realloc(p, n);
}

/* A payload that wraps (record 13 of put_samples) cannot be copied while
 * memory runs out: both payload drains deliver the 13 samples before it,
 * publish the tail at it and return -ENOMEM; the next drain, with memory
 * back, delivers it whole and the rest: nothing lost, nothing twice. */
void test_samples_no_memory(itest *t)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	for (int batch = 0; batch < 2; batch++) {
		memset(&g, 0, sizeof(g));
		START(&m, &b, 0);
		put_samples(&m, &b, 100);
		realloc_fails = true;
		r = batch ? rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 0)
		          : rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 0);
		realloc_fails = false;
		CHECK(r == -ENOMEM && g.calls == (batch ? 1u : 13u) && seen(&b, &g, 0, 0, 13, true),
		      "batch %d, no memory: returned %d, %u calls: %s", batch, r, g.calls, why);
		CHECK(published(&m) == b.pos[13] && m.r.tail == b.pos[13] && m.r.stats.records == 13 &&
		      m.r.stats.copied == 0 && m.r.error == 0,
		      "batch %d, no memory: published %llu, %llu records", batch,
		      (unsigned long long)published(&m), (unsigned long long)m.r.stats.records);
		memset(&g, 0, sizeof(g));
		r = batch ? rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 0)
		          : rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 0);
		CHECK(r == 87 && seen(&b, &g, 0, 13, 100, true), "batch %d, then: %d: %s", batch, r, why);
		CHECK(published(&m) == b.pos[100] && m.r.stats.records == 100 && m.r.stats.copied == 1,
		      "batch %d, then: published %llu, %llu copied", batch,
		      (unsigned long long)published(&m), (unsigned long long)m.r.stats.copied);
		mem_ring_close(&m);
	}
out:
	realloc_fails = false;
	mem_ring_close(&m);
}

/* max_records bounds the records consumed, samples and others alike; a
 * batch shrinks to fit it; the next drain goes on from there. */
void test_samples_max_records(itest *t)
{
	mem_ring m = { .fd = -1 };
	built b;
	got g;
	int r;

	memset(&g, 0, sizeof(g));
	START(&m, &b, 0);
	put_samples(&m, &b, 100);
	r = rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 10);
	CHECK(r == 10 && g.calls == 1 && g.batch[0] == 10 && seen(&b, &g, 0, 0, 10, true),
	      "max 10: %d in %u calls: %s", r, g.calls, why);
	CHECK(published(&m) == b.pos[10], "max 10: published %llu",
	      (unsigned long long)published(&m));
	memset(&g, 0, sizeof(g));
	r = rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 70);
	CHECK(r == 70 && g.calls == 2 && g.batch[0] == 64 && g.batch[1] == 6 &&
	      seen(&b, &g, 0, 10, 80, true), "max 70: %d in %u calls: %s", r, g.calls, why);
	CHECK(published(&m) == b.pos[80], "max 70: published %llu",
	      (unsigned long long)published(&m));
	memset(&g, 0, sizeof(g));
	r = rp_perf_ring_drain_samples(&m.r, on_samples, on_other, &g, 0);
	CHECK(r == 20 && seen(&b, &g, 0, 80, 100, true), "no limit: %d: %s", r, why);
	mem_ring_close(&m);

	/* on a ring that prefetches the per-sample drain walks in chunks of
	 * about 1 KiB (the prefetch's), on one that does not in one run:
	 * budgets of 1, of 45 (past the second chunk's end) and none give the
	 * same records both ways */
	for (int pf = 0; pf < 2; pf++) {
		const char *how = pf ? "RP_PERF_PREFETCH" : "no prefetch";

		memset(&g, 0, sizeof(g));
		START(&m, &b, pf ? RP_PERF_PREFETCH : 0);
		put_samples(&m, &b, 100);
		r = rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 1);
		CHECK(r == 1 && g.calls == 1 && seen(&b, &g, 0, 0, 1, true) &&
		      published(&m) == b.pos[1], "%s: payloads, max 1: %d: %s", how, r, why);
		memset(&g, 0, sizeof(g));
		r = rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 45);
		CHECK(r == 45 && g.calls == 45 && seen(&b, &g, 0, 1, 46, true) &&
		      published(&m) == b.pos[46], "%s: payloads, max 45: %d: %s", how, r, why);
		memset(&g, 0, sizeof(g));
		r = rp_perf_ring_drain_payloads(&m.r, on_payload, on_other, &g, 0);
		CHECK(r == 54 && g.calls == 54 && seen(&b, &g, 0, 46, 100, true) &&
		      published(&m) == b.pos[100] && m.r.stats.records == 100,
		      "%s: payloads, no limit: %d: %s", how, r, why);
		mem_ring_close(&m);
	}

	/* "SSLSS": 2 stops before the LOST; 1 takes it alone; 3 the rest */
	for (int with_other = 1; with_other >= 0; with_other--) {
		rp_perf_ring_fn other = with_other ? on_other : NULL;
		memset(&g, 0, sizeof(g));
		START(&m, &b, 0);
		put_all(&m, &b, "SSLSS");
		r = rp_perf_ring_drain_samples(&m.r, on_samples, other, &g, 2);
		CHECK(r == 2 && g.other_calls == 0 && published(&m) == b.pos[2] &&
		      seen(&b, &g, 0, 0, 2, with_other), "max 2: %d: %s", r, why);
		memset(&g, 0, sizeof(g));
		r = rp_perf_ring_drain_samples(&m.r, on_samples, other, &g, 1);
		CHECK(r == 1 && g.calls == 0 && published(&m) == b.pos[3] &&
		      seen(&b, &g, 0, 2, 3, with_other) && m.r.stats.lost == 7,
		      "max 1 at the LOST: %d: %s", r, why);
		memset(&g, 0, sizeof(g));
		r = rp_perf_ring_drain_samples(&m.r, on_samples, other, &g, 3);
		CHECK(r == 2 && published(&m) == b.pos[5] && seen(&b, &g, 0, 3, 5, with_other),
		      "max 3, two left: %d: %s", r, why);
		mem_ring_close(&m);
	}
out:
	mem_ring_close(&m);
}
