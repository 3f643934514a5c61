/* ring_hostile: a producer that rewrites a ring byte between two reads of
 * it.  core/ is built with RP_LOAD_U8(p) = rp_fuzz_load(p) (see the .flags
 * file): the first load of a ring offset sees the page as the input lays it
 * out, every further load of it a byte the producer rewrote (rp_fuzz_load
 * says which), and every load is logged per ring offset.  Oracles: every
 * load is inside the page; the bounds/termination oracle holds; each
 * record's header bytes are loaded exactly once and the decoded
 * type/misc/size are the values loaded (single fetch); the stop status
 * agrees with the loaded header; the views, and the span readers
 * rp_span_get_u16/u32/u64 on a record's body (at its start and its last
 * bytes, which straddle the ring end when the body wraps), load only their
 * record's body, each byte at most once, and return what they loaded.
 * The iterator (rp_ring_iter) on the same image: sample by sample it loads
 * each header once and each raw-size word once, nothing else, and its
 * samples and stop status follow from the bytes it loaded; record by record
 * its record step loads only headers, each once.
 * The BPF ring buffer's walks on the same image (consumer = tail, producer
 * = head): rp_ringbuf_next step by step and the iterator (rp_rb_iter_next_hint, hinted with the last word it
 * delivered, as the adapter's batch does) each load a record's 4-byte len
 * word once and nothing else (they never read a payload), and each record,
 * position and stop status follow from the words they loaded.
 * Image format: fuzz/fz_util.h; input bytes past the page's size bytes are
 * what re-reads see (rp_fuzz_load). */
#include <inttypes.h>
#include <string.h>

#include "fz_oracle.h"
#include "fz_util.h"
#include "rp_ring.h"
#include "rp_ringbuf.h"
#include "rp_span.h"
#include "rp_views.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RING (64u * 1024u)

static struct {
	const uint8_t *base;
	uint64_t size;
	uint64_t tail_off; /* offset of the input's page byte 0 */
	const uint8_t *rest; /* the input after its header */
	size_t rest_len;
	uint32_t count[MAX_RING]; /* loads of each offset since reset_log */
	uint8_t value[MAX_RING];
	uint32_t touched[MAX_RING];
	uint32_t ntouched;
	uint8_t is_hdr[MAX_RING / 8];
} hs;

/* The n-th load of offset o since the last reset_log (n = 0, 1, ...)
 * returns layer n of the input at o.  Layer 0 is the page as fz_image_parse
 * laid it out (the ring as the producer left it); layer n >= 1 is the n-th
 * run of size bytes after the page in the input, at the same index as o's
 * page byte, or, past the input's end, layer 0's byte xor n * 151: a re-read
 * never sees the byte read before, unless the input says so.  The value
 * depends on the offset and its load count only, never on the order of the
 * loads, which the C standard leaves open between the byte loads of one
 * rp_load_u32 (gcc and clang differ): an input found with one compiler's
 * build fails the other's in the same way. */
uint8_t rp_fuzz_load(const uint8_t *p)
{
	FZ_CHECK(p >= hs.base && p < hs.base + hs.size, "load outside the ring page (page%+td, size %" PRIu64 ")",
	         p - hs.base, hs.size);
	const uint32_t o = (uint32_t)(p - hs.base);
	const uint32_t n = hs.count[o];
	const uint64_t i = (o + hs.size - hs.tail_off) % hs.size + n * hs.size;
	uint8_t v = *p;
	if (n > 0)
		v = i < hs.rest_len ? hs.rest[i] : (uint8_t)(v ^ (uint8_t)(n * 151u));
	if (hs.count[o]++ == 0)
		hs.touched[hs.ntouched++] = o;
	hs.value[o] = v;
	return v;
}

static void reset_log(void)
{
	for (uint32_t i = 0; i < hs.ntouched; i++)
		hs.count[hs.touched[i]] = 0;
	hs.ntouched = 0;
}

