/* Per-process counters for the end-of-run table of `ringproof trace`. */
#ifndef RPT_PROC_TABLE_H
#define RPT_PROC_TABLE_H

#include <stdint.h>
#include <stdio.h>

#define RPT_PROC_CAP 8192 /* a power of two */

typedef struct rpt_proc {
	uint32_t pid; /* 0: free slot */
	char comm[16];
	uint64_t syscalls;
	uint64_t execs;
} rpt_proc;

typedef struct rpt_proc_table {
	rpt_proc slot[RPT_PROC_CAP];
	uint32_t used;
	uint64_t overflow; /* events of processes that found the table full */
} rpt_proc_table;

/* Count one event (kind RP_TRACE_*) for pid; comm is updated on exec. */
void rpt_proc_count(rpt_proc_table *t, uint32_t pid, const char comm[16], unsigned kind);
/* The `top` busiest processes, as a table, to f. */
void rpt_proc_print(rpt_proc_table *t, FILE *f, unsigned top);

#endif
