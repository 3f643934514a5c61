/* ringproof record: sample a command (or a running process, or every CPU),
 * keep the samples and the COMM/FORK/MMAP2 records the ring carries, and
 * print them symbolised like `perf report --stdio` (report.c).  Every record
 * is decoded by the core's verified parser (rp_record_parse). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "perfset.h"
#include "profile.h"
#include "report.h"
#include "rp_abi.h"
#include "rp_records.h"

#define REC_PAGES 128
#define REC_MAX_FRAMES 4096
#define STOP_GRACE 2 /* seconds CMD has to end after a forwarded signal */

typedef struct record_state {
	rp_sample_layout layout;
	rpt_profile prof;
	uint64_t bad, nomem;
	uint64_t frames[REC_MAX_FRAMES];
} record_state;

typedef struct event_name {
	const char *name;
	uint32_t type;
	uint64_t config;
} event_name;

static const event_name events[] = {
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

typedef struct record_opts {
	uint64_t hz;
	const event_name *event;
	bool callchain, all_cpus;
	uint32_t pid;        /* -p, 0: none */
	const char *output;  /* -o */
	rpt_report_opts report;
} record_opts;

static void record_usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof record [OPTIONS] -- CMD [ARGS...]\n"
	        "       ringproof record [OPTIONS] -p PID | -a [-- CMD [ARGS...]]\n"
	        "Sample CMD (and its children), a running process or every CPU, and print where\n"
	        "the time went like 'perf report --stdio': overhead, command, pid, shared\n"
	        "object, symbol.  User addresses are resolved per process from the mappings the\n"
	        "ring reports (libdwfl), kernel addresses from /proc/kallsyms.\n"
	        "\n"
	        "  -F, --freq HZ      samples per second (default 999)\n"
	        "  -e, --event EVENT  software: cpu-clock (default), task-clock, page-faults,\n"
	        "                     minor-faults, major-faults, context-switches, cpu-migrations,\n"
	        "                     alignment-faults, emulation-faults;\n"
	        "                     hardware (needs a PMU): cycles, instructions, cache-references,\n"
	        "                     cache-misses, branches, branch-misses, bus-cycles, ref-cycles\n"
	        "  -g, --call-graph   record call chains; show each row's callers as a tree\n"
	        "      --folded       print one line per stack, comm;outer;...;inner COUNT\n"
	        "  -j, --json         print one JSON object\n"
	        "  -p, --pid PID      attach to running process PID until it exits or Ctrl-C\n"
	        "  -a, --all-cpus     every process on every CPU, until CMD exits or Ctrl-C\n"
	        "  -o, --output FILE  save samples and mappings to FILE ('ringproof report FILE')\n"
	        "  -h, --help         show this help\n"
	        "\n"
	        "Exit status: CMD's (128 + signal if a signal ended it); 1 if sampling failed,\n"
	        "2 for a bad command line.\n");
}

static void span_str(rp_span s, char *buf, uint32_t cap)
{
	uint32_t n = rp_span_copy(s, (uint8_t *)buf, cap - 1);
	buf[n] = 0;
}

/* A mapping from an MMAP or MMAP2 record (the same fields, other layouts). */
static int add_map(record_state *st, rpt_task_ev *te, uint32_t pid, uint32_t tid, uint64_t addr,
                   uint64_t len, uint64_t pgoff, rp_span filename, char *name, uint32_t cap)
{
	te->type = RPT_EV_MAP;
	te->pid = pid;
	te->tid = tid;
	te->start = addr;
	te->len = len;
	te->pgoff = pgoff;
	span_str(filename, name, cap);
	te->name = name;
	return rpt_profile_add_ev(&st->prof, te);
}

