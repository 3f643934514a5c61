/* Integration-test harness: a TAP runner and the BPF producer fixture. */
#ifndef ITEST_H
#define ITEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>

#include "../../bpf/itest_emit.bpf.h"
#include "../tap.h"
#include "rp_adapter.h"

/* A test case, its status and message, and CHECK (tfail, goto out) are
 * those of tests/tap.h.  The runner (main.c) writes its own TAP: the
 * message as a comment before the ok line, SKIP lines on stdout, the plan
 * last (--only selects). */
typedef tcase itest;

/* A SKIP with a reason of its own. */
void itest_skip(itest *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A refused syscall (not root, no perf, no bpf) is a SKIP, not a pass.
 * Narrower than tap.h's refused(): -EOPNOTSUPP here is a failure. */
bool itest_refused(int err);
#define SKIP_IF_REFUSED(err, what)                 \
	do {                                       \
		if (itest_refused(err)) {          \
			tskip(t, what, err);       \
			goto out;                  \
		}                                  \
	} while (0)

/* The BPF producer (bpf/itest_emit.bpf.c) loaded with libbpf. */
typedef struct itest_bpf {
	struct bpf_object *obj;
	int prog_fd;
	int events_fd; /* PERF_EVENT_ARRAY */
	int source_fd; /* ARRAY of one struct itest_source */
	struct bpf_program *live; /* raw_tp/sys_enter, not attached */
} itest_bpf;

int itest_bpf_open(itest_bpf *b);
void itest_bpf_close(itest_bpf *b);
/* itest_bpf_open in a test: a SKIP if the kernel refuses bpf, else a FAIL
 * on error (both goto out). */
#define ITEST_BPF_OPEN(b)                                                   \
	do {                                                                \
		const int bpf_err_ = itest_bpf_open(b);                     \
		SKIP_IF_REFUSED(bpf_err_, "bpf");                           \
		CHECK(bpf_err_ == 0, "bpf open: %s", rp_strerror(bpf_err_)); \
	} while (0)
int itest_set_source(const itest_bpf *b, const struct itest_source *s);
int itest_get_source(const itest_bpf *b, struct itest_source *s);
/* One BPF_PROG_TEST_RUN of the producer; -errno or the program's nonzero
 * return value as -EPROTO. */
int itest_run(const itest_bpf *b);

/* Run the producer once with count records of size bytes from src->data;
 * src is refreshed from the map afterwards (seq and the counters). */
int itest_emit(const itest_bpf *b, struct itest_source *src, uint32_t count, uint32_t size);

/* Pin the calling thread to this CPU (so "current CPU" is known). */
int itest_pin(int cpu);
void itest_unpin(void);
/* Burn CPU for ms milliseconds of thread CPU time. */
void itest_busy_ms(unsigned ms);
/* The expected byte i of payload number k (independent of the library). */
static inline uint8_t itest_pattern(uint64_t k, uint32_t i)
{
	return (uint8_t)(k * 131u + i * 7u + (i >> 8) + 1u);
}
/* Raw size the kernel records for an n-byte payload (docs/abi.md). */
static inline uint32_t itest_raw_size(uint32_t n)
{
	return ((n + 4u + 7u) & ~7u) - 4u;
}
/* Calls a batch drain makes for n records of rec_bytes each, by the rule
 * rp_adapter.h states: the first batch takes up to cap records, each later
 * one RP_BATCH_BYTES / rec_bytes (1 .. cap). */
static inline unsigned itest_batch_calls(unsigned n, unsigned rec_bytes, unsigned cap)
{
	unsigned fit = RP_BATCH_BYTES / rec_bytes, calls = 1;

	fit = fit == 0 ? 1 : fit > cap ? cap : fit;
	n = n > cap ? n - cap : 0;
	return calls + (n + fit - 1) / fit;
}
/* Quick mode (valgrind): fewer events. */
bool itest_quick(void);

#endif