static void logged_header(void *ctx, uint64_t off, uint8_t out[8])
{
	(void)ctx;
	for (int i = 0; i < 8; i++) {
		FZ_CHECK(hs.count[off + i] == 1, "header byte %" PRIu64 " loaded %u times", off + i, hs.count[off + i]);
		out[i] = hs.value[off + i];
	}
}

/* The status the contract gives for the record at t, from the loaded bytes. */
static int expected_stop(uint64_t head, uint64_t t)
{
	const uint64_t avail = fz_dist(head, t);
	if (avail > hs.size) return RP_E_OVERRUN;
	if (t % 8u) return RP_E_TAIL_ALIGN;
	if (avail == 0) return RP_EMPTY;
	if (avail < 8) return RP_E_TRUNCATED;
	uint8_t h[8];
	logged_header(NULL, t % hs.size, h);
	const uint16_t sz = fz_le16(h + 6);
	if (sz < 8) return RP_E_HDR_SHORT;
	if (sz % 8) return RP_E_HDR_ALIGN;
	if (sz > avail) return RP_E_TRUNCATED;
	return RP_OK;
}

/* Every load since the last reset hit a body byte of r, at most once. */
static void check_body_loads(const rp_record *r)
{
	const uint64_t body_off = (r->pos + 8u) % hs.size;
	for (uint32_t i = 0; i < hs.ntouched; i++) {
		const uint32_t o = hs.touched[i];
		const uint64_t rel = (o + hs.size - body_off) % hs.size;
		FZ_CHECK(rel < (uint64_t)r->size - 8u, "view of record at %" PRIu64 " loaded offset %u outside its body",
		         r->pos, o);
		FZ_CHECK(hs.count[o] == 1, "view loaded body offset %u %u times", o, hs.count[o]);
	}
}

static uint8_t logged_body(const rp_record *r, uint32_t i)
{
	const uint64_t o = (r->pos + 8u + i) % hs.size;
	FZ_CHECK(hs.count[o] == 1, "body byte %u of record at %" PRIu64 " not loaded once", i, r->pos);
	return hs.value[o];
}

static void check_views(const rp_record *r)
{
	const uint32_t len = r->size - 8u;
	rp_bpf_output bo;
	reset_log();
	rp_status st = rp_bpf_output_view(r, &bo);
	check_body_loads(r);
	if (r->type != RP_RECORD_SAMPLE) {
		FZ_CHECK(st == RP_E_TYPE && hs.ntouched == 0, "bpf view on type %u: %d", r->type, (int)st);
	} else if (len < 4) {
		FZ_CHECK(st == RP_E_BODY_SHORT, "bpf view on %u-byte body: %d", len, (int)st);
	} else {
		uint8_t b[4];
		for (uint32_t i = 0; i < 4; i++)
			b[i] = logged_body(r, i);
		const uint32_t raw = fz_le32(b);
		FZ_CHECK(st == ((uint64_t)raw + 4u <= len ? RP_OK : RP_E_BODY_SHORT), "bpf view %d, raw %u len %u",
		         (int)st, raw, len);
		if (st == RP_OK) {
			FZ_CHECK(bo.raw_size == raw && (uint64_t)bo.data.n0 + bo.data.n1 == raw, "bpf view size");
			uint8_t copy[64];
			reset_log();
			const uint32_t n = rp_span_copy(bo.data, copy, sizeof copy);
			check_body_loads(r);
			FZ_CHECK(n == (raw < sizeof copy ? raw : sizeof copy), "copied %u of %u", n, raw);
			for (uint32_t i = 0; i < n; i++)
				FZ_CHECK(copy[i] == logged_body(r, 4u + i), "payload byte %u is not the byte loaded", i);
		}
	}
	rp_lost lo;
	reset_log();
	st = rp_lost_view(r, &lo);
	check_body_loads(r);
	if (r->type != RP_RECORD_LOST) {
		FZ_CHECK(st == RP_E_TYPE && hs.ntouched == 0, "lost view on type %u: %d", r->type, (int)st);
	} else if (len < 16) {
		FZ_CHECK(st == RP_E_BODY_SHORT, "lost view on %u-byte body: %d", len, (int)st);
	} else {
		uint8_t b[16];
		for (uint32_t i = 0; i < 16; i++)
			b[i] = logged_body(r, i);
		FZ_CHECK(st == RP_OK && lo.id == fz_le64(b) && lo.lost == fz_le64(b + 8), "lost view");
	}
}

