/* ringproof pipe MAP: print the events of a pinned PERF_EVENT_ARRAY (binding
 * fresh per-CPU buffers into it) or RINGBUF map, like bpftool map event_pipe. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "rp_perf_buffer.h"
#include "rp_bpf_ringbuf.h"
#include "rp_views.h"

#define PIPE_PAGES 64

typedef struct pipe_state {
	bool json;
	int cpu;        /* -1: every CPU */
	uint64_t want;  /* 0: no limit */
	uint64_t seen;
} pipe_state;

static void pipe_usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof pipe MAP [--cpu N] [--count N] [--json]\n"
	        "  MAP := PATH | pinned PATH | id ID | name NAME\n"
	        "Print every event written to MAP, a BPF_MAP_TYPE_PERF_EVENT_ARRAY or\n"
	        "BPF_MAP_TYPE_RINGBUF pinned under bpffs (e.g. /sys/fs/bpf/events).  For a perf\n"
	        "event array, fresh per-CPU buffers are bound into the map for the run.\n"
	        "\n"
	        "  -c, --cpu N    only events from CPU N (perf event arrays)\n"
	        "  -n, --count N  stop after N events (default: until Ctrl-C)\n"
	        "  -j, --json     one JSON object per event: {\"time_ns\",\"cpu\",\"size\",\"data\" (hex)}\n"
	        "      --hex      hex dump per event (the default)\n"
	        "  -h, --help     show this help\n");
}

/* cpu is -1 for a ring buffer (shared by all CPUs: no cpu is printed).  The
 * time is CLOCK_REALTIME when the event is read (BPF-output records carry
 * no kernel timestamp): ns since the epoch in JSON, local time in text. */
