// SPDX-License-Identifier: GPL-2.0
/* Consumer for the user ring buffer tests: urt_drain (BPF_PROG_TYPE_SYSCALL,
 * run by BPF_PROG_TEST_RUN) drains urt_ur with bpf_user_ringbuf_drain and
 * logs each record's seq and length in urt_log, in the order received.
 * A record checks out when its head says its own length (the dynptr has
 * exactly that many bytes: the byte at len - 1 reads, the byte at len does
 * not) and its last byte is (seq + len - 1) & 0xff. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "user_ring_test.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096); /* set by the test before load */
} urt_ur SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct urt_ctl);
} urt_ctl_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, URT_LOG_MAX);
	__type(key, __u32);
	__type(value, struct urt_log);
} urt_log_map SEC(".maps");

struct cb_ctx {
	struct urt_ctl *ctl;
};

static long urt_one(struct bpf_dynptr *d, void *data)
{
	struct cb_ctx *c = data;
	struct urt_ctl *ctl = c->ctl;
	struct urt_rec_head h = {};
	__u8 last = 0, past = 0;
	__u32 ok = 0;

	if (bpf_dynptr_read(&h, sizeof h, d, 0, 0) == 0 && h.len > sizeof h &&
	    h.zero == 0 && bpf_dynptr_read(&last, 1, d, h.len - 1, 0) == 0 &&
	    bpf_dynptr_read(&past, 1, d, h.len, 0) != 0 &&
	    last == (__u8)(h.seq + h.len - 1))
		ok = 1;
	__u32 idx = (__u32)ctl->received;
	struct urt_log *l = bpf_map_lookup_elem(&urt_log_map, &idx);
	if (l) {
		l->seq = h.seq;
		l->len = h.len;
		l->ok = ok;
	}
	if (!ok)
		ctl->bad++;
	ctl->received++;
	ctl->run_seen++;
	if (ctl->limit && ctl->run_seen >= ctl->limit)
		return 1; /* stop after this record (it is consumed) */
	return 0;
}

SEC("syscall")
int urt_drain(void *ctx)
{
	__u32 key = 0;
	struct urt_ctl *ctl = bpf_map_lookup_elem(&urt_ctl_map, &key);
	struct cb_ctx c;

	(void)ctx;
	if (!ctl)
		return 1;
	c.ctl = ctl;
	ctl->run_seen = 0;
	ctl->runs++;
	ctl->last_ret = bpf_user_ringbuf_drain(&urt_ur, urt_one, &c, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