/* rp_span_get_u16/u32/u64 on the body of r at offset off: each loads the
 * n bytes there exactly once (none when they do not fit) and returns them
 * composed little-endian. */
static void check_span_read(const rp_record *r, uint32_t off, uint32_t n)
{
	const uint32_t len = r->size - 8u;
	const bool fits = (uint64_t)off + n <= len;
	uint16_t v16 = 0;
	uint32_t v32 = 0;
	uint64_t v64 = 0;
	bool ok;

	reset_log();
	if (n == 2)
		ok = rp_span_get_u16(r->body, off, &v16);
	else if (n == 4)
		ok = rp_span_get_u32(r->body, off, &v32);
	else
		ok = rp_span_get_u64(r->body, off, &v64);
	check_body_loads(r);
	FZ_CHECK(ok == fits, "span read of %u bytes at %u in a %u-byte body: %d", n, off, len, (int)ok);
	if (!fits) {
		FZ_CHECK(hs.ntouched == 0, "failed span read loaded %u bytes", hs.ntouched);
		return;
	}
	FZ_CHECK(hs.ntouched == n, "span read of %u bytes loaded %u", n, hs.ntouched);
	uint8_t b[8];
	for (uint32_t i = 0; i < n; i++)
		b[i] = logged_body(r, off + i);
	if (n == 2)
		FZ_CHECK(v16 == fz_le16(b), "u16 at %u is not the bytes loaded", off);
	else if (n == 4)
		FZ_CHECK(v32 == fz_le32(b), "u32 at %u is not the bytes loaded", off);
	else
		FZ_CHECK(v64 == fz_le64(b), "u64 at %u is not the bytes loaded", off);
}

static void check_span_reads(const rp_record *r)
{
	const uint32_t len = r->size - 8u;
	for (uint32_t n = 2; n <= 8; n *= 2) {
		check_span_read(r, 0, n);
		check_span_read(r, len >= n ? len - n : 0, n);
	}
}

/* The status the iterator's sample step gives for the record at t, from
 * the loaded bytes (RP_OK: a BPF-output sample, *raw its raw size); marks
 * the bytes it may load in allowed[]. */
static uint8_t allowed[MAX_RING];

static int expected_sample(uint64_t head, uint64_t t, uint32_t *raw)
{
	const uint64_t avail = fz_dist(head, t), off = t % hs.size, bo = (off + 8u) % hs.size;
	if (t % 8u == 0 && avail >= 8u && avail <= hs.size)
		memset(allowed + off, 1, 8); /* the header is loaded */
	int st = expected_stop(head, t);
	if (st != RP_OK)
		return st;
	uint8_t h[8], b[4];
	logged_header(NULL, off, h);
	const uint16_t sz = fz_le16(h + 6);
	if (fz_le32(h) != RP_RECORD_SAMPLE || sz < 16)
		return RP_OTHER;
	memset(allowed + bo, 1, 4);
	for (int i = 0; i < 4; i++) {
		FZ_CHECK(hs.count[bo + i] == 1, "sample step: raw size byte %d loaded %u times", i, hs.count[bo + i]);
		b[i] = hs.value[bo + i];
	}
	*raw = fz_le32(b);
	return (uint64_t)*raw + 12u <= sz ? RP_OK : RP_OTHER;
}

