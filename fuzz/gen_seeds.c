/* Seed corpus generator: writes valid rings of each record kind, every
 * corruption class and wrap cases, in each harness's input format.
 *   gen_seeds DIR   ->  DIR/<harness>/seed-<name>
 * Image harnesses (ring_raw, ring_diff, ring_hostile) share the image format
 * of fz_util.h; ring_roundtrip gets generator programs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz_util.h"

#define PAGE_MAX 65536u

static const char *outdir;
static unsigned written;

static void mkdir_p(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		perror(path);
		exit(1);
	}
}

static void write_file(const char *harness, const char *name, const uint8_t *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", outdir, harness);
	mkdir_p(path);
	snprintf(path, sizeof path, "%s/%s/seed-%s", outdir, harness, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
	written++;
}

/* A ring image under construction: records appended from tail. */
typedef struct img {
	uint8_t buf[FZ_IMAGE_HDR + PAGE_MAX];
	size_t used; /* bytes of records after tail */
} img;

static void rec(img *m, uint32_t type, uint16_t misc, uint16_t size, const uint8_t *body, size_t body_len)
{
	uint8_t *p = m->buf + FZ_IMAGE_HDR + m->used;
	fz_put_le32(p, type);
	fz_put_le16(p + 4, misc);
	fz_put_le16(p + 6, size);
	memset(p + 8, 0, size > 8 ? size - 8u : 0);
	memcpy(p + 8, body, body_len);
	m->used += size >= 8 ? size : 8;
}

static void bpf_sample(img *m, const char *payload)
{
	uint8_t body[256];
	const uint32_t n = (uint32_t)strlen(payload);
	const uint32_t raw = ((n + 4u + 7u) & ~7u) - 4u;
	memset(body, 0xEE, sizeof body); /* padding: stale contents */
	fz_put_le32(body, raw);
	memcpy(body + 4, payload, n);
	rec(m, 9, 0, (uint16_t)(8u + 4u + raw), body, 4u + raw);
}

static void lost(img *m, uint64_t id, uint64_t count)
{
	uint8_t body[16];
	fz_put_le64(body, id);
	fz_put_le64(body + 8, count);
	rec(m, 2, 0, 24, body, 16);
}

static void emit_image(const char *name, img *m, unsigned size_sel, uint8_t max_sel, uint8_t flags,
                       uint64_t tail, uint64_t head)
{
	fz_image_header(m->buf, size_sel, max_sel, flags, 0, tail, head);
	const char *h[] = { "ring_raw", "ring_diff", "ring_hostile" };
	for (int i = 0; i < 3; i++)
		write_file(h[i], name, m->buf, FZ_IMAGE_HDR + m->used);
}

static void mixed(img *m)
{
	bpf_sample(m, "");
	bpf_sample(m, "abc");
	bpf_sample(m, "hello ringproof");
	lost(m, 42, 7);
	uint8_t comm[24] = { 1, 0, 0, 0, 1, 0, 0, 0 };
	memcpy(comm + 8, "ringproof", 9);
	rec(m, 3, 0x2000, 32, comm, sizeof comm);
	rec(m, 5, 0, 32, comm, 24); /* THROTTLE-shaped */
}

