/* The perf-report-like output of a recorded profile (record and report). */
#ifndef RPT_REPORT_H
#define RPT_REPORT_H

#include <stdbool.h>

#include "profile.h"

typedef struct rpt_report_opts {
	bool callchains; /* -g: symbolised caller tree under each row */
	bool folded;     /* --folded: "comm;outer;...;inner count" lines */
	bool json;
} rpt_report_opts;

/* Replay p in time order, symbolise, print to stdout.  0 or a negative code. */
int rpt_profile_report(const rpt_profile *p, const rpt_report_opts *o);

#endif
