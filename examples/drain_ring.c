/* Example: decode BPF-output records with ringproof's verified core.
 *
 * Builds against an installed ringproof:
 *   cc drain_ring.c $(pkg-config --cflags --libs ringproof) -o drain_ring
 *
 * A real agent maps a perf ring (rp_perf_ring_map / rp_perf_buffer_new in
 * the adapters) and passes the kernel's data_head; here the ring is an array
 * we fill ourselves the way the kernel would, so the example runs anywhere
 * and checks every decoded byte. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rp_ring.h>
#include <rp_views.h>

#define RING_SIZE 256u

static uint8_t ring_mem[RING_SIZE];

/* Write a PERF_RECORD_SAMPLE carrying n payload bytes at position pos, as
 * the kernel does for bpf_perf_event_output; returns the record size. */
static uint16_t put_sample(uint64_t pos, const uint8_t *payload, uint32_t n)
{
	uint32_t raw = ((n + 4 + 7) / 8) * 8 - 4; /* raw size includes padding */
	uint16_t size = (uint16_t)(8 + 4 + raw);
	uint8_t rec[512];
	uint32_t type = RP_RECORD_SAMPLE;
	uint16_t misc = 0;

	memset(rec, 0xee, sizeof(rec)); /* padding is stale bytes in a real ring */
	memcpy(rec, &type, 4);
	memcpy(rec + 4, &misc, 2);
	memcpy(rec + 6, &size, 2);
	memcpy(rec + 8, &raw, 4);
	memcpy(rec + 12, payload, n);
	for (uint32_t i = 0; i < size; i++) /* may wrap the ring's end */
		ring_mem[(pos + i) % RING_SIZE] = rec[i];
	return size;
}

int main(void)
{
	const char *messages[] = { "hello", "from a ring that wraps around its end", "ringproof" };
	const uint32_t count = 3;
	/* start near the end so the second record's body wraps */
	uint64_t tail = 1000 * RING_SIZE + RING_SIZE - 40;
	uint64_t head = tail;
	for (uint32_t i = 0; i < count; i++)
		head += put_sample(head, (const uint8_t *)messages[i], (uint32_t)strlen(messages[i]));

	rp_ring ring = { .data = ring_mem, .size = RING_SIZE };
	rp_record recs[8];
	uint32_t n = 0;
	rp_status st = rp_ring_drain(&ring, head, &tail, recs, 8, &n);
	if (st != RP_EMPTY || n != count || tail != head) {
		fprintf(stderr, "drain: %s (%u records)\n", rp_status_text(st), n);
		return 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		rp_bpf_output out;
		char text[128] = { 0 };
		int err = rp_bpf_output_view(&recs[i], &out);
		if (err != RP_OK) {
			fprintf(stderr, "record %u: %s\n", i, rp_status_text(err));
			return 1;
		}
		rp_span_copy(out.data, (uint8_t *)text, (uint32_t)strlen(messages[i]));
		printf("record %u: %u bytes%s: %s\n", i, recs[i].size,
		       recs[i].body.n1 ? " (wrapped)" : "", text);
		if (strcmp(text, messages[i]) != 0) {
			fprintf(stderr, "record %u: payload differs from what was written\n", i);
			return 1;
		}
	}
	printf("drain_ring: %u records decoded, payloads match\n", n);
	return 0;
}
