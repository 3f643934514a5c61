#!/usr/bin/env python3
# The hand-made seed-* inputs of the perf_ring harness (format: top of
# fuzz/harness_perf_ring.c).  python3 fuzz/perf_ring_seeds.py fuzz/corpus/perf_ring
# (seed-mutant-* are fuzzer finds that catch adapter mutants; not generated).
import struct, sys, os
out = sys.argv[1]
def hdr(sz=2, strict=0, corr=0, at=0, param=0, tail=0, fill=0xa5):
    return bytes([sz, strict, corr, at, param]) + struct.pack('<Q', tail & ~7 & (2**64-1)) + bytes([fill])
def produce(specs): return bytes([0, (len(specs)-1) % 32]) + b''.join(bytes([k, v]) for k, v in specs)
def drain(op, budget=0, stop=0): return bytes([op, budget, stop])
def peek(m): return bytes([7, m])
COMMIT, RESYNC = bytes([8]), bytes([9])
mix = [(0, 12), (1, 60), (3, 7), (4, 1), (2, 200), (5, 3), (0x20, 0), (6, 0), (6, 1), (6, 2), (6, 3),
       (7, 0), (7, 1), (0x8b, 5), (4, 7), (0x08, 33), (4 | 0x38, 8), (0, 4), (1, 5), (3 | 0x10, 250)]
seeds = {
 'seed-drain-mixed': hdr() + produce(mix) + drain(1),
 'seed-drain-stops': hdr() + produce(mix) + drain(1, 0, 0x03) + drain(1, 0, 0x25) + drain(1, 3) + drain(1),
 'seed-batch': hdr(sz=3) + produce(mix * 3) + drain(2, 0, 0x40) + drain(2, 5) + drain(2, 0, 0x21) + drain(2),
 'seed-samples-other': hdr() + produce(mix) + drain(3, 0, 0x02) + drain(3, 4) + drain(3, 0, 0x61) + drain(3),
 'seed-samples-skip': hdr() + produce(mix) + drain(4, 0, 0x41) + drain(4, 6) + drain(4),
 'seed-payloads-other': hdr() + produce(mix) + drain(5, 0, 0x04) + drain(5, 2, 0) + drain(5, 0, 0x23) + drain(5),
 'seed-payloads-skip': hdr() + produce(mix) + drain(6, 0, 0x45) + drain(6, 7) + drain(6),
 'seed-peek-commit': hdr() + produce(mix) + peek(3) + peek(0) + peek(5) + COMMIT + produce(mix[:5]) + peek(71) + drain(1) + COMMIT,
 'seed-wrap64': hdr(sz=0, tail=2**64 - 96) + b''.join(produce(mix[i:i+4]) + drain(1 + i % 6, 0, 0) for i in range(0, 20, 2)) + RESYNC + produce(mix[:3]) + drain(2),
 'seed-full-ring': hdr(sz=0) + produce([(2, 255)] * 4) + produce([(0, 40)] * 10) + drain(2, 1) + produce([(0, 40)] * 10) + drain(1),
 'seed-bad-args': hdr() + produce(mix[:6]) + peek(2) + b''.join(bytes([10, b]) for b in range(8)) + bytes([10, 12]) + drain(1),
}
# 72 records of 104 bytes (7.3 KiB of an 8 KiB ring) before each batch drain:
# more than one batch, so the drains' prefetch finds itself a lead ahead,
# and, after a first batch of 64 records, more than a lead behind (on a ring
# mapped with RP_PERF_PREFETCH: the strict byte's bit 1)
lead = produce([(0, 90)] * 32) * 2 + produce([(0, 90)] * 8)
seeds['seed-prefetch-lead'] = hdr(sz=5, strict=2) + b''.join(lead + drain(op) for op in (2, 3, 4, 5, 6))
names = {1: 'size0', 2: 'size-short', 3: 'size-align', 4: 'size-past-head', 5: 'head-misaligned', 6: 'head-far'}
for corr, nm in names.items():
    for strict in (0, 1):
        body = hdr(corr=corr, at=5, param=3, strict=strict) + produce(mix[:10]) + drain(1) + drain(2) + peek(4) \
            + produce(mix[10:14]) + drain(5) + drain(6, 0) + peek(10) + RESYNC + produce(mix[14:]) + drain(3) + drain(1)
        seeds['seed-corrupt-%s-%s' % (nm, 'strict' if strict else 'default')] = body
    # the corruption reached by each API first (strict): records before it, then the status
    for op in (2, 3, 4, 5, 6):
        seeds['seed-corrupt-%s-strict-op%d' % (nm, op)] = hdr(corr=corr, at=3, param=1, strict=1) + produce(mix[:8]) + drain(op) + drain(op) + RESYNC + produce(mix[8:12]) + drain(op)
    for strict in (0, 1):
        seeds['seed-corrupt-%s-%s-again' % (nm, 'strict' if strict else 'default')] = hdr(corr=corr, at=2, param=5, strict=strict) + produce(mix[:6]) + drain(1) + drain(1) + drain(2) + produce(mix[6:9]) + drain(1) + RESYNC + drain(1) + produce(mix[9:12]) + drain(1)
    seeds['seed-corrupt-%s-peek' % nm] = hdr(corr=corr, at=3, param=2, strict=1) + produce(mix[:8]) + peek(70) + peek(70) + COMMIT + RESYNC + produce(mix[8:12]) + peek(70) + COMMIT
for k, v in seeds.items():
    open(os.path.join(out, k), 'wb').write(v)
print(len(seeds), 'seeds')
