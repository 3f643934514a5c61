/* ringproof record: sample a command with a software event and print its
 * busiest threads and addresses, perf-style.  Samples are parsed by the
 * core's verified sample parser (rp_sample.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "perfset.h"
#include "rp_abi.h"
#include "rp_sample.h"

#define REC_PAGES 64
#define REC_CAP 16384 /* entries per histogram, a power of two */

typedef struct hist_entry {
	uint64_t key;     /* address or tid; 0 marks a free slot (keys are stored +1) */
	uint64_t count;
	uint16_t mode;    /* cpumode of the first sample (addresses) */
	char comm[16];    /* threads */
} hist_entry;

typedef struct hist {
	hist_entry e[REC_CAP];
	uint32_t used;
	uint64_t dropped;
} hist;

typedef struct record_state {
	bool callchain;
	rp_sample_layout layout;
	uint64_t samples;
	uint64_t bad;
	hist ips, tids, callers;
	hist comms; /* tid -> comm from COMM records */
} record_state;

static const struct { const char *name; uint64_t config; } sw_events[] = {
	{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
};

static void record_usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof record [-F HZ] [-e EVENT] [-g] -- CMD [ARGS...]\n"
	        "Run CMD, sample it (and its children) with a software event, and print the\n"
	        "busiest threads and sampled addresses.\n"
	        "\n"
	        "  -F, --freq HZ     samples per second (default 999)\n"
	        "  -e, --event EVENT cpu-clock (default), task-clock, page-faults, minor-faults,\n"
	        "                    major-faults, context-switches, cpu-migrations\n"
	        "  -g, --call-graph  also record call chains and show the busiest callers\n"
	        "  -h, --help        show this help\n"
	        "\n"
	        "Exit status is 1 if CMD cannot run or exits unsuccessfully.\n");
}

static hist_entry *hist_get(hist *h, uint64_t key)
{
	uint64_t k = key + 1;
	uint32_t i = (uint32_t)((k * 0x9e3779b97f4a7c15ull) >> 40) & (REC_CAP - 1);
	for (uint32_t n = 0; n < REC_CAP; n++, i = (i + 1) & (REC_CAP - 1)) {
		if (h->e[i].key == k)
			return &h->e[i];
		if (h->e[i].key == 0) {
			if (h->used >= REC_CAP - REC_CAP / 8)
				break;
			h->used++;
			h->e[i].key = k;
			return &h->e[i];
		}
	}
	h->dropped++;
	return NULL;
}

static int by_count(const void *a, const void *b)
{
	const hist_entry *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static uint32_t hist_sort(hist *h)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < REC_CAP; i++)
		if (h->e[i].key)
			h->e[n++] = h->e[i];
	qsort(h->e, n, sizeof(h->e[0]), by_count);
	return n;
}

static const char *mode_name(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL: return "kernel";
	case PERF_RECORD_MISC_USER: return "user";
	case PERF_RECORD_MISC_HYPERVISOR: return "hypervisor";
	case PERF_RECORD_MISC_GUEST_KERNEL: return "guest-kernel";
	case PERF_RECORD_MISC_GUEST_USER: return "guest-user";
	default: return "unknown";
	}
}

static void on_comm(record_state *st, const rp_record *rec)
{
	uint32_t tid;
	char comm[16] = { 0 };
	if (!rp_span_get_u32(rec->body, 4, &tid))
		return;
	for (uint32_t i = 0; i < sizeof(comm) - 1 && 8 + i < rec->body.n0 + rec->body.n1; i++)
		comm[i] = (char)rp_span_byte(rec->body, 8 + i);
	hist_entry *e = hist_get(&st->comms, tid);
	if (e)
		memcpy(e->comm, comm, sizeof(comm));
}

