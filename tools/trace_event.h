/* The event the built-in trace program emits (bpf/trace.bpf.c), shared by
 * the BPF side and the CLI.  Fixed layout, host byte order. */
#ifndef RP_TRACE_EVENT_H
#define RP_TRACE_EVENT_H

#define RP_TRACE_SYSCALL 1u
#define RP_TRACE_EXEC 2u
#define RP_TRACE_COMM_LEN 16

struct rp_trace_event {
	unsigned int kind;  /* RP_TRACE_SYSCALL or RP_TRACE_EXEC */
	unsigned int pid;   /* thread group id */
	unsigned int tid;
	int nr;             /* syscall number; -1 for exec */
	unsigned long long ts_ns; /* bpf_ktime_get_ns() */
	char comm[RP_TRACE_COMM_LEN];
};

/* Read-only settings the loader fills in before load (.rodata). */
struct rp_trace_config {
	unsigned int use_ringbuf; /* 1: bpf_ringbuf_output into rb_events */
	unsigned int self_tgid;   /* the consumer: its own syscalls would feed back */
};

#endif
