/* Real-kernel tests of the user ring buffer producer (rp_bpf_user_ringbuf):
 * records written through the adapter are drained by a BPF program
 * (bpf/user_ring_test.bpf.c, BPF_PROG_TYPE_SYSCALL run by
 * BPF_PROG_TEST_RUN, bpf_user_ringbuf_drain), which logs what it received.
 * Usage: test_user_ring_integration path/to/user_ring_test.bpf.o
 * Prints TAP.  A test the kernel refuses is a SKIP with the reason. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rp_bpf_user_ringbuf.h"
#include "rp_error.h"

#include "../../bpf/user_ring_test.bpf.h"
#include "../tap.h"

/* ---- the BPF fixture ---------------------------------------------------- */

static const char *bpf_path;
static int bpf_refused;
static int ur_refused; /* no USER_RINGBUF map type (kernel < 6.1): -EINVAL */

typedef struct fixture {
	struct bpf_object *obj;
	int ur_fd, ctl_fd, log_fd, prog;
} fixture;

static int fixture_open(fixture *f, uint32_t size)
{
	memset(f, 0, sizeof *f);
	int err = tap_bpf_load(bpf_path, "urt_ur", size, &f->obj);
	if (err)
		return err;
	f->ur_fd = bpf_object__find_map_fd_by_name(f->obj, "urt_ur");
	f->ctl_fd = bpf_object__find_map_fd_by_name(f->obj, "urt_ctl_map");
	f->log_fd = bpf_object__find_map_fd_by_name(f->obj, "urt_log_map");
	f->prog = bpf_program__fd(bpf_object__find_program_by_name(f->obj, "urt_drain"));
	return 0;
}

static void fixture_close(fixture *f)
{
	if (f->obj)
		bpf_object__close(f->obj);
	f->obj = NULL;
}

static int ctl_get(const fixture *f, struct urt_ctl *ctl)
{
	uint32_t key = 0;
	return bpf_map_lookup_elem(f->ctl_fd, &key, ctl) == 0 ? 0 : -errno;
}

static int set_limit(const fixture *f, uint64_t limit)
{
	struct urt_ctl ctl;
	uint32_t key = 0;
	int err = ctl_get(f, &ctl);
	if (err)
		return err;
	ctl.limit = limit;
	return bpf_map_update_elem(f->ctl_fd, &key, &ctl, BPF_ANY) == 0 ? 0 : -errno;
}

/* Run the draining program once; returns bpf_user_ringbuf_drain's return
 * (records drained, or its negative error), or -errno of the test run. */
static int64_t drain(const fixture *f)
{
	struct urt_ctl ctl;
	LIBBPF_OPTS(bpf_test_run_opts, o);
	if (bpf_prog_test_run_opts(f->prog, &o) != 0)
		return -errno;
	if (o.retval != 0 || ctl_get(f, &ctl) != 0)
		return -EIO;
	return ctl.last_ret;
}

/* Fill a reservation as bpf/user_ring_test.bpf.h describes. */
static void fill(void *p, uint64_t seq, uint32_t len)
{
	struct urt_rec_head h = { .seq = seq, .len = len, .zero = 0 };
	uint8_t *b = p;
	memcpy(b, &h, sizeof h);
	for (uint32_t i = sizeof h; i < len; i++)
		b[i] = (uint8_t)(seq + i);
}

static uint32_t len_of(uint64_t seq)
{
	return 17 + (uint32_t)((seq * 37) % 120); /* 17 .. 136: every padding */
}

/* The BPF side received exactly want[0 .. n-1] (seq, len, content ok), in
 * order, starting at log index from. */
static int check_log(const fixture *f, uint32_t from, const uint64_t *want, uint32_t n,
                     char *why, size_t whylen)
{
	for (uint32_t i = 0; i < n; i++) {
		struct urt_log l;
		uint32_t k = from + i;
		if (bpf_map_lookup_elem(f->log_fd, &k, &l) != 0) {
			snprintf(why, whylen, "log %u: lookup failed", k);
			return -1;
		}
		if (l.seq != want[i] || l.len != len_of(want[i]) || !l.ok) {
			snprintf(why, whylen, "log %u: seq %llu len %u ok %u, want seq %llu len %u",
			         k, (unsigned long long)l.seq, l.len, l.ok,
			         (unsigned long long)want[i], len_of(want[i]));
			return -1;
		}
	}
	return 0;
}