static int on_record(void *arg, int cpu, const rp_record *rec)
{
	record_state *st = arg;
	static rp_event ev; /* large; the drain is single-threaded */
	char name[4096];
	rpt_task_ev te = { 0 };
	int err = 0;
	(void)cpu;

	if (rec->type != RP_RECORD_SAMPLE && rec->type != RP_RECORD_MMAP && rec->type != RP_RECORD_MMAP2 &&
	    rec->type != RP_RECORD_COMM && rec->type != RP_RECORD_FORK)
		return 0;
	if (rp_record_parse(&st->layout, rec, &ev) != RP_OK) {
		st->bad++;
		return 0;
	}
	te.time = ev.has_sample_id ? ev.sample_id.time : 0;
	switch (rec->type) {
	case RP_RECORD_SAMPLE: {
		rpt_sample_rec s = {
			.pid = ev.sample.pid, .tid = ev.sample.tid, .cpu = ev.sample.cpu, .misc = rec->misc,
			.time = ev.sample.time, .period = ev.sample.period, .frames = st->frames,
		};
		if (ev.sample.present & PERF_SAMPLE_CALLCHAIN) {
			uint64_t n = ev.sample.callchain_nr < REC_MAX_FRAMES ? ev.sample.callchain_nr : REC_MAX_FRAMES;
			for (s.nframes = 0; s.nframes < n; s.nframes++)
				if (!rp_span_get_u64(ev.sample.callchain, 8 * s.nframes, &st->frames[s.nframes]))
					break;
		}
		if (s.nframes == 0) {
			st->frames[0] = ev.sample.ip;
			s.nframes = 1;
		}
		err = rpt_profile_add_sample(&st->prof, &s);
		break;
	}
	case RP_RECORD_MMAP:
		err = add_map(st, &te, ev.mmap.pid, ev.mmap.tid, ev.mmap.addr, ev.mmap.len,
		              ev.mmap.pgoff, ev.mmap.filename, name, sizeof(name));
		break;
	case RP_RECORD_MMAP2:
		if (!(ev.mmap2.prot & PROT_EXEC))
			return 0;
		err = add_map(st, &te, ev.mmap2.pid, ev.mmap2.tid, ev.mmap2.addr, ev.mmap2.len,
		              ev.mmap2.pgoff, ev.mmap2.filename, name, sizeof(name));
		break;
	case RP_RECORD_COMM:
		te.type = RPT_EV_COMM;
		te.pid = ev.comm.pid;
		te.tid = ev.comm.tid;
		te.exec = (rec->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
		span_str(ev.comm.comm, name, 64);
		te.name = name;
		err = rpt_profile_add_ev(&st->prof, &te);
		break;
	case RP_RECORD_FORK:
		te.type = RPT_EV_FORK;
		te.pid = ev.task.pid;
		te.ppid = ev.task.ppid;
		te.tid = ev.task.tid;
		te.time = ev.task.time;
		err = rpt_profile_add_ev(&st->prof, &te);
		break;
	}
	if (err)
		st->nomem++;
	return 0;
}

/* The kernel reports mappings made after the event opened; for a process
 * that already runs (-p, -a) its current ones come from /proc, as perf does. */
static void synthesize_pid(record_state *st, uint32_t pid)
{
	char path[64], line[4096 + 128], comm[64] = "";
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	FILE *f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/proc/%u/task", pid);
	DIR *d = opendir(path);
	for (struct dirent *de; d && (de = readdir(d));) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		rpt_task_ev te = { .type = RPT_EV_COMM, .pid = pid, .tid = (uint32_t)atoi(de->d_name), .name = comm };
		char tpath[320];
		snprintf(tpath, sizeof(tpath), "/proc/%u/task/%s/comm", pid, de->d_name);
		char tcomm[64];
		FILE *tf = fopen(tpath, "re");
		if (tf) {
			if (fgets(tcomm, sizeof(tcomm), tf)) {
				tcomm[strcspn(tcomm, "\n")] = 0;
				te.name = tcomm;
			}
			fclose(tf);
		}
		if (rpt_profile_add_ev(&st->prof, &te))
			st->nomem++;
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long a, b, off;
		char perms[8];
		int n = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &a, &b, perms, &off, &n) < 4 || !n ||
		    perms[2] != 'x')
			continue;
		line[strcspn(line, "\n")] = 0;
		rpt_task_ev te = { .type = RPT_EV_MAP, .pid = pid, .tid = pid, .start = a, .len = b - a,
		                   .pgoff = off, .name = line[n] ? line + n : "//anon" };
		if (rpt_profile_add_ev(&st->prof, &te))
			st->nomem++;
	}
	if (f)
		fclose(f);
}

static void synthesize_all(record_state *st)
{
	DIR *d = opendir("/proc");
	for (struct dirent *de; d && (de = readdir(d));)
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			synthesize_pid(st, (uint32_t)atoi(de->d_name));
	if (d)
		closedir(d);
}

