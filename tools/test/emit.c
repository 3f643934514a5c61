/* Test helper for the tools suite: pin maps under bpffs and produce events
 * into them with BPF_PROG_TEST_RUN.
 *   emit pin-perf PATH                 pin a new PERF_EVENT_ARRAY (one slot per CPU)
 *   emit pin-ringbuf PATH              pin a new 64 KiB RINGBUF
 *   emit perf OBJ PATH N SIZE          N records of SIZE bytes via bench_perf.bpf.o
 *   emit ringbuf OBJ PATH N SIZE       the same via bench_ringbuf.bpf.o
 * Payload byte i is (i + 1) & 0xff.  perf waits (up to 10 s) until a consumer
 * has bound a buffer on CPU 0 (and room in it).  Exit 0 on success, 1 on failure, 3 if the
 * kernel refused (EPERM/ENOSYS: the caller turns that into a SKIP). */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int refused(int err)
{
	return err == EPERM || err == EACCES || err == ENOSYS || err == EOPNOTSUPP;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "emit: %s: %s\n", what, strerror(err));
	return refused(err) ? 3 : 1;
}

static int pin_map(enum bpf_map_type type, const char *path)
{
	uint32_t entries = type == BPF_MAP_TYPE_RINGBUF ? 65536u : (uint32_t)libbpf_num_possible_cpus();
	uint32_t ksz = type == BPF_MAP_TYPE_RINGBUF ? 0 : 4;
	int fd = bpf_map_create(type, "rp_test", ksz, ksz, entries, NULL);
	if (fd < 0)
		return fail("bpf_map_create", errno);
	if (bpf_obj_pin(fd, path) < 0)
		return fail(path, errno);
	close(fd);
	return 0;
}

static int produce(const char *objpath, const char *map_name, const char *pin,
                   unsigned long n, unsigned long size, int wait_for_consumer)
{
	struct bpf_object *obj = bpf_object__open_file(objpath, NULL);
	if (!obj)
		return fail(objpath, errno);
	int pinned = bpf_obj_get(pin);
	if (pinned < 0)
		return fail(pin, errno);
	if (bpf_map__reuse_fd(bpf_object__find_map_by_name(obj, map_name), pinned) < 0)
		return fail("reusing the pinned map", errno);
	if (bpf_object__load(obj) < 0)
		return fail("loading the producer", errno);

	static unsigned char buf[4096];
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i + 1);
	uint32_t key = 0;
	if (bpf_map_update_elem(bpf_map__fd(bpf_object__find_map_by_name(obj, "payload")), &key, buf, 0) < 0)
		return fail("filling the payload", errno);

	int prog = bpf_program__fd(bpf_object__find_program_by_name(obj, "bench_fill"));
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (n > 0) {
		unsigned long long args[2] = { n > 256 ? 256 : n, size };
		LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args),
		            .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = 0);
		if (bpf_prog_test_run_opts(prog, &opts) < 0)
			return fail("BPF_PROG_TEST_RUN", errno);
		int written = (int)opts.retval;
		if (written < 0)
			return fail("the producer rejected its arguments", -written);
		if ((unsigned long)written < args[0]) {
			/* perf: no buffer bound on CPU 0 yet (or full); ringbuf: full */
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (!wait_for_consumer || now.tv_sec - t0.tv_sec > 10)
				return fail("the output helper kept failing (no consumer bound on CPU 0, or ring full)", ENOSPC);
			usleep(20000);
		}
		n -= (unsigned long)written;
	}
	bpf_object__close(obj);
	close(pinned);
	return 0;
}

int main(int argc, char **argv)
{
	libbpf_set_print(NULL);
	if (argc == 3 && !strcmp(argv[1], "pin-perf"))
		return pin_map(BPF_MAP_TYPE_PERF_EVENT_ARRAY, argv[2]);
	if (argc == 3 && !strcmp(argv[1], "pin-ringbuf"))
		return pin_map(BPF_MAP_TYPE_RINGBUF, argv[2]);
	if (argc == 6 && (!strcmp(argv[1], "perf") || !strcmp(argv[1], "ringbuf"))) {
		int perf = !strcmp(argv[1], "perf");
		return produce(argv[2], perf ? "bench_events" : "bench_rb", argv[3],
		               strtoul(argv[4], NULL, 10), strtoul(argv[5], NULL, 10), perf);
	}
	fprintf(stderr, "usage: emit pin-perf|pin-ringbuf PATH | emit perf|ringbuf OBJ PATH N SIZE\n");
	return 2;
}
