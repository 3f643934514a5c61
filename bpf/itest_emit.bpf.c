// SPDX-License-Identifier: GPL-2.0
/* Integration-test producer, run with BPF_PROG_TEST_RUN on a pinned CPU:
 * emits itest_source.count records into the perf buffer of the current CPU. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "itest_emit.bpf.h"

#define ENOSPC 28

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct itest_source);
} source SEC(".maps");

SEC("raw_tp/itest_emit")
int emit(void *ctx)
{
	__u32 key = 0;
	struct itest_source *src = bpf_map_lookup_elem(&source, &key);
	__u32 i;

	if (!src)
		return 1;
	for (i = 0; i < ITEST_MAX_PER_RUN; i++) {
		__u32 size = src->size;
		long ret;

		if (i >= src->count)
			break;
		if (size > ITEST_MAX_PAYLOAD)
			return 2;
		if (size >= 8)
			*(__u64 *)src->data = src->seq;
		ret = bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, src->data, size);
		src->seq++;
		if (ret == 0) {
			src->ok++;
		} else {
			if (ret == -ENOSPC)
				src->enospc++;
			else
				src->other++;
			src->last_err = ret;
		}
	}
	return 0;
}

/* Live events: attached to the sys_enter raw tracepoint. */
SEC("raw_tp/sys_enter")
int live_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 key = 0;
	struct itest_source *src = bpf_map_lookup_elem(&source, &key);
	__u64 id = bpf_get_current_pid_tgid();
	struct itest_live ev;

	if (!src || src->live_tgid == 0 || (__u32)(id >> 32) != src->live_tgid)
		return 0;
	ev.tgid = (__u32)(id >> 32);
	ev.tid = (__u32)id;
	ev.syscall_nr = ctx->args[1];
	bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &ev, sizeof(ev));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
