/* The iterator's BPF-output sample step (rp_ring_iter_next_bpf), in
 * batches as the adapters' sample batch takes it (iter_batch below): good
 * records, wrapped payloads, every framing error with the state unchanged,
 * records of other kinds (RP_OTHER, nothing dropped), batch limits,
 * positions passing 2^64, and a differential test against rp_ring_drain +
 * rp_bpf_output_view on random rings.  One sample at a time: the same
 * samples at every start offset, the iterator and the sample untouched by
 * every call that does not return RP_OK, and the same differential; and
 * the iterator's record step (rp_ring_iter_next) against rp_ring_drain. */
#include "unit.h"

#define NS 6

/* Up to max samples from *tail into out[0 .. *count - 1], on a fresh
 * iterator, as the adapters' sample batch walks: RP_EMPTY at head, RP_MORE
 * when out is full and bytes remain, else the step's stop (RP_OTHER before
 * a record of another kind, or the framing error there); *tail after the
 * last sample.  A step that does not return RP_OK writes no sample, so
 * out[*count ..] is never written. */
static rp_status iter_batch(const rp_ring *g, uint64_t head, uint64_t *tail, rp_bpf_sample *out,
                            uint32_t max, uint32_t *count)
{
	rp_ring_iter it;
	rp_status st = RP_OK;
	uint32_t n = 0;

	rp_ring_iter_init(&it, g, head, *tail);
	while (n < max && (st = rp_ring_iter_next_bpf(&it, &out[n])) == RP_OK)
		n++;
	*tail = it.tail;
	*count = n;
	if (st == RP_OK)
		return it.tail == head ? RP_EMPTY : RP_MORE;
	return st;
}

/* The payload of sample i: n bytes of a pattern seeded by i. */
static const size_t sample_len[NS] = { 8, 0, 20, 4, 60, 13 };

static uint64_t put_samples(const rb_ring *r, uint64_t start, uint64_t pos[NS + 1])
{
	uint8_t payload[64];
	pos[0] = start;
	for (int i = 0; i < NS; i++) {
		rb_pattern(payload, sample_len[i], (uint8_t)(31 * i + 1));
		pos[i + 1] = rb_put_bpf_output(r, pos[i], payload, sample_len[i], (uint8_t)(0xc0 + i));
	}
	return pos[NS];
}

/* out[k] is sample from + k: position, raw size, payload bytes, padding. */
static void check_samples(const rb_ring *r, const rp_bpf_sample *out, const uint64_t pos[NS + 1],
                          uint32_t from, uint32_t n)
{
	uint8_t want[64];
	for (uint32_t k = 0; k < n; k++) {
		const uint32_t i = from + k;
		const uint32_t raw = (uint32_t)(pos[i + 1] - pos[i] - 12u);
		assert_true(out[k].pos == pos[i]);
		assert_int_equal(out[k].size, pos[i + 1] - pos[i]);
		assert_int_equal(out[k].raw_size, raw);
		assert_ptr_equal(out[k].data.p1, r->data);
		assert_int_equal((uint64_t)out[k].data.n0 + out[k].data.n1, raw);
		rb_pattern(want, sample_len[i], (uint8_t)(31 * i + 1));
		memset(want + sample_len[i], 0xc0 + (int)i, raw - sample_len[i]);
		assert_span_bytes(out[k].data, want, raw);
	}
}

static void fill_canary(rp_bpf_sample *out, size_t n)
{
	memset(out, CANARY_BYTE, n * sizeof *out);
}

static void assert_canary(const rp_bpf_sample *out, size_t n)
{
	rp_bpf_sample c;
	memset(&c, CANARY_BYTE, sizeof c);
	for (size_t k = 0; k < n; k++)
		assert_memory_equal(&out[k], &c, sizeof c);
}

/* Every start offset of a 256-byte ring: payloads wrap, headers end the ring. */
static void batch_all_offsets(void **state)
{
	(void)state;
	int wrapped = 0, header_at_end = 0;
	for (uint64_t start = 1024; start < 1024 + 256; start += 8) {
		rb_ring r = rb_new(256, 0x77);
		uint64_t pos[NS + 1];
		const uint64_t head = put_samples(&r, start, pos);
		rp_ring g = ring_of(&r);
		rp_bpf_sample out[NS + 2];
		fill_canary(out, NS + 2);
		uint64_t tail = start;
		uint32_t count = 99;

		assert_int_equal(iter_batch(&g, head, &tail, out, NS + 2, &count), RP_EMPTY);
		assert_int_equal(count, NS);
		assert_true(tail == head);
		check_samples(&r, out, pos, 0, NS);
		assert_canary(out + NS, 2);
		for (int k = 0; k < NS; k++) {
			wrapped += out[k].data.n1 > 0;
			header_at_end += pos[k] % 256 == 248;
		}
		rb_free(&r);
	}
	assert_true(wrapped > 0 && header_at_end > 0);
}

