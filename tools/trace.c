/* ringproof trace: syscalls, execs and exits, system-wide, through the
 * built-in BPF program, a per-CPU perf buffer set (or a BPF ring buffer) and
 * the verified core. */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "rp_error.h"
#include "rp_perf_buffer.h"
#include "rp_bpf_ringbuf.h"
#include "proc_table.h"
#include "reorder.h"
#include "rp_views.h"
#include "sysnames.h"
#include "trace_event.h"

#define TRACE_PAGES 256 /* per CPU: 1 MiB data area with 4 KiB pages */
#define TRACE_RB_BYTES (1u << 22) /* the ring buffer, shared by all CPUs */
#define TRACE_NR_MAX 1024 /* syscall numbers counted in the syscall table */
#define TRACE_REORDER_CAP (1u << 18) /* events held at most by --ordered */
#define TRACE_MAX_SYSCALLS 64 /* names a --syscall list may hold */

typedef struct trace_state {
	bool json, lines, wall, ordered;
	/* filters (pid and uid also run in the BPF program) */
	const char *comm;
	int nrs[TRACE_MAX_SYSCALLS];
	unsigned n_nrs;
	unsigned top;
	uint64_t window_ns;
	int64_t wall_offset_ns; /* CLOCK_REALTIME - CLOCK_MONOTONIC at start */
	/* what arrived */
	uint64_t received, payload_bytes, inversions, max_ts;
	uint64_t bad_payload; /* a SAMPLE whose payload is not an rp_trace_event */
	/* what passed the filters */
	uint64_t events, execs, exits;
	uint64_t per_nr[TRACE_NR_MAX];
	rpt_reorder reorder;
	rpt_proc_table procs;
} trace_state;

static void trace_usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof trace [OPTIONS]\n"
	        "Trace syscall entries, execs and process exits of every process through a\n"
	        "built-in BPF program, decoding its per-CPU perf buffers with ringproof's\n"
	        "verified core.\n"
	        "\n"
	        "  -s, --seconds N       stop after N seconds (default 5; 0: until Ctrl-C)\n"
	        "  -j, --json            one JSON object per event on stdout (summary on stderr)\n"
	        "  -v, --events          one text line per event on stdout\n"
	        "  -r, --ringbuf         use a BPF ring buffer instead of the perf buffer set\n"
	        "  -p, --pid PID         only the process PID (its threads; filtered in BPF)\n"
	        "  -u, --uid UID         only processes running as UID (filtered in BPF)\n"
	        "  -c, --comm NAME       only tasks whose command name is NAME\n"
	        "  -S, --syscall LIST    only these syscalls (names or numbers, comma-separated);\n"
	        "                        exec and exit events still show\n"
	        "  -t, --top N           rows of the summary tables (default 15)\n"
	        "  -o, --ordered         merge the per-CPU streams in timestamp order\n"
	        "  -W, --window MS       --ordered holds events MS ms behind the drain (default 10)\n"
	        "  -w, --wall            add wall-clock time (UTC) to each event\n"
	        "  -h, --help            show this help\n"
	        "\n"
	        "ts_ns is the kernel's bpf_ktime_get_ns(): CLOCK_MONOTONIC nanoseconds since boot\n"
	        "(not counting suspend).  --wall adds \"wall\", CLOCK_REALTIME derived from it.\n"
	        "A live status line (events/s, bytes/s, lost, corrupt) is shown when stderr\n"
	        "is a terminal; tables of the busiest processes and syscalls follow at the end.\n");
}