/* The iterator (rp_ring_iter) under the same oracle: between two inits,
 * each sample is what its loaded bytes make it, and every load is of a
 * header or a raw size, once. */
static void check_iter(const rp_ring *ring, const fz_image *img)
{
	rp_ring_iter it;
	uint64_t t = img->tail;
	uint32_t raw = 0;
	rp_status st;

	reset_log();
	memset(allowed, 0, img->size);
	rp_ring_iter_init(&it, ring, img->head, t);
	for (uint32_t k = 0; k < 4096u; k++) {
		rp_bpf_sample s;
		st = rp_ring_iter_next_bpf(&it, &s);
		if (st != RP_OK)
			break;
		FZ_CHECK(s.pos == t && expected_sample(img->head, t, &raw) == RP_OK,
		         "iterator: sample at %" PRIu64 " is not a BPF output by its loaded bytes", t);
		FZ_CHECK(s.raw_size == raw && (uint64_t)s.data.n0 + s.data.n1 == raw,
		         "iterator: payload length");
		uint8_t h[8];
		logged_header(NULL, t % hs.size, h);
		FZ_CHECK(s.size == fz_le16(h + 6), "iterator: record size is not the loaded one");
		t += fz_le16(h + 6);
		FZ_CHECK(it.tail == t, "iterator: tail %" PRIu64 ", samples end at %" PRIu64, it.tail, t);
	}
	if (st != RP_OK)
		FZ_CHECK(it.tail == t && expected_sample(img->head, t, &raw) == (int)st,
		         "iterator: stop %d at %" PRIu64, (int)st, it.tail);
	for (uint32_t i = 0; i < hs.ntouched; i++)
		FZ_CHECK(allowed[hs.touched[i]] && hs.count[hs.touched[i]] == 1,
		         "iterator loaded offset %u %u times (not once, in a header or raw size)",
		         hs.touched[i], hs.count[hs.touched[i]]);
	reset_log();
}

/* The iterator's record step (rp_ring_iter_next) under the main loop's
 * oracle: each record is what its loaded header makes it, the stop agrees
 * with the loaded header, and every load is of a header, once. */
static void check_iter_records(const rp_ring *ring, const fz_image *img)
{
	rp_ring_iter it;
	uint64_t t = img->tail;
	rp_status st = RP_EMPTY;

	reset_log();
	memset(hs.is_hdr, 0, img->size / 8u);
	rp_ring_iter_init(&it, ring, img->head, t);
	for (uint32_t k = 0; k < 4096u; k++) {
		rp_record rec;
		st = rp_ring_iter_next(&it, &rec);
		if (st != RP_OK)
			break;
		uint8_t h[8];
		FZ_CHECK(rec.pos == t, "iterator records: record at %" PRIu64 ", walk at %" PRIu64, rec.pos, t);
		logged_header(NULL, t % hs.size, h);
		FZ_CHECK(rec.type == fz_le32(h) && rec.misc == fz_le16(h + 4) && rec.size == fz_le16(h + 6),
		         "iterator records: header fields are not the loaded ones");
		hs.is_hdr[(t % hs.size) / 8u] = 1;
		t += rec.size;
		FZ_CHECK(it.tail == t, "iterator records: tail %" PRIu64 ", records end at %" PRIu64, it.tail, t);
	}
	if (st != RP_OK) {
		FZ_CHECK(it.tail == t && expected_stop(img->head, t) == (int)st,
		         "iterator records: stop %d, loaded header says %d", (int)st,
		         expected_stop(img->head, t));
		if (st != RP_EMPTY && t % 8u == 0)
			hs.is_hdr[(t % hs.size) / 8u] = 1;
	}
	for (uint32_t i = 0; i < hs.ntouched; i++)
		FZ_CHECK(hs.is_hdr[hs.touched[i] / 8u] && hs.count[hs.touched[i]] == 1,
		         "iterator records loaded offset %u %u times (not once, in a header)",
		         hs.touched[i], hs.count[hs.touched[i]]);
	reset_log();
}