static int parse_args(int argc, char **argv, record_opts *o)
{
	static const struct option opts[] = {
		{ "freq", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "call-graph", no_argument, NULL, 'g' },
		{ "folded", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:F:e:gjp:ao:h", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			if (!rpt_parse_u64(optarg, 100000, &o->hz) || o->hz == 0)
				return rpt_usage_error("record", "-F wants a frequency of 1..100000 Hz, not '%s'", optarg);
			break;
		case 'e': {
			size_t i;
			for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
				if (!strcmp(optarg, events[i].name))
					break;
			if (i == sizeof(events) / sizeof(events[0]))
				return rpt_usage_error("record", "unknown event '%s'", optarg);
			o->event = &events[i];
			break;
		}
		case 'g': o->callchain = true; o->report.callchains = true; break;
		case 'f': o->callchain = true; o->report.folded = true; break;
		case 'j': o->report.json = true; break;
		case 'p':
			if (!rpt_parse_u64(optarg, INT32_MAX, &v) || v == 0)
				return rpt_usage_error("record", "-p wants a process id, not '%s'", optarg);
			o->pid = (uint32_t)v;
			break;
		case 'a': o->all_cpus = true; break;
		case 'o': o->output = optarg; break;
		case 'h':
			record_usage(stdout);
			return rpt_out_end("record", RPT_EXIT_OK) ? -2 : -1;
		default:
			return rpt_option_error("record", c, argv, opts);
		}
	}
	if (o->pid && o->all_cpus)
		return rpt_usage_error("record", "-p and -a exclude each other");
	if (o->pid && optind < argc)
		return rpt_usage_error("record", "-p attaches to a running process: no command with it");
	if (!o->pid && !o->all_cpus && optind >= argc)
		return rpt_usage_error("record", "missing the command to run (after --), or -p PID, or -a");
	if (o->report.json && o->report.folded)
		return rpt_usage_error("record", "--json and --folded are two output formats: pick one");
	return 0;
}

/* Fork CMD stopped before exec; *go releases it.  The child reports an exec
 * failure's errno on *status (close-on-exec: EOF means exec worked).
 *
 * CMD stays in ringproof's process group, so that for the terminal it is the
 * foreground job ringproof is: it may read the terminal and change its
 * settings, and Ctrl-C and Ctrl-Z reach both.  The processes CMD starts are
 * reached through ancestry instead (stop_tree), whatever group or session
 * they move to.  SIGTSTP, SIGHUP and the signal mask are left as ringproof
 * got them; SIGINT and SIGTERM (ringproof's handler) and SIGPIPE (ignored by
 * ringproof) are set back to their default. */
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
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
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

static int open_events(rpt_perfset *set, struct perf_event_attr *attr, const record_opts *o, pid_t target)
{
	int err = rpt_perfset_open(set, attr, target, REC_PAGES);
	if ((err == -EACCES || err == -EPERM) && !attr->exclude_kernel && !o->all_cpus) {
		/* like perf: without CAP_PERFMON, paranoid 2 still allows user-space samples */
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		err = rpt_perfset_open(set, attr, target, REC_PAGES);
		if (!err)
			fprintf(stderr, "%s record: kernel samples not permitted, sampling user space only\n", rpt_prog);
	}
	if (err && o->event->type == PERF_TYPE_HARDWARE &&
	    (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -EINVAL)) {
		fprintf(stderr, "%s record: hardware event '%s' is not available on this machine (no hardware "
		        "PMU, e.g. in a virtual machine): %s\n%s record: hint: use a software event, "
		        "e.g. -e cpu-clock\n", rpt_prog, o->event->name, strerror(-err), rpt_prog);
		return RPT_EXIT_FAIL;
	}
	if (err == -ESRCH && o->pid) {
		fprintf(stderr, "%s record: no process %u\n", rpt_prog, o->pid);
		return RPT_EXIT_FAIL;
	}
	if (err)
		return rpt_fail("opening the sampling event", err);
	return 0;
}

/* -o FILE: written to an unnamed file (O_TMPFILE) in FILE's directory,
 * created before sampling starts (a bad path fails at once), and linked in
 * as FILE once complete, so that neither a failed write nor a killed
 * ringproof leaves a partial FILE or a temporary one.  A new FILE is linked
 * in directly; an existing one is replaced by linking to FILE.tmp.XXXXXX and
 * renaming that over it.  A filesystem without O_TMPFILE gets the named
 * FILE.tmp.XXXXXX from the start (a killed ringproof leaves it). */
typedef struct out_file {
	const char *path;
	char *tmp;   /* the named temporary file, NULL while there is none */
	FILE *f;
	bool unnamed; /* f is an O_TMPFILE file */
} out_file;

static void out_abort(out_file *out)
{
	int e = errno;
	if (out->f)
		fclose(out->f);
	if (out->tmp)
		unlink(out->tmp);
	free(out->tmp);
	out->f = NULL;
	out->tmp = NULL;
	errno = e;
}

/* path's directory, "." for a name without one */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	size_t n = slash == path ? 1 : (size_t)(slash - path);
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, path, n);
		d[n] = 0;
	}
	return d;
}

