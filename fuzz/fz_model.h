/* What the adapter harnesses (perf_ring, perf_backward, ringbuf_adapter,
 * perf_buffer) share: the input cursor, the bytes their model producers
 * write into a record body, the forward perf records the perf_ring and
 * perf_buffer producers write (fz_perf_rec), and the in-memory rings they
 * drain (a perf ring; a set of them as an rp_perf_buffer; a BPF ring buffer
 * with its consumer and producer pages and doubly mapped data). */
#ifndef FZ_MODEL_H
#define FZ_MODEL_H

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/asan_interface.h>

#include "rp_bpf_ringbuf_int.h"
#include "rp_perf_buffer_int.h"
#include "rp_perf_ring.h"

#include "fz_util.h"

/* The fuzz input, read one byte at a time (0 past its end). */
typedef struct fz_cur {
	const uint8_t *p;
	size_t n, i;
} fz_cur;

static inline uint8_t fz_u8(fz_cur *k)
{
	return k->i < k->n ? k->p[k->i++] : 0;
}

/* Body byte i of the record with sequence number seq: its raw size (the
 * first 4 bytes of a BPF-output sample), its id and count (the first 16
 * of a LOST that holds them), else a pattern of seq and i. */
static inline uint8_t fz_body_byte(uint32_t seq, bool has_raw, uint32_t raw, bool lost_ok,
                                   uint64_t lost, uint32_t i)
{
	if (has_raw && i < 4)
		return (uint8_t)(raw >> (8 * i));
	if (lost_ok && i < 16)
		return (uint8_t)((i < 8 ? (uint64_t)seq : lost) >> (8 * (i % 8)));
	return (uint8_t)(seq * 151u + i * 29u + 7u);
}

/* *a += v, saturating as the adapters' counters do. */
static inline void fz_sat_add(uint64_t *a, uint64_t v)
{
	*a = *a + v < *a ? UINT64_MAX : *a + v;
}

/* An in-memory perf ring of data size `size` (a power of two): one buffer of
 * exactly control page + data (ASan sees any access past it), the data
 * filled with `fill`, data_head = data_tail = t0, and *r as rp_perf_ring_map
 * leaves it (no fd, nothing mapped: never unmap it).  Returns the buffer to
 * free, NULL if out of memory. */
static inline uint8_t *fz_mem_ring(rp_perf_ring *r, uint64_t size, uint64_t t0, uint8_t fill,
                                   unsigned flags)
{
	const size_t ctl = sizeof(struct perf_event_mmap_page);
	uint8_t *buf = malloc(ctl + size);
	struct perf_event_mmap_page *pg = (struct perf_event_mmap_page *)buf;

	if (!buf)
		return NULL;
	memset(buf, 0, ctl);
	memset(buf + ctl, fill, size);
	pg->data_offset = ctl;
	pg->data_size = size;
	pg->data_head = t0;
	pg->data_tail = t0;
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->flags = flags;
	r->base = buf;
	r->map_len = ctl + size;
	r->data.data = buf + ctl;
	r->data.size = size;
	r->tail = t0;
	return buf;
}

/* Free a ring fz_mem_ring made: its buffer, and the scratch buffer a
 * payload drain may have grown (what rp_perf_ring_unmap frees). */
static inline void fz_mem_ring_free(rp_perf_ring *r, uint8_t *buf)
{
	free(r->scratch);
	r->scratch = NULL;
	r->scratch_size = 0;
	free(buf);
}

/* The batch rule of the adapters' batch drains (rp_adapter.h), restated:
 * after a batch of n records spanning `bytes` of the ring, the next batch
 * of the call takes about as many records as span RP_BATCH_BYTES, at least
 * `least` and at most `cap` (the call's first batch: cap). */
static inline uint32_t fz_batch_fit(uint32_t n, uint64_t bytes, uint32_t least, uint32_t cap)
{
	const uint64_t f = (uint64_t)n * RP_BATCH_BYTES / bytes;

	return f < least ? least : f > cap ? cap : (uint32_t)f;
}

/* A forward perf record as a model producer writes it (perf_ring,
 * perf_buffer): sequence number seq (misc = seq & 0xffff, body bytes
 * fz_body_byte of seq), its real extent `size` and the size its header
 * claims (hdr_size, corrupted or not); a BPF-output sample (bpf: SAMPLE,
 * size >= 16, raw + 12 <= size: what rp_bpf_output_view accepts) or a LOST
 * whose view succeeds (lost_ok: body >= 16) are told apart. */
