# make bench: ringproof against libbpf on the same rings (bench/).  Not part
# of make check; figures are printed, written to $(BUILD)/bench/results.csv
# and charted in $(BUILD)/bench/ns_per_record.png.  Timings are never asserted.
BENCH_DIR  = $(BUILD)/bench
BENCH_BIN  = $(BENCH_DIR)/ringproof-bench
BENCH_SRCS = $(sort $(wildcard bench/*.c))
BENCH_OBJS = $(patsubst bench/%.c,$(BENCH_DIR)/obj/%.o,$(BENCH_SRCS))
# -O3 vectorises the checksum both consumers run over every payload byte, so
# that it does not drown the consumers themselves; the library keeps $(OPT).
# Every function and loop of the bench starts on a cache line, so that where
# a timed callback falls does not depend on the code before it: adding the
# light pass moved the perf payload drain's 8-byte ratio from 1.05-1.06 to
# 1.14-1.15 with the library unchanged, and aligned it reads 1.06-1.07
# (bench/RESULTS.md, Run AD).
BENCH_OPT ?= -O3 -falign-functions=64 -falign-loops=64

ALL_TARGETS += $(BENCH_BIN)

.PHONY: bench

$(BENCH_DIR)/obj/%.o: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(BENCH_OPT) -MMD -MP -c $< -o $@

$(BENCH_BIN): $(BENCH_OBJS) $(BUILD)/lib/libringproof.a
	$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_OBJS) $(BUILD)/lib/libringproof.a $(LIBBPF_LIBS) -lpthread

-include $(BENCH_OBJS:.o=.d)

bench: $(BENCH_BIN) $(BPF_DIR)/bench_perf.bpf.o $(BPF_DIR)/bench_ringbuf.bpf.o
	bash bench/run.sh $(BENCH_BIN) $(BPF_DIR) $(BENCH_DIR)