static void print_payload(const pipe_state *st, int cpu, const uint8_t *data, uint32_t size)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (st->json && cpu >= 0)
		printf("{\"time_ns\":%llu,\"cpu\":%d,\"size\":%u,\"data\":\"",
		       (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec,
		       cpu, size);
	else if (st->json)
		printf("{\"time_ns\":%llu,\"size\":%u,\"data\":\"",
		       (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec,
		       size);
	else {
		localtime_r(&ts.tv_sec, &tm);
		printf("[%02d:%02d:%02d.%09ld] ", tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec);
		if (cpu >= 0)
			printf("CPU %d: %u bytes\n", cpu, size);
		else
			printf("%u bytes\n", size);
	}
	for (uint32_t i = 0; i < size; i++) {
		uint8_t b = data[i];
		if (st->json)
			printf("%02x", b);
		else
			printf("%s%02x%s", i % 16 == 0 ? "  " : "", b,
			       i % 16 == 15 || i + 1 == size ? "\n" : " ");
	}
	if (st->json)
		fputs("\"}\n", stdout);
}

static int on_sample(void *arg, int cpu, const void *data, uint32_t size)
{
	pipe_state *st = arg;

	if (st->cpu >= 0 && cpu != st->cpu)
		return 0;
	print_payload(st, cpu, data, size);
	st->seen++;
	return ferror(stdout) || (st->want && st->seen >= st->want);
}

static int pipe_perf(pipe_state *st, int map_fd)
{
	rp_perf_buffer *pb = NULL;
	rp_perf_buffer_opts opts = { .data_pages = PIPE_PAGES, .wakeup_events = 1 };
	int err = rp_perf_buffer_new_payload(map_fd, &opts, on_sample, NULL, st, &pb);

	if (err)
		return rpt_fail("binding per-CPU perf buffers into the map", err);
	/* As libbpf: online CPUs at or above the map's max_entries are left out. */
	int left[64];
	const uint32_t nleft = rp_perf_buffer_left_out(pb, left, 64);
	bool cpu_left_out = false;
	if (nleft) {
		fprintf(stderr, "%s pipe: warning: the map has no entry for %u online CPU%s (",
		        rpt_prog, nleft, nleft == 1 ? "" : "s");
		for (uint32_t i = 0; i < nleft && i < 64; i++) {
			fprintf(stderr, "%s%d", i ? "," : "", left[i]);
			cpu_left_out |= left[i] == st->cpu;
		}
		fprintf(stderr, "%s): events written there cannot be read\n", nleft > 64 ? ",..." : "");
	}
	if (st->cpu >= 0) {
		bool found = false;
		for (uint32_t i = 0; i < rp_perf_buffer_ring_count(pb); i++)
			found |= rp_perf_buffer_ring_cpu(pb, i) == st->cpu;
		if (!found) {
			rp_perf_buffer_free(pb);
			fprintf(stderr, cpu_left_out ? "%s pipe: CPU %d has no entry in the map\n"
			                             : "%s pipe: CPU %d is not online\n", rpt_prog, st->cpu);
			return RPT_EXIT_FAIL;
		}
	}
	int rc = RPT_EXIT_OK;
	while (!rpt_stop && rpt_out_ok() && !(st->want && st->seen >= st->want)) {
		err = rp_perf_buffer_poll(pb, 200);
		if (err < 0 && err != -EINTR) {
			rc = rpt_fail("reading the perf buffers", err);
			break;
		}
		rpt_out_flush();
	}
	uint64_t lost = 0, corrupt = rp_perf_buffer_malformed(pb);
	for (uint32_t i = 0; i < rp_perf_buffer_ring_count(pb); i++) {
		rp_perf_stats rs;
		if (rp_perf_buffer_stats(pb, rp_perf_buffer_ring_cpu(pb, i), &rs) == 0) {
			lost += rs.lost;
			corrupt += rs.corrupt;
		}
	}
	rp_perf_buffer_free(pb);
	fprintf(stderr, "ringproof pipe: %llu events, %llu lost, %llu corrupt\n",
	        (unsigned long long)st->seen, (unsigned long long)lost, (unsigned long long)corrupt);
	return rc;
}

static int on_rb_record(void *arg, const void *data, uint32_t len)
{
	pipe_state *st = arg;

	print_payload(st, -1, data, len);
	st->seen++;
	return ferror(stdout) || (st->want && st->seen >= st->want);
}

static int pipe_ringbuf(pipe_state *st, int map_fd)
{
	rp_bpf_ringbuf_set *set = NULL;
	int err = rp_bpf_ringbuf_set_new(&set);

	if (!err) {
		err = rp_bpf_ringbuf_set_add(set, map_fd, on_rb_record, st, 0);
		err = err > 0 ? 0 : err;
	}
	if (err) {
		rp_bpf_ringbuf_set_free(set);
		return rpt_fail("mapping the ring buffer", err);
	}
	int rc = RPT_EXIT_OK;
	/* records already in the ring are delivered first */
	err = rp_bpf_ringbuf_set_consume(set);
	while (err >= 0 && !rpt_stop && rpt_out_ok() && !(st->want && st->seen >= st->want)) {
		rpt_out_flush();
		err = rp_bpf_ringbuf_set_poll(set, 200);
		if (err == -EINTR)
			err = 0;
	}
	if (err < 0)
		rc = rpt_fail("reading the ring buffer", err);
	rpt_out_flush();
	rp_bpf_ringbuf_stats rs = { 0 };
	rp_bpf_ringbuf_set_stats(set, 0, &rs);
	rp_bpf_ringbuf_set_free(set);
	fprintf(stderr, "ringproof pipe: %llu events, %llu corrupt (ring buffers keep no lost count)\n",
	        (unsigned long long)st->seen, (unsigned long long)rs.corrupt);
	return rc;
}

/* The fd of the one map named name (names are cut to 15 characters by the
 * kernel); -1 after a message when none or several match. */
static int map_fd_by_name(const char *name)
{
	uint32_t id = 0, found = 0, first = 0;
	int fd = -1;

	while (bpf_map_get_next_id(id, &id) == 0) {
		int f = bpf_map_get_fd_by_id(id);
		struct bpf_map_info info;
		uint32_t len = sizeof(info);

		if (f < 0)
			continue; /* freed since, or not ours to open */
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(f, &info, &len) == 0 &&
		    strncmp(info.name, name, sizeof(info.name)) == 0) {
			if (found++ == 0) {
				first = id;
				fd = f;
				continue;
			}
			fprintf(stderr, "%s pipe: several maps are named '%s' (ids %u and %u at least): "
			        "select one with id ID\n", rpt_prog, name, first, id);
			close(f);
			close(fd);
			return -1;
		}
		close(f);
	}
	if (found == 0)
		fprintf(stderr, "%s pipe: no map is named '%s' (bpftool map list shows the maps)\n",
		        rpt_prog, name);
	return found == 1 ? fd : -1;
}

/* Why bpf_obj_get(path) failed, in the user's terms.  The kernel answers
 * EACCES both for a file outside bpffs (it is not a BPF object) and for a
 * pinned object the caller may not open, and EPERM when bpf() itself is
 * refused: statfs tells the first case apart. */
