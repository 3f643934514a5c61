/* The example agent's BPF side: every getppid() of one process becomes an
 * event, sent both through a perf event array (bpf_perf_event_output) and
 * through a BPF ring buffer (bpf_ringbuf_output).
 *   clang -O2 -g -target bpf -I/usr/include/$(gcc -print-multiarch) -c agent.bpf.c */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#include "agent.h"

#define NR_GETPPID_X86_64 110
#define NR_GETPPID_ARM64 173

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} perf_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} rb_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct agent_config);
} config SEC(".maps");

SEC("raw_tp/sys_enter")
int on_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	struct agent_config *cfg = bpf_map_lookup_elem(&config, &zero);
	struct agent_event ev;
	long nr = (long)ctx->args[1];

	if (!cfg || (__u32)(bpf_get_current_pid_tgid() >> 32) != cfg->pid)
		return 0;
	if (nr != NR_GETPPID_X86_64 && nr != NR_GETPPID_ARM64)
		return 0;
	ev.pid = cfg->pid;
	ev.cpu = bpf_get_smp_processor_id();
	ev.seq = __sync_fetch_and_add(&cfg->seq, 1);
	if (bpf_perf_event_output(ctx, &perf_events, BPF_F_CURRENT_CPU, &ev, sizeof(ev)))
		__sync_fetch_and_add(&cfg->perf_fail, 1);
	if (bpf_ringbuf_output(&rb_events, &ev, sizeof(ev), 0))
		__sync_fetch_and_add(&cfg->rb_fail, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
