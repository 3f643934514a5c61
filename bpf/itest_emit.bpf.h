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
	__u8 data[ITEST_MAX_PAYLOAD];
};

#endif
