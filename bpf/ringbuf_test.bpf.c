// SPDX-License-Identifier: GPL-2.0
/* Test producers for the BPF ring buffer and the overwrite perf ring, run by
 * BPF_PROG_TEST_RUN (raw tracepoint programs; ctx args[0] = record count).
 *
 * rbt_ringbuf: record seq is produced as RBT_KIND(seq) says (output of a
 * varied length, reserve+submit, reserve+discard, zero-length output).
 * The kernel keeps no drop counter for ringbufs, so the program keeps one:
 * every failed reserve/output increments ctl.dropped.  This is the pattern
 * to copy into real producers.
 *
 * rbt_perf: RBT_PERF_PAYLOAD-byte bpf_perf_event_output records (seq first)
 * to the current CPU's slot of perf_out, counting successes and failures. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "ringbuf_test.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096); /* set by the test before load */
} rbt_rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} perf_out SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rbt_ctl);
} rbt_ctl_map SEC(".maps");

struct loop_ctx {
	struct rbt_ctl *ctl;
	void *tp_ctx;
};

static long rb_one(__u64 index, void *data)
{
	struct loop_ctx *lc = data;
	struct rbt_ctl *ctl = lc->ctl;
	__u64 seq = ctl->seq++;
	__u64 *r;
	__u8 *b;
	long err = 0;
	__u32 len;

	(void)index;
	switch (RBT_KIND(seq)) {
	case RBT_OUTPUT:
		*(__u64 *)ctl->pattern = seq;
		len = RBT_OUTPUT_LEN(seq);
		/* hide the value from the compiler so the bound check stays for the verifier */
		asm volatile("" : "+r"(len));
		if (len > RBT_PATTERN_LEN)
			return 1;
		err = bpf_ringbuf_output(&rbt_rb, ctl->pattern, len, 0);
		break;
	case RBT_RESERVE24:
		r = bpf_ringbuf_reserve(&rbt_rb, 24, 0);
		if (!r) {
			err = -1;
			break;
		}
		r[0] = seq;
		r[1] = RBT_MAGIC24;
		r[2] = ~seq;
		bpf_ringbuf_submit(r, 0);
		break;
	case RBT_DISCARD40:
		r = bpf_ringbuf_reserve(&rbt_rb, 40, 0);
		if (!r) {
			err = -1;
			break;
		}
		r[0] = seq;
		r[1] = 0xdddddddddddddddd;
		r[2] = 0xdddddddddddddddd;
		r[3] = 0xdddddddddddddddd;
		r[4] = 0xdddddddddddddddd;
		bpf_ringbuf_discard(r, 0);
		__sync_fetch_and_add(&ctl->discarded, 1);
		return 0;
	case RBT_RESERVE13:
		b = bpf_ringbuf_reserve(&rbt_rb, 13, 0);
		if (!b) {
			err = -1;
			break;
		}
		*(__u64 *)b = seq;
		b[8] = 0xa0;
		b[9] = 0xa1;
		b[10] = 0xa2;
		b[11] = 0xa3;
		b[12] = 0xa4;
		bpf_ringbuf_submit(b, 0);
		break;
	default:
		err = bpf_ringbuf_output(&rbt_rb, ctl->pattern, 0, 0);
		break;
	}
	if (err)
		ctl->dropped++;
	else
		ctl->submitted++;
	return 0;
}

SEC("raw_tracepoint/rbt_ringbuf")
int rbt_ringbuf(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 key = 0;
	struct rbt_ctl *ctl = bpf_map_lookup_elem(&rbt_ctl_map, &key);
	struct loop_ctx lc;

	if (!ctl)
		return 1;
	lc.ctl = ctl;
	lc.tp_ctx = ctx;
	bpf_loop((__u32)ctx->args[0], rb_one, &lc, 0);
	return 0;
}

static long perf_one(__u64 index, void *data)
{
	struct loop_ctx *lc = data;
	struct rbt_ctl *ctl = lc->ctl;
	long err;

	(void)index;
	*(__u64 *)ctl->pattern = ctl->seq++;
	err = bpf_perf_event_output(lc->tp_ctx, &perf_out, BPF_F_CURRENT_CPU, ctl->pattern,
	                            RBT_PERF_PAYLOAD);
	if (err) {
		ctl->perf_fail++;
		ctl->perf_last_err = (__u64)err;
	} else {
		ctl->perf_ok++;
	}
	return 0;
}

SEC("raw_tracepoint/rbt_perf")
int rbt_perf(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 key = 0;
	struct rbt_ctl *ctl = bpf_map_lookup_elem(&rbt_ctl_map, &key);
	struct loop_ctx lc;

	if (!ctl)
		return 1;
	lc.ctl = ctl;
	lc.tp_ctx = ctx;
	bpf_loop((__u32)ctx->args[0], perf_one, &lc, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
