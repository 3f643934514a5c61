/* TAP scaffolding shared by the real-kernel test programs
 * (tests/ringbuf/test_ringbuf_integration.c,
 * tests/user_ring/test_user_ring_integration.c, and tests/integration
 * through itest.h).  Header only: every function is static inline, so a
 * program that includes it needs no extra object.
 *
 * A test is a function void fn(tcase *t) that leaves t->status at
 * TAP_PASS, or sets it with tfail() (through CHECK) or tskip(). */
#ifndef RP_TESTS_TAP_H
#define RP_TESTS_TAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rp_error.h"

enum { TAP_PASS = 0, TAP_FAIL = 1, TAP_SKIP = 2 };

typedef struct tcase {
	int status; /* TAP_PASS, TAP_FAIL or TAP_SKIP */
	char msg[512];
} tcase;

/* Fail the test: msg is "line LINE: " and the formatted reason. */
__attribute__((format(printf, 3, 4)))
static inline void tfail(tcase *t, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(t->msg, sizeof t->msg, "line %d: ", line);
	va_start(ap, fmt);
	vsnprintf(t->msg + n, sizeof t->msg - (size_t)n, fmt, ap);
	va_end(ap);
	t->status = TAP_FAIL;
}

/* Skip the test: the kernel refused what (err is a negative errno). */
static inline void tskip(tcase *t, const char *what, int err)
{
	snprintf(t->msg, sizeof t->msg, "%s refused by the kernel: %s", what, rp_strerror(err));
	t->status = TAP_SKIP;
}

/* In a test function with an `out:` cleanup label and a `tcase *t`. */
#define CHECK(cond, ...)                                   \
	do {                                               \
		if (!(cond)) {                             \
			tfail(t, __LINE__, __VA_ARGS__);   \
			goto out;                          \
		}                                          \
	} while (0)

/* A negative errno that means "not allowed or not there" (not root, no
 * bpf(), an unsupported operation): the test is a SKIP, not a failure. */
static inline bool refused(int err)
{
	return err == -EPERM || err == -EACCES || err == -ENOSYS || err == -EOPNOTSUPP;
}

/* One TAP line for test number n (and "# reason" after a failure; a SKIP
 * is also told on stderr).  Returns 1 for a failure, else 0. */
static inline int tap_report(int n, const char *name, const tcase *t)
{
	int failed = 0;
	if (t->status == TAP_PASS) {
		printf("ok %d - %s\n", n, name);
	} else if (t->status == TAP_SKIP) {
		printf("ok %d - %s # SKIP %s\n", n, name, t->msg);
		fprintf(stderr, "SKIP: %s: %s\n", name, t->msg);
	} else {
		printf("not ok %d - %s\n# %s\n", n, name, t->msg);
		failed = 1;
	}
	fflush(stdout);
	return failed;
}

typedef struct tap_test {
	const char *name;
	void (*fn)(tcase *t);
} tap_test;

/* Print the plan "1..n", run the n tests in order, report each.  Returns
 * the exit status: 1 if any test failed, else 0. */
static inline int tap_run(const tap_test *tests, int n)
{
	int failed = 0;
	printf("1..%d\n", n);
	for (int i = 0; i < n; i++) {
		tcase t;
		memset(&t, 0, sizeof t);
		tests[i].fn(&t);
		failed += tap_report(i + 1, tests[i].name, &t);
	}
	return failed ? 1 : 0;
}

#endif