static void batch_stops_at_max(void **state)
{
	(void)state;
	rb_ring r = rb_new(256, 0);
	uint64_t pos[NS + 1];
	const uint64_t head = put_samples(&r, 200, pos);
	rp_ring g = ring_of(&r);
	rp_bpf_sample out[NS];
	uint64_t tail = 200;
	uint32_t count = 99;

	fill_canary(out, NS);
	assert_int_equal(iter_batch(&g, head, &tail, out, 4, &count), RP_MORE);
	assert_int_equal(count, 4);
	assert_true(tail == pos[4]);
	check_samples(&r, out, pos, 0, 4);
	assert_canary(out + 4, NS - 4);
	/* the rest, exactly fitting: empty, not more */
	assert_int_equal(iter_batch(&g, head, &tail, out, 2, &count), RP_EMPTY);
	assert_int_equal(count, 2);
	assert_true(tail == head);
	check_samples(&r, out, pos, 4, 2);

	/* max 0: more on a non-empty ring, empty on an empty one; nothing moves */
	tail = 200;
	fill_canary(out, 1);
	assert_int_equal(iter_batch(&g, head, &tail, out, 0, &count), RP_MORE);
	assert_int_equal(count, 0);
	assert_true(tail == 200);
	assert_canary(out, 1);
	tail = head;
	assert_int_equal(iter_batch(&g, head, &tail, out, 0, &count), RP_EMPTY);
	assert_int_equal(count, 0);
	assert_true(tail == head);
	rb_free(&r);
}

/* Positions passing 2^64 (the carried offset divides again there). */
static void batch_u64_wrap(void **state)
{
	(void)state;
	for (uint64_t back = 8; back < 192; back += 8) { /* the samples take 192 bytes */
		rb_ring r = rb_new(256, 0);
		uint64_t pos[NS + 1];
		const uint64_t start = UINT64_MAX - back + 1u;
		const uint64_t head = put_samples(&r, start, pos);
		assert_true(head < start);
		rp_ring g = ring_of(&r);
		rp_bpf_sample out[NS];
		uint64_t tail = start;
		uint32_t count = 99;

		assert_int_equal(iter_batch(&g, head, &tail, out, NS, &count), RP_EMPTY);
		assert_int_equal(count, NS);
		assert_true(tail == head);
		check_samples(&r, out, pos, 0, NS);
		rb_free(&r);
	}
}

/* A framing error after two good samples: the two, tail at the bad record,
 * the error rp_ring_next gives there, and out[2 ..] untouched; the same error
 * first: nothing written, tail unchanged. */
static void expect_stop(const rb_ring *r, uint64_t head, uint64_t tail0, uint64_t stop_at,
                        uint32_t want_count, rp_status want)
{
	rp_ring g = ring_of(r);
	rp_bpf_sample out[NS + 1];
	uint64_t tail = tail0;
	uint32_t count = 99;

	fill_canary(out, NS + 1);
	assert_int_equal(iter_batch(&g, head, &tail, out, NS + 1, &count), want);
	assert_int_equal(count, want_count);
	assert_true(tail == stop_at);
	assert_canary(out + want_count, NS + 1 - want_count);
	if (want < 0)
		assert_next_fails(r, head, stop_at, want);
}

static void batch_framing_errors(void **state)
{
	(void)state;
	uint64_t pos[NS + 1];
	struct { uint16_t size; rp_status st; } bad[] = {
		{ 0, RP_E_HDR_SHORT }, { 4, RP_E_HDR_SHORT }, { 20, RP_E_HDR_ALIGN },
		{ 240, RP_E_TRUNCATED },
	};
	for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
		rb_ring r = rb_new(256, 0);
		const uint64_t head = put_samples(&r, 64, pos);
		rb_put_header(&r, pos[2], RP_RECORD_SAMPLE, 0, bad[b].size);
		expect_stop(&r, head, 64, pos[2], 2, bad[b].st);
		expect_stop(&r, head, pos[2], pos[2], 0, bad[b].st);
		rb_free(&r);
	}
	/* every size below 64 that is not a multiple of 8, on the third record:
	 * inside the room the batch measured at its first, where only the
	 * common path's own checks stand between a header and a descriptor */
	for (uint16_t size = 9; size < 64; size++) {
		if (size % 8 == 0)
			continue;
		rb_ring r = rb_new(256, 0);
		const uint64_t head = put_samples(&r, 64, pos);
		rb_put_header(&r, pos[2], RP_RECORD_SAMPLE, 0, size);
		expect_stop(&r, head, 64, pos[2], 2, RP_E_HDR_ALIGN);
		rb_free(&r);
	}
	rb_ring r = rb_new(256, 0);
	const uint64_t head = put_samples(&r, 64, pos);
	/* truncated: head inside record 3; partial header: head 4 bytes past record 2 */
	expect_stop(&r, pos[4] - 8, 64, pos[3], 3, RP_E_TRUNCATED);
	expect_stop(&r, pos[2] + 4, 64, pos[2], 2, RP_E_TRUNCATED);
	/* tail misaligned, head too far ahead */
	expect_stop(&r, head, 68, 68, 0, RP_E_TAIL_ALIGN);
	expect_stop(&r, 64 + 264, 64, 64, 0, RP_E_OVERRUN);
	/* empty */
	expect_stop(&r, head, head, head, 0, RP_EMPTY);
	rb_free(&r);
}

