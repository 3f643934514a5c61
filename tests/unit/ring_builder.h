/* A tiny perf ring writer for the unit tests.
 *
 * It lays out the bytes a kernel would produce, independently of core/: every
 * multi-byte value is written byte by byte in little-endian order (the tests
 * only run on little-endian hosts, see rb_host_is_le), and every byte at ring
 * position p goes to offset p % size, so bodies wrap exactly as in the kernel.
 * Rings are heap buffers of exactly `size` bytes so that valgrind sees any
 * read past the end.
 */
#ifndef RING_BUILDER_H
#define RING_BUILDER_H

#include <stddef.h>
#include <stdint.h>

typedef struct rb_ring {
	uint8_t *data;
	uint64_t size;
} rb_ring;

/* Allocate size bytes, every byte set to fill.  Aborts on allocation failure. */
rb_ring rb_new(uint64_t size, uint8_t fill);
void rb_free(rb_ring *r);

/* True when the host stores integers little-endian (what the builder writes). */
int rb_host_is_le(void);

/* Little-endian encoders into a plain buffer. */
void rb_le16(uint8_t *dst, uint16_t v);
void rb_le32(uint8_t *dst, uint32_t v);
void rb_le64(uint8_t *dst, uint64_t v);

/* Write n bytes at ring position pos, wrapping at the ring end. */
void rb_put(const rb_ring *r, uint64_t pos, const void *src, size_t n);

/* Write an 8-byte header {type, misc, size} at pos (no checks: tests write
 * malformed headers on purpose). */
void rb_put_header(const rb_ring *r, uint64_t pos, uint32_t type,
                   uint16_t misc, uint16_t size);

/* Write a header with size = 8 + body_len and the body after it; return the
 * position after the record. */
uint64_t rb_put_record(const rb_ring *r, uint64_t pos, uint32_t type,
                       uint16_t misc, const void *body, size_t body_len);

/* A bpf_perf_event_output sample (PERF_SAMPLE_RAW only) carrying n payload
 * bytes: raw size = round_up(n + 4, 8) - 4, payload at record offset 12, the
 * padding filled with pad.  Return the position after the record. */
uint64_t rb_put_bpf_output(const rb_ring *r, uint64_t pos, const void *payload,
                           size_t n, uint8_t pad);

/* A LOST record {id, lost}; return the position after it. */
uint64_t rb_put_lost(const rb_ring *r, uint64_t pos, uint64_t id, uint64_t lost);

/* Fill buf[0 .. n-1] with a pattern that differs at every index mod 251. */
void rb_pattern(uint8_t *buf, size_t n, uint8_t seed);

#endif
