#include "ring_builder.h"

#include <stdlib.h>
#include <string.h>

rb_ring rb_new(uint64_t size, uint8_t fill)
{
	rb_ring r;
	r.data = malloc(size ? (size_t)size : 1u);
	if (!r.data)
		abort();
	memset(r.data, fill, (size_t)size);
	r.size = size;
	return r;
}

void rb_free(rb_ring *r)
{
	free(r->data);
	r->data = NULL;
	r->size = 0;
}

int rb_host_is_le(void)
{
	const uint32_t one = 1;
	uint8_t first;
	memcpy(&first, &one, 1);
	return first == 1;
}

void rb_le16(uint8_t *dst, uint16_t v)
{
	dst[0] = (uint8_t)(v & 0xffu);
	dst[1] = (uint8_t)(v >> 8);
}

void rb_le32(uint8_t *dst, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		dst[i] = (uint8_t)(v >> (8 * i));
}

void rb_le64(uint8_t *dst, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		dst[i] = (uint8_t)(v >> (8 * i));
}

void rb_put(const rb_ring *r, uint64_t pos, const void *src, size_t n)
{
	const uint8_t *s = src;
	for (size_t i = 0; i < n; i++)
		r->data[(pos + i) % r->size] = s[i];
}

void rb_put_header(const rb_ring *r, uint64_t pos, uint32_t type,
                   uint16_t misc, uint16_t size)
{
	uint8_t h[8];
	rb_le32(h, type);
	rb_le16(h + 4, misc);
	rb_le16(h + 6, size);
	rb_put(r, pos, h, sizeof h);
}

uint64_t rb_put_record(const rb_ring *r, uint64_t pos, uint32_t type,
                       uint16_t misc, const void *body, size_t body_len)
{
	rb_put_header(r, pos, type, misc, (uint16_t)(8u + body_len));
	rb_put(r, pos + 8u, body, body_len);
	return pos + 8u + body_len;
}

uint64_t rb_put_bpf_output(const rb_ring *r, uint64_t pos, const void *payload,
                           size_t n, uint8_t pad)
{
	const size_t raw = ((n + 4u + 7u) / 8u) * 8u - 4u;
	uint8_t body[4 + 65536];
	if (raw > 65536u)
		abort();
	rb_le32(body, (uint32_t)raw);
	memcpy(body + 4, payload, n);
	memset(body + 4 + n, pad, raw - n);
	return rb_put_record(r, pos, 9u /* PERF_RECORD_SAMPLE */, 0, body, 4u + raw);
}

uint64_t rb_put_lost(const rb_ring *r, uint64_t pos, uint64_t id, uint64_t lost)
{
	uint8_t body[16];
	rb_le64(body, id);
	rb_le64(body + 8, lost);
	return rb_put_record(r, pos, 2u /* PERF_RECORD_LOST */, 0, body, sizeof body);
}

void rb_pattern(uint8_t *buf, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)((i % 251u) + seed + 1u);
}
