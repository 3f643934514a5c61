/* Test helpers: write a record body by hand, in host byte order, and view
 * it as a span split into two separately allocated slices. */
#ifndef PBUF_H
#define PBUF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rp_span.h"

typedef struct pbuf {
	uint8_t b[8192];
	uint32_t n;
} pbuf;

static inline void p64(pbuf *w, uint64_t v) { memcpy(w->b + w->n, &v, 8); w->n += 8; }
static inline void p32(pbuf *w, uint32_t v) { memcpy(w->b + w->n, &v, 4); w->n += 4; }
static inline void p16(pbuf *w, uint16_t v) { memcpy(w->b + w->n, &v, 2); w->n += 2; }
static inline void p8(pbuf *w, uint8_t v) { w->b[w->n++] = v; }
static inline void pbytes(pbuf *w, const void *p, uint32_t n) { memcpy(w->b + w->n, p, n); w->n += n; }

/* The first len bytes of w as a span whose first slice holds `split` bytes;
 * both slices are fresh heap copies (so a read past either is caught by
 * ASan/valgrind).  Free with span_free. */
static inline rp_span span_of(const pbuf *w, uint32_t len, uint32_t split)
{
	if (split > len)
		split = len;
	uint8_t *a = malloc(split ? split : 1);
	uint8_t *b = malloc(len - split ? len - split : 1);
	memcpy(a, w->b, split);
	memcpy(b, w->b + split, len - split);
	rp_span s = { a, b, split, len - split };
	return s;
}

static inline void span_free(rp_span s)
{
	free((void *)s.p0);
	free((void *)s.p1);
}

#endif
