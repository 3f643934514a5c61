/* ringproof trace: syscalls and execs, system-wide, through the built-in BPF
 * program, a per-CPU perf buffer set and the verified core. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rp_error.h"
#include "rp_perf_buffer.h"
#include "rp_ringbuf_linux.h"
#include "proc_table.h"
#include "rp_views.h"
#include "trace_event.h"

#define TRACE_PAGES 256 /* per CPU: 1 MiB data area with 4 KiB pages */
#define TRACE_RB_BYTES (1u << 22) /* the ring buffer, shared by all CPUs */

typedef struct trace_state {
	bool json;
	uint64_t events;
	uint64_t bad_payload; /* a SAMPLE whose payload is not an rp_trace_event */
	rpt_proc_table procs;
} trace_state;

static void trace_usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof trace [--seconds N] [--json] [--ringbuf]\n"
	        "Trace syscall entries and execs of every process through a built-in BPF\n"
	        "program, decoding its per-CPU perf buffers with ringproof's verified core.\n"
	        "\n"
	        "  -s, --seconds N  stop after N seconds (default 5; 0: until Ctrl-C)\n"
	        "  -j, --json       one JSON object per event on stdout (summary on stderr)\n"
	        "  -r, --ringbuf    use a BPF ring buffer instead of the perf buffer set\n"
	        "  -h, --help       show this help\n"
	        "\n"
	        "A live status line (events/s, bytes/s, lost, corrupt) is shown when stderr\n"
	        "is a terminal; a table of the busiest processes follows at the end.\n");
}