static void image_seeds(void)
{
	static img m;
	const uint64_t big = UINT64_MAX - 31u; /* 8-aligned, 32 bytes before the u64 wrap */

	memset(&m, 0, sizeof m);
	emit_image("empty", &m, 0, 4, 0, 4096, 4096);

	memset(&m, 0, sizeof m);
	mixed(&m);
	emit_image("mixed", &m, 0, 0, 0, 0, m.used);
	emit_image("mixed-batch1", &m, 1, 0, 0, 800, 800 + m.used);
	emit_image("mixed-batch-vary", &m, 2, 0xB7, 0, 1000, 1000 + m.used);
	/* the same records at the end of the ring: headers and bodies wrap */
	emit_image("wrap-body", &m, 0, 3, 0, 8192 - 24, 8192 - 24 + m.used);
	emit_image("wrap-hdr-last", &m, 0, 3, 0, 8192 - 8, 8192 - 8 + m.used);
	emit_image("wrap-u64", &m, 0, 3, 0, big, big + m.used);
	emit_image("wrap-u64-rel", &m, 3, 0x40, FZ_F_HEAD_REL, big - 8, m.used + 8);

	memset(&m, 0, sizeof m);
	for (int i = 0; i < 40; i++)
		lost(&m, (uint64_t)i, (uint64_t)i * 3u);
	emit_image("lost-many", &m, 0, 5, 0, 16, 16 + m.used);

	memset(&m, 0, sizeof m);
	{
		uint8_t body[65528];
		memset(body, 0x11, sizeof body);
		fz_put_le32(body, 65516);
		rec(&m, 9, 0, 65528, body, 65520);
	}
	emit_image("sample-max", &m, 3, 1, 0, 64, 64 + m.used);

	/* bodies too short for their views: SAMPLE of 8 and 16 bytes, LOST of 8 and 16 */
	memset(&m, 0, sizeof m);
	{
		uint8_t body[8];
		fz_put_le32(body, 4);
		memset(body + 4, 0x33, 4);
		rec(&m, 9, 0, 8, body, 0);
		rec(&m, 9, 0, 16, body, 8);
		rec(&m, 2, 0, 8, body, 0);
		rec(&m, 2, 0, 16, body, 8);
		fz_put_le32(body, 0xffffffffu);
		rec(&m, 9, 0, 16, body, 8);
	}
	emit_image("short-bodies", &m, 0, 2, 0, 8192 - 32, 8192 - 32 + m.used);

	/* a full ring: head - tail == size */
	memset(&m, 0, sizeof m);
	while (m.used < 8192)
		lost(&m, 1, 1), m.used = m.used > 8192 ? 8192 : m.used;
	m.used = 8192;
	emit_image("full", &m, 0, 0x90, 0, 8, 8 + 8192);

	/* corruption classes, each after two good records */
	static const struct { const char *name; uint16_t size; } bad[] = {
		{ "bad-size0", 0 }, { "bad-size4", 4 }, { "bad-size12", 12 }, { "bad-size65535", 65535 },
		{ "bad-size-long", 4096 }, { "bad-size-avail8", 24 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&m, 0, sizeof m);
		bpf_sample(&m, "ok");
		lost(&m, 1, 2);
		uint8_t body[8] = { 0 };
		const size_t at = m.used;
		rec(&m, 9, 0, 16, body, 8);
		fz_put_le16(m.buf + FZ_IMAGE_HDR + at + 6, bad[i].size);
		emit_image(bad[i].name, &m, 0, 0, 0, 256, 256 + m.used);
	}
	memset(&m, 0, sizeof m);
	mixed(&m);
	emit_image("bad-tail-align", &m, 0, 0, FZ_F_RAW_TAIL, 259, 256 + m.used);
	emit_image("bad-overrun", &m, 0, 0, 0, 256, 256 + 8192 + 8);
	emit_image("bad-overrun-u64", &m, 0, 0, 0, 256, 0);
	emit_image("bad-partial-hdr", &m, 0, 0, 0, 256, 256 + 4);
	emit_image("bad-head-inside", &m, 0, 0, 0, 256, 256 + 20);
	emit_image("head-behind", &m, 0, 0, 0, 256, 200);
}

/* ring_roundtrip programs (format in harness_ring_roundtrip.c) */
static size_t rt_sample(uint8_t *p, uint8_t kind, uint16_t misc, uint16_t n, uint8_t byte)
{
	p[0] = kind;
	fz_put_le16(p + 1, misc);
	fz_put_le16(p + 3, n);
	memset(p + 5, byte, n);
	return 5u + n;
}

static size_t rt_lost(uint8_t *p, uint64_t id, uint64_t count)
{
	p[0] = 1;
	fz_put_le16(p + 1, 0);
	fz_put_le16(p + 3, 0);
	fz_put_le64(p + 5, id);
	fz_put_le64(p + 13, count);
	return 21;
}

static void roundtrip_seeds(void)
{
	static uint8_t b[70000];
	static const struct { const char *name; uint8_t size_sel; uint8_t corr; uint8_t param; uint64_t tail; } c[] = {
		{ "plain", 0, 0, 0, 0 },
		{ "wrap-end", 0, 0, 0, 8192 - 16 },
		{ "wrap-u64", 1, 0, 0, UINT64_MAX - 40 },
		{ "size0", 0, 1, 2, 64 },
		{ "size-short", 0, 2, 3, 8192 - 8 },
		{ "size-align", 2, 3, 1, 128 },
		{ "size-long", 0, 4, 4, 4096 },
		{ "size-long-head", 0, 4, 0x81, 4096 },
		{ "tail-align", 0, 5, 5, 512 },
		{ "overrun", 3, 6, 2, UINT64_MAX - 7 },
		{ "raw-long", 0, 7, 1, 8192 - 40 },
		{ "raw-huge", 1, 7, 0x84, 96 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		size_t n = 0;
		b[0] = c[i].size_sel;
		b[1] = (uint8_t)(i * 37u);
		b[2] = c[i].corr;
		b[3] = c[i].param;
		fz_put_le64(b + 4, c[i].tail);
		b[12] = 0xEE;
		n = 13;
		n += rt_sample(b + n, 0, 0, 0, 0);
		n += rt_sample(b + n, 0, 0x4000, 3, 'a');
		n += rt_lost(b + n, 7, 99);
		n += rt_sample(b + n, 0, 1, 60, 'x');
		n += rt_sample(b + n, 2, 2, 300, 'y');
		n += rt_lost(b + n, UINT64_MAX, 1);
		write_file("ring_roundtrip", c[i].name, b, n);
	}
	/* one ring filled by big samples */
	size_t n = 13;
	memset(b, 0, 13);
	b[0] = 1;
	b[2] = 0;
	fz_put_le64(b + 4, 16384 - 64);
	while (n + 5 + 5000 < sizeof b && n < 30000)
		n += rt_sample(b + n, 2, 0, 5000, (uint8_t)n);
	write_file("ring_roundtrip", "big-fill", b, n);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
		return 2;
	}
	outdir = argv[1];
	mkdir_p(outdir);
	image_seeds();
	roundtrip_seeds();
	printf("gen_seeds: %u files under %s\n", written, outdir);
	return 0;
}