/* path.tmp.XXXXXX with 6 letters and digits of its own */
static char *tmp_name(const char *path, unsigned try)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t n = strlen(path) + sizeof(".tmp.XXXXXX");
	char *t = malloc(n);
	if (!t)
		return NULL;
	uint64_t v = (uint64_t)(rpt_now() * 1e9) ^ ((uint64_t)getpid() << 32) ^ ((uint64_t)try * 0x9e3779b97f4a7c15u);
	int k = snprintf(t, n, "%s.tmp.", path);
	for (int i = 0; i < 6; i++, v /= sizeof(abc) - 1)
		t[k + i] = abc[v % (sizeof(abc) - 1)];
	t[k + 6] = 0;
	return t;
}

static int out_open(out_file *out, const char *path)
{
	struct stat sb;
	if (!stat(path, &sb) && S_ISDIR(sb.st_mode))
		return -EISDIR;
	out->path = path;
	char *dir = dir_of(path);
	if (!dir)
		return -ENOMEM;
	/* the mode as fopen gives it: 0666 less the umask */
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	free(dir);
	if (fd >= 0) {
		out->unnamed = true;
	} else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
		return -errno;
	} else { /* no O_TMPFILE here: a named temporary file */
		size_t n = strlen(path) + sizeof(".tmp.XXXXXX");
		if (!(out->tmp = malloc(n)))
			return -ENOMEM;
		snprintf(out->tmp, n, "%s.tmp.XXXXXX", path);
		fd = mkostemp(out->tmp, O_CLOEXEC);
		if (fd < 0) {
			int err = -errno;
			free(out->tmp);
			out->tmp = NULL;
			return err;
		}
		mode_t mask = umask(0); /* mkostemp makes 0600 */
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) < 0) {
			int err = -errno;
			close(fd);
			out_abort(out);
			return err;
		}
	}
	if (!(out->f = fdopen(fd, "w"))) {
		int err = -errno;
		close(fd);
		out_abort(out);
		return err;
	}
	return 0;
}

/* Give the unnamed file the name to: through /proc/self/fd (any user), or
 * AT_EMPTY_PATH where /proc is not mounted. */
static int link_unnamed(int fd, const char *to)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW))
		return 0;
	if (errno != ENOENT)
		return -errno;
	return linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH) ? -errno : 0;
}

static int out_commit(out_file *out, const rpt_profile *p)
{
	int err = rpt_profile_save(p, out->f);
	if (!err && fflush(out->f))
		err = -errno;
	if (!err && fsync(fileno(out->f)) < 0)
		err = -errno;
	if (!err && out->unnamed) {
		/* a new FILE at once; an existing one replaced by a rename */
		err = link_unnamed(fileno(out->f), out->path);
		for (unsigned try = 0; err == -EEXIST && try < 100; try++) {
			free(out->tmp);
			if (!(out->tmp = tmp_name(out->path, try))) {
				err = -ENOMEM;
				break;
			}
			err = link_unnamed(fileno(out->f), out->tmp);
			if (err) {
				free(out->tmp); /* not made: nothing to remove */
				out->tmp = NULL;
				if (err == -EEXIST)
					continue;
				break;
			}
			if (rename(out->tmp, out->path) < 0)
				err = -errno; /* out_abort removes the name */
			else {
				free(out->tmp);
				out->tmp = NULL;
			}
			break;
		}
	}
	if (fclose(out->f) && !err)
		err = -errno;
	out->f = NULL;
	if (!err && !out->unnamed && rename(out->tmp, out->path) < 0)
		err = -errno;
	if (!err && out->tmp) {
		free(out->tmp);
		out->tmp = NULL;
	}
	out_abort(out);
	return err;
}

/* ---- CMD's process tree -------------------------------------------------
 *
 * ringproof is the child subreaper of CMD's tree (PR_SET_CHILD_SUBREAPER):
 * a process of the tree whose parent ends is reparented to ringproof, not to
 * init, whatever process group or session it moved to (setsid included).  So
 * CMD's tree is exactly ringproof's descendants, found by reading the parent
 * of every process in /proc/PID/stat (no need for CONFIG_PROC_CHILDREN).
 *
 * A scan is not atomic.  A process read before its parent ends, and whose
 * parent is reaped before the parent is read, is missed by that scan (the
 * next one finds it, reparented to ringproof); the stop signal's walk can
 * miss it that way, the SIGKILL walks repeat, and the last walk that finds
 * nothing left is done twice.  A pid is only signalled when its parent
 * chain led to ringproof in the scan, and through a pidfd opened before its
 * start time is checked against the scan's, so a pid reused by another
 * process in between is not signalled (unless it started in the same clock
 * tick as the one it replaced).  Where pidfd_open(2) is missing
 * (Linux before 5.3), kill(2) is used, with a small race: a process other
 * than ringproof's own child that ends, is reaped by its parent and whose
 * pid is reused between the scan and the kill would have the newcomer
 * signalled. */

