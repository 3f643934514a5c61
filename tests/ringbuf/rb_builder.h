/* Test-side writers for synthetic BPF ringbuf and backward perf rings.
 * They compute offsets and lay out bytes on their own (byte by byte, in
 * host order), independently of the code under test. */
#ifndef RB_BUILDER_H
#define RB_BUILDER_H

#include <stddef.h>
#include <stdint.h>

/* Store n bytes at ring position pos (wrapping at size). */
void tb_put(uint8_t *ring, uint64_t size, uint64_t pos, const void *src, size_t n);
/* Read n bytes from ring position pos (wrapping at size). */
void tb_get(const uint8_t *ring, uint64_t size, uint64_t pos, void *dst, size_t n);

/* A BPF ringbuf record at pos: header {word, pg_off = 0xdeadbeef}, then
 * len(word) payload bytes.  Returns the bytes the record occupies. */
uint64_t tb_rb_put(uint8_t *ring, uint64_t size, uint64_t pos, uint32_t word,
                   const uint8_t *payload);

/* A perf record at pos: {type, misc, size} header then size - 8 body bytes. */
void tb_perf_put(uint8_t *ring, uint64_t size, uint64_t pos, uint32_t type,
                 uint16_t misc, uint16_t rsize, const uint8_t *body);

/* Deterministic filler: byte i of a payload tagged seed. */
uint8_t tb_pattern(uint32_t seed, uint32_t i);

#endif
