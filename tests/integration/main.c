/* Real-kernel integration tests of adapters/linux, printing TAP.
 *   rp_itest [--only NAME]...   (env RP_ITEST_BPF: producer object path,
 *                                RP_ITEST_QUICK=1: fewer events)
 * A test the kernel refuses (EPERM/EACCES) prints "SKIP: <reason>". */
#include <stdio.h>
#include <string.h>

#include "itest.h"
#include "tests.h"

static const struct {
	const char *name;
	void (*fn)(itest *t);
} tests[] = {
	{ "cpu_list_gaps", test_cpu_list_gaps },
	{ "strerror", test_strerror },
	{ "attr_builder", test_attr_builder },
	{ "page_count_rejected_before_mmap", test_page_count },
	{ "attr_size_e2big", test_attr_e2big },
	{ "counting_task_clock", test_counting },
	{ "counting_group_read", test_group_read },
	{ "ioctls", test_ioctls },
	{ "sampling_cpu_clock_pid_tid", test_sampling },
	{ "overwrite_ring_maps_read_only", test_overwrite_map },
	{ "ring_drain_early_stop_and_peek", test_ring_early_stop },
	{ "ring_corrupt_default_resyncs", test_ring_corrupt_default },
	{ "ring_corrupt_strict_stops", test_ring_corrupt_strict },
	{ "ring_bad_head_misaligned", test_ring_bad_head_misaligned },
	{ "ring_stop_before_corruption", test_ring_stop_before_corruption },
	{ "ring_peek_strict_before_corruption", test_ring_peek_strict_before_corruption },
	{ "ring_bad_head_far_ahead", test_ring_bad_head_far },
	{ "ring_batch_and_callback_error", test_ring_batch_and_callback_error },
	{ "ring_batch_fits_bytes", test_ring_batch_fits_bytes },
	{ "ring_samples_batches", test_samples_batches },
	{ "ring_samples_other_records", test_samples_other_records },
	{ "ring_samples_corrupt_after_good", test_samples_corrupt },
	{ "ring_samples_callback_stops", test_samples_callback_stops },
	{ "ring_samples_payloads", test_samples_payloads },
	{ "ring_samples_max_records", test_samples_max_records },
	{ "ring_samples_no_memory", test_samples_no_memory },
	{ "buffer_strict_other_rings_drain", test_buffer_strict_no_starve },
	{ "buffer_stop_leaves_nothing_stranded", test_buffer_stop_no_strand },
	{ "buffer_failed_new_keeps_map", test_buffer_failed_new_keeps_map },
	{ "buffer_payload_counts_deliveries", test_buffer_payload_counts },
	{ "buffer_batch_api", test_buffer_batch },
	{ "buffer_round_trip", test_round_trip },
	{ "buffer_samples_round_trip", test_buffer_samples_round_trip },
	{ "buffer_samples_lost_in_order", test_buffer_samples_lost_in_order },
	{ "buffer_conservation", test_conservation },
	{ "buffer_conservation_concurrent", test_conservation_concurrent },
	{ "buffer_pause_resume_lost_first", test_pause_resume },
	{ "buffer_closed_map_fd", test_closed_map },
	{ "buffer_wrong_map_type", test_wrong_map_type },
	{ "buffer_map_too_small", test_map_too_small },
	{ "buffer_pinned_map_and_poll", test_pinned_poll },
	{ "buffer_live_sys_enter", test_live_sys_enter },
};

static bool selected(int argc, char **argv, const char *name)
{
	bool any = false;
	for (int i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "--only") == 0) {
			any = true;
			if (strcmp(argv[i + 1], name) == 0)
				return true;
		}
	}
	return !any;
}

int main(int argc, char **argv)
{
	int n = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		itest t = { TAP_PASS, "" };
		if (!selected(argc, argv, tests[i].name))
			continue;
		tests[i].fn(&t);
		n++;
		switch (t.status) {
		case TAP_PASS:
			if (t.msg[0])
				printf("# %s: %s\n", tests[i].name, t.msg);
			printf("ok %d - %s\n", n, tests[i].name);
			break;
		case TAP_SKIP:
			printf("SKIP: %s: %s\n", tests[i].name, t.msg);
			printf("ok %d - %s # SKIP %s\n", n, tests[i].name, t.msg);
			break;
		default:
			printf("# %s: %s\n", tests[i].name, t.msg);
			printf("not ok %d - %s\n", n, tests[i].name);
			failed++;
		}
	}
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
