/* Benchmark 4: end to end.  A producer thread on CPU 0 emits N records of
 * 64 bytes through BPF_PROG_TEST_RUN as fast as it can, retrying whatever a
 * full ring refuses (so every record is delivered: zero loss by
 * construction; the refusals are reported).  The consumer on CPU 1 waits on
 * epoll and drains: ringproof's rp_perf_buffer, then libbpf's perf_buffer,
 * on the same map.  Reported: delivered events/s over the whole run. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "bench.h"
#include "rp_perf_buffer.h"

#define E2E_N 400000ul
#define E2E_PAYLOAD 64u
#define E2E_PAGES 64

typedef struct e2e {
	rpb_producer *prod;
	unsigned long refused; /* records a full ring refused (then retried) */
	int err;
	uint64_t sum;
	unsigned long got;
} e2e;

static void *producer(void *arg)
{
	e2e *e = arg;
	unsigned long sent = 0;
	rpb_pin_cpu(0);
	while (sent < E2E_N) {
		unsigned long n = E2E_N - sent > 256 ? 256 : E2E_N - sent;
		long w = rpb_fill(e->prod, 0, n, E2E_PAYLOAD);
		if (w < 0) {
			e->err = (int)w;
			break;
		}
		sent += (unsigned long)w;
		if ((unsigned long)w < n) {
			e->refused += n - (unsigned long)w;
			sched_yield();
		}
	}
	return NULL;
}

static int rp_sample(void *ctx, int cpu, const rp_bpf_output *out)
{
	e2e *e = ctx;
	uint32_t a = E2E_PAYLOAD <= out->data.n0 ? E2E_PAYLOAD : out->data.n0;
	(void)cpu;
	e->sum = rpb_sum(out->data.p0, a, e->sum);
	e->sum = rpb_sum(out->data.p1, E2E_PAYLOAD - a, e->sum);
	e->got++;
	return 0;
}

static void lb_sample(void *ctx, int cpu, void *data, __u32 size)
{
	e2e *e = ctx;
	(void)cpu;
	(void)size;
	e->sum = rpb_sum(data, E2E_PAYLOAD, e->sum);
	e->got++;
}

static int run(const char *name, rpb_producer *prod, int use_rp, FILE *csv)
{
	e2e e = { .prod = prod };
	rp_perf_buffer *rpb = NULL;
	struct perf_buffer *lb = NULL;
	if (use_rp) {
		rp_perf_buffer_opts o = { .data_pages = E2E_PAGES, .wakeup_events = 1 };
		int err = rp_perf_buffer_new_payload(prod->map_fd, &o, rp_sample, NULL, &e, &rpb);
		if (err) {
			fprintf(stderr, "bench e2e: rp_perf_buffer_new_payload: %d\n", err);
			return 1;
		}
	} else {
		lb = perf_buffer__new(prod->map_fd, E2E_PAGES, lb_sample, NULL, &e, NULL);
		if (!lb) {
			fprintf(stderr, "bench e2e: perf_buffer__new: %s\n", strerror(errno));
			return 1;
		}
	}
	rpb_pin_cpu(1);
	pthread_t th;
	uint64_t t0 = rpb_ns();
	pthread_create(&th, NULL, producer, &e);
	uint64_t idle_since = rpb_ns();
	while (e.got < E2E_N && !e.err) {
		unsigned long before = e.got;
		int r = use_rp ? rp_perf_buffer_poll(rpb, 100) : perf_buffer__poll(lb, 100);
		if (r < 0 && r != -EINTR)
			break;
		if (e.got != before)
			idle_since = rpb_ns();
		else if (rpb_ns() - idle_since > 3000000000ull)
			break; /* nothing for 3 s: records went missing */
	}
	uint64_t t1 = rpb_ns();
	pthread_join(th, NULL);
	rpb_pin_cpu(0);
	if (use_rp)
		rp_perf_buffer_free(rpb);
	else
		perf_buffer__free(lb);
	uint64_t want = rpb_sum(rpb_pattern, E2E_PAYLOAD, 0) * E2E_N;
	if (e.err || e.got != E2E_N || e.sum != want) {
		fprintf(stderr, "bench e2e: %s received %lu/%lu records, checksum %s (producer err %d)\n",
		        name, e.got, E2E_N, e.sum == want ? "ok" : "WRONG", e.err);
		return 1;
	}
	double secs = (double)(t1 - t0) / 1e9;
	printf("%12s %10lu %12.0f %12lu %10.1f\n", name, e.got, (double)e.got / secs, e.refused,
	       (double)(t1 - t0) / (double)e.got);
	char extra[64];
	snprintf(extra, sizeof(extra), "events_per_s=%.0f;refused=%lu", (double)e.got / secs, e.refused);
	rpb_csv(csv, "e2e", E2E_PAYLOAD, name, (double)(t1 - t0) / (double)e.got, e.got, 1, extra);
	return 0;
}

int rpb_e2e(const char *obj_dir, FILE *csv)
{
	char path[4096];
	rpb_producer prod;
	snprintf(path, sizeof(path), "%s/bench_perf.bpf.o", obj_dir);
	int err = rpb_producer_open(&prod, path, "bench_events", 0);
	if (err) {
		fprintf(stderr, "bench e2e: loading %s: %s\n", path, strerror(-err));
		return 1;
	}
	printf("\n4. end to end: producer CPU 0, consumer CPU 1, %lu records of %u bytes, %d-page rings, no loss\n",
	       E2E_N, E2E_PAYLOAD, E2E_PAGES);
	printf("%12s %10s %12s %12s %10s\n", "consumer", "delivered", "events/s", "ring-full", "ns/event");
	int rc = 0;
	for (int rep = 0; rep < 2 && rc == 0; rep++) { /* A/B/A/B */
		rc |= run("ringproof", &prod, 1, rep ? NULL : csv);
		rc |= run("libbpf", &prod, 0, rep ? NULL : csv);
	}
	rpb_producer_close(&prod);
	return rc;
}
