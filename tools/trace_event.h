/* The event the built-in trace program emits (bpf/trace.bpf.c), shared by
 * the BPF side and the CLI.  Fixed header, host byte order; exec events and
 * syscalls with a string argument carry str_len bytes of strings after it. */
#ifndef RP_TRACE_EVENT_H
#define RP_TRACE_EVENT_H

#define RP_TRACE_SYSCALL 1u
#define RP_TRACE_EXEC 2u
#define RP_TRACE_EXIT 3u
#define RP_TRACE_COMM_LEN 16
#define RP_TRACE_PATH_LEN 128 /* exec filename; syscall path argument */
#define RP_TRACE_ARGS_LEN 256 /* exec argv, NUL-separated, cut at this size */
#define RP_TRACE_STR_MAX (RP_TRACE_PATH_LEN + RP_TRACE_ARGS_LEN)

/* arg_kind: what the syscall argument fields hold */
#define RP_TRACE_ARG_NONE 0u
#define RP_TRACE_ARG_PATH 1u   /* str: the path (open, openat, execve, ...) */
#define RP_TRACE_ARG_FAMILY 2u /* family: the sockaddr family (connect) */

struct rp_trace_event {
	unsigned int kind;  /* RP_TRACE_SYSCALL, RP_TRACE_EXEC or RP_TRACE_EXIT */
	unsigned int cpu;   /* bpf_get_smp_processor_id() */
	unsigned int pid;   /* thread group id */
	unsigned int tid;
	unsigned int ppid;  /* exec, exit: the parent's thread group id */
	unsigned int uid, gid;
	int nr;             /* syscall number; -1 for exec and exit */
	int exit_code;      /* exit: the wait status (code << 8 | signal) */
	unsigned int arg_kind;
	unsigned int family;
	unsigned int path_len; /* bytes of path in str (with its NUL), <= RP_TRACE_PATH_LEN */
	unsigned int args_len; /* exec: bytes of argv after the path, <= RP_TRACE_ARGS_LEN */
	unsigned int args_cut; /* exec: 1 when argv was longer than RP_TRACE_ARGS_LEN */
	unsigned long long ts_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	char comm[RP_TRACE_COMM_LEN];
};

/* The largest event: header + path + argv. */
struct rp_trace_event_full {
	struct rp_trace_event h;
	char str[RP_TRACE_STR_MAX];
};

/* Read-only settings the loader fills in before load (.rodata). */
struct rp_trace_config {
	unsigned int use_ringbuf; /* 1: bpf_ringbuf_output into rb_events */
	unsigned int self_tgid;   /* the consumer: its own syscalls would feed back */
	unsigned int filter_pid;  /* 0: every process */
	unsigned int filter_uid_on;
	unsigned int filter_uid;
};

#endif
