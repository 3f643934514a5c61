/* Shared between bpf/itest_emit.bpf.c and the integration tests. */
#ifndef ITEST_EMIT_BPF_H
#define ITEST_EMIT_BPF_H

#define ITEST_MAX_PAYLOAD 4096
#define ITEST_MAX_PER_RUN 256

/* The single value of the `source` array map.  Userspace sets size, count
 * and data; each run of `emit` outputs count records of size bytes taken
 * from data, stamping the u64 seq into the first 8 bytes when size >= 8
 * (seq advances on every attempt, delivered or not), and counts outcomes. */
struct itest_source {
	__u32 size;
	__u32 count;
	__u64 seq;
	__u64 ok;      /* bpf_perf_event_output returned 0 */
	__u64 enospc;  /* returned -ENOSPC (ring full or paused) */
	__u64 other;   /* any other error */
	__s64 last_err;
	__u32 live_tgid; /* sys_enter: only this process's syscalls are output */
	__u32 live_pad;
	__u8 data[ITEST_MAX_PAYLOAD];
};

/* What `live_sys_enter` outputs for each syscall of live_tgid. */
struct itest_live {
	__u32 tgid;
	__u32 tid;
	__u64 syscall_nr;
};

#endif
