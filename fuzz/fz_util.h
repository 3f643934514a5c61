/* Shared helpers of the ring fuzz harnesses (not part of the library).
 *
 * The "ring image" input format, shared by ring_raw, ring_diff and
 * ring_hostile (and by fuzz/capture.c, fuzz/gen_seeds.c):
 *   [0]      size selector: ring size = 8 KiB << (b & 3)   (8..64 KiB)
 *   [1]      batch-size selector (see fz_batch_max)
 *   [2]      flags: FZ_F_HEAD_REL, FZ_F_RAW_TAIL
 *   [3]      fill byte for page bytes the input does not cover
 *   [4..12)  tail, u64 little endian (8-aligned unless FZ_F_RAW_TAIL)
 *   [12..20) head, u64 LE; with FZ_F_HEAD_REL: head = tail + (v mod (size+16))
 *   [20..)   page bytes, byte i stored at ring offset (tail + i) mod size,
 *            at most size bytes (so the first bytes are the record at tail)
 */
#ifndef FZ_UTIL_H
#define FZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FZ_IMAGE_HDR 20u
#define FZ_F_HEAD_REL 0x01u
#define FZ_F_RAW_TAIL 0x02u
#define FZ_MAX_BATCH 64u

typedef struct fz_image {
	uint8_t *page; /* size bytes, heap, 8-aligned */
	uint64_t size;
	uint64_t head;
	uint64_t tail;
	uint8_t max_sel;
	uint8_t flags;
	const uint8_t *rest; /* input bytes after the 20-byte header */
	size_t rest_len;
} fz_image;

/* Oracle failure: print what broke and abort (every engine sees a crash). */
#define FZ_CHECK(cond, ...) \
	do { if (!(cond)) fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); } while (0)
_Noreturn void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

uint64_t fz_le64(const uint8_t *p);
uint32_t fz_le32(const uint8_t *p);
uint16_t fz_le16(const uint8_t *p);
void fz_put_le64(uint8_t *p, uint64_t v);
void fz_put_le32(uint8_t *p, uint32_t v);
void fz_put_le16(uint8_t *p, uint16_t v);

/* Parse an image; false when the input is shorter than the header. */
bool fz_image_parse(const uint8_t *in, size_t n, fz_image *img);
void fz_image_free(fz_image *img);

/* max for the i-th batch call: 1..FZ_MAX_BATCH, varying with i. */
uint32_t fz_batch_max(uint8_t sel, uint32_t i);

/* Serialise an image header (used by the seed generator and the capture). */
void fz_image_header(uint8_t out[FZ_IMAGE_HDR], unsigned size_sel, uint8_t max_sel,
                     uint8_t flags, uint8_t fill, uint64_t tail, uint64_t head);

#endif
