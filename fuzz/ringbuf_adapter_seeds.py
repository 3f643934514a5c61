#!/usr/bin/env python3
# The hand-made seed-* inputs of the ringbuf_adapter harness (format: top of
# fuzz/harness_ringbuf_adapter.c).
#   python3 fuzz/ringbuf_adapter_seeds.py fuzz/corpus/ringbuf_adapter
# Every seed exists for the per-record API and the batch API (-batch).
import struct, sys, os
out = sys.argv[1]
def hdr(sz=2, strict=0, batch=0, corr=0, at=0, param=0, cons=0, fill=0xa5):
    return bytes([sz, strict | (2 if batch else 0), corr, at, param]) + struct.pack('<Q', cons % 2**64) + bytes([fill])
def produce(specs):
    out = b''
    for i in range(0, len(specs), 32):
        part = specs[i:i + 32]
        out += bytes([0, len(part) - 1]) + b''.join(bytes([k, v]) for k, v in part)
    return out
def consume(budget=0, stop=0): return bytes([1, budget, stop])
def consume_prod(budget, stop, x, specs):  # specs produced from callback call x & 31
    return bytes([8, budget, stop, x, len(specs) - 1]) + b''.join(bytes([k, v]) for k, v in specs)
def commit(b): return bytes([2, b])
def rewrite(b): return bytes([4, b])
RESYNC, TOGGLE, QUERY = bytes([3]), bytes([5]), bytes([7])
def bad(b): return bytes([6, b])
# (k, v): k % 8 0-3 committed, 4 discarded, 5-7 BUSY; len v | ((k >> 3) & 3) << 8; k & 0x60 == 0x60 big
mix = [(0, 12), (1, 60), (4, 7), (0x08, 33), (2, 200), (0x10, 0), (3, 5), (4, 0), (0x18, 255), (0, 1),
       (1, 2), (0x0c, 9), (2, 3), (0, 4), (0x61, 0), (3, 100), (4, 50), (0, 7), (1, 8), (2, 16)]
