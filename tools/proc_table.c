#include "proc_table.h"

#include <stdlib.h>
#include <string.h>

#include "trace_event.h"

void rpt_proc_count(rpt_proc_table *t, uint32_t pid, const char comm[16], unsigned kind)
{
	uint32_t h = (pid * 2654435761u) & (RPT_PROC_CAP - 1);

	if (pid == 0) /* the idle task never enters syscalls; keep 0 as "free" */
		pid = UINT32_MAX;
	for (uint32_t i = 0; i < RPT_PROC_CAP; i++) {
		rpt_proc *p = &t->slot[(h + i) & (RPT_PROC_CAP - 1)];
		if (p->pid == 0) {
			if (t->used >= RPT_PROC_CAP - RPT_PROC_CAP / 8)
				break;
			p->pid = pid;
			t->used++;
			memcpy(p->comm, comm, sizeof(p->comm));
			p->comm[15] = 0;
		}
		if (p->pid != pid)
			continue;
		if (kind == RP_TRACE_EXEC) {
			p->execs++;
			memcpy(p->comm, comm, sizeof(p->comm));
			p->comm[15] = 0;
		} else if (kind == RP_TRACE_SYSCALL) {
			p->syscalls++;
		}
		return;
	}
	t->overflow++;
}

static int busier(const void *a, const void *b)
{
	const rpt_proc *x = a, *y = b;
	uint64_t nx = x->syscalls + x->execs, ny = y->syscalls + y->execs;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

void rpt_proc_print(rpt_proc_table *t, FILE *f, unsigned top)
{
	/* compact the used slots to the front, then sort them */
	uint32_t n = 0;
	for (uint32_t i = 0; i < RPT_PROC_CAP; i++)
		if (t->slot[i].pid)
			t->slot[n++] = t->slot[i];
	memset(&t->slot[n], 0, (RPT_PROC_CAP - n) * sizeof(t->slot[0]));
	qsort(t->slot, n, sizeof(t->slot[0]), busier);
	fprintf(f, "%8s  %-16s %10s %6s\n", "PID", "COMM", "SYSCALLS", "EXECS");
	for (uint32_t i = 0; i < n && i < top; i++) {
		const rpt_proc *p = &t->slot[i];
		fprintf(f, "%8u  %-16s %10llu %6llu\n", p->pid == UINT32_MAX ? 0u : p->pid,
		        p->comm, (unsigned long long)p->syscalls, (unsigned long long)p->execs);
	}
	if (n > top)
		fprintf(f, "(%u more processes)\n", n - top);
	if (t->overflow)
		fprintf(f, "(%llu events of processes beyond the table's capacity)\n",
		        (unsigned long long)t->overflow);
	t->used = 0; /* the table is no longer a hash table after this */
}