typedef struct fz_perf_rec {
	uint64_t pos;
	uint32_t seq;
	uint32_t type;
	uint16_t misc;
	uint16_t size;     /* the record's real extent */
	uint16_t hdr_size; /* the size written in its header (corrupted or not) */
	uint32_t raw;      /* has_raw: the u32 at the body start */
	uint64_t lost;     /* LOST with body >= 16: the count */
	bool has_raw, bpf, lost_ok;
} fz_perf_rec;

static const uint32_t fz_perf_other_types[10] = {
	RP_RECORD_MMAP, RP_RECORD_COMM, RP_RECORD_EXIT, RP_RECORD_FORK, RP_RECORD_SWITCH,
	RP_RECORD_LOST_SAMPLES, RP_RECORD_THROTTLE, 0, 0xffffu, 0x80000009u,
};

/* *m (zeroed first) from the 2-byte spec (k, v); sets size = hdr_size
 * (pos, seq, misc are the caller's).  k % 8:
 *   0-2 BPF-output SAMPLE, raw = v | ((k >> 3) & 3) << 8, body
 *       round_up(4 + raw, 8) (+ 8 if k & 0x20);
 *   3 LOST, body 16 (+ 8 if k & 8), lost = v * 1000 + (k >> 4), or
 *     UINT64_MAX - v if k & 0x80;
 *   4 another type (fz_perf_other_types[v % 10]), body 8 * ((k >> 3) & 7),
 *     or with k = FZ_FILL_SPEC the room the ring has left (fz_perf_fill);
 *   5 SAMPLE whose raw size does not fit its body;
 *   6 edge SAMPLEs (v % 4): size 8, body 8 raw 5, body 8 raw 4 (valid),
 *     body 16 raw 0xffffffff;
 *   7 short LOST (body 0 or 8: no count). */
static inline void fz_perf_spec(fz_perf_rec *m, uint8_t k, uint8_t v)
{
	uint32_t body = 0;

	memset(m, 0, sizeof(*m));
	m->type = RP_RECORD_SAMPLE;
	switch (k % 8) {
	case 0: case 1: case 2:
		m->has_raw = true;
		m->raw = v | ((uint32_t)(k >> 3) & 3u) << 8;
		body = ((4u + m->raw + 7u) & ~7u) + ((k & 0x20) ? 8u : 0u);
		break;
	case 3:
		m->type = RP_RECORD_LOST;
		body = 16u + ((k & 8) ? 8u : 0u);
		m->lost = (k & 0x80) ? UINT64_MAX - v : (uint64_t)v * 1000u + (k >> 4);
		break;
	case 4:
		m->type = fz_perf_other_types[v % 10];
		body = 8u * ((k >> 3) & 7u);
		break;
	case 5:
		m->has_raw = true;
		body = 8u * (1u + ((k >> 3) & 7u));
		m->raw = body - 4u + 1u + v;
		break;
	case 6:
		switch (v % 4) {
		case 0: body = 0; break;
		case 1: body = 8; m->has_raw = true; m->raw = 5; break;
		case 2: body = 8; m->has_raw = true; m->raw = 4; break;
		default: body = 16; m->has_raw = true; m->raw = 0xffffffffu; break;
		}
		break;
	default:
		m->type = RP_RECORD_LOST;
		body = 8u * (v & 1u);
		break;
	}
	m->size = (uint16_t)(8u + body);
	m->hdr_size = m->size;
	m->bpf = m->type == RP_RECORD_SAMPLE && m->size >= 16 && m->has_raw &&
	         (uint64_t)m->raw + 12u <= m->size;
	m->lost_ok = m->type == RP_RECORD_LOST && body >= 16;
}

/* The record spec k = FZ_FILL_SPEC (in the perf_ring, perf_buffer,
 * perf_backward and ringbuf_adapter models) takes all the room the ring has
 * left, so that the producer ends exactly the ring's size from the
 * consumer.  The kernel stops short of that (perf: CIRC_SPACE keeps a byte,
 * so 8 with aligned records; BPF ring buffer: at most size - 1 ahead), but
 * a page written by someone else may not, and the adapters take such a
 * position as sane.  A full ring takes no branch a partly full one does
 * not, so coverage would not lead a fuzzer there: this puts it one byte
 * away (for the "at most the size ahead" tests, head_sane and its kin).
 * One value, not a bit, so that few corpus inputs change meaning. */
