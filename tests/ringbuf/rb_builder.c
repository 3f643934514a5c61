#include "rb_builder.h"

#include <string.h>

void tb_put(uint8_t *ring, uint64_t size, uint64_t pos, const void *src, size_t n)
{
	const uint8_t *s = src;
	for (size_t i = 0; i < n; i++)
		ring[(pos + i) % size] = s[i];
}

void tb_get(const uint8_t *ring, uint64_t size, uint64_t pos, void *dst, size_t n)
{
	uint8_t *d = dst;
	for (size_t i = 0; i < n; i++)
		d[i] = ring[(pos + i) % size];
}

uint64_t tb_rb_put(uint8_t *ring, uint64_t size, uint64_t pos, uint32_t word,
                   const uint8_t *payload)
{
	const uint32_t len = word & 0x3fffffffu;
	const uint32_t pg_off = 0xdeadbeefu;
	tb_put(ring, size, pos, &word, 4);
	tb_put(ring, size, pos + 4, &pg_off, 4);
	if (payload)
		tb_put(ring, size, pos + 8, payload, len);
	return ((uint64_t)len + 8 + 7) / 8 * 8;
}

void tb_perf_put(uint8_t *ring, uint64_t size, uint64_t pos, uint32_t type,
                 uint16_t misc, uint16_t rsize, const uint8_t *body)
{
	tb_put(ring, size, pos, &type, 4);
	tb_put(ring, size, pos + 4, &misc, 2);
	tb_put(ring, size, pos + 6, &rsize, 2);
	if (body && rsize >= 8)
		tb_put(ring, size, pos + 8, body, rsize - 8u);
}

uint8_t tb_pattern(uint32_t seed, uint32_t i)
{
	return (uint8_t)(seed * 131u + i * 7u + 1u);
}