typedef struct proc_ent {
	pid_t pid, ppid, pgrp;
	unsigned long long start; /* clock ticks after boot: names the process with pid */
	char state;               /* R, S, D, T, Z... */
	unsigned depth;           /* 1: ringproof's child, 2: grandchild...; 0: not ours */
} proc_ent;

typedef struct proc_scan {
	proc_ent *v;
	size_t n, cap;
} proc_scan;

/* pid's /proc/PID/stat (dir: /proc): parent, process group, state and start time.
 * -ENOENT or -ESRCH when the process is gone. */
static int read_stat(int dir, pid_t pid, proc_ent *e)
{
	char path[32], buf[1024];
	snprintf(path, sizeof(path), "%d/stat", (int)pid);
	int fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int err = n < 0 ? -errno : n == 0 ? -ESRCH : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = 0;
	/* the comm (field 2) may hold spaces and ')': the fields after it */
	char *p = strrchr(buf, ')');
	int ppid, pgrp;
	e->pid = pid;
	if (!p || sscanf(p + 1, " %c %d %d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
	                 &e->state, &ppid, &pgrp, &e->start) != 4)
		return -EPROTO;
	e->ppid = ppid;
	e->pgrp = pgrp;
	e->depth = 0;
	return 0;
}

static int by_ppid(const void *a, const void *b)
{
	const proc_ent *x = a, *y = b;
	return x->ppid < y->ppid ? -1 : x->ppid > y->ppid;
}

/* the first entry of the sorted v[0..n) whose parent is ppid (n if none) */
static size_t first_child(const proc_ent *v, size_t n, pid_t ppid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].ppid < ppid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Every process in /proc into s, those of ringproof's tree with a depth;
 * *dir_out is /proc, open.  A process that goes away during the scan is left
 * out; any other failure (/proc not mounted, no memory, too many open
 * files; -ESRCH: ringproof is not in it) is returned. */
static int scan_tree(proc_scan *s, DIR **dir_out)
{
	DIR *d = opendir("/proc");
	if (!d)
		return -errno;
	int err = 0;
	s->n = 0;
	for (;;) {
		errno = 0;
		struct dirent *de = readdir(d);
		if (!de) {
			err = -errno;
			break;
		}
		char *end;
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		long pid = strtol(de->d_name, &end, 10);
		if (*end || pid <= 0 || pid > INT32_MAX)
			continue;
		if (s->n == s->cap) {
			size_t nc = s->cap ? 2 * s->cap : 512;
			proc_ent *q = realloc(s->v, nc * sizeof(*q));
			if (!q) {
				err = -ENOMEM;
				break;
			}
			s->v = q;
			s->cap = nc;
		}
		err = read_stat(dirfd(d), (pid_t)pid, &s->v[s->n]);
		if (err == -ENOENT || err == -ESRCH) {
			err = 0; /* ended since readdir */
			continue;
		}
		if (err)
			break;
		s->n++;
	}
	if (err) {
		closedir(d);
		return err;
	}
	/* a /proc that does not show ringproof (not mounted, another pid
	 * namespace's) would show an empty tree */
	pid_t self = getpid();
	size_t me = 0;
	while (me < s->n && s->v[me].pid != self)
		me++;
	if (me == s->n) {
		closedir(d);
		return -ESRCH;
	}
	/* breadth first from ringproof: each entry gets a depth once at most */
	qsort(s->v, s->n, sizeof(*s->v), by_ppid);
	bool more = false;
	for (size_t i = first_child(s->v, s->n, self); i < s->n && s->v[i].ppid == self; i++) {
		s->v[i].depth = 1;
		more = true;
	}
	for (unsigned depth = 1; more; depth++) {
		more = false;
		for (size_t i = 0; i < s->n; i++) {
			if (s->v[i].depth != depth)
				continue;
			for (size_t k = first_child(s->v, s->n, s->v[i].pid); k < s->n && s->v[k].ppid == s->v[i].pid; k++)
				if (!s->v[k].depth) {
					s->v[k].depth = depth + 1;
					more = true;
				}
		}
	}
	*dir_out = d;
	return 0;
}

