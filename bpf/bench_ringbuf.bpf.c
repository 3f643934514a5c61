// SPDX-License-Identifier: GPL-2.0
/* Bench and test producer for the BPF ring buffer, run by BPF_PROG_TEST_RUN:
 * ctx args[0] records of args[1] bytes each (1..4096) from payload[0] into
 * bench_rb.  Returns how many were written before the first
 * failure (-EAGAIN when full), or -EINVAL for bad arguments.  At most 256
 * per run. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define BENCH_MAX_PAYLOAD 4096
#define BENCH_MAX_PER_RUN 256

struct bench_payload {
	__u8 bytes[BENCH_MAX_PAYLOAD];
};

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} bench_rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bench_payload);
} payload SEC(".maps");

SEC("raw_tracepoint/bench_fill")
int bench_fill(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 key = 0;
	__u64 n = ctx->args[0];
	__u64 sz = ctx->args[1];
	struct bench_payload *p = bpf_map_lookup_elem(&payload, &key);

	if (!p || sz < 1 || sz > BENCH_MAX_PAYLOAD)
		return -22;
	int i;
	for (i = 0; i < BENCH_MAX_PER_RUN; i++) {
		if (i >= n)
			break;
		if (bpf_ringbuf_output(&bench_rb, p->bytes, sz, 0) != 0)
			break;
	}
	return i;
}

char LICENSE[] SEC("license") = "GPL";
