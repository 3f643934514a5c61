/* Forced into every file of the ring_hostile build (harness_ring_hostile.flags):
 * core/ then loads ring bytes through rp_fuzz_load instead of memory. */
#ifndef FZ_HOSTILE_H
#define FZ_HOSTILE_H
#include <stdint.h>
uint8_t rp_fuzz_load(const uint8_t *p);
#endif
