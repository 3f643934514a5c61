/* Shared between the agent's BPF program and its userspace. */
#ifndef AGENT_H
#define AGENT_H

/* One event: a getppid() call of the traced process. */
struct agent_event {
	__u32 pid;
	__u32 cpu;
	__u64 seq; /* numbered by the BPF program, from 0 */
};

/* Configuration written by userspace before attaching. */
struct agent_config {
	__u32 pid; /* tgid to trace */
	__u32 pad;
	__u64 seq; /* next event number */
	__u64 perf_fail, rb_fail; /* failed outputs (the ring was full) */
};

#endif
