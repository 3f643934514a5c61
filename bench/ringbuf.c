/* Benchmark 2: BPF ring buffer consumer cost.  One BPF_MAP_TYPE_RINGBUF is
 * mapped both by libbpf's ring_buffer and by ringproof's adapter
 * (rp_ringbuf_map); both read and publish the same consumer_pos.
 * BPF_PROG_TEST_RUN fills it with K records; A/B alternate every round;
 * only the drain is timed. */
#include <errno.h>
#include <string.h>

#include "bench.h"
#include "rp_ringbuf_linux.h"

#define RB_BYTES (1u << 22)
#define MAX_K 16384

typedef struct consumed {
	uint64_t sum;
	unsigned long n;
} consumed;

static int lb_sample(void *ctx, void *data, size_t size)
{
	consumed *c = ctx;
	c->sum = rpb_sum(data, size, c->sum);
	c->n++;
	return 0;
}

static int rp_sample(void *ctx, const void *data, uint32_t len)
{
	consumed *c = ctx;
	c->sum = rpb_sum(data, len, c->sum);
	c->n++;
	return 0;
}

int rpb_ringbuf(const char *obj_dir, FILE *csv)
{
	char path[4096];
	rpb_producer prod;
	snprintf(path, sizeof(path), "%s/bench_ringbuf.bpf.o", obj_dir);
	int err = rpb_producer_open(&prod, path, "bench_rb", RB_BYTES);
	if (err) {
		fprintf(stderr, "bench ringbuf: loading %s: %s\n", path, strerror(-err));
		return 1;
	}
	consumed lbc, rpc;
	struct ring_buffer *lb = ring_buffer__new(prod.map_fd, lb_sample, &lbc, NULL);
	rp_ringbuf rb;
	int rerr = rp_ringbuf_map(&rb, prod.map_fd, rp_sample, &rpc, 0);
	if (!lb || rerr) {
		fprintf(stderr, "bench ringbuf: mapping: libbpf %s, ringproof %d\n",
		        lb ? "ok" : strerror(errno), rerr);
		ring_buffer__free(lb);
		rpb_producer_close(&prod);
		return 1;
	}
	printf("\n2. BPF ring buffer consumer cost (%u KiB ring, %d rounds, A/B alternating)\n",
	       RB_BYTES / 1024, RPB_ROUNDS);
	printf("%8s %8s %14s %14s %8s\n", "payload", "records", "ringproof ns", "libbpf ns", "ratio");
	int rc = 0;
	for (int pi = 0; pi < 4 && rc == 0; pi++) {
		unsigned size = rpb_payloads[pi];
		unsigned rec = ((size + 8 + 7) / 8) * 8;
		unsigned long k = (RB_BYTES * 9ul / 10) / rec;
		if (k > MAX_K)
			k = MAX_K;
		uint64_t want = rpb_sum(rpb_pattern, size, 0) * k;
		double t_rp[RPB_ROUNDS], t_lb[RPB_ROUNDS];
		for (int r = -1; r < RPB_ROUNDS && rc == 0; r++) {
			for (int side = 0; side < 2; side++) {
				int use_rp = (side == 0) == (r % 2 == 0);
				if (rpb_fill(&prod, 0, k, size) != (long)k) {
					fprintf(stderr, "bench ringbuf: the ring did not take %lu records of %u bytes\n", k, size);
					rc = 1;
					break;
				}
				consumed *c = use_rp ? &rpc : &lbc;
				memset(c, 0, sizeof(*c));
				uint64_t t0 = rpb_ns();
				int got = use_rp ? rp_ringbuf_consume(&rb, 0) : ring_buffer__consume(lb);
				uint64_t t1 = rpb_ns();
				if (got < 0 || c->n != k || c->sum != want) {
					fprintf(stderr, "bench ringbuf: %s drained %lu/%lu records (ret %d), checksum %s\n",
					        use_rp ? "ringproof" : "libbpf", c->n, k, got,
					        c->sum == want ? "ok" : "WRONG");
					rc = 1;
					break;
				}
				if (r >= 0)
					(use_rp ? t_rp : t_lb)[r] = (double)(t1 - t0) / (double)k;
			}
		}
		if (rc)
			break;
		double mrp = rpb_median(t_rp, RPB_ROUNDS), mlb = rpb_median(t_lb, RPB_ROUNDS);
		printf("%8u %8lu %14.1f %14.1f %8.2f\n", size, k, mrp, mlb, mrp / mlb);
		rpb_csv(csv, "ringbuf", size, "ringproof", mrp, k, RPB_ROUNDS, "");
		rpb_csv(csv, "ringbuf", size, "libbpf", mlb, k, RPB_ROUNDS, "");
	}
	rp_ringbuf_unmap(&rb);
	ring_buffer__free(lb);
	rpb_producer_close(&prod);
	return rc;
}
