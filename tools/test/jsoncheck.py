#!/usr/bin/env python3
"""Checks on `ringproof trace --json` output for the tools suite.
usage: jsoncheck.py CHECK FILE [ARG...]; prints what it found, exits 1 on failure."""
import datetime, json, sys

check, path, args = sys.argv[1], sys.argv[2], sys.argv[3:]
evs = []
for n, line in enumerate(open(path), 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        sys.exit(f"line {n} is not JSON: {e}: {line[:80]!r}")
    if not isinstance(o, dict):
        sys.exit(f"line {n} is not an object")
    evs.append(o)
if not evs:
    sys.exit("no events")
sys_evs = [e for e in evs if e["kind"] == "syscall"]

def fail(msg):
    print(msg)
    sys.exit(1)

if check == "names":
    # every syscall event is named; the load's cat opened /proc/version
    unnamed = [e for e in sys_evs if not isinstance(e.get("syscall"), str) or e["syscall"].startswith("nr_")]
    opened = [e for e in sys_evs if e.get("syscall") == "openat" and e.get("path") == "/proc/version"]
    if not sys_evs or unnamed or not opened:
        fail(f"{len(sys_evs)} syscalls, {len(unnamed)} unnamed, {len(opened)} openat /proc/version")
    print(f"{len(sys_evs)} syscalls named, {len(opened)} openat(/proc/version)")
elif check == "exec":
    # args: filename-suffix argv1 ; exec of `cat /proc/version` with ppid/uid/gid
    want = [e for e in evs if e["kind"] == "exec" and e["filename"].endswith(args[0])
            and e["argv"][:2] == [args[0].split("/")[-1], args[1]]]
    good = [e for e in want if isinstance(e["ppid"], int) and e["ppid"] > 0
            and isinstance(e["uid"], int) and isinstance(e["gid"], int)]
    if not good:
        fail(f"no exec of {args} with argv/ppid/uid/gid among {sum(e['kind'] == 'exec' for e in evs)} execs")
    print(f"{len(good)} execs of {args[0]} with argv, ppid, uid, gid")
elif check == "exit":
    # args: comm exit_code
    good = [e for e in evs if e["kind"] == "exit" and e["comm"] == args[0] and e["exit_code"] == int(args[1])]
    if not good:
        fail(f"no exit of {args[0]} with status {args[1]}")
    print(f"{len(good)} exits with status {args[1]}")
elif check == "field":
    # args: key value: every event has it
    key, val = args[0], args[1]
    bad = [e for e in evs if str(e.get(key)) != val]
    if bad:
        fail(f"{len(bad)} of {len(evs)} events with {key} != {val}, e.g. {bad[0]}")
    print(f"{len(evs)} events, all {key}={val}")
elif check == "syscalls":
    names = set(args)
    bad = [e for e in sys_evs if e["syscall"] not in names]
    if not sys_evs or bad:
        fail(f"{len(sys_evs)} syscalls, {len(bad)} outside {names}")
    print(f"{len(sys_evs)} syscalls, all in {sorted(names)}")
elif check == "ordered":
    inv = sum(1 for a, b in zip(evs, evs[1:]) if b["ts_ns"] < a["ts_ns"])
    cpus = {e["cpu"] for e in evs}
    if inv or len(cpus) < int(args[0]):
        fail(f"{inv} inversions over {len(evs)} events from CPUs {sorted(cpus)}")
    print(f"{len(evs)} events from CPUs {sorted(cpus)} in timestamp order")
elif check == "shape":
    # the keys of each kind, printed for comparison between transports
    shapes = sorted({(e["kind"], ",".join(sorted(e))) for e in evs if e["kind"] == "syscall" and "path" not in e})
    print(";".join(f"{k}:{v}" for k, v in shapes))
elif check == "wall":
    now = datetime.datetime.now(datetime.timezone.utc)
    for e in evs[:50] + evs[-50:]:
        w = datetime.datetime.strptime(e["wall"][:26] + "Z", "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
        if abs((now - w).total_seconds()) > 60:
            fail(f"wall {e['wall']} is not within a minute of {now}")
    print(f"{len(evs)} events with wall-clock times near now")
else:
    sys.exit(f"unknown check {check}")
