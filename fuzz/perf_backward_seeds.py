#!/usr/bin/env python3
# The hand-made seed-* inputs of the perf_backward harness (format: top of
# fuzz/harness_perf_backward.c), and the inputs of the two adapter bugs it
# found (fuzz/regressions/perf_backward/).
#   python3 fuzz/perf_backward_seeds.py fuzz/corpus/perf_backward [fuzz/regressions/perf_backward]
import struct, sys, os
out = sys.argv[1]
regdir = sys.argv[2] if len(sys.argv) > 2 else 'fuzz/regressions/perf_backward'
def hdr(sz=2, strict=0, corr=0, at=0, param=0, tail=0x1000, fill=0xa5):
    return bytes([sz, strict, corr, at, param]) + struct.pack('<Q', tail & ~7 & (2**64-1)) + bytes([fill])
def produce(specs): return bytes([0, (len(specs)-1) % 32]) + b''.join(bytes([k, v]) for k, v in specs)
def drain(stop=0): return bytes([1, stop])
TOGGLE = bytes([2])
def bad(b): return bytes([3, b])
# (k, v): k % 4 = 0/1 sample (raw v | ((k >> 2) & 3) << 8), 2 other (body 8 * ((k >> 2) & 7)),
# 3 LOST (k & 8: short)
mix = [(0, 12), (1, 60), (3, 7), (2, 1), (0x04, 200), (2 | 0x1c, 3), (0x40, 0), (3 | 8, 0), (3 | 8, 1),
       (0x83, 5), (2, 7), (0x07, 33), (1, 5), (0, 4), (3 | 0x10, 250), (0x0c, 9)]
small = [(2, i) for i in range(8)]          # 8-byte records
two = [(2 | 4, 0), (2, 1)]                   # 16 + 8 bytes
def rounds(n): return b''.join(produce(two) + drain(0x20 | 0) for _ in range(n))  # stop (-1) at the first record
seeds = {
 'seed-drain-mixed': hdr() + produce(mix) + drain() + produce(mix[:5]) + drain(),
 'seed-stops': hdr() + produce(mix) + drain(0x03) + drain(0x21) + produce(mix[:6]) + drain(0x40) + drain(0xc2) + drain() + drain(),
 'seed-stop-each': hdr() + produce(mix) + b''.join(drain(0x20) for _ in range(18)),
 'seed-stop-then-produce': hdr() + produce(mix[:6]) + drain(0x02) + produce(mix[6:12]) + drain(0x01) + produce(mix[12:]) + drain(0x05) + drain(),
 'seed-ranges-full': hdr(sz=3) + rounds(8) + drain(0x20) + drain(0x20) + produce(two) + drain(0x20) + drain(),
 'seed-ranges-deferred': hdr(sz=3) + rounds(9) + produce(two * 2) + drain(0x21) + drain(),
 'seed-ranges-sticky': hdr(sz=3) + rounds(7) + produce(small) + drain(0x01) + rounds(2) + drain(),
 # strict, every range in use, none at head, no corruption before the first:
 # strict_blocked walks to data_tail and lets the drain go on
 'seed-ranges-full-strict': hdr(sz=3, strict=1) + rounds(8) + produce(two) + drain() + drain(),
 'seed-wrap64': hdr(sz=0, tail=48) + b''.join(produce(mix[i:i+3]) + drain(0x01 if i % 4 else 0) for i in range(0, 16, 2)) + drain(),
 'seed-wrap64-top': hdr(sz=1, tail=2**64 - 8) + produce(mix) + drain(0x02) + produce(mix) + drain(),
 'seed-full-ring-lost': hdr(sz=0) + produce([(0, 40)] * 10) + produce([(2 | 0x1c, 0)] * 4) + drain(0x01) + produce([(0, 40)] * 6) + drain() + produce([(0, 8)] * 3) + drain(),
 'seed-big-records': hdr(sz=5) + produce([(0x0c, 255), (0x08, 17), (0x4d, 3)] * 5) + drain(0x04) + produce([(0x0c, 255)] * 8) + drain(),
 'seed-lost-saturate': hdr() + produce([(0x83, 0), (0x87, 1), (3, 255)]) + drain(),
 'seed-bad-args': hdr() + produce(mix[:6]) + drain(0x01) + b''.join(bad(b) for b in range(4)) + drain(),
 'seed-toggle': hdr() + TOGGLE + produce(mix[:6]) + drain() + TOGGLE + drain(),
}
names = {1: 'size0', 2: 'size-short', 3: 'size-align', 4: 'size-past-tail', 5: 'head-misaligned', 6: 'head-far'}
params = {5: (0x03, 0x23), 6: (0x05, 0x45)}
for corr, nm in names.items():
    for pi, param in enumerate(params.get(corr, (3,))):
        sfx = '' if pi == 0 else '-above'
        for strict in (0, 1):
            mode = 'strict' if strict else 'default'
            # records before and after the corruption, drains, a toggle back to default, more records
            seeds['seed-corrupt-%s%s-%s' % (nm, sfx, mode)] = hdr(corr=corr, at=5, param=param, strict=strict) \
                + produce(mix[:4]) + drain(0x01) + produce(mix[4:10]) + drain() + drain() + produce(mix[10:12]) \
                + drain() + TOGGLE + drain() + produce(mix[12:]) + drain() + TOGGLE + drain()
            # the corrupt record first of all (cursor = head), then records on top of it
            seeds['seed-corrupt-%s%s-%s-first' % (nm, sfx, mode)] = hdr(corr=corr, at=0, param=param, strict=strict) \
                + produce(mix[:1]) + drain() + drain() + produce(mix[1:4]) + drain(0x01) + drain() + drain() \
                + produce(mix[4:6]) + drain() + TOGGLE + drain() + drain()
            # a stop right before the corruption, then the corruption
            seeds['seed-corrupt-%s%s-%s-stop' % (nm, sfx, mode)] = hdr(corr=corr, at=3, param=param, strict=strict) \
                + produce(mix[:3]) + produce(mix[3:6]) + drain(0x01) + drain(0x00) + drain() + produce(mix[6:8]) + drain(0x00) + TOGGLE + drain() + drain()
# known adapter bugs (harness top, FZ_BW_SKIP_*): regressions, not seeds
regs = {}
regs['strict-full-ranges-resyncs'] = hdr(sz=3, corr=2, at=16, param=2, strict=1) + rounds(8) + produce([(2, 0), (2, 1)]) + drain() + drain() + TOGGLE + drain()
regs['bad-head-above-range-redelivers'] = hdr(corr=5, at=3, param=0x29) + produce([(2, 0), (2, 1), (2, 2)]) + drain(0x20) + produce([(2, 3)]) + drain() + produce([(2, 4)]) + drain() + drain()
for d, files in ((out, seeds), (regdir, regs)):
    os.makedirs(d, exist_ok=True)
    for k, v in files.items():
        open(os.path.join(d, k), 'wb').write(v)
print(len(seeds), 'seeds,', len(regs), 'regressions')
