/* TAP scaffolding shared by the real-kernel test programs
 * (tests/ringbuf/test_ringbuf_integration.c,
 * tests/user_ring/test_user_ring_integration.c, and tests/integration
 * through itest.h), and the libbpf steps their BPF fixtures share.  Header
 * only: every function is static inline, so a program that includes it
 * needs no extra object (the programs link libbpf already).
 *
 * A test is a function void fn(tcase *t) that leaves t->status at
 * TAP_PASS, or sets it with tfail() (through CHECK) or tskip(). */
#ifndef RP_TESTS_TAP_H
#define RP_TESTS_TAP_H

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* ---- BPF fixtures --------------------------------------------------------- */

/* 0 when this process may use bpf(), else the refusal (a negative errno):
 * then every test that needs bpf() is a SKIP. */
static inline int tap_bpf_refused(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, 4, 1, NULL);
	int err = fd < 0 && refused(-errno) ? -errno : 0;
	if (fd >= 0)
		close(fd);
	return err;
}

/* Open the BPF object at path, size its map named map to max_entries and
 * load it.  0 with *obj set, or a negative errno with *obj NULL. */
static inline int tap_bpf_load(const char *path, const char *map, uint32_t max_entries,
                               struct bpf_object **obj)
{
	*obj = bpf_object__open_file(path, NULL);
	if (!*obj)
		return -errno;
	struct bpf_map *m = bpf_object__find_map_by_name(*obj, map);
	int err = !m || bpf_map__set_max_entries(m, max_entries) != 0 ? -EINVAL
	                                                               : bpf_object__load(*obj);
	if (err) {
		bpf_object__close(*obj);
		*obj = NULL;
		return err < 0 ? err : -err;
	}
	return 0;
}

#endif