/* The fixture with a ring of size bytes and the producer on it, for a test
 * that needs the kernel's user ring buffer.  1 when the test is over
 * (skipped or failed, already in t): the caller goes to its cleanup. */
static int ur_open(fixture *f, uint32_t size, rp_bpf_user_ringbuf **ur, tcase *t)
{
	if (bpf_refused || ur_refused) {
		tskip(t, bpf_refused ? "bpf()" : "BPF_MAP_TYPE_USER_RINGBUF",
		      bpf_refused ? bpf_refused : ur_refused);
		return 1;
	}
	int err = fixture_open(f, size);
	if (err && refused(err)) {
		tskip(t, "loading a USER_RINGBUF program", err);
		return 1;
	}
	if (err) {
		tfail(t, __LINE__, "fixture: %s", rp_strerror(err));
		return 1;
	}
	err = rp_bpf_user_ringbuf_new(f->ur_fd, ur);
	if (err) {
		tfail(t, __LINE__, "new: %s", rp_strerror(err));
		return 1;
	}
	return 0;
}

/* ---- tests -------------------------------------------------------------- */

/* reserve / submit / discard, a pending record stops the drain, a wrapping
 * record, and the exact sequence received */
static void test_roundtrip(tcase *t)
{
	fixture f = { 0 };
	rp_bpf_user_ringbuf *ur = NULL;
	uint64_t want[URT_LOG_MAX];
	uint32_t nwant = 0;
	struct urt_ctl ctl;
	char why[256];
	int err;

	if (ur_open(&f, 4096, &ur, t))
		goto out;
	CHECK(rp_bpf_user_ringbuf_size(ur) == 4096, "size %llu",
	      (unsigned long long)rp_bpf_user_ringbuf_size(ur));

	/* 200 rounds of 1..5 records, every third discarded, drained each round:
	 * the positions wrap the 4 KiB ring many times */
	uint64_t seq = 0;
	for (int round = 0; round < 200; round++) {
		const int k = 1 + round % 5;
		for (int i = 0; i < k; i++, seq++) {
			const uint32_t len = len_of(seq);
			void *p = rp_bpf_user_ringbuf_reserve(ur, len);
			CHECK(p != NULL, "reserve %u (seq %llu): %s", len, (unsigned long long)seq,
			      strerror(errno));
			fill(p, seq, len);
			if (seq % 3 == 2) {
				CHECK(rp_bpf_user_ringbuf_discard(ur, p) == 0, "discard");
			} else {
				CHECK(rp_bpf_user_ringbuf_submit(ur, p) == 0, "submit");
				want[nwant++] = seq;
			}
			/* a second commit is refused, and writes nothing */
			err = rp_bpf_user_ringbuf_submit(ur, p);
			CHECK(err == RP_E_UR_NOT_RESERVED, "second submit: %d", err);
		}
		const int64_t r = drain(&f);
		CHECK(r >= 0, "drain: %lld", (long long)r);
		CHECK(rp_bpf_user_ringbuf_used(ur) == 0, "used %llu after a full drain",
		      (unsigned long long)rp_bpf_user_ringbuf_used(ur));
	}
	CHECK(ctl_get(&f, &ctl) == 0, "ctl");
	CHECK(ctl.received == nwant && ctl.bad == 0, "received %llu (bad %llu), want %u",
	      (unsigned long long)ctl.received, (unsigned long long)ctl.bad, nwant);
	CHECK(check_log(&f, 0, want, nwant, why, sizeof why) == 0, "%s", why);

	/* a pending reservation stops the drain; its successors wait behind it */
	void *a = rp_bpf_user_ringbuf_reserve(ur, len_of(seq));
	CHECK(a, "reserve a");
	fill(a, seq, len_of(seq));
	void *b = rp_bpf_user_ringbuf_reserve(ur, len_of(seq + 1));
	CHECK(b, "reserve b");
	fill(b, seq + 1, len_of(seq + 1));
	CHECK(rp_bpf_user_ringbuf_submit(ur, b) == 0, "submit b");
	CHECK(drain(&f) == 0, "a pending record did not stop the drain");
	CHECK(ctl_get(&f, &ctl) == 0 && ctl.received == nwant, "received past a pending record");
	CHECK(rp_bpf_user_ringbuf_submit(ur, a) == 0, "submit a");
	CHECK(drain(&f) == 2, "drain after submit a");
	want[nwant++] = seq;
	want[nwant++] = seq + 1;
	CHECK(check_log(&f, 0, want, nwant, why, sizeof why) == 0, "%s", why);

	/* bad arguments */
	errno = 0;
	CHECK(!rp_bpf_user_ringbuf_reserve(ur, RP_UR_LEN_MAX + 1) && errno == E2BIG,
	      "len 2^24: errno %d", errno);
	CHECK(rp_bpf_user_ringbuf_last_error(ur) == RP_E_UR_LEN, "last error %d",
	      rp_bpf_user_ringbuf_last_error(ur));
	errno = 0;
	CHECK(!rp_bpf_user_ringbuf_reserve(ur, 4096 - 7) && errno == E2BIG, "larger than the ring");
	CHECK(rp_bpf_user_ringbuf_last_error(ur) == RP_E_UR_TOO_BIG, "last error");
	CHECK(rp_bpf_user_ringbuf_submit(ur, (uint8_t *)a + 1) != 0, "misaligned sample accepted");
	CHECK(rp_bpf_user_ringbuf_submit(ur, &ctl) == RP_E_UR_OFF, "foreign pointer accepted");
	CHECK(rp_bpf_user_ringbuf_submit(ur, NULL) == -EINVAL, "NULL sample");
	errno = 0;
	CHECK(!rp_bpf_user_ringbuf_reserve_blocking(ur, 16, -2) && errno == EINVAL, "timeout -2");
	CHECK(drain(&f) == 0, "nothing new, yet the drain returned records");
out:
	rp_bpf_user_ringbuf_free(ur);
	fixture_close(&f);
}