/* The bytes a record of len word w occupies: header and payload, rounded
 * up to 8. */
static uint64_t rb_total(uint32_t w)
{
	return ((uint64_t)(w & (RP_RB_DISCARD_BIT - 1u)) + 15u) / 8u * 8u;
}

/* The status a ring buffer walk gives for the record at c, from the len
 * word it loaded there (*word; each of its bytes loaded once); marks the
 * bytes it may load in allowed[]. */
static int expected_rb(uint64_t prod, uint64_t c, uint32_t *word)
{
	const uint64_t avail = prod - c, off = c % hs.size;
	uint8_t b[4];

	if (avail > hs.size)
		return RP_E_RB_OVERRUN;
	if (c % 8u || prod % 8u)
		return RP_E_RB_ALIGN;
	if (avail == 0)
		return RP_EMPTY;
	memset(allowed + off, 1, 4);
	for (int i = 0; i < 4; i++) {
		FZ_CHECK(hs.count[off + i] == 1, "ringbuf: len word byte %d at %" PRIu64 " loaded %u times", i,
		         off, hs.count[off + i]);
		b[i] = hs.value[off + i];
	}
	*word = fz_le32(b);
	if (*word & RP_RB_BUSY_BIT)
		return RP_BUSY;
	return rb_total(*word) > avail ? RP_E_RB_LEN : RP_OK;
}

/* rec is the record whose len word w was loaded at c: its fields, and its
 * payload right after the header, in the ring. */
static void check_rb_record(const rp_rb_record *rec, uint64_t c, uint32_t w, const char *who)
{
	const uint32_t len = w & (RP_RB_DISCARD_BIT - 1u);
	const uint64_t body = (c % hs.size + 8u) % hs.size;

	FZ_CHECK(rec->pos == c && rec->len == len && rec->size == rb_total(w) &&
	         rec->discarded == ((w & RP_RB_DISCARD_BIT) != 0),
	         "%s: record at %" PRIu64 " is not what its loaded word %#x makes it", who, c, w);
	FZ_CHECK((uint64_t)rec->data.n0 + rec->data.n1 == len, "%s: payload length", who);
	FZ_CHECK(rec->data.n0 == 0 || rec->data.p0 == hs.base + body, "%s: payload start", who);
	FZ_CHECK(rec->data.n0 == 0 || body + rec->data.n0 <= hs.size, "%s: slice 0 outside the ring", who);
	FZ_CHECK(rec->data.n1 == 0 || (rec->data.p1 == hs.base && rec->data.n0 == hs.size - body),
	         "%s: slice 1", who);
}

/* Every load since the last reset was of a len word allowed[], once. */
static void check_rb_loads(const char *who)
{
	for (uint32_t i = 0; i < hs.ntouched; i++)
		FZ_CHECK(allowed[hs.touched[i]] && hs.count[hs.touched[i]] == 1,
		         "%s loaded offset %u %u times (not once, in a len word)", who, hs.touched[i],
		         hs.count[hs.touched[i]]);
}

