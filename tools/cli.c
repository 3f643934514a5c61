#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rp_error.h"

volatile sig_atomic_t rpt_stop;
volatile sig_atomic_t rpt_stop_ctrl_c;
const char *rpt_prog = "ringproof";
static int out_err; /* errno of the first failed write to stdout, 0 while none */

static const char *code_text(int code)
{
	return rp_strerror(code < 0 ? code : -code);
}

int rpt_fail(const char *what, int code)
{
	fprintf(stderr, "%s: %s: %s\n", rpt_prog, what, code_text(code));
	if (code == -EPERM || code == -EACCES)
		fprintf(stderr, "%s: hint: needs root or CAP_BPF + CAP_PERFMON "
		        "(and kernel.perf_event_paranoid <= 2)\n", rpt_prog);
	else if (code == -ENOMEM)
		fprintf(stderr, "%s: hint: raise RLIMIT_MEMLOCK (ulimit -l) or "
		        "kernel.perf_event_mlock_kb\n", rpt_prog);
	else if (code == -ENOSYS || code == -EOPNOTSUPP)
		fprintf(stderr, "%s: hint: this kernel lacks the needed perf/BPF support\n", rpt_prog);
	return RPT_EXIT_FAIL;
}

int rpt_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s %s: ", rpt_prog, cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s %s --help'.\n", rpt_prog, cmd);
	return RPT_EXIT_USAGE;
}

bool rpt_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

bool rpt_out_ok(void)
{
	return !out_err;
}

/* stdio reports a failed write inside printf only through ferror(), and
 * errno may have changed since: ask the descriptor whether its reader left. */
static int earlier_write_error(int saved_errno)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		return EPIPE;
	return saved_errno ? saved_errno : EIO;
}

bool rpt_out_flush(void)
{
	int saved = errno;

	if (out_err)
		return false;
	if (fflush(stdout) != 0)
		out_err = errno ? errno : EIO;
	else if (ferror(stdout))
		out_err = earlier_write_error(saved);
	return !out_err;
}

int rpt_out_end(const char *cmd, int rc)
{
	if (rpt_out_flush() || out_err == EPIPE)
		return rc;
	fprintf(stderr, "%s%s%s: writing standard output: %s\n", rpt_prog, cmd ? " " : "",
	        cmd ? cmd : "", strerror(out_err));
	return RPT_EXIT_FAIL;
}

/* The long option named by the text after "--" up to len, exactly or as an
 * unambiguous prefix; NULL when none or several (*n of them) match. */
static const struct option *long_option(const struct option *opts, const char *name, size_t len, int *n)
{
	const struct option *found = NULL;

	*n = 0;
	for (const struct option *o = opts; o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (!o->name[len]) {
			*n = 1;
			return o;
		}
		found = o;
		++*n;
	}
	return *n == 1 ? found : NULL;
}

int rpt_option_error(const char *cmd, int c, char *const argv[], const struct option *opts)
{
	/* getopt has moved past a long option, and past a short one only when it
	 * was the last letter of its cluster: optopt names a short one */
	const char *arg = argv[optind - 1];
	bool is_long = !strncmp(arg, "--", 2) && arg[2];
	size_t len = is_long ? strcspn(arg + 2, "=") : 0;
	int n = 0;
	const struct option *o = is_long ? long_option(opts, arg + 2, len, &n) : NULL;

	if (o && o->val != optopt)
		o = NULL; /* arg is an earlier argument, optopt a letter of this one */
	if (c == ':')
		return o ? rpt_usage_error(cmd, "option '--%s' needs a value", o->name)
		         : rpt_usage_error(cmd, "option '-%c' needs a value", optopt);
	if (o && arg[2 + len] == '=')
		return rpt_usage_error(cmd, "option '--%s' takes no value", o->name);
	if (is_long && !optopt)
		return rpt_usage_error(cmd, n > 1 ? "option '--%.*s' is ambiguous" : "unknown option '--%.*s'",
		                       (int)len, arg + 2);
	return rpt_usage_error(cmd, "unknown option '-%c'", optopt);
}

void rpt_json_str(FILE *f, const char *s, size_t max)
{
	fputc('"', f);
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

double rpt_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* Ctrl-C: a SIGINT the kernel sent (the terminal's, to its foreground
	 * group); kill(2)'s is SI_USER.  A hangup's SIGHUP is the kernel's too,
	 * but reaches the session leader also when its group is not in the
	 * foreground: not counted, a process may get it twice. */
	rpt_stop_ctrl_c = sig == SIGINT && si && si->si_code == SI_KERNEL;
	rpt_stop = sig;
}

void rpt_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop; /* no SA_RESTART: epoll_wait returns EINTR */
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a closed pipe shows up as EPIPE on write, handled as a clean stop */
	signal(SIGPIPE, SIG_IGN);
}