/* fill the ring to ENOSPC: exactly as many records as fit, then a blocking
 * reserve that times out, and one that succeeds once the kernel drains */
typedef struct drainer {
	const fixture *f;
	int delay_ms;
	int64_t ret;
} drainer;

static void *drainer_main(void *arg)
{
	drainer *d = arg;
	struct timespec ts = { d->delay_ms / 1000, (long)(d->delay_ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
	d->ret = drain(d->f);
	return NULL;
}

/* signals the waiting thread after delay_ms (a handler without SA_RESTART;
 * epoll_wait is never restarted anyway) */
typedef struct kicker {
	pthread_t target;
	int delay_ms;
} kicker;

static void on_usr1(int sig)
{
	(void)sig;
}

static void *kicker_main(void *arg)
{
	kicker *k = arg;
	struct timespec ts = { 0, (long)k->delay_ms * 1000000 };
	nanosleep(&ts, NULL);
	pthread_kill(k->target, SIGUSR1);
	return NULL;
}

static double ms_since(const struct timespec *a)
{
	struct timespec b;
	clock_gettime(CLOCK_MONOTONIC, &b);
	return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

static void test_full_and_blocking(tcase *t)
{
	fixture f = { 0 };
	rp_bpf_user_ringbuf *ur = NULL;
	struct urt_ctl ctl;
	pthread_t th;
	bool th_started = false;

	if (ur_open(&f, 4096, &ur, t))
		goto out;

	/* 40-byte payloads take 48 bytes: 85 fit in 4096 (85 * 48 = 4080) */
	uint64_t seq = 1000;
	uint32_t fitted = 0;
	for (;;) {
		void *p = rp_bpf_user_ringbuf_reserve(ur, 40);
		if (!p) {
			CHECK(errno == ENOSPC, "reserve %u: %s", fitted, strerror(errno));
			break;
		}
		fill(p, seq, 40); /* not len_of(seq): the head says 40 */
		CHECK(rp_bpf_user_ringbuf_submit(ur, p) == 0, "submit");
		fitted++;
		seq++;
		CHECK(fitted <= 85, "more than 85 records fitted in 4096 bytes");
	}
	CHECK(fitted == 85, "%u records fitted, want 85", fitted);
	CHECK(rp_bpf_user_ringbuf_last_error(ur) == RP_E_UR_FULL, "last error %d",
	      rp_bpf_user_ringbuf_last_error(ur));
	CHECK(rp_bpf_user_ringbuf_used(ur) == 4080, "used %llu",
	      (unsigned long long)rp_bpf_user_ringbuf_used(ur));
	/* 16 bytes are free: an 8-byte payload (16-byte record) still fits */
	void *small = rp_bpf_user_ringbuf_reserve(ur, 8);
	CHECK(small, "the last 16 bytes: %s", strerror(errno));
	CHECK(rp_bpf_user_ringbuf_discard(ur, small) == 0, "discard the last record");
	errno = 0;
	CHECK(!rp_bpf_user_ringbuf_reserve(ur, 0) && errno == ENOSPC, "reserve in a full ring");

	/* blocking reserve with nobody draining: times out after >= 150 ms */
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	void *p = rp_bpf_user_ringbuf_reserve_blocking(ur, 40, 150);
	double ms = ms_since(&t0);
	CHECK(!p && errno == ENOSPC, "blocking reserve on a full ring: %p %s", p, strerror(errno));
	CHECK(ms >= 149.0 && ms < 2000.0, "timed out after %.1f ms, want 150", ms);
	/* a signal while waiting: NULL with EINTR, long before the deadline */
	struct sigaction sa, old_sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, &old_sa) == 0, "sigaction");
	kicker kk = { .target = pthread_self(), .delay_ms = 100 };
	pthread_t kth;
	CHECK(pthread_create(&kth, NULL, kicker_main, &kk) == 0, "pthread_create");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	p = rp_bpf_user_ringbuf_reserve_blocking(ur, 40, 5000);
	const int eintr_errno = errno;
	ms = ms_since(&t0);
	pthread_join(kth, NULL);
	sigaction(SIGUSR1, &old_sa, NULL);
	CHECK(!p && eintr_errno == EINTR, "signal during the wait: %p %s", p, strerror(eintr_errno));
	CHECK(ms >= 50.0 && ms < 4000.0, "EINTR after %.1f ms (signal at 100 ms)", ms);
	CHECK(rp_bpf_user_ringbuf_last_error(ur) == -EINTR, "last error %d",
	      rp_bpf_user_ringbuf_last_error(ur));
	/* timeout 0: one attempt, no wait */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	CHECK(!rp_bpf_user_ringbuf_reserve_blocking(ur, 40, 0) && errno == ENOSPC, "timeout 0");
	CHECK(ms_since(&t0) < 100.0, "timeout 0 waited %.1f ms", ms_since(&t0));

	/* the kernel drains 10 records 200 ms from now: the blocking reserve
	 * (5 s budget) wakes and succeeds well before its deadline */
	CHECK(set_limit(&f, 10) == 0, "set limit");
	drainer d = { .f = &f, .delay_ms = 200, .ret = 0 };
	CHECK(pthread_create(&th, NULL, drainer_main, &d) == 0, "pthread_create");
	th_started = true;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	p = rp_bpf_user_ringbuf_reserve_blocking(ur, 40, 5000);
	ms = ms_since(&t0);
	pthread_join(th, NULL);
	th_started = false;
	CHECK(p, "blocking reserve after a drain: %s", strerror(errno));
	CHECK(d.ret == 10, "the drain returned %lld, want 10", (long long)d.ret);
	CHECK(ms >= 150.0 && ms < 4000.0, "woke after %.1f ms (drain at 200 ms)", ms);
	fill(p, seq, 40);
	CHECK(rp_bpf_user_ringbuf_submit(ur, p) == 0, "submit");
	seq++;

	/* drain everything: the 85 + 1 records, the discarded one skipped */
	CHECK(set_limit(&f, 0) == 0, "set limit");
	const int64_t r = drain(&f);
	CHECK(r == 76, "final drain returned %lld, want 76", (long long)r);
	CHECK(ctl_get(&f, &ctl) == 0, "ctl");
	CHECK(ctl.received == 86 && ctl.bad == 0, "received %llu bad %llu",
	      (unsigned long long)ctl.received, (unsigned long long)ctl.bad);
	for (uint64_t s = 1000; s < seq; s++) {
		struct urt_log l;
		uint32_t k = (uint32_t)(s - 1000);
		CHECK(bpf_map_lookup_elem(f.log_fd, &k, &l) == 0, "log %u", k);
		CHECK(l.seq == s && l.len == 40 && l.ok, "log %u: seq %llu len %u ok %u", k,
		      (unsigned long long)l.seq, l.len, l.ok);
	}
	CHECK(rp_bpf_user_ringbuf_used(ur) == 0, "used after the final drain");
out:
	if (th_started)
		pthread_join(th, NULL);
	rp_bpf_user_ringbuf_free(ur);
	fixture_close(&f);
}

/* the largest record the kernel's drain accepts is RP_UR_LEN_MAX bytes
 * (2^24 - 1, a dynptr's limit): it drains; one byte more is refused here,
 * before it could block the ring (the kernel would fail every drain with
 * -E2BIG and never consume it) */
static void test_max_len(tcase *t)
{
	fixture f = { 0 };
	rp_bpf_user_ringbuf *ur = NULL;
	struct urt_ctl ctl;
	struct urt_log l;
	uint32_t k = 0;

	if (ur_open(&f, 1u << 25, &ur, t))
		goto out;
	errno = 0;
	CHECK(!rp_bpf_user_ringbuf_reserve(ur, RP_UR_LEN_MAX + 1) && errno == E2BIG,
	      "2^24 bytes accepted");
	CHECK(rp_bpf_user_ringbuf_used(ur) == 0, "a refused reserve moved the producer");
	void *p = rp_bpf_user_ringbuf_reserve(ur, RP_UR_LEN_MAX);
	CHECK(p, "reserve 2^24 - 1: %s", strerror(errno));
	fill(p, 77, RP_UR_LEN_MAX);
	CHECK(rp_bpf_user_ringbuf_submit(ur, p) == 0, "submit");
	const int64_t r = drain(&f);
	CHECK(r == 1, "drain returned %lld, want 1", (long long)r);
	CHECK(ctl_get(&f, &ctl) == 0 && ctl.received == 1 && ctl.bad == 0, "received %llu bad %llu",
	      (unsigned long long)ctl.received, (unsigned long long)ctl.bad);
	CHECK(bpf_map_lookup_elem(f.log_fd, &k, &l) == 0 && l.seq == 77 && l.len == RP_UR_LEN_MAX &&
	      l.ok, "log: seq %llu len %u ok %u", (unsigned long long)l.seq, l.len, l.ok);
	CHECK(rp_bpf_user_ringbuf_used(ur) == 0, "used after the drain");
out:
	rp_bpf_user_ringbuf_free(ur);
	fixture_close(&f);
}

/* new() on what is not a user ring buffer */
static void test_bad_map(tcase *t)
{
	rp_bpf_user_ringbuf *ur = (rp_bpf_user_ringbuf *)&ur;
	int fd = -1, err;

	err = rp_bpf_user_ringbuf_new(-1, &ur);
	CHECK(err == -EBADF && ur == NULL, "fd -1: %d", err);
	CHECK(rp_bpf_user_ringbuf_new(0, NULL) == -EINVAL, "out NULL");
	if (bpf_refused) {
		tskip(t, "bpf()", bpf_refused);
		return;
	}
	fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, NULL, 0, 0, 4096, NULL);
	if (fd < 0 && refused(-errno)) {
		tskip(t, "BPF_MAP_TYPE_RINGBUF", -errno);
		return;
	}
	CHECK(fd >= 0, "ringbuf map: %s", strerror(errno));
	err = rp_bpf_user_ringbuf_new(fd, &ur);
	CHECK(err == RP_E_UR_MAP_TYPE && ur == NULL, "a RINGBUF map: %d (%s)", err, rp_strerror(err));
	close(fd);
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
	CHECK(fd >= 0, "array map: %s", strerror(errno));
	err = rp_bpf_user_ringbuf_new(fd, &ur);
	CHECK(err == RP_E_UR_MAP_TYPE, "an ARRAY map: %d", err);
	close(fd);
	fd = -1;
	CHECK(rp_bpf_user_ringbuf_reserve(NULL, 8) == NULL && errno == EINVAL, "NULL ring");
	CHECK(rp_bpf_user_ringbuf_submit(NULL, &err) == -EINVAL, "NULL ring submit");
	rp_bpf_user_ringbuf_free(NULL);
out:
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	static const tap_test tests[] = {
		{ "user ringbuf round trip: submit, discard, wrap, pending record stops the drain", test_roundtrip },
		{ "user ringbuf full to ENOSPC, blocking reserve times out, EINTR, wakes after a drain", test_full_and_blocking },
		{ "user ringbuf largest record (2^24 - 1 bytes) drains, 2^24 refused", test_max_len },
		{ "user ringbuf wrong map type, bad fd, NULL arguments", test_bad_map },
	};
	const int n = (int)(sizeof tests / sizeof tests[0]);

	if (argc < 2) {
		fprintf(stderr, "usage: %s user_ring_test.bpf.o\n", argv[0]);
		return 2;
	}
	bpf_path = argv[1];
	libbpf_set_print(NULL);
	bpf_refused = tap_bpf_refused();
	if (!bpf_refused) {
		int probe = bpf_map_create(BPF_MAP_TYPE_USER_RINGBUF, NULL, 0, 0, 4096, NULL);
		if (probe < 0 && (errno == EINVAL || refused(-errno)))
			ur_refused = -errno;
		if (probe >= 0)
			close(probe);
	}
	return tap_run(tests, n);
}