/* libbpf's own messages only with RINGPROOF_DEBUG set: errors are reported once, by us */
static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	if (getenv("RINGPROOF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static const char *kind_name(unsigned kind)
{
	return kind == RP_TRACE_EXEC ? "exec" : kind == RP_TRACE_EXIT ? "exit" : "syscall";
}

static void wall_text(const trace_state *st, uint64_t ts_ns, char *buf, size_t n)
{
	int64_t ns = (int64_t)ts_ns + st->wall_offset_ns;
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t k = strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + k, n - k, ".%09lldZ", (long long)(ns % 1000000000));
}

/* argv bytes: NUL-separated strings; the last may be cut */
static void print_argv_json(const char *a, uint32_t len)
{
	fputc('[', stdout);
	for (uint32_t i = 0, first = 1; i < len; first = 0) {
		uint32_t k = i;
		while (k < len && a[k])
			k++;
		if (!first)
			fputc(',', stdout);
		rpt_json_str(stdout, a + i, k - i);
		i = k + 1;
	}
	fputc(']', stdout);
}

static void print_json(const trace_state *st, const struct rp_trace_event_full *f)
{
	const struct rp_trace_event *e = &f->h;
	char name[32];

	printf("{\"cpu\":%u,\"kind\":\"%s\",\"pid\":%u,\"tid\":%u,\"uid\":%u,\"gid\":%u,\"ts_ns\":%llu,",
	       e->cpu, kind_name(e->kind), e->pid, e->tid, e->uid, e->gid, e->ts_ns);
	if (st->wall) {
		char w[64];
		wall_text(st, e->ts_ns, w, sizeof(w));
		printf("\"wall\":\"%s\",", w);
	}
	fputs("\"comm\":", stdout);
	rpt_json_str(stdout, e->comm, sizeof(e->comm));
	if (e->kind == RP_TRACE_SYSCALL) {
		printf(",\"nr\":%d,\"syscall\":\"%s\"", e->nr, rpt_syscall_name(e->nr, name, sizeof(name)));
		if (e->arg_kind == RP_TRACE_ARG_PATH) {
			fputs(",\"path\":", stdout);
			rpt_json_str(stdout, f->str, e->path_len);
		} else if (e->arg_kind == RP_TRACE_ARG_FAMILY) {
			printf(",\"family\":%u", e->family);
		}
	} else if (e->kind == RP_TRACE_EXEC) {
		printf(",\"ppid\":%u,\"filename\":", e->ppid);
		rpt_json_str(stdout, f->str, e->path_len);
		fputs(",\"argv\":", stdout);
		print_argv_json(f->str + e->path_len, e->args_len);
		printf(",\"argv_truncated\":%s", e->args_cut ? "true" : "false");
	} else {
		printf(",\"ppid\":%u,\"exit_code\":%d,\"signal\":%d", e->ppid,
		       (e->exit_code >> 8) & 0xff, e->exit_code & 0x7f);
	}
	fputs("}\n", stdout);
}

/* Up to n bytes of s (to a NUL) with C escapes: control bytes, '\\' and every
 * byte >= 0x7f, so that a file name cannot forge a line or drive the terminal.
 * Returns the width printed. */
static size_t print_text(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n' || c == '\t' || c == '\\')
			w += (size_t)printf("\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : '\\');
		else if (c < 0x20 || c >= 0x7f)
			w += (size_t)printf("\\x%02x", c);
		else
			w += fputc(c, stdout) != EOF;
	}
	return w;
}

/* One argv item of n bytes (to a NUL) as one word: with the C escapes of
 * print_text, and in double quotes (a '"' inside as \") when it is empty,
 * is "..." (the mark of a cut argv) or holds a space or a quote, so that the
 * items a b and "a b" print differently and a line splits back into them. */
static void print_arg(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	bool quote = len == 0 || (len == 3 && !memcmp(s, "...", 3)) || memchr(s, ' ', len) ||
	             memchr(s, '"', len) || memchr(s, '\'', len);
	if (!quote) {
		print_text(s, len);
		return;
	}
	fputc('"', stdout);
	for (size_t i = 0, j; i < len; i = j + 1) {
		const char *q = memchr(s + i, '"', len - i);
		j = q ? (size_t)(q - s) : len;
		print_text(s + i, j - i);
		if (q)
			fputs("\\\"", stdout);
	}
	fputc('"', stdout);
}

static void print_line(const trace_state *st, const struct rp_trace_event_full *f)
{
	const struct rp_trace_event *e = &f->h;
	char name[32], t[64];

	if (st->wall)
		wall_text(st, e->ts_ns, t, sizeof(t));
	else
		snprintf(t, sizeof(t), "%llu.%09llu", e->ts_ns / 1000000000ull, e->ts_ns % 1000000000ull);
	printf("%s %3u %7u %7u ", t, e->cpu, e->pid, e->tid);
	size_t w = print_text(e->comm, sizeof(e->comm));
	printf("%*s ", w < 16 ? (int)(16 - w) : 0, "");
	if (e->kind == RP_TRACE_SYSCALL) {
		printf("%s", rpt_syscall_name(e->nr, name, sizeof(name)));
		if (e->arg_kind == RP_TRACE_ARG_PATH) {
			fputc(' ', stdout);
			print_text(f->str, e->path_len);
		} else if (e->arg_kind == RP_TRACE_ARG_FAMILY) {
			printf(" family=%u", e->family);
		}
	} else if (e->kind == RP_TRACE_EXEC) {
		printf("exec ppid=%u uid=%u gid=%u ", e->ppid, e->uid, e->gid);
		print_text(f->str, e->path_len);
		fputs(" argv:", stdout);
		const char *a = f->str + e->path_len;
		for (uint32_t i = 0; i < e->args_len;) {
			uint32_t k = i;
			while (k < e->args_len && a[k])
				k++;
			fputc(' ', stdout);
			print_arg(a + i, k - i);
			i = k + 1;
		}
		if (e->args_cut)
			fputs(" ...", stdout);
	} else {
		printf("exit ppid=%u status=%d signal=%d", e->ppid, (e->exit_code >> 8) & 0xff,
		       e->exit_code & 0x7f);
	}
	fputc('\n', stdout);
}

static bool passes(const trace_state *st, const struct rp_trace_event *e)
{
	if (st->comm && strncmp(e->comm, st->comm, RP_TRACE_COMM_LEN - 1) != 0)
		return false;
	if (st->n_nrs && e->kind == RP_TRACE_SYSCALL) {
		for (unsigned i = 0; i < st->n_nrs; i++)
			if (st->nrs[i] == e->nr)
				return true;
		return false;
	}
	return true;
}

/* One event, in the order it is to be shown. */
static int show(void *arg, const void *data, uint32_t size)
{
	trace_state *st = arg;
	const struct rp_trace_event_full *f = data;
	(void)size;

	if (!passes(st, &f->h))
		return 0;
	st->events++;
	if (f->h.kind == RP_TRACE_SYSCALL && f->h.nr >= 0 && f->h.nr < TRACE_NR_MAX)
		st->per_nr[f->h.nr]++;
	st->execs += f->h.kind == RP_TRACE_EXEC;
	st->exits += f->h.kind == RP_TRACE_EXIT;
	rpt_proc_count(&st->procs, f->h.pid, f->h.comm, f->h.kind);
	if (st->json)
		print_json(st, f);
	else if (st->lines)
		print_line(st, f);
	return (st->json || st->lines) && ferror(stdout);
}

/* One event as the kernel sent it: len bytes (perf adds padding), in one
 * piece from either transport. */
static int on_payload(trace_state *st, const void *data, uint32_t len)
{
	struct rp_trace_event_full f;
	uint32_t n = len < sizeof(f) ? len : (uint32_t)sizeof(f);

	memcpy(&f, data, n); /* perf's payload is at offset 4 mod 8: copied, not cast */
	if (n < sizeof(f.h) || f.h.path_len > RP_TRACE_PATH_LEN || f.h.args_len > RP_TRACE_ARGS_LEN ||
	    sizeof(f.h) + f.h.path_len + f.h.args_len > n ||
	    (f.h.kind != RP_TRACE_SYSCALL && f.h.kind != RP_TRACE_EXEC && f.h.kind != RP_TRACE_EXIT)) {
		st->bad_payload++;
		return 0;
	}
	uint32_t size = (uint32_t)sizeof(f.h) + f.h.path_len + f.h.args_len;
	f.h.comm[sizeof(f.h.comm) - 1] = 0;
	if (f.h.path_len)
		f.str[f.h.path_len - 1] = 0;
	st->received++;
	st->payload_bytes += size;
	if (f.h.ts_ns < st->max_ts)
		st->inversions++;
	else
		st->max_ts = f.h.ts_ns;
	if (st->ordered) {
		int rc = rpt_reorder_push(&st->reorder, f.h.ts_ns, &f, size, show, st);
		return rc < 0 ? 0 : rc; /* no memory: the event is dropped, counted below */
	}
	return show(st, &f, size);
}

static int on_sample(void *arg, int cpu, const void *data, uint32_t size)
{
	(void)cpu; /* the event says which CPU, in both transports */
	return on_payload(arg, data, size);
}

static int on_rb_record(void *arg, const void *data, uint32_t len)
{
	return on_payload(arg, data, len);
}

typedef struct transport {
	rp_perf_buffer *pb;   /* perf buffer set, or */
	rp_bpf_ringbuf_set *rbs;  /* the ring buffer */
	int bss_fd;           /* the program's .bss (rb_drops), -1 if unknown */
} transport;

static void totals(const transport *t, uint64_t *lost, uint64_t *corrupt)
{
	*lost = *corrupt = 0;
	for (uint32_t i = 0; t->pb && i < rp_perf_buffer_ring_count(t->pb); i++) {
		rp_perf_stats rs;
		if (rp_perf_buffer_stats(t->pb, rp_perf_buffer_ring_cpu(t->pb, i), &rs) != 0)
			continue;
		*lost += rs.lost;
		*corrupt += rs.corrupt;
	}
	if (t->pb)
		*corrupt += rp_perf_buffer_malformed(t->pb);
	if (t->rbs) {
		rp_bpf_ringbuf_stats rs;
		if (rp_bpf_ringbuf_set_stats(t->rbs, 0, &rs) == 0)
			*corrupt += rs.corrupt;
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

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int64_t wall_offset(void)
{
	struct timespec r;
	uint64_t m0 = mono_ns();
	clock_gettime(CLOCK_REALTIME, &r);
	uint64_t m1 = mono_ns();
	return ((int64_t)r.tv_sec * 1000000000ll + r.tv_nsec) - (int64_t)(m0 + (m1 - m0) / 2);
}

static int by_count_desc(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b; /* {count, nr} pairs */
	if (x[0] != y[0])
		return x[0] > y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static void print_syscalls(const trace_state *st, FILE *f)
{
	static uint64_t rows[TRACE_NR_MAX][2];
	unsigned n = 0;
	char name[32];
	for (unsigned i = 0; i < TRACE_NR_MAX; i++)
		if (st->per_nr[i]) {
			rows[n][0] = st->per_nr[i];
			rows[n][1] = i;
			n++;
		}
	if (!n)
		return;
	qsort(rows, n, sizeof(rows[0]), by_count_desc);
	fprintf(f, "\n%-20s %5s %10s\n", "SYSCALL", "NR", "COUNT");
	for (unsigned i = 0; i < n && i < st->top; i++)
		fprintf(f, "%-20s %5llu %10llu\n", rpt_syscall_name((int)rows[i][1], name, sizeof(name)),
		        (unsigned long long)rows[i][1], (unsigned long long)rows[i][0]);
	if (n > st->top)
		fprintf(f, "(%u more syscalls)\n", n - st->top);
}

static int parse_syscalls(trace_state *st, char *list)
{
	char *save = NULL;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int nr = rpt_syscall_nr(tok);
		if (nr < 0)
			return rpt_usage_error("trace", "unknown syscall '%s'", tok);
		if (st->n_nrs == TRACE_MAX_SYSCALLS)
			return rpt_usage_error("trace", "more than %d syscalls in --syscall", TRACE_MAX_SYSCALLS);
		st->nrs[st->n_nrs++] = nr;
	}
	if (!st->n_nrs)
		return rpt_usage_error("trace", "--syscall wants a list of syscall names");
	return 0;
}

static int parse_args(int argc, char **argv, trace_state *st, uint64_t *seconds, bool *ringbuf,
                      struct rp_trace_config *cfg)
{
	static const struct option opts[] = {
		{ "seconds", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "events", no_argument, NULL, 'v' },
		{ "ringbuf", no_argument, NULL, 'r' },
		{ "pid", required_argument, NULL, 'p' },
		{ "uid", required_argument, NULL, 'u' },
		{ "comm", required_argument, NULL, 'c' },
		{ "syscall", required_argument, NULL, 'S' },
		{ "top", required_argument, NULL, 't' },
		{ "ordered", no_argument, NULL, 'o' },
		{ "window", required_argument, NULL, 'W' },
		{ "wall", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:jvrp:u:c:S:t:oW:wh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (!rpt_parse_u64(optarg, 86400 * 365, seconds))
				return rpt_usage_error("trace", "--seconds wants a whole number of seconds, not '%s'", optarg);
			break;
		case 'j': st->json = true; break;
		case 'v': st->lines = true; break;
		case 'r': *ringbuf = true; break;
		case 'p':
			if (!rpt_parse_u64(optarg, UINT32_MAX, &v) || v == 0)
				return rpt_usage_error("trace", "--pid wants a process id, not '%s'", optarg);
			cfg->filter_pid = (unsigned)v;
			break;
		case 'u':
			if (!rpt_parse_u64(optarg, UINT32_MAX - 1, &v))
				return rpt_usage_error("trace", "--uid wants a numeric user id, not '%s'", optarg);
			cfg->filter_uid_on = 1;
			cfg->filter_uid = (unsigned)v;
			break;
		case 'c':
			if (!*optarg || strlen(optarg) >= RP_TRACE_COMM_LEN)
				return rpt_usage_error("trace", "--comm wants a name of 1..15 bytes, not '%s'", optarg);
			st->comm = optarg;
			break;
		case 'S': {
			int rc = parse_syscalls(st, optarg);
			if (rc)
				return rc;
			break;
		}
		case 't':
			if (!rpt_parse_u64(optarg, 100000, &v) || v == 0)
				return rpt_usage_error("trace", "--top wants a positive number of rows, not '%s'", optarg);
			st->top = (unsigned)v;
			break;
		case 'o': st->ordered = true; break;
		case 'W':
			if (!rpt_parse_u64(optarg, 60000, &v))
				return rpt_usage_error("trace", "--window wants milliseconds (0..60000), not '%s'", optarg);
			st->window_ns = v * 1000000ull;
			break;
		case 'w': st->wall = true; break;
		case 'h':
			trace_usage(stdout);
			return rpt_out_end("trace", RPT_EXIT_OK) ? -2 : -1;
		default:
			return rpt_option_error("trace", c, argv, opts);
		}
	}
	if (optind < argc)
		return rpt_usage_error("trace", "unexpected argument '%s'", argv[optind]);
	if (st->json && st->lines)
		return rpt_usage_error("trace", "--json and --events are two output formats: pick one");
	return 0;
}

int rpt_cmd_trace(int argc, char **argv)
{
	uint64_t seconds = 5;
	bool ringbuf = false;
	trace_state *st = calloc(1, sizeof(*st));
	struct rp_trace_config cfg = { .self_tgid = (unsigned)getpid() };

	if (!st)
		return rpt_fail("allocating the process table", -ENOMEM);
	st->top = 15;
	st->window_ns = 10 * 1000000ull;
	int prc = parse_args(argc, argv, st, &seconds, &ringbuf, &cfg);
	if (prc) {
		free(st);
		return prc == -1 ? RPT_EXIT_OK : prc == -2 ? RPT_EXIT_FAIL : prc;
	}
	cfg.use_ringbuf = ringbuf;
	if (st->ordered && rpt_reorder_init(&st->reorder, TRACE_REORDER_CAP) != 0) {
		free(st);
		return rpt_fail("allocating the reorder buffer", -ENOMEM);
	}

	int rc = RPT_EXIT_FAIL;
	int err;
	enum { N_PROGS = 3 };
	struct bpf_link *links[N_PROGS] = { NULL };
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
		err = rp_bpf_ringbuf_set_new(&tr.rbs);
		if (!err) {
			err = rp_bpf_ringbuf_set_add(tr.rbs, bpf_map__fd(bpf_object__find_map_by_name(obj, "rb_events")),
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
	static const char *const progs[N_PROGS] = { "on_sys_enter", "on_exec", "on_exit" };
	static const char *const tps[N_PROGS] = { "sys_enter", "sched_process_exec", "sched_process_exit" };
	for (int i = 0; i < N_PROGS; i++) {
		links[i] = bpf_program__attach(bpf_object__find_program_by_name(obj, progs[i]));
		if (!links[i]) {
			char what[96];
			snprintf(what, sizeof(what), "attaching to raw tracepoint %s", tps[i]);
			rpt_fail(what, -errno);
			goto out;
		}
	}
	st->wall_offset_ns = wall_offset();

	bool live = isatty(STDERR_FILENO) && !((st->json || st->lines) && isatty(STDOUT_FILENO));
	double t0 = rpt_now(), last = t0, end = t0 + (double)seconds;
	uint64_t last_events = 0, last_bytes = 0, lost, corrupt;
	bool drained_after_stop = false;
	for (;;) {
		double now = rpt_now();
		bool done = rpt_stop || (seconds && now >= end) || !rpt_out_ok();
		if (done) {
			/* stop the producers, then take what is already in the rings */
			for (int i = 0; i < N_PROGS; i++) {
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
			err = tr.pb ? rp_perf_buffer_poll(tr.pb, wait) : rp_bpf_ringbuf_set_poll(tr.rbs, wait);
			if (err < 0 && err != -EINTR) {
				rpt_fail("waiting for events", err);
				goto out;
			}
		}
		/* every event stamped before this drain started is in a ring by now,
		 * give or take the window: those may leave the reorder buffer */
		uint64_t drain_start = mono_ns();
		if (tr.pb)
			rp_perf_buffer_consume(tr.pb);
		else
			rp_bpf_ringbuf_set_consume(tr.rbs);
		if (st->ordered)
			rpt_reorder_release(&st->reorder, done ? UINT64_MAX :
			                    drain_start > st->window_ns ? drain_start - st->window_ns : 0, show, st);
		if (st->json || st->lines)
			rpt_out_flush();
		if (live && rpt_now() - last >= 1.0) {
			char a[32], b[32];
			double dt = rpt_now() - last;
			totals(&tr, &lost, &corrupt);
			human((double)(st->received - last_events) / dt, a, sizeof(a));
			human((double)(st->payload_bytes - last_bytes) / dt, b, sizeof(b));
			fprintf(stderr, "\r\033[K%s events/s  %sB/s  lost %llu  corrupt %llu  (%llu events)",
			        a, b, (unsigned long long)lost, (unsigned long long)corrupt,
			        (unsigned long long)st->received);
			last = rpt_now();
			last_events = st->received;
			last_bytes = st->payload_bytes;
		}
	}
	if (st->ordered)
		rpt_reorder_release(&st->reorder, UINT64_MAX, show, st);
	if (live)
		fputs("\r\033[K", stderr);
	double secs = rpt_now() - t0;
	totals(&tr, &lost, &corrupt);
	FILE *sum = st->json || st->lines ? stderr : stdout;
	if (sum == stderr || rpt_out_ok()) {
		fprintf(sum, "ringproof trace: %llu events (%llu bytes) in %.2f s, %llu lost, %llu corrupt",
		        (unsigned long long)st->received, (unsigned long long)st->payload_bytes, secs,
		        (unsigned long long)lost, (unsigned long long)(corrupt + st->bad_payload));
		fprintf(sum, ", %.0f events/s\n", secs > 0 ? (double)st->received / secs : 0.0);
		fprintf(sum, "  %llu shown after filters (%llu execs, %llu exits); %llu arrived out of "
		        "timestamp order across CPUs",
		        (unsigned long long)st->events, (unsigned long long)st->execs,
		        (unsigned long long)st->exits, (unsigned long long)st->inversions);
		if (st->ordered)
			fprintf(sum, ", reordered (%llu still late, %llu released early: buffer full)",
			        (unsigned long long)st->reorder.late, (unsigned long long)st->reorder.forced);
		fprintf(sum, "\n  bytes: event payload as the BPF program sent it; ts_ns: CLOCK_MONOTONIC\n\n");
		rpt_proc_print(&st->procs, sum, st->top);
		print_syscalls(st, sum);
	}
	rc = rpt_out_end("trace", RPT_EXIT_OK);
out:
	for (int i = 0; i < N_PROGS; i++)
		bpf_link__destroy(links[i]);
	rp_perf_buffer_free(tr.pb);
	rp_bpf_ringbuf_set_free(tr.rbs);
	bpf_object__close(obj);
	rpt_reorder_free(&st->reorder);
	free(st);
	return rc;
}