#define FZ_FILL_SPEC 0xfcu

/* Kind 4 already (another type): with k = FZ_FILL_SPEC, *m takes the room
 * left (its size less the bytes between data_tail and the producer). */
static inline void fz_perf_fill(fz_perf_rec *m, uint8_t k, uint64_t room)
{
	if (k == FZ_FILL_SPEC && room >= 8u && room <= 0xfff8u) {
		m->size = (uint16_t)room;
		m->hdr_size = m->size;
	}
}

/* Body byte i the producer wrote for m. */
static inline uint8_t fz_perf_body(const fz_perf_rec *m, uint32_t i)
{
	return fz_body_byte(m->seq, m->has_raw, m->raw, m->lost_ok, m->lost, i);
}

/* Write m (header with hdr_size, then its body) at m->pos of a perf data
 * area of `size` bytes (a power of two). */
static inline void fz_perf_put(uint8_t *ring, uint64_t size, const fz_perf_rec *m)
{
	uint8_t hdr[8];

	for (uint32_t i = 0; i < 4; i++)
		hdr[i] = (uint8_t)(m->type >> (8 * i));
	hdr[4] = (uint8_t)m->misc;
	hdr[5] = (uint8_t)(m->misc >> 8);
	hdr[6] = (uint8_t)m->hdr_size;
	hdr[7] = (uint8_t)(m->hdr_size >> 8);
	for (uint32_t i = 0; i < 8; i++)
		ring[(m->pos + i) & (size - 1)] = hdr[i];
	for (uint32_t i = 0; i + 8u < m->size; i++)
		ring[(m->pos + 8 + i) & (size - 1)] = fz_perf_body(m, i);
}

/* A perf buffer set built by hand over n in-memory perf rings (fz_mem_ring,
 * each its own buffer of control page + size bytes, ring i starting at
 * t0[i]), as rp_perf_buffer_new leaves it but with no fd, no epoll, no map
 * (ring i: cpu cpus[i], fd -1): only the delivery file's functions may run
 * on it (rp_perf_buffer.c; poll through rp_perf_buffer_poll_wait), never
 * rp_perf_buffer_free: fz_mem_perf_buffer_free.  Exactly one callback kind
 * set by the caller afterwards.  Returns NULL if out of memory. */
static inline rp_perf_buffer *fz_mem_perf_buffer(uint32_t n, uint64_t size, const uint64_t *t0,
                                                 const int *cpus, uint8_t fill, unsigned flags,
                                                 uint8_t **bufs)
{
	rp_perf_buffer *pb = calloc(1, sizeof(*pb) + n * sizeof(pb->rings[0]));

	if (!pb)
		return NULL;
	pb->map_fd = -1;
	pb->epoll_fd = -1;
	pb->n = n;
	for (uint32_t i = 0; i < n; i++) {
		pb->rings[i].cpu = cpus[i];
		pb->rings[i].key = cpus[i];
		pb->rings[i].fd = -1;
		bufs[i] = fz_mem_ring(&pb->rings[i].ring, size, t0[i], fill, flags);
		if (!bufs[i]) {
			while (i--)
				free(bufs[i]);
			free(pb);
			return NULL;
		}
	}
	return pb;
}

static inline void fz_mem_perf_buffer_free(rp_perf_buffer *pb, uint8_t **bufs)
{
	for (uint32_t i = 0; pb && i < pb->n; i++)
		fz_mem_ring_free(&pb->rings[i].ring, bufs[i]);
	free(pb);
}

/* An in-memory BPF ring buffer laid out as the kernel maps it: a consumer
 * page (consumer_pos first) and a producer page (producer_pos first)
 * followed by the data area of `size` bytes (a power of two) twice in a
 * row.  Each part is its own allocation of exactly its size, and the bytes
 * of the two pages after their u64 position are poisoned (ASan, when the
 * harness is built with it), so that any access outside the positions and
 * the two copies is reported.  The model producer writes every data byte
 * into both copies (fz_rb_put8).  consumer_pos = producer_pos = c0 (c0 may
 * be misaligned: a previous consumer's), the data filled with `fill`, and
 * *rb bound by rp_bpf_ringbuf_bind_pages as rp_bpf_ringbuf_map leaves it
 * (no fd, nothing mapped: never unmap it; free with fz_mem_ringbuf_free). */
