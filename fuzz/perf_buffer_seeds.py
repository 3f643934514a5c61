#!/usr/bin/env python3
# The hand-made seed-* inputs of the perf_buffer harness (format: top of
# fuzz/harness_perf_buffer.c).
#   python3 fuzz/perf_buffer_seeds.py fuzz/corpus/perf_buffer
# Every scenario exists in every delivery mode (-record, -payload, ...).
import struct, sys, os
out = sys.argv[1]
MODES = ['record', 'payload', 'payload-sample', 'payload-lost', 'payload-none', 'batch', 'samples', 'samples-only']
def hdr(n=4, strict=0, sz=1, corr=0, cring=1, at=0, param=0, tail=0, fill=0xa5, cpu=3):
    return bytes([n - 1, 0, strict | (sz << 1), corr, cring, at, param]) + struct.pack('<Q', tail % 2**64) + bytes([fill, cpu])
def sp(specs): return b''.join(bytes([k, v]) for k, v in specs)
def produce(r, specs): return bytes([0, r, len(specs) - 1]) + sp(specs)
def produce_all(specs): return bytes([8, len(specs) - 1]) + sp(specs)
def stopw(s, w, ws):
    assert not w or len(ws) == 1 + (w >> 4) % 4
    return bytes([s, w]) + sp(ws)
def poll(t=1, s=0, x=0, w=0, ws=()): return bytes([1, t]) + stopw(s, w, ws) + bytes([x])
def consume(s=0, w=0, ws=()): return bytes([2]) + stopw(s, w, ws)
def ring(i, s=0, w=0, ws=()): return bytes([3, i]) + stopw(s, w, ws)
def ready(x=0, s=0, w=0, ws=()): return bytes([4, x]) + stopw(s, w, ws)
def resync(i): return bytes([5, i])
Q = bytes([6])
def null(b): return bytes([7, b])
T0, TINF, T10 = 0, 1, 2
mix = [(0, 12), (1, 60), (3, 7), (4, 1), (2, 200), (5, 3), (0x20, 0), (6, 0), (6, 1), (6, 2), (6, 3),
       (7, 0), (7, 1), (0x8b, 5), (4, 7), (0x08, 33)]
