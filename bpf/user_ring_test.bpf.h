/* Shared between bpf/user_ring_test.bpf.c and the user ring buffer tests. */
#ifndef USER_RING_TEST_BPF_H
#define USER_RING_TEST_BPF_H

#define URT_LOG_MAX 4096

/* Each record the test submits: u64 seq, u32 len (the payload length, more
 * than 16), u32 0, then len - 16 bytes, byte i = (seq + i) & 0xff. */
struct urt_rec_head {
	__u64 seq;
	__u32 len;
	__u32 zero;
};

/* Control and results (one ARRAY entry). */
struct urt_ctl {
	__u64 limit;    /* in: records to drain per run, 0 = all (callback stops) */
	__u64 received; /* records the callback saw, over all runs */
	__u64 bad;      /* records whose content did not check out */
	__u64 runs;     /* program runs */
	__s64 last_ret; /* bpf_user_ringbuf_drain's return of the last run */
	__u64 run_seen; /* records in the last run */
};

/* One log entry per received record (index = received order). */
struct urt_log {
	__u64 seq;
	__u32 len;
	__u32 ok; /* 1 if the content checked out */
};

#endif
