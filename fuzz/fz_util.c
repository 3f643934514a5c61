#include "fz_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "\nFUZZ ORACLE FAILURE at %s:%d: %s\n  ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

uint16_t fz_le16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
uint32_t fz_le32(const uint8_t *p) { return fz_le16(p) | ((uint32_t)fz_le16(p + 2) << 16); }
uint64_t fz_le64(const uint8_t *p) { return fz_le32(p) | ((uint64_t)fz_le32(p + 4) << 32); }
void fz_put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
void fz_put_le32(uint8_t *p, uint32_t v) { fz_put_le16(p, (uint16_t)v); fz_put_le16(p + 2, (uint16_t)(v >> 16)); }
void fz_put_le64(uint8_t *p, uint64_t v) { fz_put_le32(p, (uint32_t)v); fz_put_le32(p + 4, (uint32_t)(v >> 32)); }

bool fz_image_parse(const uint8_t *in, size_t n, fz_image *img)
{
	if (n < FZ_IMAGE_HDR)
		return false;
	memset(img, 0, sizeof *img);
	img->size = 8192u << (in[0] & 3u);
	img->max_sel = in[1];
	img->flags = in[2];
	img->tail = fz_le64(in + 4);
	if (!(img->flags & FZ_F_RAW_TAIL))
		img->tail &= ~(uint64_t)7;
	img->head = fz_le64(in + 12);
	if (img->flags & FZ_F_HEAD_REL)
		img->head = img->tail + img->head % (img->size + 16u);
	img->rest = in + FZ_IMAGE_HDR;
	img->rest_len = n - FZ_IMAGE_HDR;
	img->page = aligned_alloc(8, img->size);
	if (!img->page)
		abort();
	memset(img->page, in[3], img->size);
	size_t cover = img->rest_len < img->size ? img->rest_len : img->size;
	for (size_t i = 0; i < cover; i++)
		img->page[(img->tail + i) % img->size] = img->rest[i];
	return true;
}

void fz_image_free(fz_image *img)
{
	free(img->page);
	img->page = NULL;
}

uint32_t fz_batch_max(uint8_t sel, uint32_t i)
{
	if (sel < 16)
		return 1u + sel; /* constant small batches */
	return 1u + (uint32_t)((sel * 7u + i * (sel >> 4)) % FZ_MAX_BATCH);
}

void fz_image_header(uint8_t out[FZ_IMAGE_HDR], unsigned size_sel, uint8_t max_sel,
                     uint8_t flags, uint8_t fill, uint64_t tail, uint64_t head)
{
	out[0] = (uint8_t)size_sel;
	out[1] = max_sel;
	out[2] = flags;
	out[3] = fill;
	fz_put_le64(out + 4, tail);
	fz_put_le64(out + 12, head);
}
