/* What `ringproof record` keeps of a run, decoded: the task events (COMM,
 * MMAP/MMAP2, FORK) and the samples, with the time each carries.  record
 * fills it from the ring, report reads it back from a file; both hand it to
 * rpt_profile_report (report.c), which replays it in time order. */
#ifndef RPT_PROFILE_H
#define RPT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { RPT_EV_COMM = 1, RPT_EV_MAP, RPT_EV_FORK };

typedef struct rpt_task_ev {
	uint8_t type;      /* RPT_EV_* */
	bool exec;         /* COMM: the comm of an exec (new address space) */
	uint32_t pid, tid, ppid;
	uint64_t time;
	uint64_t start, len, pgoff; /* MAP */
	char *name;        /* COMM: the command; MAP: the file ("//anon", "[vdso]", ...) */
} rpt_task_ev;

typedef struct rpt_sample_rec {
	uint32_t pid, tid, cpu;
	uint16_t misc;     /* cpumode of ip */
	uint64_t time, period;
	uint32_t nframes;  /* the callchain (context markers kept), or just ip */
	uint64_t *frames;
} rpt_sample_rec;

typedef struct rpt_profile {
	char event[32];
	uint64_t hz;
	uint64_t lost, corrupt;
	double secs;
	bool callchains;
	rpt_task_ev *ev;
	size_t n_ev, cap_ev;
	rpt_sample_rec *smp;
	size_t n_smp, cap_smp;
} rpt_profile;

/* 0 or -ENOMEM; strings and frames are copied. */
int rpt_profile_add_ev(rpt_profile *p, const rpt_task_ev *ev);
int rpt_profile_add_sample(rpt_profile *p, const rpt_sample_rec *s);
void rpt_profile_free(rpt_profile *p);
/* A text file, one line per event or sample.  0 or -errno. */
int rpt_profile_save(const rpt_profile *p, FILE *f);
/* 0, -errno, or -EINVAL with why saying what is wrong ("line 7 is not a
 * ringproof record file line", "the file is empty", ...). */
int rpt_profile_load(rpt_profile *p, FILE *f, char *why, size_t why_cap);

#endif
