/* Benchmark 4: end to end, producer thread pinned to CPU 0 emitting 64-byte
 * records through BPF_PROG_TEST_RUN into the CPU 0 perf ring, consumer (this
 * thread) pinned to CPU 1 waiting in epoll and draining: ringproof's
 * rp_perf_buffer against libbpf's perf_buffer on the same map.
 *
 * a) wakeup per record (wakeup_events = 1, libbpf's perf_buffer__new
 *    default): the producer runs flat out and retries whatever a full ring
 *    refuses; delivered events/s.  Bound by the kernel's per-record wakeup.
 * b) watermark wakeups: both readers open their events with the same
 *    perf_event_attr (BPF output, watermark = a quarter of the ring; libbpf
 *    through perf_buffer__new_raw).  The producer is paced at a target rate
 *    and a refused record is a loss.  For each reader the rate is searched
 *    upward (doubling, then bisecting) for the highest rate with no loss;
 *    a rate fails only if two trials in a row lose records (one stall of a
 *    loaded machine is not the reader's rate), and the producer counts as
 *    the limit only if it falls short of the target twice in a row; the readers take turns trial
 *    by trial, and the search is bounded in trials.  If the producer itself cannot reach the target, the search
 *    stops there: the figure is then the producer's, not the reader's.
 *
 * Every trial checks the count and the checksum of what the reader got; a
 * reader that delivers wrong data fails the bench. */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "rp_perf.h"
#include "rp_perf_buffer.h"

#define E2E_PAYLOAD 64u
#define W1_N 40000ul    /* records per wakeup-per-record run */
#define W1_PAGES 64
#define WM_PAGES 256    /* 1 MiB per CPU */
#define WM_SECONDS 0.25 /* producer time per trial */
#define WM_START 250000.0
#define WM_TRIALS 12    /* per reader, bounding the search's time */
#define WM_BATCH 256    /* records per BPF_PROG_TEST_RUN (the most the program takes) */

enum { R_RINGPROOF, R_LIBBPF, NREADERS };
static const char *const reader_name[NREADERS] = { "rp-perf-buffer", "libbpf" };

typedef struct trial {
	rpb_producer *prod;
	unsigned long n;    /* records to emit */
	double rate;        /* target events/s; 0 = flat out, retrying refusals */
	/* producer side */
	unsigned long written, refused;
	uint64_t t0, t1;
	int err;
	atomic_int done;
	/* consumer side */
	uint64_t sum;
	unsigned long got, lost;
} trial;

static void *producer(void *arg)
{
	trial *t = arg;
	unsigned long tried = 0;
	rpb_pin_cpu(0);
	t->t0 = rpb_ns();
	while (tried < t->n) {
		unsigned long n = t->n - tried > WM_BATCH ? WM_BATCH : t->n - tried;
		if (t->rate > 0) { /* paced: wait for this batch's time */
			uint64_t due = t->t0 + (uint64_t)((double)tried * 1e9 / t->rate);
			while (rpb_ns() < due)
				;
		}
		long w = rpb_fill(t->prod, 0, n, E2E_PAYLOAD);
		if (w < 0) {
			t->err = (int)w;
			break;
		}
		t->written += (unsigned long)w;
		if ((unsigned long)w < n) {
			t->refused += n - (unsigned long)w;
			if (t->rate > 0)
				break; /* a loss: this trial failed, stop early */
			tried += (unsigned long)w; /* flat out: retry the rest */
			sched_yield();
			continue;
		}
		tried += n;
	}
	t->t1 = rpb_ns();
	atomic_store_explicit(&t->done, 1, memory_order_release);
	return NULL;
}

static int rp_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	trial *t = ctx;
	(void)cpu;
	(void)size;
	t->sum = rpb_sum(data, E2E_PAYLOAD, t->sum);
	t->got++;
	return 0;
}

static int rp_lost_cb(void *ctx, int cpu, uint64_t lost)
{
	trial *t = ctx;
	(void)cpu;
	t->lost += lost;
	return 0;
}

static void lb_sample(void *ctx, int cpu, void *data, __u32 size)
{
	trial *t = ctx;
	(void)cpu;
	(void)size;
	t->sum = rpb_sum(data, E2E_PAYLOAD, t->sum);
	t->got++;
}

static void lb_lost(void *ctx, int cpu, __u64 cnt)
{
	trial *t = ctx;
	(void)cpu;
	t->lost += cnt;
}

/* libbpf's raw callback (perf_buffer__new_raw): the record as the kernel
 * wrote it (libbpf copies a record that wraps the ring end). */