static void check_ringbuf(const rp_ring *ring, const fz_image *img)
{
	const uint64_t prod = img->head;
	uint64_t cons;
	uint32_t w = 0;
	rp_status st;

	/* one record at a time */
	cons = img->tail;
	reset_log();
	memset(allowed, 0, img->size);
	for (uint32_t k = 0; k < 4096u; k++) {
		const uint64_t c = cons;
		rp_rb_record rec;
		st = rp_ringbuf_next(ring, prod, &cons, &rec);
		const int e = expected_rb(prod, c, &w);
		FZ_CHECK(e == (int)st, "ringbuf next: %d at %" PRIu64 ", loaded word says %d", (int)st, c, e);
		if (st != RP_OK) {
			FZ_CHECK(cons == c, "ringbuf next: moved on %d", (int)st);
			break;
		}
		check_rb_record(&rec, c, w, "ringbuf next");
		FZ_CHECK(cons == c + rb_total(w), "ringbuf next: consumer");
	}
	check_rb_loads("ringbuf next");

	/* the iterator, hinted with the last word it delivered */
	rp_rb_iter it;
	uint32_t hint = img->max_sel % 2u ? RP_RB_BUSY_BIT : 0u;
	reset_log();
	memset(allowed, 0, img->size);
	rp_rb_iter_init(&it, ring, prod, img->tail);
	for (uint32_t k = 0; k < 4096u; k++) {
		const uint64_t c = rp_rb_iter_consumer(&it);
		rp_rb_record rec;
		st = rp_rb_iter_next_hint(&it, &rec, hint);
		const int e = expected_rb(prod, c, &w);
		FZ_CHECK(e == (int)st, "ringbuf iterator: %d at %" PRIu64 ", loaded word says %d", (int)st, c, e);
		if (st != RP_OK) {
			FZ_CHECK(rp_rb_iter_consumer(&it) == c, "ringbuf iterator: moved on %d", (int)st);
			break;
		}
		check_rb_record(&rec, c, w, "ringbuf iterator");
		FZ_CHECK(rp_rb_iter_consumer(&it) == c + rb_total(w), "ringbuf iterator: consumer");
		hint = w;
	}
	check_rb_loads("ringbuf iterator");
	reset_log();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_image img;
	if (!fz_image_parse(data, size, &img))
		return 0;
	const rp_ring ring = { img.page, img.size };
	rp_record recs[FZ_MAX_BATCH];
	const uint64_t avail0 = fz_dist(img.head, img.tail);
	uint64_t tail = img.tail;
	uint64_t total = 0;
	rp_status st;

	reset_log();
	hs.base = img.page;
	hs.size = img.size;
	hs.tail_off = img.tail % img.size;
	hs.rest = img.rest;
	hs.rest_len = img.rest_len;
	for (uint32_t call = 0;; call++) {
		const uint32_t max = fz_batch_max(img.max_sel, call);
		uint32_t count = 0;
		const uint64_t before = tail;
		reset_log();
		st = rp_ring_drain(&ring, img.head, &tail, recs, max, &count);
		fz_check_drain(&ring, img.head, before, tail, recs, max, count, st, logged_header, NULL);
		/* loads only at the headers of the records returned and of the stop */
		memset(hs.is_hdr, 0, img.size / 8u);
		for (uint32_t k = 0; k < count; k++)
			hs.is_hdr[(recs[k].pos % img.size) / 8u] = 1;
		if (st != RP_MORE) {
			FZ_CHECK(expected_stop(img.head, tail) == (int)st, "stop %d, loaded header says %d",
			         (int)st, expected_stop(img.head, tail));
			if (st != RP_EMPTY && tail % 8u == 0)
				hs.is_hdr[(tail % img.size) / 8u] = 1;
		}
		for (uint32_t i = 0; i < hs.ntouched; i++)
			FZ_CHECK(hs.is_hdr[hs.touched[i] / 8u] && hs.count[hs.touched[i]] == 1,
			         "drain loaded offset %u %u times (not once, in a header)", hs.touched[i],
			         hs.count[hs.touched[i]]);
		for (uint32_t k = 0; k < count; k++) {
			check_views(&recs[k]);
			check_span_reads(&recs[k]);
		}
		total += count;
		FZ_CHECK(total <= avail0 / 8u, "%" PRIu64 " records from %" PRIu64 " bytes", total, avail0);
		if (st != RP_MORE)
			break;
	}
	check_iter(&ring, &img);
	check_iter_records(&ring, &img);
	check_ringbuf(&ring, &img);
	reset_log();
	fz_image_free(&img);
	return 0;
}
