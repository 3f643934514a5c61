// SPDX-License-Identifier: GPL-2.0
/* The program behind `ringproof trace`: one event per syscall entry, per
 * exec and per process exit, sent through a per-CPU perf buffer set (events)
 * or, when the loader sets use_ringbuf, a BPF ring buffer (rb_events).
 * Kernel structures are read with CO-RE (field offsets from the running
 * kernel's BTF), so no vmlinux.h is needed. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "trace_event.h"

/* Only the fields used; libbpf matches them by name in the kernel's BTF
 * (the ___rp suffix is ignored when matching). */
struct task_struct___rp {
	int tgid;
	int exit_code;
	struct task_struct___rp *real_parent;
	struct mm_struct___rp *mm;
} __attribute__((preserve_access_index));
struct mm_struct___rp {
	unsigned long arg_start, arg_end;
} __attribute__((preserve_access_index));
struct linux_binprm___rp {
	const char *filename;
} __attribute__((preserve_access_index));
struct pt_regs___rp {
	unsigned long di, si;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 22);
} rb_events SEC(".maps");

/* the event is too large for the 512-byte stack */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rp_trace_event_full);
} scratch SEC(".maps");

const volatile struct rp_trace_config cfg = {};

__u64 rb_drops = 0; /* the ring buffer keeps no lost counter */

/* x86_64 syscall numbers whose argument is cheap to read */
#define NR_open 2
#define NR_connect 42
#define NR_execve 59
#define NR_openat 257
#define NR_execveat 322
#define NR_openat2 437

static __always_inline struct rp_trace_event_full *start(__u32 kind, int nr)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 ug = bpf_get_current_uid_gid();
	__u32 zero = 0;
	struct rp_trace_event_full *f;

	if ((__u32)(id >> 32) == cfg.self_tgid)
		return NULL;
	if (cfg.filter_pid && (__u32)(id >> 32) != cfg.filter_pid)
		return NULL;
	if (cfg.filter_uid_on && (__u32)ug != cfg.filter_uid)
		return NULL;
	f = bpf_map_lookup_elem(&scratch, &zero);
	if (!f)
		return NULL;
	__builtin_memset(&f->h, 0, sizeof(f->h));
	f->h.kind = kind;
	f->h.cpu = bpf_get_smp_processor_id();
	f->h.pid = id >> 32;
	f->h.tid = (__u32)id;
	f->h.uid = (__u32)ug;
	f->h.gid = (__u32)(ug >> 32);
	f->h.nr = nr;
	f->h.ts_ns = bpf_ktime_get_ns();
	bpf_get_current_comm(f->h.comm, sizeof(f->h.comm));
	return f;
}

static __always_inline int send(void *ctx, struct rp_trace_event_full *f)
{
	__u64 size = sizeof(f->h) + f->h.path_len + f->h.args_len;

	if (size > sizeof(*f))
		size = sizeof(*f);
	if (cfg.use_ringbuf) {
		if (bpf_ringbuf_output(&rb_events, f, size, 0) != 0)
			__sync_fetch_and_add(&rb_drops, 1);
	} else {
		bpf_perf_event_output(ctx, &events, BPF_F_CURRENT_CPU, f, size);
	}
	return 0;
}

SEC("raw_tracepoint/sys_enter")
int on_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	int nr = (int)ctx->args[1];
	struct rp_trace_event_full *f = start(RP_TRACE_SYSCALL, nr);
	struct pt_regs___rp *regs = (void *)ctx->args[0];
	const void *p = NULL;
	long n;

	if (!f)
		return 0;
	if (nr == NR_open || nr == NR_execve)
		p = (const void *)BPF_CORE_READ(regs, di);
	else if (nr == NR_openat || nr == NR_openat2 || nr == NR_execveat)
		p = (const void *)BPF_CORE_READ(regs, si);
	if (p) {
		n = bpf_probe_read_user_str(f->str, RP_TRACE_PATH_LEN, p);
		if (n > 0) {
			f->h.arg_kind = RP_TRACE_ARG_PATH;
			f->h.path_len = (__u32)n;
		}
	} else if (nr == NR_connect) {
		__u16 family = 0;
		p = (const void *)BPF_CORE_READ(regs, si);
		if (bpf_probe_read_user(&family, sizeof(family), p) == 0) {
			f->h.arg_kind = RP_TRACE_ARG_FAMILY;
			f->h.family = family;
		}
	}
	return send(ctx, f);
}

/* sched_process_exec(struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm) */
SEC("raw_tracepoint/sched_process_exec")
int on_exec(struct bpf_raw_tracepoint_args *ctx)
{
	struct rp_trace_event_full *f = start(RP_TRACE_EXEC, -1);
	struct task_struct___rp *task = (void *)ctx->args[0];
	struct linux_binprm___rp *bprm = (void *)ctx->args[2];
	long n;

	if (!f)
		return 0;
	f->h.ppid = BPF_CORE_READ(task, real_parent, tgid);
	n = bpf_probe_read_kernel_str(f->str, RP_TRACE_PATH_LEN, BPF_CORE_READ(bprm, filename));
	f->h.path_len = n > 0 ? (__u32)n : 0;
	/* argv as the new program sees it: the bytes between arg_start and arg_end */
	unsigned long a0 = BPF_CORE_READ(task, mm, arg_start);
	unsigned long a1 = BPF_CORE_READ(task, mm, arg_end);
	unsigned long len = a1 > a0 ? a1 - a0 : 0;
	if (len > RP_TRACE_ARGS_LEN) {
		len = RP_TRACE_ARGS_LEN;
		f->h.args_cut = 1;
	}
	__u32 off = f->h.path_len;
	if (off > RP_TRACE_PATH_LEN)
		off = RP_TRACE_PATH_LEN;
	if (len && bpf_probe_read_user(f->str + off, len & (RP_TRACE_ARGS_LEN * 2 - 1), (const void *)a0) == 0)
		f->h.args_len = (__u32)len;
	return send(ctx, f);
}

/* sched_process_exit(struct task_struct *p, ...): one event per process
 * (its last thread), with the wait status */
SEC("raw_tracepoint/sched_process_exit")
int on_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct task_struct___rp *task = (void *)ctx->args[0];
	struct rp_trace_event_full *f;

	if ((__u32)id != (__u32)(id >> 32))
		return 0; /* a thread other than the leader */
	f = start(RP_TRACE_EXIT, -1);
	if (!f)
		return 0;
	f->h.ppid = BPF_CORE_READ(task, real_parent, tgid);
	f->h.exit_code = BPF_CORE_READ(task, exit_code);
	return send(ctx, f);
}

char LICENSE[] SEC("license") = "GPL";