static enum bpf_perf_event_ret lb_event(void *ctx, int cpu, struct perf_event_header *ev)
{
	trial *t = ctx;
	(void)cpu;
	if (ev->type == PERF_RECORD_SAMPLE) {
		const uint8_t *raw = (const uint8_t *)(ev + 1) + 4; /* after the u32 size */
		t->sum = rpb_sum(raw, E2E_PAYLOAD, t->sum);
		t->got++;
	} else if (ev->type == PERF_RECORD_LOST) {
		uint64_t lost;
		memcpy(&lost, (const uint8_t *)(ev + 1) + 8, 8); /* after the id */
		t->lost += lost;
	}
	return LIBBPF_PERF_EVENT_CONT;
}

/* One trial: open the reader, run the producer on CPU 0, drain on CPU 1
 * until the producer is done, drain the rest.  wakeup_bytes 0 = a wakeup
 * per record.  0, or 1 if the reader could not be opened or delivered
 * other records than were written (count or checksum). */
static int run_trial(int reader, trial *t, uint32_t pages, uint32_t wakeup_bytes)
{
	rp_perf_buffer *rpb = NULL;
	struct perf_buffer *lb = NULL;
	if (reader == R_RINGPROOF) {
		rp_perf_buffer_opts o = { .data_pages = pages, .wakeup_events = 1, .wakeup_bytes = wakeup_bytes };
		int err = rp_perf_buffer_new_payload(t->prod->map_fd, &o, rp_sample, rp_lost_cb, t, &rpb);
		if (err) {
			fprintf(stderr, "bench e2e: rp_perf_buffer_new_payload: %d\n", err);
			return 1;
		}
	} else if (wakeup_bytes) {
		struct perf_event_attr attr; /* what rp_perf_buffer opens with these opts */
		rp_attr_init_bpf_output(&attr);
		rp_attr_set_wakeup_bytes(&attr, wakeup_bytes);
		lb = perf_buffer__new_raw(t->prod->map_fd, pages, &attr, lb_event, t, NULL);
	} else {
		lb = perf_buffer__new(t->prod->map_fd, pages, lb_sample, lb_lost, t, NULL);
	}
	if (reader == R_LIBBPF && !lb) {
		fprintf(stderr, "bench e2e: libbpf perf_buffer: %s\n", strerror(errno));
		return 1;
	}
	rpb_pin_cpu(1);
	/* The reader at real-time priority: the machine's other jobs must not
	 * preempt it for milliseconds, or the figure is their schedule's. */
	struct sched_param rt = { .sched_priority = 10 }, normal = { .sched_priority = 0 };
	int rt_ok = getenv("RPB_NO_RT") == NULL && sched_setscheduler(0, SCHED_FIFO, &rt) == 0;
	pthread_t th;
	atomic_store(&t->done, 0);
	if (pthread_create(&th, NULL, producer, t) != 0) {
		fprintf(stderr, "bench e2e: pthread_create failed\n");
		return 1;
	}
	int perr = 0;
	while (!atomic_load_explicit(&t->done, memory_order_acquire)) {
		int r = reader == R_RINGPROOF ? rp_perf_buffer_poll(rpb, 20) : perf_buffer__poll(lb, 20);
		if (r < 0 && r != -EINTR) {
			perr = r;
			break;
		}
	}
	pthread_join(th, NULL);
	/* what stayed below the watermark */
	int r = reader == R_RINGPROOF ? rp_perf_buffer_consume(rpb) : perf_buffer__consume(lb);
	if (r < 0 && !perr)
		perr = r;
	if (rt_ok)
		sched_setscheduler(0, SCHED_OTHER, &normal);
	rpb_pin_cpu(0);
	if (rpb)
		rp_perf_buffer_free(rpb);
	perf_buffer__free(lb);
	uint64_t want = rpb_sum(rpb_pattern, E2E_PAYLOAD, 0) * t->written;
	if (t->err || perr || t->got != t->written || t->sum != want) {
		fprintf(stderr, "bench e2e: %s received %lu of %lu written records, checksum %s (producer err %d, poll err %d)\n",
		        reader_name[reader], t->got, t->written, t->sum == want ? "ok" : "WRONG", t->err, perr);
		return 1;
	}
	return 0;
}