busy = [(0, 10), (5, 20), (1, 30), (6, 3), (2, 0), (7, 64), (3, 8)]
small = [(0, 0), (1, 3), (4, 1), (2, 8)] * 8
S = {
 'basic': hdr() + produce(mix) + QUERY + consume() + QUERY + consume(),
 'stops': hdr() + produce(mix) + consume(0, 0x01) + consume(0, 0x22) + consume(3) + consume(1) + consume(0, 0x43) + consume(),
 'stop-pos-first': hdr() + produce(mix) + consume(0, 0x40) + consume(0, 0x81) + consume(2, 0x40) + consume(),
 'stop-neg-first': hdr() + produce(mix) + consume(0, 0x20) + consume(0, 0xe0) + QUERY + consume(),
 'budget-discard': hdr() + produce([(0, 1), (4, 2), (4, 3), (0, 4), (4, 5)]) + consume(1) + QUERY + consume(1) + consume(1) + consume(),
 'busy': hdr() + produce(busy) + consume() + QUERY + commit(0) + consume() + commit(0x80) + consume(0, 0x01) + commit(0) + consume() + produce(mix[:5]) + consume(),
 'busy-out-of-order': hdr() + produce(busy) + commit(2) + commit(1) + consume() + commit(0) + consume(),
 'busy-budget': hdr() + produce([(0, 1), (0, 2), (5, 3), (0, 4)]) + consume(2) + consume(2) + commit(0) + consume(1) + consume(),
 'wrap64': hdr(sz=0, cons=2**64 - 96) + b''.join(produce(mix[i:i + 3]) + consume(0, 0) for i in range(0, 18, 2)) + QUERY + RESYNC + produce(mix[:3]) + consume(),
 'wrap-ring': hdr(sz=0) + b''.join(produce([(0, 40 + i), (1, 17)]) + consume() for i in range(12)) + QUERY,
 'full-ring': hdr(sz=0) + produce([(0, 100)] * 4) + consume(1) + produce([(0, 40)] * 6) + consume() + produce([(0x60, 0)]) + consume(),
 'pending-room': hdr(sz=0) + produce([(5, 40), (0, 60), (0, 60)]) + consume() + commit(0) + consume() + produce([(0, 90)] * 3) + consume(),
 'many-batches': hdr(sz=5) + produce(small * 7) + consume(100) + consume(0, 0x02) + consume() + produce(small * 3) + consume(0, 0x21) + consume() + produce(small * 4) + consume(0, 0x41) + consume(0, 0x01) + consume(),
 'misaligned-start': hdr(cons=0x1003) + produce(mix[:6]) + QUERY + consume() + QUERY,
 'misaligned-start-resync': hdr(cons=0x1005) + RESYNC + produce(mix[:6]) + consume(),
 'rewrite': hdr() + produce(mix) + rewrite(0) + QUERY + consume(2) + rewrite(1) + consume() + rewrite(2 + 4 * 3) + RESYNC + rewrite(3) + produce(mix[:4]) + consume(),
 'resync-skips': hdr() + produce(mix) + consume(3) + RESYNC + QUERY + produce(mix[:5]) + consume(),
 'produce-in-callback': hdr() + produce(mix[:6]) + consume_prod(0, 0, 0, mix[6:12]) + consume_prod(0, 0, 3, mix[12:]) + QUERY + consume(),
 'produce-in-callback-budget': hdr() + produce(mix[:6]) + consume_prod(9, 0, 1, mix[6:14]) + consume_prod(3, 0, 0, mix[:4]) + consume(),
 'produce-in-callback-stop': hdr() + produce(mix[:6]) + consume_prod(0, 0x05, 2, mix[6:14]) + consume_prod(0, 0x21, 1, mix[:4]) + consume(),
 'produce-in-callback-busy': hdr() + produce(mix[:4]) + consume_prod(0, 0, 1, busy) + commit(0) + consume_prod(0, 0, 0, busy) + commit(0) + commit(0) + commit(0) + consume(),
 'produce-in-callback-full': hdr(sz=0) + produce([(0, 60)] * 3) + consume_prod(0, 0, 0, [(0, 60)] * 6) + consume_prod(0, 0, 1, [(1, 100)] * 4) + consume(),
 'produce-in-callback-batches': hdr(sz=5) + produce(small * 3) + consume_prod(0, 0, 1, small) + consume_prod(150, 0, 0, small) + consume(),
 'bad-args': hdr() + produce(mix[:6]) + b''.join(bad(b) for b in range(8)) + consume(),
 'toggle': hdr(corr=1, at=4, param=2) + produce(mix[:8]) + TOGGLE + consume() + consume() + TOGGLE + RESYNC + produce(mix[8:12]) + consume(),
}
corrs = {1: 'len', 2: 'len-discard', 3: 'producer-misaligned', 4: 'producer-far', 5: 'producer-behind'}
for corr, nm in corrs.items():
    for strict in (0, 1):
        md = 'strict' if strict else 'default'
        S['corrupt-%s-%s' % (nm, md)] = hdr(corr=corr, at=5, param=3, strict=strict) + produce(mix[:10]) + consume() + QUERY + consume() + rewrite(1) + consume() + produce(mix[10:14]) + consume() + RESYNC + QUERY + produce(mix[14:]) + consume()
        S['corrupt-%s-%s-at0' % (nm, md)] = hdr(corr=corr, at=0, param=0x81, strict=strict) + produce(mix[:4]) + consume() + consume() + RESYNC + consume() + produce(mix[4:8]) + consume()
        S['corrupt-%s-%s-stop-before' % (nm, md)] = hdr(corr=corr, at=3, param=7, strict=strict) + produce(mix[:6]) + consume(0, 0x02) + consume(1) + consume() + consume() + RESYNC + produce(mix[6:9]) + consume()
        S['corrupt-%s-%s-in-callback' % (nm, md)] = hdr(corr=corr, at=6, param=5, strict=strict) + produce(mix[:4]) + consume_prod(0, 0, 1, mix[4:10]) + consume() + RESYNC + consume_prod(0, 0, 0, mix[10:14]) + consume()
        S['corrupt-%s-%s-budget-before' % (nm, md)] = hdr(corr=corr, at=3, param=9, strict=strict) + produce([(0, 1), (4, 2), (0, 3), (0, 4), (4, 5), (0, 6)]) + consume(3) + consume(1) + consume() + RESYNC + produce(mix[:3]) + consume()
seeds = {}
for k, v in S.items():
    seeds['seed-' + k] = v
    seeds['seed-' + k + '-batch'] = v[:1] + bytes([v[1] | 2]) + v[2:]
for k, v in seeds.items():
    open(os.path.join(out, k), 'wb').write(v)
print(len(seeds), 'seeds')
