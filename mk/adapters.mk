# Linux adapters: perf_event_open, ring mapping + drain, per-CPU BPF perf
# buffer sets (adapters/linux).  Linked into libringproof.
ADAPTER_SRCS = $(sort $(wildcard adapters/linux/*.c))
LIB_SRCS    += $(ADAPTER_SRCS)
LIB_LIBS    += $(LIBBPF_LIBS)