/* Records of other kinds stop the batch before them with RP_OTHER: a LOST
 * record, a SAMPLE with an empty body, with a body shorter than 4 + raw size
 * (by one byte), and another type with a valid-looking raw size.  The caller
 * reads that record with rp_ring_next and resumes; nothing is dropped. */
static void batch_other_records(void **state)
{
	(void)state;
	for (int kind = 0; kind < 4; kind++) {
		rb_ring r = rb_new(256, 0);
		uint8_t payload[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
		uint8_t body[24];
		uint64_t p = 96;
		p = rb_put_bpf_output(&r, p, payload, 8, 0);
		const uint64_t other = p;
		uint16_t other_size;
		uint32_t other_type = RP_RECORD_SAMPLE;
		switch (kind) {
		case 0:
			p = rb_put_lost(&r, p, 7, 9);
			other_type = RP_RECORD_LOST;
			break;
		case 1:
			p = rb_put_record(&r, p, RP_RECORD_SAMPLE, 0, body, 0);
			break;
		case 2:
			rb_le32(body, 13); /* 4 + 13 > 16 */
			p = rb_put_record(&r, p, RP_RECORD_SAMPLE, 0, body, 16);
			break;
		default:
			rb_le32(body, 4);
			p = rb_put_record(&r, p, RP_RECORD_COMM, 0, body, 8);
			other_type = RP_RECORD_COMM;
			break;
		}
		other_size = (uint16_t)(p - other);
		p = rb_put_bpf_output(&r, p, payload, 3, 0);
		const uint64_t head = p;
		rp_ring g = ring_of(&r);
		rp_bpf_sample out[4];
		uint64_t tail = 96;
		uint32_t count = 99;

		fill_canary(out, 4);
		assert_int_equal(iter_batch(&g, head, &tail, out, 4, &count), RP_OTHER);
		assert_int_equal(count, 1);
		assert_true(tail == other);
		assert_canary(out + 1, 3);
		/* at the other record: RP_OTHER again, nothing written, tail unchanged */
		assert_int_equal(iter_batch(&g, head, &tail, out + 1, 3, &count), RP_OTHER);
		assert_int_equal(count, 0);
		assert_true(tail == other);
		assert_canary(out + 1, 3);
		/* the fall-back reads it, and the view agrees it is not a BPF output */
		rp_record rec = expect_record(&r, head, &tail, other_type, 0, other_size);
		rp_bpf_output bo;
		assert_true(rp_bpf_output_view(&rec, &bo) != RP_OK);
		assert_int_equal(iter_batch(&g, head, &tail, out, 4, &count), RP_EMPTY);
		assert_int_equal(count, 1);
		assert_int_equal(out[0].data.n0 + out[0].data.n1, 4);
		rb_free(&r);
	}
}

/* The same boundary on the step's common path (a record after the first
 * one of a batch, not reaching the ring end), where the raw size read there
 * decides the record: raw size 4 is taken, 5 stops the batch with RP_OTHER
 * at that record, the first descriptor kept. */
static void batch_raw_size_boundary_within(void **state)
{
	(void)state;
	for (uint32_t raw = 0; raw <= 6; raw++) {
		rb_ring r = rb_new(128, 0);
		uint8_t first[8] = { 0 };
		uint8_t body[8] = { 0, 0, 0, 0, 0xaa, 0xbb, 0xcc, 0xdd };
		rb_le32(first, 4);
		rb_le32(body, raw);
		const uint64_t mid = rb_put_record(&r, 0, RP_RECORD_SAMPLE, 0, first, 8);
		const uint64_t head = rb_put_record(&r, mid, RP_RECORD_SAMPLE, 0, body, 8);
		rp_ring g = ring_of(&r);
		rp_bpf_sample out[3];
		uint64_t tail = 0;
		uint32_t count = 99;
		fill_canary(out, 3);
		const rp_status want = raw <= 4 ? RP_EMPTY : RP_OTHER;
		assert_int_equal(iter_batch(&g, head, &tail, out, 3, &count), want);
		assert_int_equal(count, raw <= 4 ? 2 : 1);
		assert_true(tail == (raw <= 4 ? head : mid));
		assert_true(out[0].pos == 0 && out[0].raw_size == 4);
		if (raw <= 4) {
			assert_true(out[1].pos == mid && out[1].size == 16 && out[1].raw_size == raw);
			assert_span_bytes(out[1].data, body + 4, raw);
			assert_ptr_equal(out[1].data.p0, r.data + mid + 12);
			assert_int_equal(out[1].data.n1, 0);
		}
		assert_canary(out + count, 3 - count);
		rb_free(&r);
	}
}

/* The smallest payloads at the boundary of the raw-size check: a 16-byte
 * SAMPLE with raw size 4 is accepted (4 + 4 == 8 body bytes), raw size 5 is not. */
static void batch_raw_size_boundary(void **state)
{
	(void)state;
	for (uint32_t raw = 0; raw <= 6; raw++) {
		rb_ring r = rb_new(64, 0);
		uint8_t body[8] = { 0, 0, 0, 0, 0xaa, 0xbb, 0xcc, 0xdd };
		rb_le32(body, raw);
		const uint64_t head = rb_put_record(&r, 56, RP_RECORD_SAMPLE, 0, body, 8);
		rp_ring g = ring_of(&r);
		rp_bpf_sample out[1];
		uint64_t tail = 56;
		uint32_t count = 99;
		const rp_status want = raw <= 4 ? RP_EMPTY : RP_OTHER;
		assert_int_equal(iter_batch(&g, head, &tail, out, 1, &count), want);
		assert_int_equal(count, raw <= 4);
		if (raw <= 4) {
			assert_span_bytes(out[0].data, body + 4, raw);
			assert_ptr_equal(out[0].data.p0, r.data + 4); /* the header ends the ring */
		}
		rb_free(&r);
	}
}

/* The differential test: random rings (BPF outputs, LOST, malformed SAMPLEs,
 * garbage headers; random sizes, positions, heads and batch limits), the
 * sample step in batches against rp_ring_drain (one record at a time)
 * followed by rp_bpf_output_view. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The most samples the differential tests' rings hold: 1,024 bytes of
 * 16-byte records. */
#define RING_SAMPLES_MAX 64

typedef struct ref_out {
	rp_status st;
	uint32_t n;
	uint64_t tail;
	rp_bpf_output v[RING_SAMPLES_MAX];
	uint64_t pos[RING_SAMPLES_MAX];
} ref_out;

static ref_out reference(const rp_ring *g, uint64_t head, uint64_t tail, uint32_t max)
{
	ref_out o;
	o.n = 0;
	for (;;) {
		if (o.n == max) {
			o.st = tail == head ? RP_EMPTY : RP_MORE;
			break;
		}
		rp_record rec;
		uint32_t c = 0;
		uint64_t t = tail;
		const rp_status s = rp_ring_drain(g, head, &t, &rec, 1, &c);
		if (c == 0) {
			o.st = s;
			break;
		}
		if (rp_bpf_output_view(&rec, &o.v[o.n]) != RP_OK) {
			o.st = RP_OTHER;
			break;
		}
		o.pos[o.n++] = rec.pos;
		tail = t;
	}
	o.tail = tail;
	return o;
}

/* out is the reference's sample k: position, payload slices, raw size. */
static void assert_sample_is(const rp_bpf_sample *out, const ref_out *want, uint32_t k)
{
	assert_true(out->pos == want->pos[k]);
	assert_ptr_equal(out->data.p0, want->v[k].data.p0);
	assert_ptr_equal(out->data.p1, want->v[k].data.p1);
	assert_int_equal(out->data.n0, want->v[k].data.n0);
	assert_int_equal(out->data.n1, want->v[k].data.n1);
	assert_int_equal(out->raw_size, want->v[k].raw_size);
	assert_int_equal(out->data.n0 + out->data.n1, out->raw_size);
}

/* A random image for the differential tests: samples, LOSTs and other
 * records (a SAMPLE whose raw size misses its body by a byte either way,
 * another type), ending at a random bad header or not, from a start that
 * may pass 2^64; head past the records, short of them or more than a ring
 * ahead, and the tail now and then misaligned. */
typedef struct rand_image {
	rb_ring r;
	uint64_t head, tail;
} rand_image;

static rand_image random_image(void)
{
	static const uint64_t sizes[] = { 64, 128, 192, 256, 1024 };
	rand_image im;
	const uint64_t rsize = sizes[rnd() % 5];
	im.r = rb_new(rsize, (uint8_t)rnd());
	const uint64_t start = rnd() % 3 == 0 ? UINT64_MAX - 8 * (rnd() % 40) + 1 : 8 * (rnd() % 1000);
	uint64_t p = start;
	for (;;) {
		uint8_t payload[64], body[64];
		const unsigned kind = (unsigned)(rnd() % 20);
		const size_t n = rnd() % 40;
		uint64_t room = rsize - (p - start);
		rb_pattern(payload, n, (uint8_t)rnd());
		if (kind < 15 && 8 + ((n + 4 + 7) / 8) * 8 <= room) {
			p = rb_put_bpf_output(&im.r, p, payload, n, (uint8_t)rnd());
		} else if (kind < 17 && room >= 24) {
			p = rb_put_lost(&im.r, p, rnd(), rnd());
		} else if (kind < 19 && room >= 16) {
			const size_t len = 8 * (rnd() % ((room - 8) / 8 < 4 ? (room - 8) / 8 + 1 : 4));
			rb_pattern(body, len, (uint8_t)rnd());
			if (len >= 4)
				rb_le32(body, (uint32_t)(len - 4 + rnd() % 3 - 1));
			p = rb_put_record(&im.r, p, rnd() % 4 ? RP_RECORD_SAMPLE : (uint32_t)rnd() % 30, 0,
			                  body, len);
		} else {
			if (room >= 8 && rnd() % 2)
				rb_put_header(&im.r, p, (uint32_t)rnd() % 12, 0, (uint16_t)(rnd() % 300));
			break;
		}
	}
	im.head = p;
	switch (rnd() % 8) {
	case 0: im.head = p + 8 * (rnd() % 4); break;
	case 1: im.head = p - 4 * (rnd() % 6); break;
	case 2: im.head = start + rsize + 8 * (rnd() % 3); break;
	default: break;
	}
	im.tail = rnd() % 30 == 0 ? start + 4 : start;
	return im;
}

static void batch_differential(void **state)
{
	(void)state;
	unsigned long records = 0, others = 0, errors = 0;
	for (int iter = 0; iter < 4000; iter++) {
		rand_image im = random_image();
		const uint64_t head = im.head;
		uint64_t tail = im.tail;
		const rp_ring g = ring_of(&im.r);
		for (int call = 0; call < 64; call++) {
			const uint32_t max = (uint32_t)(rnd() % 9);
			const ref_out want = reference(&g, head, tail, max);
			rp_bpf_sample out[16];
			uint32_t count = 99;
			fill_canary(out, 16);
			const rp_status st = iter_batch(&g, head, &tail, out, max, &count);
			assert_int_equal(st, want.st);
			assert_int_equal(count, want.n);
			assert_true(tail == want.tail);
			for (uint32_t k = 0; k < count; k++)
				assert_sample_is(&out[k], &want, k);
			assert_canary(out + count, 16 - count);
			records += count;
			if (st == RP_OTHER) {
				/* the fall-back step, as a caller does */
				rp_record rec;
				assert_int_equal(rp_ring_next(&g, head, &tail, &rec), RP_OK);
				others++;
			} else if (st < 0 || st == RP_EMPTY) {
				errors += st < 0;
				break;
			}
		}
		rb_free(&im.r);
	}
	/* the generator reaches every outcome */
	assert_true(records > 10000 && others > 500 && errors > 200);
}

/* Every field of the record the iterator gave (got) as the reference's. */
static void assert_record_is(const rp_record *got, const rp_record *want)
{
	assert_true(got->pos == want->pos && got->type == want->type && got->misc == want->misc &&
	            got->size == want->size);
	assert_ptr_equal(got->body.p0, want->body.p0);
	assert_ptr_equal(got->body.p1, want->body.p1);
	assert_int_equal(got->body.n0, want->body.n0);
	assert_int_equal(got->body.n1, want->body.n1);
}

/* The room the iterator carries (rp_room_at, rp_ring.h), from its
 * definition: the bytes from tail that are published (before head), before
 * the ring end and before 2^64; 0 where tail is not aligned or head is more
 * than a ring ahead.  After rp_ring_iter_init and after every step that
 * succeeds, the iterator holds exactly that (a step within the room
 * subtracts the record's size from each of the three, one by the full
 * decoder measures afresh).  Less would still decode every record, sending
 * those the common path could take to the full decoder: only slower, so
 * no other check sees it. */
static void assert_room(const rp_ring_iter *it)
{
	const uint64_t ahead = it->head - it->tail;
	uint64_t want = 0;
	if (it->tail % 8 == 0 && ahead <= it->size) {
		const uint64_t to_end = it->size - 1 - it->off;
		want = ahead < to_end ? ahead : to_end;
		if (want > UINT64_MAX - it->tail)
			want = UINT64_MAX - it->tail;
	}
	assert_true(it->tail % 8 != 0 || it->off == it->tail % it->size);
	assert_true(it->room == want);
}

/* The iterator over the samples of one image: each call's sample is the
 * batch's, and a call that does not return RP_OK changes neither the
 * iterator nor the sample (s2n-style: compared byte for byte). */
static rp_status iter_all(const rp_ring *g, uint64_t head, uint64_t tail, rp_bpf_sample *out,
                          uint32_t max, uint32_t *count, uint64_t *end)
{
	rp_ring_iter it;
	rp_status st;
	*count = 0;
	rp_ring_iter_init(&it, g, head, tail);
	assert_true(it.tail == tail && it.head == head && it.data == g->data && it.size == g->size);
	assert_room(&it);
	for (;;) {
		rp_ring_iter before = it;
		rp_bpf_sample s;
		fill_canary(&s, 1);
		st = rp_ring_iter_next_bpf(&it, &s);
		if (st != RP_OK) {
			assert_memory_equal(&it, &before, sizeof it);
			assert_canary(&s, 1);
			break;
		}
		assert_true(*count < max);
		assert_true(s.pos == before.tail);
		assert_true(it.tail == before.tail + s.size);
		assert_room(&it);
		out[(*count)++] = s;
	}
	*end = it.tail;
	return st;
}

static void iter_all_offsets(void **state)
{
	(void)state;
	for (uint64_t start = 1024; start < 1024 + 256; start += 8) {
		rb_ring r = rb_new(256, 0x77);
		uint64_t pos[NS + 1], end = 0;
		const uint64_t head = put_samples(&r, start, pos);
		rp_ring g = ring_of(&r);
		rp_bpf_sample out[NS];
		uint32_t count = 99;
		assert_int_equal(iter_all(&g, head, start, out, NS, &count, &end), RP_EMPTY);
		assert_int_equal(count, NS);
		assert_true(end == head);
		check_samples(&r, out, pos, 0, NS);
		rb_free(&r);
	}
}

/* Every framing error of batch_framing_errors, after two samples and
 * first: the same status at the same position. */
static void iter_framing_errors(void **state)
{
	(void)state;
	uint64_t pos[NS + 1], end = 0;
	rp_bpf_sample out[NS];
	uint32_t count = 0;
	const uint16_t bad_size[] = { 0, 4, 20, 240 };
	const rp_status bad_st[] = { RP_E_HDR_SHORT, RP_E_HDR_SHORT, RP_E_HDR_ALIGN, RP_E_TRUNCATED };
	for (size_t b = 0; b < 4; b++) {
		rb_ring r = rb_new(256, 0);
		const uint64_t head = put_samples(&r, 64, pos);
		rp_ring g = ring_of(&r);
		rb_put_header(&r, pos[2], RP_RECORD_SAMPLE, 0, bad_size[b]);
		assert_int_equal(iter_all(&g, head, 64, out, NS, &count, &end), bad_st[b]);
		assert_int_equal(count, 2);
		assert_true(end == pos[2]);
		assert_int_equal(iter_all(&g, head, pos[2], out, NS, &count, &end), bad_st[b]);
		assert_int_equal(count, 0);
		rb_free(&r);
	}
	/* misaligned sizes inside the room, as in batch_framing_errors */
	for (uint16_t size = 9; size < 64; size++) {
		if (size % 8 == 0)
			continue;
		rb_ring r = rb_new(256, 0);
		const uint64_t head = put_samples(&r, 64, pos);
		rp_ring g = ring_of(&r);
		rb_put_header(&r, pos[2], RP_RECORD_SAMPLE, 0, size);
		assert_int_equal(iter_all(&g, head, 64, out, NS, &count, &end), RP_E_HDR_ALIGN);
		assert_true(count == 2 && end == pos[2]);
		rb_free(&r);
	}
	rb_ring r = rb_new(256, 0);
	const uint64_t head = put_samples(&r, 64, pos);
	rp_ring g = ring_of(&r);
	assert_int_equal(iter_all(&g, pos[4] - 8, 64, out, NS, &count, &end), RP_E_TRUNCATED);
	assert_true(count == 3 && end == pos[3]);
	assert_int_equal(iter_all(&g, pos[2] + 4, 64, out, NS, &count, &end), RP_E_TRUNCATED);
	assert_true(count == 2 && end == pos[2]);
	assert_int_equal(iter_all(&g, head, 68, out, NS, &count, &end), RP_E_TAIL_ALIGN);
	assert_int_equal(iter_all(&g, 64 + 264, 64, out, NS, &count, &end), RP_E_OVERRUN);
	assert_int_equal(count, 0);
	/* a LOST after two samples: RP_OTHER there, nothing skipped */
	rb_put_lost(&r, pos[2], 7, 9);
	assert_int_equal(iter_all(&g, head, 64, out, NS, &count, &end), RP_OTHER);
	assert_true(count == 2 && end == pos[2]);
	rb_free(&r);
}

/* The same random images, walked by the iterator to the end (stepping
 * over each RP_OTHER record with rp_ring_next, as a caller does) against
 * the reference. */
static void iter_differential(void **state)
{
	(void)state;
	unsigned long records = 0, others = 0, errors = 0;
	for (int iter = 0; iter < 4000; iter++) {
		rand_image im = random_image();
		const uint64_t head = im.head;
		uint64_t tail = im.tail;
		const rp_ring g = ring_of(&im.r);
		for (int run = 0; run < 64; run++) {
			const ref_out want = reference(&g, head, tail, RING_SAMPLES_MAX);
			rp_bpf_sample out[RING_SAMPLES_MAX];
			uint32_t count = 0;
			uint64_t end = 0;
			const rp_status st = iter_all(&g, head, tail, out, RING_SAMPLES_MAX, &count, &end);
			assert_int_equal(st, want.st);
			assert_int_equal(count, want.n);
			assert_true(end == want.tail);
			for (uint32_t k = 0; k < count; k++)
				assert_sample_is(&out[k], &want, k);
			records += count;
			tail = end;
			if (st != RP_OTHER) {
				errors += st < 0;
				break;
			}
			rp_record rec;
			assert_int_equal(rp_ring_next(&g, head, &tail, &rec), RP_OK);
			others++;
		}
		rb_free(&im.r);
	}
	assert_true(records > 10000 && others > 500 && errors > 200);
}

/* Runs of one header, as a BPF program's events of one size are: after
 * its first sample the iterator takes the run from its hint (hint_size the
 * run's size), and a record whose header equals the hint but whose raw
 * size does not fit (RP_OTHER, then taken by the record step, from the
 * hint too), a LOST of the same size and a sample whose misc differs stop
 * or leave the hinted path exactly where the reference does.  From every
 * start offset of the ring, so that runs wrap its end: each step as the
 * reference's (rp_ring_drain + rp_bpf_output_view, rp_ring_next), a step
 * that does not return RP_OK leaving the iterator as it was. */
static void iter_hint_runs(void **state)
{
	(void)state;
	unsigned long hinted = 0, wrapped = 0;
	for (uint64_t start = 2048; start < 2048 + 512; start += 8) {
		rb_ring r = rb_new(512, 0x5a);
		uint8_t pay[8], odd[16], misc1[16];
		uint64_t p = start;
		rb_pattern(pay, sizeof pay, 3);
		memset(odd, 0x33, sizeof odd);
		rb_le32(odd, 13); /* 13 + 12 > 24: not a BPF output */
		memset(misc1, 0x44, sizeof misc1);
		rb_le32(misc1, 12);
		for (int i = 0; i < 6; i++)
			p = rb_put_bpf_output(&r, p, pay, sizeof pay, 0xee); /* 24 bytes, raw 12 */
		p = rb_put_record(&r, p, RP_RECORD_SAMPLE, 0, odd, sizeof odd);
		for (int i = 0; i < 3; i++)
			p = rb_put_bpf_output(&r, p, pay, sizeof pay, 0xee);
		p = rb_put_lost(&r, p, 1, 2);
		p = rb_put_record(&r, p, RP_RECORD_SAMPLE, 1, misc1, sizeof misc1);
		for (int i = 0; i < 6; i++)
			p = rb_put_bpf_output(&r, p, pay, sizeof pay, 0xee);
		const uint64_t head = p;
		const rp_ring g = ring_of(&r);
		rp_ring_iter it;
		uint64_t t = start;
		unsigned steps = 0;
		rp_ring_iter_init(&it, &g, head, start);
		for (;;) {
			const ref_out want = reference(&g, head, t, 1);
			const rp_ring_iter before = it;
			rp_bpf_sample s;
			const rp_status st = rp_ring_iter_next_bpf(&it, &s);
			steps++;
			if (want.n == 1) {
				assert_int_equal(st, RP_OK);
				assert_sample_is(&s, &want, 0);
				assert_true(it.tail == want.tail);
				/* the header was the hint's (taken from it, or at the
				 * ring end by the checks, which keep it) */
				hinted += before.hint_size == s.size && it.hint == before.hint;
				wrapped += s.data.n1 > 0;
				t = want.tail;
				continue;
			}
			assert_int_equal(st, want.st);
			assert_memory_equal(&it, &before, sizeof it);
			if (st != RP_OTHER)
				break;
			rp_record got, rec;
			memset(&got, CANARY_BYTE, sizeof got);
			memset(&rec, 0, sizeof rec);
			assert_int_equal(rp_ring_next(&g, head, &t, &rec), RP_OK);
			assert_int_equal(rp_ring_iter_next(&it, &got), RP_OK);
			assert_record_is(&got, &rec);
			assert_true(it.tail == t);
		}
		assert_int_equal(steps, 19); /* 16 samples, 2 RP_OTHER, RP_EMPTY */
		assert_true(it.tail == head && it.hint_size == 24);
		rb_free(&r);
	}
	/* each start: 5 of the first run (its first sets the hint), the 3 after
	 * the odd record, 5 of the last run (the misc-1 sample and the one after
	 * it each set the hint anew, unless the misc-1 sample is the one that
	 * wraps the ring end: the full decoder takes it and keeps the hint) */
	assert_true(hinted >= 64 * 13);
	assert_true(wrapped > 0);
}

/* The record iterator (rp_ring_iter_next) against rp_ring_drain, one
 * record at a time, on rings of every kind of record and every framing
 * error: the same records, the same stop at the same tail, and the
 * iterator and the record untouched by a call that does not return RP_OK. */
static void iter_records_differential(void **state)
{
	(void)state;
	static const uint64_t sizes[] = { 64, 128, 192, 256, 1024 };
	unsigned long records = 0, errors = 0, wrapped = 0;
	for (int iter = 0; iter < 4000; iter++) {
		const uint64_t rsize = sizes[rnd() % 5];
		rb_ring r = rb_new(rsize, (uint8_t)rnd());
		uint64_t start = rnd() % 3 == 0 ? UINT64_MAX - 8 * (rnd() % 40) + 1 : 8 * (rnd() % 1000);
		uint64_t p = start;
		for (;;) {
			uint8_t body[64];
			const size_t len = 8 * (rnd() % 6);
			uint64_t room = rsize - (p - start);
			if (rnd() % 12 != 0 && len + 8 <= room) {
				rb_pattern(body, len, (uint8_t)rnd());
				p = rb_put_record(&r, p, (uint32_t)rnd() % 20, (uint16_t)rnd(), body, len);
			} else {
				if (room >= 8 && rnd() % 2)
					rb_put_header(&r, p, (uint32_t)rnd() % 12, 0, (uint16_t)(rnd() % 300));
				break;
			}
		}
		uint64_t head = p;
		switch (rnd() % 6) {
		case 0: head = p - 4 * (rnd() % 6); break;
		case 1: head = start + rsize + 8 * (rnd() % 3); break;
		default: break;
		}
		const uint64_t tail0 = rnd() % 30 == 0 ? start + 4 : start;
		const rp_ring g = ring_of(&r);
		rp_ring_iter it;
		uint64_t t = tail0;
		rp_ring_iter_init(&it, &g, head, tail0);
		assert_room(&it);
		for (;;) {
			rp_record want, got;
			uint32_t c = 0;
			const rp_status ws = rp_ring_drain(&g, head, &t, &want, 1, &c);
			const rp_ring_iter before = it;
			memset(&got, CANARY_BYTE, sizeof got);
			const rp_status gs = rp_ring_iter_next(&it, &got);
			if (c == 0) {
				rp_record canary;
				memset(&canary, CANARY_BYTE, sizeof canary);
				assert_int_equal(gs, ws);
				assert_memory_equal(&it, &before, sizeof it);
				assert_memory_equal(&got, &canary, sizeof got);
				errors += ws < 0;
				break;
			}
			assert_int_equal(gs, RP_OK);
			assert_record_is(&got, &want);
			assert_true(it.tail == t);
			assert_room(&it);
			records++;
			wrapped += got.body.n1 > 0;
		}
		rb_free(&r);
	}
	assert_true(records > 10000 && errors > 500 && wrapped > 100);
}

int main(void)
{
	if (!rb_host_is_le())
		return unit_skip_all("bpf_batch");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(batch_all_offsets),
		cmocka_unit_test(batch_stops_at_max),
		cmocka_unit_test(batch_u64_wrap),
		cmocka_unit_test(batch_framing_errors),
		cmocka_unit_test(batch_other_records),
		cmocka_unit_test(batch_raw_size_boundary),
		cmocka_unit_test(batch_raw_size_boundary_within),
		cmocka_unit_test(batch_differential),
		cmocka_unit_test(iter_all_offsets),
		cmocka_unit_test(iter_framing_errors),
		cmocka_unit_test(iter_differential),
		cmocka_unit_test(iter_records_differential),
		cmocka_unit_test(iter_hint_runs),
	};
	return cmocka_run_group_tests_name("bpf_batch", tests, NULL, NULL);
}