static int explain_pin_error(const char *path, int e)
{
	struct statfs sfs;

	if (e == ENOENT) {
		rpt_fail(path, -e);
		fprintf(stderr, "%s: hint: MAP is a path under a bpffs mount (e.g. /sys/fs/bpf/NAME)\n", rpt_prog);
		return RPT_EXIT_FAIL;
	}
	if (statfs(path, &sfs) == 0 && (unsigned long)sfs.f_type != (unsigned long)BPF_FS_MAGIC) {
		fprintf(stderr, "%s pipe: %s is not a pinned BPF object: it is not on a bpffs mount "
		        "(pin maps under /sys/fs/bpf, e.g. bpftool map pin)\n", rpt_prog, path);
		return RPT_EXIT_FAIL;
	}
	if (e == EACCES) {
		fprintf(stderr, "%s pipe: %s: permission denied by the pinned file's mode or owner "
		        "(ls -l %s; the map was pinned by another user)\n", rpt_prog, path, path);
		return RPT_EXIT_FAIL;
	}
	if (e == EPERM) {
		fprintf(stderr, "%s pipe: %s: the bpf() system call was refused: needs root or CAP_BPF\n",
		        rpt_prog, path);
		return RPT_EXIT_FAIL;
	}
	return rpt_fail(path, -e);
}

/* bpf_obj_get_info_by_fd fills in a program's (or link's) info as readily
 * as a map's, so the kind of a pinned object comes from the name the kernel
 * gives its fd's inode: "anon_inode:bpf-map", "anon_inode:bpf-prog", ... */
static bool is_map_fd(int fd, const char *path)
{
	char link[64], name[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, name, sizeof(name) - 1);
	if (n < 0) {
		rpt_fail("telling what kind of BPF object it is (reading /proc/self/fd)", -errno);
		return false;
	}
	name[n] = 0;
	if (!strcmp(name, "anon_inode:bpf-map"))
		return true;
	const char *kind = !strcmp(name, "anon_inode:bpf-prog") ? "program" :
	                   !strcmp(name, "anon_inode:bpf_link") ? "link" :
	                   !strcmp(name, "anon_inode:btf") ? "BTF object" : "object";
	fprintf(stderr, "%s pipe: %s is a pinned BPF %s, not a map\n", rpt_prog, path, kind);
	return false;
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
			return rpt_out_end("pipe", RPT_EXIT_OK);
		default:
			return rpt_option_error("pipe", c, argv, opts);
		}
	}
	if (optind == argc)
		return rpt_usage_error("pipe", "missing MAP (a pinned map path, id ID or name NAME)");
	/* MAP as bpftool writes it: PATH, pinned PATH, id ID or name NAME */
	const char *kind = argc - optind == 2 ? argv[optind] : "pinned";
	const char *path = argv[argc - 1];
	if (argc - optind > 2 || (argc - optind == 2 && strcmp(kind, "pinned") &&
	                          strcmp(kind, "id") && strcmp(kind, "name")))
		return rpt_usage_error("pipe", "MAP is PATH, pinned PATH, id ID or name NAME");
	int fd;
	if (!strcmp(kind, "id")) {
		uint64_t id;
		if (!rpt_parse_u64(path, UINT32_MAX, &id))
			return rpt_usage_error("pipe", "id wants a map id, not '%s'", path);
		fd = bpf_map_get_fd_by_id((uint32_t)id);
		if (fd < 0)
			return rpt_fail("opening the map of that id", -errno);
	} else if (!strcmp(kind, "name")) {
		fd = map_fd_by_name(path);
		if (fd < 0)
			return RPT_EXIT_FAIL;
	} else {
		fd = bpf_obj_get(path);
		if (fd < 0)
			return explain_pin_error(path, errno);
	}
	if (!is_map_fd(fd, path)) {
		close(fd);
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
		st.cpu = cpu == UINT64_MAX ? -1 : (int)cpu;
		rc = pipe_perf(&st, fd);
	} else if (info.type == BPF_MAP_TYPE_RINGBUF) {
		if (cpu != UINT64_MAX) {
			close(fd);
			return rpt_usage_error("pipe", "--cpu applies to perf event arrays; a ring buffer is shared by all CPUs");
		}
		rc = pipe_ringbuf(&st, fd);
	} else {
		const char *type = libbpf_bpf_map_type_str((enum bpf_map_type)info.type);
		fprintf(stderr, "%s pipe: %s is a %s map (type %u), not a perf_event_array or ringbuf map\n",
		        rpt_prog, path, type ? type : "unknown", info.type);
		rc = RPT_EXIT_FAIL;
	}
	close(fd);
	return rpt_out_end("pipe", rc);
}
