/* Shared between bpf/ringbuf_test.bpf.c and tests/ringbuf: the control
 * block of the ringbuf / overwrite-ring test producers. */
#ifndef RINGBUF_TEST_BPF_H
#define RINGBUF_TEST_BPF_H

#define RBT_PATTERN_LEN 320
#define RBT_PERF_PAYLOAD 20 /* perf record: 8 + 4 + 20 = 32 bytes */

/* What record number seq is (userspace computes the same from seq). */
enum rbt_kind {
	RBT_OUTPUT = 0,   /* bpf_ringbuf_output, 8 + (seq * 13) % 300 bytes */
	RBT_RESERVE24 = 1, /* reserve 24, submit */
	RBT_DISCARD40 = 2, /* reserve 40, discard: must never be delivered */
	RBT_RESERVE13 = 3, /* reserve 13, submit */
	RBT_ZERO = 4,     /* bpf_ringbuf_output of 0 bytes */
};

#define RBT_KIND(seq) (((seq) % 16 == 15) ? RBT_ZERO : (int)((seq) % 4))
#define RBT_OUTPUT_LEN(seq) (8 + ((seq) * 13) % 300)
#define RBT_MAGIC24 0x1122334455667788ull

struct rbt_ctl {
	__u64 seq;        /* next record number (every attempt takes one) */
	__u64 submitted;  /* records committed (output or submit) */
	__u64 discarded;  /* records reserved then discarded */
	__u64 dropped;    /* failed reserve/output: the ringbuf drop counter */
	__u64 perf_ok;    /* bpf_perf_event_output successes */
	__u64 perf_fail;  /* and failures (-ENOSPC while paused) */
	__u64 perf_last_err;
	/* payload source: bytes 0..7 = the record's seq (written by the
	 * program), byte i >= 8 = (i * 7 + 1) & 0xff (written by userspace) */
	__u8 pattern[RBT_PATTERN_LEN];
};

#endif