/* Send sig to the process e of the scan, if it is still that process. */
static void signal_proc(int dir, const proc_ent *e, int sig)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, e->pid, 0);
	if (fd >= 0) {
		proc_ent now;
		if (!read_stat(dir, e->pid, &now) && now.start == e->start)
			syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
		close(fd);
		return;
	}
	if (errno == ESRCH)
		return; /* gone */
#else
	(void)dir;
#endif
	kill(e->pid, sig); /* no pidfd: the race told above */
}

/* Walk ringproof's tree: send sig (0: none) to every live process of it but
 * skip (0: none, else already sent sig) and those of the process group
 * spared (0: none; they got sig from the terminal), with a SIGCONT after it
 * to a stopped one (skip and spared ones too) so that it acts on it.
 * Returns how many live processes the tree holds (zombies are not counted),
 * or a negative errno when /proc cannot be scanned. */
static long walk_tree(proc_scan *s, int sig, pid_t skip, pid_t spared)
{
	DIR *d = NULL;
	int err = scan_tree(s, &d);
	if (err)
		return err;
	int dir = dirfd(d);
	long live = 0;
	for (size_t i = 0; i < s->n; i++) {
		const proc_ent *e = &s->v[i];
		if (!e->depth || e->state == 'Z' || e->state == 'X' || e->state == 'x')
			continue;
		live++;
		if (sig && e->pid != skip && !(spared && e->pgrp == spared))
			signal_proc(dir, e, sig);
		if (sig && sig != SIGKILL && e->state == 'T')
			signal_proc(dir, e, SIGCONT);
	}
	closedir(d);
	return live;
}

#define KILL_GRACE 1 /* seconds a SIGKILLed tree may go without shrinking before it is left */
#define KILL_MAX 10  /* seconds after SIGKILL when what is left is left, shrinking or not */

/* Stopping CMD and its tree, a turn of record's loop at a time. */
typedef struct stopper {
	pid_t child;      /* CMD */
	const char *name; /* CMD's name, for messages */
	bool done;        /* CMD reaped, its status in wstatus */
	int wstatus;
	double stop_at;   /* when the first stop signal came; 0: none yet */
	double kill_at;   /* when the tree got SIGKILL; 0: not yet */
	double shrunk_at; /* when a SIGKILL walk last found fewer processes */
	long kill_left;   /* how many that walk found */
	bool walk_failed; /* said once that /proc could not be scanned */
	proc_scan scan;
} stopper;

/* Reap CMD and the orphans of its tree (ringproof is their subreaper, as
 * not every init reaps them). */
static void reap(stopper *s)
{
	int ws;
	for (pid_t p; (p = waitpid(-1, &ws, WNOHANG)) > 0;)
		if (p == s->child) {
			s->wstatus = ws;
			s->done = true;
		}
}

/* sig to CMD itself, unless it has ended or is in the spared group (which
 * got Ctrl-C from the terminal already). */
static void signal_cmd(stopper *s, int sig, pid_t spared)
{
	if (!s->done && !(spared && getpgid(s->child) == spared))
		kill(s->child, sig);
}

/* walk_tree, telling once when /proc cannot be scanned; then CMD stands
 * for the whole tree. */
static long walk(stopper *s, int sig, pid_t skip, pid_t spared)
{
	long n = walk_tree(&s->scan, sig, skip, spared);
	if (n >= 0)
		return n;
	if (!s->walk_failed) {
		fprintf(stderr, "%s record: cannot list the processes '%s' started (scanning /proc: %s): "
		        "signalling '%s' alone\n", rpt_prog, s->name,
		        n == -ESRCH ? "ringproof is not in it" : strerror((int)-n), s->name);
		s->walk_failed = true;
	}
	if (sig && skip != s->child)
		signal_cmd(s, sig, spared);
	return s->done ? 0 : 1;
}

/* SIGKILL to the whole tree, walk after walk while processes are left (one
 * may fork while it is killed), for 200 ms at most: the loop's turns go on
 * with it. */