/* libbpf's own messages only with RINGPROOF_DEBUG set: errors are reported once, by us */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	if (getenv("RINGPROOF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static void print_event(int cpu, const struct rp_trace_event *e)
{
	if (cpu >= 0)
		printf("{\"cpu\":%d,", cpu);
	else
		fputc('{', stdout);
	printf("\"kind\":\"%s\",\"pid\":%u,\"tid\":%u,",
	       e->kind == RP_TRACE_EXEC ? "exec" : "syscall", e->pid, e->tid);
	if (e->kind != RP_TRACE_EXEC)
		printf("\"nr\":%d,", e->nr);
	printf("\"ts_ns\":%llu,\"comm\":", e->ts_ns);
	rpt_json_str(stdout, e->comm, sizeof(e->comm));
	fputs("}\n", stdout);
}

/* One decoded event; cpu is -1 when the transport does not say (ringbuf). */
static int on_event(trace_state *st, int cpu, const struct rp_trace_event *ev)
{
	struct rp_trace_event e = *ev;
	e.comm[sizeof(e.comm) - 1] = 0;
	st->events++;
	rpt_proc_count(&st->procs, e.pid, e.comm, e.kind);
	if (st->json) {
		print_event(cpu, &e);
		if (ferror(stdout))
			return 1;
	}
	return 0;
}

static int on_sample(void *arg, int cpu, const rp_bpf_output *out)
{
	trace_state *st = arg;
	struct rp_trace_event e;

	if (out->raw_size < sizeof(e)) {
		st->bad_payload++;
		return 0;
	}
	/* the payload sits at ring offset 4 mod 8 and may wrap: copy, then read */
	rp_span_copy(out->data, (uint8_t *)&e, sizeof(e));
	return on_event(st, cpu, &e);
}

static int on_rb_record(void *arg, const void *data, uint32_t len)
{
	trace_state *st = arg;
	struct rp_trace_event e;

	if (len != sizeof(e)) {
		st->bad_payload++;
		return 0;
	}
	memcpy(&e, data, sizeof(e));
	return on_event(st, -1, &e);
}

typedef struct transport {
	rp_perf_buffer *pb;   /* perf buffer set, or */
	rp_ringbuf_set *rbs;  /* the ring buffer */
	int bss_fd;           /* the program's .bss (rb_drops), -1 if unknown */
} transport;

static void totals(const transport *t, uint64_t *bytes, uint64_t *lost, uint64_t *corrupt)
{
	*bytes = *lost = *corrupt = 0;
	for (uint32_t i = 0; t->pb && i < rp_perf_buffer_ring_count(t->pb); i++) {
		rp_ring_stats rs;
		if (rp_perf_buffer_stats(t->pb, rp_perf_buffer_ring_cpu(t->pb, i), &rs) != 0)
			continue;
		*bytes += rs.bytes;
		*lost += rs.lost;
		*corrupt += rs.corrupt;
	}
	if (t->pb)
		*corrupt += rp_perf_buffer_malformed(t->pb);
	if (t->rbs) {
		rp_ringbuf_stats rs;
		if (rp_ringbuf_set_stats(t->rbs, 0, &rs) == 0) {
			*bytes += rs.bytes;
			*corrupt += rs.corrupt;
		}
		/* the kernel counts no ring buffer drops: the program does (rb_drops) */
		uint64_t bss[8] = { 0 };
		uint32_t key = 0;
		if (t->bss_fd >= 0 && bpf_map_lookup_elem(t->bss_fd, &key, bss) == 0)
			*lost += bss[0];
	}
}

static void human(double v, char *buf, size_t n)
{
	const char *unit[] = { "", "K", "M", "G" };
	int u = 0;
	while (v >= 1000.0 && u < 3) {
		v /= 1000.0;
		u++;
	}
	snprintf(buf, n, "%.1f%s", v, unit[u]);
}

/* libbpf names internal maps "<object prefix>.rodata" / ".bss". */
static struct bpf_map *find_internal(struct bpf_object *obj, const char *suffix)
{
	struct bpf_map *m;
	size_t sl = strlen(suffix);
	bpf_object__for_each_map(m, obj) {
		const char *name = bpf_map__name(m);
		size_t len = strlen(name);
		if (bpf_map__is_internal(m) && len >= sl && !strcmp(name + len - sl, suffix))
			return m;
	}
	return NULL;
}

int rpt_cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "ringbuf", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seconds = 5;
	bool ringbuf = false;
	int c;
	trace_state *st = calloc(1, sizeof(*st));

	if (!st)
		return rpt_fail("allocating the process table", -ENOMEM);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:jrh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!rpt_parse_u64(optarg, 86400 * 365, &seconds)) {
				free(st);
				return rpt_usage_error("trace", "--seconds wants a whole number of seconds, not '%s'", optarg);
			}
			break;
		case 'j': st->json = true; break;
		case 'r': ringbuf = true; break;
		case 'h':
			free(st);
			trace_usage(stdout);
			return rpt_out_flush() ? RPT_EXIT_OK : RPT_EXIT_FAIL;
		case ':':
			free(st);
			return rpt_usage_error("trace", "option '%s' needs a value", argv[optind - 1]);
		default:
			free(st);
			return rpt_usage_error("trace", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		free(st);
		return rpt_usage_error("trace", "unexpected argument '%s'", argv[optind]);
	}

	int rc = RPT_EXIT_FAIL;
	int err;
	struct bpf_link *links[2] = { NULL, NULL };
	transport tr = { .pb = NULL, .rbs = NULL, .bss_fd = -1 };
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "ringproof_trace");
	libbpf_set_print(libbpf_quiet);
	struct bpf_object *obj = bpf_object__open_mem(rpt_trace_bpf_obj,
	                                              (size_t)(rpt_trace_bpf_obj_end - rpt_trace_bpf_obj), &oo);
	if (!obj) {
		rpt_fail("opening the built-in BPF object", -errno);
		goto out;
	}
	struct bpf_map *rodata = find_internal(obj, ".rodata");
	size_t rosz = 0;
	const void *ro = rodata ? bpf_map__initial_value(rodata, &rosz) : NULL;
	if (!ro || rosz < sizeof(struct rp_trace_config) || rosz > 4096) {
		rpt_fail("finding the BPF program's settings", -ENOENT);
		goto out;
	}
	unsigned char robuf[4096];
	struct rp_trace_config cfg = { .use_ringbuf = ringbuf, .self_tgid = (unsigned)getpid() };
	memcpy(robuf, ro, rosz);
	memcpy(robuf, &cfg, sizeof(cfg)); /* cfg is the only .rodata variable */
	bpf_map__set_initial_value(rodata, robuf, rosz);
	/* the unused transport's map stays minimal */
	bpf_map__set_max_entries(bpf_object__find_map_by_name(obj, "rb_events"),
	                         ringbuf ? TRACE_RB_BYTES : (uint32_t)sysconf(_SC_PAGESIZE));
	if (ringbuf)
		bpf_map__set_max_entries(bpf_object__find_map_by_name(obj, "events"), 1);
	err = bpf_object__load(obj);
	if (err) {
		rpt_fail("loading the BPF program", err);
		goto out;
	}

	if (ringbuf) {
		struct bpf_map *bss = find_internal(obj, ".bss");
		tr.bss_fd = bss && bpf_map__value_size(bss) <= 64 ? bpf_map__fd(bss) : -1;
		err = rp_ringbuf_set_new(&tr.rbs);
		if (!err) {
			err = rp_ringbuf_set_add(tr.rbs, bpf_map__fd(bpf_object__find_map_by_name(obj, "rb_events")),
			                         on_rb_record, st, 0);
			err = err > 0 ? 0 : err;
		}
		if (err) {
			rpt_fail("mapping the BPF ring buffer", err);
			goto out;
		}
	} else {
		rp_perf_buffer_opts pbo = {
			.data_pages = TRACE_PAGES,
			.wakeup_bytes = (uint32_t)(TRACE_PAGES * sysconf(_SC_PAGESIZE) / 4),
		};
		err = rp_perf_buffer_new_payload(bpf_map__fd(bpf_object__find_map_by_name(obj, "events")),
		                                 &pbo, on_sample, NULL, st, &tr.pb);
		if (err) {
			rpt_fail("opening the per-CPU perf buffers", err);
			goto out;
		}
	}
	const char *progs[2] = { "on_sys_enter", "on_exec" };
	for (int i = 0; i < 2; i++) {
		links[i] = bpf_program__attach(bpf_object__find_program_by_name(obj, progs[i]));
		if (!links[i]) {
			rpt_fail(i == 0 ? "attaching to raw tracepoint sys_enter"
			                : "attaching to raw tracepoint sched_process_exec", -errno);
			goto out;
		}
	}

	bool live = isatty(STDERR_FILENO) && !(st->json && isatty(STDOUT_FILENO));
	double t0 = rpt_now(), last = t0, end = t0 + (double)seconds;
	uint64_t last_events = 0, last_bytes = 0, bytes, lost, corrupt;
	bool drained_after_stop = false;
	for (;;) {
		double now = rpt_now();
		bool done = rpt_stop || (seconds && now >= end) || !rpt_out_ok();
		if (done) {
			/* stop the producers, then take what is already in the rings */
			for (int i = 0; i < 2; i++) {
				bpf_link__destroy(links[i]);
				links[i] = NULL;
			}
			if (drained_after_stop || !rpt_out_ok())
				break;
			drained_after_stop = true;
		} else {
			int wait = 100;
			if (seconds && (end - now) * 1000 < wait)
				wait = (int)((end - now) * 1000) + 1;
			err = tr.pb ? rp_perf_buffer_poll(tr.pb, wait) : rp_ringbuf_set_poll(tr.rbs, wait);
			if (err < 0 && err != -EINTR) {
				rpt_fail("waiting for events", err);
				goto out;
			}
		}
		if (tr.pb)
			rp_perf_buffer_consume(tr.pb);
		else
			rp_ringbuf_set_consume(tr.rbs);
		if (st->json)
			rpt_out_flush();
		if (live && rpt_now() - last >= 1.0) {
			char a[32], b[32];
			double dt = rpt_now() - last;
			totals(&tr, &bytes, &lost, &corrupt);
			human((double)(st->events - last_events) / dt, a, sizeof(a));
			human((double)(bytes - last_bytes) / dt, b, sizeof(b));
			fprintf(stderr, "\r\033[K%s events/s  %sB/s  lost %llu  corrupt %llu  (%llu events)",
			        a, b, (unsigned long long)lost, (unsigned long long)corrupt,
			        (unsigned long long)st->events);
			last = rpt_now();
			last_events = st->events;
			last_bytes = bytes;
		}
	}
	if (live)
		fputs("\r\033[K", stderr);
	double secs = rpt_now() - t0;
	totals(&tr, &bytes, &lost, &corrupt);
	FILE *sum = st->json ? stderr : stdout;
	if (sum == stderr || rpt_out_ok()) {
		fprintf(sum, "ringproof trace: %llu events (%llu bytes) in %.2f s, %llu lost, %llu corrupt",
		        (unsigned long long)st->events, (unsigned long long)bytes, secs,
		        (unsigned long long)lost, (unsigned long long)(corrupt + st->bad_payload));
		fprintf(sum, ", %.0f events/s\n\n", secs > 0 ? (double)st->events / secs : 0.0);
		rpt_proc_print(&st->procs, sum, 15);
	}
	rc = rpt_out_flush() || !rpt_out_ok() ? RPT_EXIT_OK : RPT_EXIT_FAIL;
out:
	for (int i = 0; i < 2; i++)
		bpf_link__destroy(links[i]);
	rp_perf_buffer_free(tr.pb);
	rp_ringbuf_set_free(tr.rbs);
	bpf_object__close(obj);
	free(st);
	return rc;
}
