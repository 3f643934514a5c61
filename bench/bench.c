#include "bench.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const unsigned rpb_payloads[RPB_NPAYLOADS] = { 8, 64, 256, 512, 4000 };
uint8_t rpb_pattern[4096];

bool rpb_payload_wanted(unsigned size)
{
	const char *only = getenv("RPB_PAYLOAD");

	return !only || !*only || strtoul(only, NULL, 10) == size;
}

int rpb_producer_open(rpb_producer *p, const char *obj_path, const char *map_name, uint32_t rb_bytes)
{
	memset(p, 0, sizeof(*p));
	p->obj = bpf_object__open_file(obj_path, NULL);
	if (!p->obj)
		return -errno;
	struct bpf_map *m = bpf_object__find_map_by_name(p->obj, map_name);
	if (!m)
		return -ENOENT;
	if (rb_bytes)
		bpf_map__set_max_entries(m, rb_bytes);
	int err = bpf_object__load(p->obj);
	if (err)
		return err;
	p->map_fd = bpf_map__fd(m);
	p->prog_fd = bpf_program__fd(bpf_object__find_program_by_name(p->obj, "bench_fill"));

	uint32_t x = 0x12345678u, key = 0;
	for (size_t i = 0; i < sizeof(rpb_pattern); i++) {
		x = x * 1103515245u + 12345u;
		rpb_pattern[i] = (uint8_t)(x >> 24);
	}
	if (bpf_map_update_elem(bpf_map__fd(bpf_object__find_map_by_name(p->obj, "payload")),
	                        &key, rpb_pattern, 0) < 0)
		return -errno;
	return 0;
}

void rpb_producer_close(rpb_producer *p)
{
	bpf_object__close(p->obj);
	memset(p, 0, sizeof(*p));
}

long rpb_fill(rpb_producer *p, int cpu, unsigned long n, unsigned size)
{
	unsigned long done = 0;
	while (done < n) {
		unsigned long long args[2] = { n - done > 256 ? 256 : n - done, size };
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = args, .ctx_size_in = sizeof(args),
		            .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = (uint32_t)cpu);
		if (bpf_prog_test_run_opts(p->prog_fd, &o) < 0)
			return -errno;
		if ((int)o.retval < 0)
			return (int)o.retval;
		done += o.retval;
		if (o.retval < args[0])
			break;
	}
	return (long)done;
}

int rpb_pin_cpu(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) < 0 ? -errno : 0;
}

uint64_t rpb_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double rpb_median(const double *v, int n)
{
	double s[RPB_ROUNDS];
	if (n <= 0 || n > RPB_ROUNDS)
		return 0;
	memcpy(s, v, (size_t)n * sizeof(*v));
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double rpb_paired_ratio(const double *a, const double *b, int n)
{
	double r[RPB_ROUNDS];
	if (n <= 0 || n > RPB_ROUNDS)
		return 0;
	for (int i = 0; i < n; i++)
		r[i] = b[i] > 0 ? a[i] / b[i] : 0;
	return rpb_median(r, n);
}

void rpb_put_rounds(FILE *csv, const char *bench, unsigned payload, const char *impl,
                    const double *t, unsigned long records)
{
	if (!csv)
		return;
	for (int r = 0; r < RPB_ROUNDS; r++)
		fprintf(csv, "%s-rounds,%u,%s,%.2f,ns/record,%lu,%d,\n", bench, payload, impl, t[r], records, r);
}

void rpb_put_paired(FILE *csv, const char *bench, unsigned payload, const char *impl,
                    const char *ref, const double *t_impl, const double *t_ref, unsigned long records)
{
	char b[64], i[64];
	snprintf(b, sizeof(b), "%s-paired", bench);
	snprintf(i, sizeof(i), "%s/%s", impl, ref);
	rpb_put(csv, b, payload, i, rpb_paired_ratio(t_impl, t_ref, RPB_ROUNDS), "ratio", records,
	        RPB_ROUNDS, "");
}

void rpb_put(FILE *csv, const char *bench, unsigned payload, const char *impl, double value,
             const char *unit, unsigned long records, int rounds, const char *extra)
{
	printf("  %-8s %5u B  %-22s %12.2f %s\n", bench, payload, impl, value, unit);
	fflush(stdout);
	if (csv)
		fprintf(csv, "%s,%u,%s,%.2f,%s,%lu,%d,%s\n", bench, payload, impl, value, unit, records,
		        rounds, extra ? extra : "");
}
