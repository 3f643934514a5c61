/* Shared pieces of the ringproof command-line tool. */
#ifndef RPT_CLI_H
#define RPT_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define RPT_EXIT_OK 0
#define RPT_EXIT_FAIL 1  /* the work failed (kernel refused, I/O error) */
#define RPT_EXIT_USAGE 2 /* bad command line */

extern volatile sig_atomic_t rpt_stop; /* SIGINT or SIGTERM once one arrived, else 0 */
extern volatile sig_atomic_t rpt_stop_ctrl_c; /* it was Ctrl-C: the terminal's SIGINT */
extern const char *rpt_prog;

/* Report a failure of `what` with the text of code (-errno or RP_E_*) and, for
 * permission errors, a hint.  Returns RPT_EXIT_FAIL. */
int rpt_fail(const char *what, int code);
/* "ringproof CMD: msg" plus "try 'ringproof CMD --help'"; returns RPT_EXIT_USAGE. */
int rpt_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The usage error for getopt_long's ':' (a value is missing) or '?' return
 * (optstring starting with ':'), naming the option as in opts; returns
 * RPT_EXIT_USAGE. */
struct option;
int rpt_option_error(const char *cmd, int c, char *const argv[], const struct option *opts);
/* Parse a non-negative decimal integer up to max; false if it is not one. */
bool rpt_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* stdout health: false once a write failed (EPIPE: the reader went away). */
bool rpt_out_ok(void);
/* Flush stdout; false (and rpt_out_ok() false) when the write failed. */
bool rpt_out_flush(void);
/* A command's exit status once its output is done: flush stdout, then rc if
 * every write worked or the reader went away (EPIPE, a clean stop); else
 * "ringproof CMD: writing standard output: ..." and RPT_EXIT_FAIL. */
int rpt_out_end(const char *cmd, int rc);
/* Write s as a JSON string (quotes included) to f, escaping what JSON needs;
 * bytes >= 0x80 are written as \u00XX so the output is always valid. */
void rpt_json_str(FILE *f, const char *s, size_t max);

double rpt_now(void); /* CLOCK_MONOTONIC seconds */
void rpt_install_signals(void);

/* The embedded BPF objects (tools/embed.S). */
extern const unsigned char rpt_trace_bpf_obj[];
extern const unsigned char rpt_trace_bpf_obj_end[];

int rpt_cmd_trace(int argc, char **argv);
int rpt_cmd_pipe(int argc, char **argv);
int rpt_cmd_record(int argc, char **argv);
int rpt_cmd_report(int argc, char **argv);

#endif