smp = [(0, 8), (1, 20), (2, 3), (0, 0)]
S = {
 'basic': hdr() + b''.join(produce(r, mix[r * 4:r * 4 + 6]) for r in range(4)) + poll(TINF) + Q + poll(T0) + poll(T10) + Q,
 'one-ring': hdr(n=1) + produce(0, mix) + poll(TINF) + produce(0, mix[:4]) + consume() + ring(0) + Q,
 'stop-pos': hdr() + produce_all(mix[:6]) + poll(TINF, 0x02) + Q + poll(TINF) + poll(T0, 0x10) + poll(T10, 0x41) + poll(TINF) + Q,
 'stop-neg': hdr() + produce_all(mix[:6]) + poll(TINF, 0x23) + Q + poll(TINF, 0x30) + poll(TINF, 0xe1) + poll(TINF) + Q,
 'stop-every': hdr(n=3) + produce_all(smp) + b''.join(poll(TINF, 0x10) for _ in range(14)) + poll(T10) + Q,
 'stop-last-record': hdr(n=2) + produce(0, smp[:2]) + poll(TINF, 0x01) + poll(T10) + produce(1, smp) + poll(T0, 0x01) + poll(T0) + poll(TINF, 0x10) + produce(0, smp) + poll(TINF),
 'stop-then-more': hdr() + produce_all(mix[:4]) + poll(TINF, 0x11) + produce(2, mix[4:8]) + poll(TINF) + produce(0, smp) + produce(3, smp) + poll(TINF, 0x12) + poll(TINF) + Q,
 'consume': hdr() + produce(1, mix) + produce(3, smp) + consume() + produce_all(smp) + consume(0x03) + consume(0x21) + consume() + poll(T10) + Q,
 'consume-ring': hdr() + produce_all(mix[:8]) + ring(2) + ring(0, 0x01) + ring(4) + poll(TINF) + ring(1, 0x22) + consume() + ring(3) + Q,
 'consume-ring-loop': hdr(n=2) + produce_all(smp * 2) + ring(0, 0x10) + ring(0, 0x10) + ring(1) + poll(T0) + poll(T10),
 'ready': hdr() + produce_all(mix[:5]) + ready(0x05) + Q + ready(0x00, 0x02) + ready(0x40) + produce_all(smp) + ready(0x80 | 0x40, 0x01) + ready(0xc0) + poll(T0),
 'ready-masked-poll': hdr() + produce_all(smp) + poll(TINF, 0, 0x0a) + Q + poll(TINF, 0, 0x01) + poll(TINF, 0x10, 0x00) + poll(T0) + Q,
 'eintr': hdr() + produce_all(smp) + poll(TINF, 0, 0x10) + Q + poll(TINF, 0x10, 0) + poll(TINF, 0, 0x10) + poll(TINF, 0, 0x20) + poll(TINF) + Q,
 'eintr-second-wait': hdr(n=2) + produce(0, smp[:1]) + poll(TINF, 0x10) + poll(TINF, 0, 0x20) + produce(1, smp) + poll(T10, 0x10) + poll(T10, 0, 0x30) + poll(T10),
 'bogus-index': hdr(n=3) + produce_all(smp) + poll(TINF, 0, 0x40) + produce_all(smp) + poll(TINF, 0, 0xc0) + produce(1, smp) + poll(TINF, 0, 0x80) + Q,
 'write-in-callback': hdr() + produce_all(smp) + poll(TINF, 0, 0, 0x21, [(0, 30), (3, 1), (1, 9)]) + Q + poll(TINF) + consume(0, 0x02, [(2, 7)]) + poll(TINF) + ring(1, 0, 0x31, [(0, 1), (4, 2), (1, 5), (7, 0)]) + poll(T0) + Q,
 'write-in-callback-stop': hdr(n=2) + produce_all(smp) + poll(TINF, 0x02, 0, 0x01, [(0, 50)]) + poll(TINF) + poll(TINF, 0x10, 0, 0x40, [(1, 1)]) + poll(TINF) + Q,
 'full-ring': hdr(n=2, sz=0) + produce(0, [(2, 255)] * 4) + produce(0, [(0, 40)] * 10) + poll(TINF, 0x01) + produce(0, [(0, 40)] * 10) + poll(TINF) + produce_all([(1, 200)] * 3) + consume(),
 'wrap64': hdr(n=3, sz=0, tail=2**64 - 0x1008 - 96) + b''.join(produce(i % 3, mix[i:i + 4]) + poll(TINF, 0, 0) for i in range(0, 12)) + consume() + Q,
 'big': hdr(sz=3) + b''.join(produce_all([(0, i), (1, 3 * i), (3, i), (4 | 0x38, i)] * 4) for i in range(6)) + poll(TINF, 0x0f) + poll(TINF) + consume() + Q,
 'resync': hdr() + produce_all(mix[:6]) + resync(1) + Q + poll(TINF) + resync(4) + resync(0) + produce(0, smp) + poll(T0) + Q,
 'queries-null': hdr() + produce_all(smp) + Q + b''.join(null(b) for b in range(6)) + poll(TINF) + Q,
}
corrs = {1: 'size0', 2: 'size-short', 3: 'size-align', 4: 'size-past-head'}
for c, nm in corrs.items():
    for strict in (0, 1):
        md = 'strict' if strict else 'default'
        S['corrupt-%s-%s' % (nm, md)] = hdr(strict=strict, corr=c, cring=1, at=3, param=2) + produce_all(mix[:8]) + poll(TINF) + Q + poll(T10) + consume() + produce_all(smp) + poll(TINF) + ring(1) + resync(1) + poll(T0) + produce_all(smp) + poll(TINF) + Q
        S['corrupt-%s-%s-stops' % (nm, md)] = hdr(strict=strict, corr=c, cring=0, at=2, param=5) + produce_all(mix[:6]) + poll(TINF, 0x01) + poll(TINF, 0x01) + poll(TINF) + consume(0x12) + consume() + resync(0) + consume(0x23) + poll(TINF) + Q
        S['corrupt-%s-%s-last' % (nm, md)] = hdr(n=3, strict=strict, corr=c, cring=2, at=0, param=1) + produce_all(smp) + poll(TINF, 0x41) + poll(TINF) + produce(2, smp) + ring(2) + ring(2, 0x01) + resync(2) + produce(2, smp) + poll(TINF) + Q
for k, v in S.items():
    for m, mn in enumerate(MODES):
        open(os.path.join(out, 'seed-%s-%s' % (k, mn)), 'wb').write(v[:1] + bytes([m]) + v[2:])
print(len(S) * len(MODES), 'seeds')
