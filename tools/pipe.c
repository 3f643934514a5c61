/* ringproof pipe MAP: print the events of a pinned PERF_EVENT_ARRAY (binding
 * fresh per-CPU buffers into it) or RINGBUF map, like bpftool map event_pipe. */
#include <bpf/bpf.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "perfset.h"
#include "rp_views.h"

#define PIPE_PAGES 64

typedef struct pipe_state {
	bool json;
	uint64_t want;  /* 0: no limit */
	uint64_t seen;
	uint64_t bad;   /* samples that are not BPF output */
} pipe_state;

static void pipe_usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof pipe MAP [--cpu N] [--count N] [--json]\n"
	        "Print every event written to MAP, a BPF_MAP_TYPE_PERF_EVENT_ARRAY or\n"
	        "BPF_MAP_TYPE_RINGBUF pinned under bpffs (e.g. /sys/fs/bpf/events).  For a perf\n"
	        "event array, fresh per-CPU buffers are bound into the map for the run.\n"
	        "\n"
	        "  -c, --cpu N    only the buffer of CPU N (perf event arrays)\n"
	        "  -n, --count N  stop after N events (default: until Ctrl-C)\n"
	        "  -j, --json     one JSON object per event: {\"cpu\",\"size\",\"data\" (hex)}\n"
	        "      --hex      hex dump per event (the default)\n"
	        "  -h, --help     show this help\n");
}

static void print_payload(const pipe_state *st, int cpu, rp_span data, uint32_t size)
{
	if (st->json)
		printf("{\"cpu\":%d,\"size\":%u,\"data\":\"", cpu, size);
	else
		printf("CPU %d: %u bytes\n", cpu, size);
	for (uint32_t i = 0; i < size; i++) {
		uint8_t b = rp_span_byte(data, i);
		if (st->json)
			printf("%02x", b);
		else
			printf("%s%02x%s", i % 16 == 0 ? "  " : "", b,
			       i % 16 == 15 || i + 1 == size ? "\n" : " ");
	}
	if (st->json)
		fputs("\"}\n", stdout);
}

static int on_record(void *arg, const rpt_cpu_ring *r, const rp_record *rec)
{
	pipe_state *st = arg;
	rp_bpf_output out;

	if (rec->type != RP_RECORD_SAMPLE)
		return 0;
	if (rp_bpf_output_view(rec, &out) != RP_OK) {
		st->bad++;
		return 0;
	}
	print_payload(st, r->cpu, out.data, out.raw_size);
	st->seen++;
	return ferror(stdout) || (st->want && st->seen >= st->want);
}

static int pipe_perf(pipe_state *st, int map_fd, int cpu)
{
	struct perf_event_attr attr;
	rpt_perfset set;
	int err;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	attr.sample_type = PERF_SAMPLE_RAW;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	err = rpt_perfset_open(&set, &attr, -1, cpu, map_fd, PIPE_PAGES);
	if (err == -ENODEV)
		return rpt_fail("--cpu", err);
	if (err)
		return rpt_fail("binding per-CPU perf buffers into the map", err);
	int rc = RPT_EXIT_OK;
	while (!rpt_stop && rpt_out_ok() && !(st->want && st->seen >= st->want)) {
		err = rpt_perfset_poll(&set, 200);
		if (err < 0 && err != -EINTR) {
			rc = rpt_fail("waiting for events", err);
			break;
		}
		rpt_perfset_consume(&set, on_record, st);
		rpt_out_flush();
	}
	uint64_t lost = 0, corrupt = 0;
	for (int i = 0; i < set.n; i++) {
		lost += set.rings[i].lost;
		corrupt += set.rings[i].corrupt;
	}
	rpt_perfset_close(&set);
	fprintf(stderr, "ringproof pipe: %llu events, %llu lost, %llu corrupt\n",
	        (unsigned long long)st->seen, (unsigned long long)lost,
	        (unsigned long long)(corrupt + st->bad));
	return rc;
}

int rpt_cmd_pipe(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "hex", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	pipe_state st = { 0 };
	uint64_t cpu = UINT64_MAX;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:n:jxh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!rpt_parse_u64(optarg, 65535, &cpu))
				return rpt_usage_error("pipe", "--cpu wants a CPU number, not '%s'", optarg);
			break;
		case 'n':
			if (!rpt_parse_u64(optarg, UINT64_MAX, &st.want) || st.want == 0)
				return rpt_usage_error("pipe", "--count wants a positive number, not '%s'", optarg);
			break;
		case 'j': st.json = true; break;
		case 'x': st.json = false; break;
		case 'h':
			pipe_usage(stdout);
			return rpt_out_flush() ? RPT_EXIT_OK : RPT_EXIT_FAIL;
		case ':':
			return rpt_usage_error("pipe", "option '%s' needs a value", argv[optind - 1]);
		default:
			return rpt_usage_error("pipe", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return rpt_usage_error("pipe", optind == argc ? "missing MAP (a pinned map path)"
		                                              : "more than one MAP given");
	const char *path = argv[optind];
	int fd = bpf_obj_get(path);
	if (fd < 0) {
		int e = errno;
		rpt_fail(path, -e);
		if (e == ENOENT)
			fprintf(stderr, "%s: hint: MAP is a path under a bpffs mount (mount -t bpf bpf /sys/fs/bpf)\n", rpt_prog);
		return RPT_EXIT_FAIL;
	}
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0) {
		int e = errno;
		close(fd);
		return rpt_fail("reading the map's type (is it a map?)", -e);
	}
	int rc;
	if (info.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		rc = pipe_perf(&st, fd, cpu == UINT64_MAX ? -1 : (int)cpu);
	} else if (info.type == BPF_MAP_TYPE_RINGBUF) {
		fprintf(stderr, "%s pipe: RINGBUF maps are not available in this build "
		        "(the BPF ring buffer adapter is not there yet)\n", rpt_prog);
		rc = RPT_EXIT_FAIL;
	} else {
		fprintf(stderr, "%s pipe: %s is a map of type %u, not a PERF_EVENT_ARRAY or RINGBUF\n",
		        rpt_prog, path, info.type);
		rc = RPT_EXIT_FAIL;
	}
	close(fd);
	return rc;
}
