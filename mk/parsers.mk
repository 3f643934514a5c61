# Record and SAMPLE parsers (core/rp_sample.*, core/rp_records.*, core/rp_cursor.*).
#   make suite-parsers-unit          cmocka unit tests on hand-written records (TAP)
#   make suite-parsers-unit-valgrind the same under valgrind memcheck (any error fails)
#   make suite-parsers-integration   real kernel: a sampling event + side-band records
#   make proofs-parsers              WP on the parser functions only
# (the suite-* targets are rows of mk/suites.mk)
PARSERS_DIR   = $(BUILD)/parsers
PARSERS_CORE  = core/rp_prim.c core/rp_span.c core/rp_cursor.c core/rp_sample.c core/rp_records.c core/rp_status.c core/rp_ring.c
PARSERS_UNIT  = $(PARSERS_DIR)/test_parsers
PARSERS_INTEG = $(PARSERS_DIR)/test_parsers_kernel
# Derived from the sources (proofs/functions.sh), never typed by hand.
PARSERS_FCT   = $(shell bash proofs/functions.sh core/rp_cursor.c core/rp_sample.c core/rp_records.c)

ALL_TARGETS  += $(PARSERS_UNIT) $(PARSERS_INTEG)

.PHONY: proofs-parsers

$(PARSERS_UNIT): tests/parsers/test_parsers.c tests/parsers/pbuf.h $(PARSERS_CORE) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/parsers $(ALL_CFLAGS) -o $@ tests/parsers/test_parsers.c $(PARSERS_CORE) -lcmocka

$(PARSERS_INTEG): tests/parsers/test_kernel.c $(PARSERS_CORE) $(wildcard core/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/parsers $(ALL_CFLAGS) -o $@ tests/parsers/test_kernel.c $(PARSERS_CORE) -pthread

proofs-parsers:
	RP_WP_FCT=$(PARSERS_FCT) RP_PROOF_DIR=$(BUILD)/proofs-parsers bash proofs/run.sh
