#ifndef ITEST_TESTS_H
#define ITEST_TESTS_H
#include "itest.h"
void test_cpu_list_gaps(itest *t);
void test_strerror(itest *t);
void test_attr_builder(itest *t);
void test_page_count(itest *t);
void test_attr_e2big(itest *t);
void test_counting(itest *t);
void test_group_read(itest *t);
void test_ioctls(itest *t);
void test_sampling(itest *t);
void test_ring_early_stop(itest *t);
void test_ring_corrupt_default(itest *t);
void test_ring_corrupt_strict(itest *t);
void test_round_trip(itest *t);
void test_conservation(itest *t);
void test_conservation_concurrent(itest *t);
void test_pause_resume(itest *t);
void test_closed_map(itest *t);
void test_wrong_map_type(itest *t);
void test_map_too_small(itest *t);
void test_pinned_poll(itest *t);
void test_live_sys_enter(itest *t);
void test_overwrite_map(itest *t);
void test_ring_bad_head_misaligned(itest *t);
void test_ring_stop_before_corruption(itest *t);
void test_ring_peek_strict_before_corruption(itest *t);
void test_ring_batch_fits_bytes(itest *t);
void test_ring_bad_head_far(itest *t);
void test_ring_batch_and_callback_error(itest *t);
void test_buffer_strict_no_starve(itest *t);
void test_buffer_stop_no_strand(itest *t);
void test_buffer_failed_new_keeps_map(itest *t);
void test_buffer_payload_counts(itest *t);
void test_buffer_batch(itest *t);
void test_buffer_samples_round_trip(itest *t);
void test_buffer_samples_lost_in_order(itest *t);
void test_samples_batches(itest *t);
void test_samples_other_records(itest *t);
void test_samples_corrupt(itest *t);
void test_samples_payloads(itest *t);
void test_samples_callback_stops(itest *t);
void test_samples_max_records(itest *t);
void test_samples_no_memory(itest *t);
#endif