/* a) a wakeup per record, producer flat out */
static int wakeup_per_record(rpb_producer *prod, FILE *csv)
{
	printf("end to end, a wakeup per record: %lu records of %u B, %d-page rings, producer CPU 0, reader CPU 1\n",
	       W1_N, E2E_PAYLOAD, W1_PAGES);
	for (int rep = 0; rep < 2; rep++) {
		for (int j = 0; j < NREADERS; j++) {
			int reader = (j + rep) % NREADERS; /* A/B then B/A */
			trial t = { .prod = prod, .n = W1_N };
			if (run_trial(reader, &t, W1_PAGES, 0))
				return 1;
			double secs = (double)(t.t1 - t.t0) / 1e9;
			char extra[96];
			snprintf(extra, sizeof(extra), "pass=%d;ring_full_retries=%lu", rep + 1, t.refused);
			rpb_put(csv, "e2e-wakeup1", E2E_PAYLOAD, reader_name[reader], (double)t.got / secs,
			        "events/s", t.got, 1, extra);
		}
	}
	return 0;
}

typedef struct search {
	double rate;      /* next target */
	double ok_rate;   /* highest target that passed */
	double best;      /* achieved events/s of that trial */
	double fail_rate; /* lowest target that lost records, 0 if none */
	int trials;
	int losses;       /* lossy trials in a row at this target */
	int shorts;       /* lossless trials in a row the producer fell short in */
	int producer_bound;
	int finished;
} search;

/* b) watermark wakeups, highest lossless rate */
static int watermark(rpb_producer *prod, FILE *csv)
{
	uint32_t ring = WM_PAGES * 4096u, wm = ring / 4;
	printf("end to end, watermark wakeups (%u KiB of a %u KiB ring), %u B records: highest lossless events/s\n",
	       wm / 1024, ring / 1024, E2E_PAYLOAD);
	search s[NREADERS];
	for (int i = 0; i < NREADERS; i++)
		s[i] = (search){ .rate = WM_START };
	for (int round = 0; round < WM_TRIALS; round++) {
		for (int j = 0; j < NREADERS; j++) {
			int i = (j + round) % NREADERS; /* take turns, order alternating */
			if (s[i].finished || s[i].trials >= WM_TRIALS)
				continue;
			unsigned long n = (unsigned long)(s[i].rate * WM_SECONDS);
			trial t = { .prod = prod, .n = n < 10000 ? 10000 : n, .rate = s[i].rate };
			if (run_trial(i, &t, WM_PAGES, wm))
				return 1;
			s[i].trials++;
			double achieved = (double)t.written / ((double)(t.t1 - t.t0) / 1e9);
			int lossless = t.refused == 0 && t.lost == 0;
			printf("    trial %-15s target %10.0f/s: %s, achieved %10.0f/s\n", reader_name[i], s[i].rate,
			       lossless ? "lossless" : "LOSS", achieved);
			/* A loss, or a producer that fell short of the target, counts
			 * only when the same happens twice in a row at this target: the
			 * machine's other jobs can stall either thread once. */
			int short_fall = lossless && achieved < 0.9 * s[i].rate;
			s[i].losses = lossless ? 0 : s[i].losses + 1;
			s[i].shorts = short_fall ? s[i].shorts + 1 : 0;
			if (s[i].losses == 1 || s[i].shorts == 1)
				continue; /* try this rate once more */
			s[i].losses = s[i].shorts = 0;
			if (lossless) {
				s[i].ok_rate = s[i].rate;
				if (achieved > s[i].best)
					s[i].best = achieved;
				if (short_fall) { /* the producer cannot go faster */
					s[i].producer_bound = 1;
					s[i].finished = 1;
					continue;
				}
			} else {
				s[i].fail_rate = s[i].rate;
			}
			if (s[i].fail_rate == 0)
				s[i].rate *= 2;
			else if (s[i].ok_rate == 0)
				s[i].rate /= 2;
			else if (s[i].fail_rate / s[i].ok_rate < 1.1)
				s[i].finished = 1;
			else
				s[i].rate = (s[i].ok_rate + s[i].fail_rate) / 2;
		}
	}
	for (int i = 0; i < NREADERS; i++) {
		char extra[160];
		snprintf(extra, sizeof(extra), "wakeup_bytes=%u;ring_bytes=%u;trials=%d;first_loss_at=%.0f;producer_bound=%d",
		         wm, ring, s[i].trials, s[i].fail_rate, s[i].producer_bound);
		rpb_put(csv, "e2e-watermark", E2E_PAYLOAD, reader_name[i], s[i].best, "events/s", 0, s[i].trials,
		        extra);
	}
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
	int rc = wakeup_per_record(&prod, csv);
	if (rc == 0)
		rc = watermark(&prod, csv);
	rpb_producer_close(&prod);
	return rc;
}