static int on_record(void *arg, int cpu, const rp_record *rec)
{
	record_state *st = arg;
	(void)cpu;

	if (rec->type == RP_RECORD_COMM) {
		on_comm(st, rec);
		return 0;
	}
	if (rec->type != RP_RECORD_SAMPLE)
		return 0;
	rp_sample smp;
	if (rp_sample_parse(&st->layout, rec, &smp) != RP_OK) {
		st->bad++;
		return 0;
	}
	st->samples++;
	hist_entry *e = hist_get(&st->ips, smp.ip);
	if (e) {
		if (e->count++ == 0)
			e->mode = rec->misc;
	}
	e = hist_get(&st->tids, smp.tid);
	if (e)
		e->count++;
	if (st->callchain) {
		/* the first frame that is no context marker is the IP; the next is the caller */
		int frames = 0;
		for (uint64_t i = 0; i < smp.callchain_nr && i < 512; i++) {
			uint64_t a;
			if (!rp_span_get_u64(smp.callchain, (uint32_t)(8 * i), &a))
				break;
			if (rp_callchain_is_context(a))
				continue;
			if (++frames == 2) {
				e = hist_get(&st->callers, a);
				if (e)
					e->count++;
				break;
			}
		}
	}
	return 0;
}

static int parse_args(int argc, char **argv, record_state *st, struct perf_event_attr *attr,
                      const char **event_name, uint64_t *hz)
{
	static const struct option opts[] = {
		{ "freq", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:F:e:gh", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (!rpt_parse_u64(optarg, 100000, hz) || *hz == 0)
				return rpt_usage_error("record", "-F wants a frequency of 1..100000 Hz, not '%s'", optarg);
			break;
		case 'e': {
			size_t i;
			for (i = 0; i < sizeof(sw_events) / sizeof(sw_events[0]); i++)
				if (!strcmp(optarg, sw_events[i].name))
					break;
			if (i == sizeof(sw_events) / sizeof(sw_events[0]))
				return rpt_usage_error("record", "unknown software event '%s'", optarg);
			attr->config = sw_events[i].config;
			*event_name = sw_events[i].name;
			break;
		}
		case 'g': st->callchain = true; break;
		case 'h':
			record_usage(stdout);
			return rpt_out_flush() ? -RPT_EXIT_OK - 1 : -RPT_EXIT_FAIL - 1;
		case ':':
			return rpt_usage_error("record", "option '%s' needs a value", argv[optind - 1]);
		default:
			return rpt_usage_error("record", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return rpt_usage_error("record", "missing the command to run (after --)");
	return 0;
}

/* Fork CMD stopped before exec; *go releases it.  The child reports an exec
 * failure's errno on *status (close-on-exec: EOF means exec worked). */
static pid_t spawn(char **cmd, int *go, int *status)
{
	int gp[2], sp[2];
	if (pipe2(gp, O_CLOEXEC) < 0 || pipe2(sp, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char b;
		close(gp[1]);
		close(sp[0]);
		if (read(gp[0], &b, 1) != 1)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		execvp(cmd[0], cmd);
		int e = errno;
		if (write(sp[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(gp[0]);
	close(sp[1]);
	*go = gp[1];
	*status = sp[0];
	return pid;
}

static void print_report(record_state *st, const char *event, uint64_t hz,
                         uint64_t lost, uint64_t corrupt, double secs)
{
	uint64_t total = st->samples ? st->samples : 1;
	printf("ringproof record: %llu samples of %s at %llu Hz in %.2f s, %llu lost, %llu corrupt\n\n",
	       (unsigned long long)st->samples, event, (unsigned long long)hz, secs,
	       (unsigned long long)lost, (unsigned long long)(corrupt + st->bad));
	uint32_t n = hist_sort(&st->tids);
	printf("%8s %8s  %-16s %8s\n", "TID", "SHARE", "COMM", "SAMPLES");
	for (uint32_t i = 0; i < n && i < 10; i++) {
		uint64_t tid = st->tids.e[i].key - 1;
		hist_entry *c = hist_get(&st->comms, tid);
		printf("%8llu %7.2f%%  %-16s %8llu\n", (unsigned long long)tid,
		       100.0 * (double)st->tids.e[i].count / (double)total,
		       c && c->comm[0] ? c->comm : "?", (unsigned long long)st->tids.e[i].count);
	}
	n = hist_sort(&st->ips);
	printf("\n%18s %8s  %-8s %8s\n", "ADDRESS", "SHARE", "MODE", "SAMPLES");
	for (uint32_t i = 0; i < n && i < 20; i++)
		printf("%#18llx %7.2f%%  %-8s %8llu\n", (unsigned long long)(st->ips.e[i].key - 1),
		       100.0 * (double)st->ips.e[i].count / (double)total, mode_name(st->ips.e[i].mode),
		       (unsigned long long)st->ips.e[i].count);
	if (st->callchain) {
		n = hist_sort(&st->callers);
		printf("\n%18s %8s %8s   (callers of the sampled address)\n", "CALLER", "SHARE", "SAMPLES");
		for (uint32_t i = 0; i < n && i < 20; i++)
			printf("%#18llx %7.2f%% %8llu\n", (unsigned long long)(st->callers.e[i].key - 1),
			       100.0 * (double)st->callers.e[i].count / (double)total,
			       (unsigned long long)st->callers.e[i].count);
	}
}

int rpt_cmd_record(int argc, char **argv)
{
	struct perf_event_attr attr;
	const char *event = "cpu-clock";
	uint64_t hz = 999;
	record_state *st = calloc(1, sizeof(*st));
	if (!st)
		return rpt_fail("allocating histograms", -ENOMEM);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	int prc = parse_args(argc, argv, st, &attr, &event, &hz);
	if (prc != 0) {
		free(st);
		return prc < 0 ? -prc - 1 : prc;
	}
	attr.freq = 1;
	attr.sample_freq = hz;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	                   (st->callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	if (rp_sample_layout_make(attr.sample_type, 0, 0, 0, 0, false, &st->layout) != RP_OK) {
		free(st);
		return rpt_fail("preparing the sample parser", -EINVAL);
	}
	attr.disabled = 1;
	attr.enable_on_exec = 1;
	attr.inherit = 1;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.wakeup_events = 32;

	int go, status, rc = RPT_EXIT_FAIL;
	pid_t child = spawn(argv + optind, &go, &status);
	if (child < 0) {
		free(st);
		return rpt_fail("starting the command", -errno);
	}
	rpt_perfset set;
	int err = rpt_perfset_open(&set, &attr, child, REC_PAGES);
	if ((err == -EACCES || err == -EPERM) && !attr.exclude_kernel) {
		/* like perf: without CAP_PERFMON, paranoid 2 still allows user-space samples */
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		err = rpt_perfset_open(&set, &attr, child, REC_PAGES);
		if (!err)
			fprintf(stderr, "%s record: kernel samples not permitted, sampling user space only\n", rpt_prog);
	}
	if (err) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		free(st);
		return rpt_fail("opening the sampling event", err);
	}
	double t0 = rpt_now();
	int exec_err = 0;
	if (write(go, "g", 1) != 1 || read(status, &exec_err, sizeof(exec_err)) > 0) {
		waitpid(child, NULL, 0);
		rpt_perfset_close(&set);
		free(st);
		fprintf(stderr, "%s record: cannot run '%s': %s\n", rpt_prog, argv[optind],
		        strerror(exec_err ? exec_err : EPIPE));
		return RPT_EXIT_FAIL;
	}
	close(go);
	close(status);

	int wstatus = 0;
	bool forwarded = false;
	for (;;) {
		pid_t w = waitpid(child, &wstatus, WNOHANG);
		if (w == child)
			break;
		if (rpt_stop && !forwarded) {
			kill(child, SIGINT);
			forwarded = true;
		}
		err = rpt_perfset_poll(&set, 100);
		if (err < 0 && err != -EINTR) {
			rpt_fail("waiting for samples", err);
			break;
		}
		rpt_perfset_consume(&set, on_record, st);
	}
	double secs = rpt_now() - t0;
	rpt_perfset_consume(&set, on_record, st);
	rp_ring_stats rs;
	rpt_perfset_stats(&set, &rs);
	rpt_perfset_close(&set);
	print_report(st, event, hz, rs.lost, rs.corrupt, secs);
	rpt_out_flush();
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
		rc = RPT_EXIT_OK;
	} else if (WIFEXITED(wstatus)) {
		fprintf(stderr, "%s record: '%s' exited with status %d\n", rpt_prog, argv[optind],
		        WEXITSTATUS(wstatus));
	} else if (WIFSIGNALED(wstatus)) {
		fprintf(stderr, "%s record: '%s' was killed by signal %d\n", rpt_prog, argv[optind],
		        WTERMSIG(wstatus));
		rc = forwarded && WTERMSIG(wstatus) == SIGINT ? RPT_EXIT_OK : RPT_EXIT_FAIL;
	}
	free(st);
	return rc;
}