#define FZ_RB_PAGE 4096u

typedef struct fz_mem_ringbuf {
	uint8_t *cons; /* FZ_RB_PAGE bytes: consumer_pos, then poisoned */
	uint8_t *prod; /* FZ_RB_PAGE + 2 * size: producer_pos, poisoned, the data twice */
	uint8_t *data; /* prod + FZ_RB_PAGE */
	uint64_t size;
} fz_mem_ringbuf;

static inline void fz_mem_ringbuf_free(fz_mem_ringbuf *m)
{
	if (m->cons) {
		ASAN_UNPOISON_MEMORY_REGION(m->cons, FZ_RB_PAGE);
		free(m->cons);
	}
	if (m->prod) {
		ASAN_UNPOISON_MEMORY_REGION(m->prod, FZ_RB_PAGE);
		free(m->prod);
	}
	memset(m, 0, sizeof(*m));
}

static inline bool fz_mem_ringbuf_new(fz_mem_ringbuf *m, rp_bpf_ringbuf *rb, uint64_t size, uint64_t c0,
                                      uint8_t fill, rp_bpf_ringbuf_fn fn, rp_bpf_ringbuf_batch_fn batch_fn,
                                      unsigned flags)
{
	const uint64_t p0 = c0 & ~(uint64_t)7;

	memset(m, 0, sizeof(*m));
	m->size = size;
	m->cons = malloc(FZ_RB_PAGE);
	m->prod = malloc(FZ_RB_PAGE + 2 * size);
	if (!m->cons || !m->prod) {
		fz_mem_ringbuf_free(m);
		return false;
	}
	m->data = m->prod + FZ_RB_PAGE;
	memset(m->cons, 0, FZ_RB_PAGE);
	memset(m->prod, 0, FZ_RB_PAGE);
	memset(m->data, fill, 2 * size);
	memcpy(m->cons, &c0, sizeof(c0));
	memcpy(m->prod, &p0, sizeof(p0));
	ASAN_POISON_MEMORY_REGION(m->cons + 8, FZ_RB_PAGE - 8);
	ASAN_POISON_MEMORY_REGION(m->prod + 8, FZ_RB_PAGE - 8);
	rp_bpf_ringbuf_bind_pages(rb, -1, m->cons, m->prod, FZ_RB_PAGE, size, fn, batch_fn, NULL, flags);
	return true;
}

/* Byte pos (a free-running position) of the data area, in both copies. */
static inline void fz_rb_put8(fz_mem_ringbuf *m, uint64_t pos, uint8_t b)
{
	const uint64_t off = pos & (m->size - 1);
	m->data[off] = b;
	m->data[m->size + off] = b;
}

/* The stats every adapter keeps alike, checked against the model's: the
 * records with their bytes, corrupt with last_error, resynced_bytes.  got
 * and want point to stats of any adapter (the fields have the same names);
 * a failure names the check's caller (op). */
#define FZ_CHECK_COMMON_STATS(op, got, want)                                                                 \
	do {                                                                                                 \
		FZ_CHECK((got)->records == (want)->records && (got)->record_bytes == (want)->record_bytes && \
		         (got)->payload_bytes == (want)->payload_bytes,                                      \
		         "%s: stats records %" PRIu64 "/%" PRIu64 "/%" PRIu64                                \
		         ", want %" PRIu64 "/%" PRIu64 "/%" PRIu64, (op), (got)->records,                    \
		         (got)->record_bytes, (got)->payload_bytes, (want)->records,                         \
		         (want)->record_bytes, (want)->payload_bytes);                                       \
		FZ_CHECK((got)->corrupt == (want)->corrupt && (got)->last_error == (want)->last_error,       \
		         "%s: corrupt %" PRIu64 " (last %d), want %" PRIu64 " (last %d)", (op),              \
		         (got)->corrupt, (got)->last_error, (want)->corrupt, (want)->last_error);            \
		FZ_CHECK((got)->resynced_bytes == (want)->resynced_bytes,                                    \
		         "%s: resynced_bytes %" PRIu64 ", want %" PRIu64, (op),                              \
		         (got)->resynced_bytes, (want)->resynced_bytes);                                     \
	} while (0)

#endif
