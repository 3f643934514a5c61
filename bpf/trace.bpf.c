// SPDX-License-Identifier: GPL-2.0
/* The program behind `ringproof trace`: one event per syscall entry and per
 * exec, sent through a per-CPU perf buffer set (events) or, when the loader
 * sets use_ringbuf, a BPF ring buffer (rb_events). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "trace_event.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} rb_events SEC(".maps");

const volatile struct rp_trace_config cfg = {};

__u64 rb_drops = 0; /* the ring buffer keeps no lost counter (SPEC.md §7) */

static __always_inline int emit(void *ctx, __u32 kind, int nr)
{
	struct rp_trace_event e = {};
	__u64 id = bpf_get_current_pid_tgid();

	if ((__u32)(id >> 32) == cfg.self_tgid)
		return 0;
	e.kind = kind;
	e.pid = id >> 32;
	e.tid = (__u32)id;
	e.nr = nr;
	e.ts_ns = bpf_ktime_get_ns();
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	if (cfg.use_ringbuf) {
		if (bpf_ringbuf_output(&rb_events, &e, sizeof(e), 0) != 0)
			__sync_fetch_and_add(&rb_drops, 1);
	} else {
		bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, &e, sizeof(e));
	}
	return 0;
}

SEC("raw_tracepoint/sys_enter")
int on_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	return emit(ctx, RP_TRACE_SYSCALL, (int)ctx->args[1]);
}

SEC("raw_tracepoint/sched_process_exec")
int on_exec(struct bpf_raw_tracepoint_args *ctx)
{
	return emit(ctx, RP_TRACE_EXEC, -1);
}

char LICENSE[] SEC("license") = "GPL";