static void kill_tree(stopper *s)
{
	double t0 = rpt_now();
	s->kill_at = t0;
	for (;;) {
		long n = walk(s, SIGKILL, 0, 0);
		reap(s);
		if (n <= 0 || rpt_now() - t0 >= 0.2)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	s->shrunk_at = rpt_now(); /* a walk of thousands of processes takes a while */
	s->kill_left = LONG_MAX;
}

/* One turn of record's loop while there is a CMD: reap, and act on a stop
 * signal.  The first SIGINT, SIGTERM or SIGHUP is passed on to CMD and to
 * every other live process of its tree.  After it, record waits for the
 * whole tree to end; when any of it is left STOP_GRACE s after the signal,
 * or a second signal comes, the tree gets SIGKILL (kill_tree, then a walk
 * each turn) until nothing is left; once CMD is gone, what is left when the
 * tree has not shrunk for KILL_GRACE s, or KILL_MAX s after the SIGKILL, is
 * left (a process stuck in the kernel).  Without a stop
 * signal, what CMD leaves when it ends by itself is left alone.  Returns
 * true when record is done waiting. */
static bool stop_tree(stopper *s)
{
	reap(s);
	int sig = rpt_stop;
	const bool ctrl_c = rpt_stop_ctrl_c;
	rpt_stop = 0;
	if (!s->stop_at && !sig)
		return s->done;
	if (!s->stop_at) {
		s->stop_at = rpt_now();
		/* Ctrl-C reached the terminal's whole foreground group,
		 * ringproof's: passed on, it would come twice to the processes
		 * of that group, CMD among them unless it made a group of its
		 * own.  They are spared; the rest of the tree (other groups and
		 * sessions) gets it. */
		const pid_t spared = ctrl_c ? getpgrp() : 0;
		signal_cmd(s, sig, spared);
		walk(s, sig, s->child, spared);
		return false;
	}
	if (s->kill_at) {
		long n = walk(s, SIGKILL, 0, 0);
		if (n == 0)
			n = walk(s, SIGKILL, 0, 0); /* nothing left: make sure (a scan is not atomic) */
		reap(s);
		double now = rpt_now();
		if (n < s->kill_left) {
			s->kill_left = n;
			s->shrunk_at = now;
		}
		/* SIGKILLed, a process cannot fork: the tree only shrinks, unless
		 * one is stuck in the kernel (then it is left) */
		if (s->done && n > 0 && (now - s->shrunk_at >= KILL_GRACE || now - s->kill_at >= KILL_MAX)) {
			fprintf(stderr, "%s record: %ld process%s of '%s' still there after SIGKILL: left\n",
			        rpt_prog, n, n == 1 ? "" : "es", s->name);
			return true;
		}
		return s->done && n == 0;
	}
	long n = walk(s, 0, 0, 0);
	if (n == 0)
		n = walk(s, 0, 0, 0);
	if (n == 0 && s->done)
		return true;
	if (sig || rpt_now() - s->stop_at >= STOP_GRACE) {
		if (s->done)
			fprintf(stderr, "%s record: killing what is left of the processes of '%s' (SIGKILL): ",
			        rpt_prog, s->name);
		else
			fprintf(stderr, "%s record: killing '%s' and the processes it started (SIGKILL): ",
			        rpt_prog, s->name);
		if (sig)
			fprintf(stderr, "a second signal came\n");
		else
			fprintf(stderr, "still running %d s after the signal\n", STOP_GRACE);
		kill_tree(s);
	}
	return false;
}

int rpt_cmd_record(int argc, char **argv)
{
	record_opts o = { .hz = 999, .event = &events[0] };
	struct perf_event_attr attr;
	int prc = parse_args(argc, argv, &o);
	if (prc)
		return prc == -1 ? RPT_EXIT_OK : prc == -2 ? RPT_EXIT_FAIL : prc;
	char **cmd = optind < argc ? argv + optind : NULL;
	record_state *st = calloc(1, sizeof(*st));
	if (!st)
		return rpt_fail("allocating the sample store", -ENOMEM);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = o.event->type;
	attr.config = o.event->config;
	attr.freq = 1;
	attr.sample_freq = o.hz;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
	                   PERF_SAMPLE_PERIOD | (o.callchain ? PERF_SAMPLE_CALLCHAIN : 0);
	attr.sample_id_all = 1;
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.comm = 1;
	attr.comm_exec = 1;
	attr.task = 1;
	attr.wakeup_events = 32;
	if (rp_sample_layout_make(attr.sample_type, 0, 0, 0, 0, true, &st->layout) != RP_OK) {
		free(st);
		return rpt_fail("preparing the sample parser", -EINVAL);
	}
	snprintf(st->prof.event, sizeof(st->prof.event), "%s", o.event->name);
	st->prof.hz = o.hz;
	st->prof.callchains = o.callchain;
	out_file out = { 0 };
	int err = o.output ? out_open(&out, o.output) : 0;
	if (err) {
		free(st);
		return rpt_fail(o.output, err);
	}

	pid_t child = -1, target;
	int go = -1, status = -1, rc = RPT_EXIT_FAIL;
	if (cmd) {
		/* the orphans of CMD's tree become ours (stop_tree reaches them) */
		if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
			fprintf(stderr, "%s record: cannot be the subreaper of '%s''s processes (%s): "
			        "a stop reaches only those whose parent is still running\n", rpt_prog, cmd[0],
			        strerror(errno));
		child = spawn(cmd, &go, &status);
		if (child < 0) {
			out_abort(&out);
			free(st);
			return rpt_fail("starting the command", -errno);
		}
		/* A hangup stops CMD's tree like SIGINT and SIGTERM, with the
		 * report: its processes that left the terminal's session would not
		 * get it from the kernel.  Set after the fork, so that CMD gets
		 * SIGHUP as ringproof got it; not when ringproof was told to ignore
		 * it (nohup). */
		struct sigaction sa, hup;
		if (!sigaction(SIGHUP, NULL, &hup) && hup.sa_handler != SIG_IGN && !sigaction(SIGINT, NULL, &sa))
			sigaction(SIGHUP, &sa, NULL);
	}
	if (o.all_cpus) {
		target = -1;
		attr.inherit = 0; /* one event per CPU sees every task */
	} else if (o.pid) {
		target = (pid_t)o.pid;
		attr.inherit = 1;
	} else {
		target = child;
		attr.inherit = 1;
		attr.disabled = 1;
		attr.enable_on_exec = 1; /* samples start at CMD's exec, not in our fork */
	}
	rpt_perfset set;
	err = open_events(&set, &attr, &o, target);
	if (err) {
		if (child > 0) {
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
		}
		out_abort(&out);
		free(st);
		return err;
	}
	if (o.all_cpus)
		synthesize_all(st);
	else if (o.pid)
		synthesize_pid(st, o.pid);
	double t0 = rpt_now();
	if (child > 0) {
		int exec_err = 0;
		if (write(go, "g", 1) != 1 || read(status, &exec_err, sizeof(exec_err)) > 0) {
			waitpid(child, NULL, 0);
			rpt_perfset_close(&set);
			out_abort(&out);
			free(st);
			fprintf(stderr, "%s record: cannot run '%s': %s\n", rpt_prog, cmd[0],
			        strerror(exec_err ? exec_err : EPIPE));
			return RPT_EXIT_FAIL;
		}
		close(go);
		close(status);
	}

	stopper stop = { .child = child, .name = cmd ? cmd[0] : NULL };
	for (;;) {
		if (child > 0 && stop_tree(&stop))
			break;
		if (rpt_stop && child <= 0)
			break;
		if (o.pid && kill((pid_t)o.pid, 0) < 0 && errno == ESRCH)
			break;
		/* short turns while the tree is being stopped */
		err = rpt_perfset_poll(&set, stop.stop_at ? 20 : 100);
		if (err < 0 && err != -EINTR) {
			rpt_fail("waiting for samples", err);
			break;
		}
		rpt_perfset_consume(&set, on_record, st);
	}
	st->prof.secs = rpt_now() - t0;
	rpt_perfset_consume(&set, on_record, st);
	rp_perf_stats rs;
	rpt_perfset_stats(&set, &rs);
	rpt_perfset_close(&set);
	st->prof.lost = rs.lost;
	st->prof.corrupt = rs.corrupt + st->bad;
	if (st->nomem)
		fprintf(stderr, "%s record: out of memory: %" PRIu64 " records not kept\n", rpt_prog, st->nomem);

	if (o.output) {
		err = out_commit(&out, &st->prof);
		if (err) {
			rpt_fail(o.output, err);
			goto out;
		}
		fprintf(stderr, "%s record: %zu samples and %zu task records written to %s (ringproof report %s)\n",
		        rpt_prog, st->prof.n_smp, st->prof.n_ev, o.output, o.output);
	} else {
		err = rpt_profile_report(&st->prof, &o.report);
		if (err) {
			rpt_fail("printing the report", err);
			goto out;
		}
	}
	rc = RPT_EXIT_OK;
	if (stop.done && WIFEXITED(stop.wstatus)) {
		rc = WEXITSTATUS(stop.wstatus);
		if (rc)
			fprintf(stderr, "%s record: '%s' exited with status %d\n", rpt_prog, cmd[0], rc);
	} else if (stop.done && WIFSIGNALED(stop.wstatus)) {
		fprintf(stderr, "%s record: '%s' was killed by signal %d\n", rpt_prog, cmd[0], WTERMSIG(stop.wstatus));
		rc = 128 + WTERMSIG(stop.wstatus);
	}
	rc = rpt_out_end("record", rc);
out:
	free(stop.scan.v);
	out_abort(&out);
	rpt_profile_free(&st->prof);
	free(st);
	return rc;
}
