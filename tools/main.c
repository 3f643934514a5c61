/* ringproof: decode perf rings and BPF ring buffers through a verified core. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef RP_VERSION
#define RP_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	fprintf(f,
	        "Usage: ringproof COMMAND [OPTIONS]\n"
	        "\n"
	        "Commands:\n"
	        "  trace              trace syscalls, execs and exits system-wide through a built-in BPF program\n"
	        "  pipe MAP           print the events of a pinned PERF_EVENT_ARRAY or RINGBUF map\n"
	        "  record [-- CMD...] sample a command, a process or every CPU; report by symbol like perf\n"
	        "  report FILE        print a profile saved with record -o FILE\n"
	        "\n"
	        "'ringproof COMMAND --help' lists the options of COMMAND.\n"
	        "\n"
	        "Options:\n"
	        "  -h, --help     show this help\n"
	        "  -V, --version  show the version\n"
	        "\n"
	        "Exit status: 0 success, 1 failure, 2 bad command line.\n"
	        "Needs root or CAP_BPF + CAP_PERFMON.  See ringproof(1).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return RPT_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage(stdout);
		return rpt_out_end(NULL, RPT_EXIT_OK);
	}
	if (!strcmp(cmd, "-V") || !strcmp(cmd, "--version")) {
		printf("ringproof %s\n", RP_VERSION);
		return rpt_out_end(NULL, RPT_EXIT_OK);
	}
	rpt_install_signals();
	if (!strcmp(cmd, "trace"))
		return rpt_cmd_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "pipe"))
		return rpt_cmd_pipe(argc - 1, argv + 1);
	if (!strcmp(cmd, "record"))
		return rpt_cmd_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return rpt_cmd_report(argc - 1, argv + 1);
	fprintf(stderr, "ringproof: unknown command '%s'\n\n", cmd);
	usage(stderr);
	return RPT_EXIT_USAGE;
}
