# Unit tests of the verified core (cmocka) over synthetic ring pages.
#   make unit-tests          build $(BUILD)/unit/test_*
#   make suite-unit          run them (TAP)
#   make suite-unit-valgrind run them under valgrind memcheck
# (the suite-* targets are rows of mk/suites.mk)
UNIT_DIR     = $(BUILD)/unit
UNIT_TESTS   = $(patsubst tests/unit/%.c,$(UNIT_DIR)/%,$(sort $(wildcard tests/unit/test_*.c)))
UNIT_HELPERS = $(UNIT_DIR)/ring_builder.o
UNIT_LIB     = $(BUILD)/lib/libringproof.a

ALL_TARGETS  += $(UNIT_TESTS)

.PHONY: unit-tests
unit-tests: $(UNIT_TESTS)

$(UNIT_DIR)/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit -I$(UNIT_DIR) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(UNIT_TESTS): $(UNIT_DIR)/%: $(UNIT_DIR)/%.o $(UNIT_HELPERS) $(UNIT_LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(UNIT_HELPERS) $(UNIT_LIB) -lcmocka

# One X(NAME) per enumerator of rp_status.h, for test_status.
$(UNIT_DIR)/status_codes.h: core/rp_status.h
	@mkdir -p $(dir $@)
	sed -nE 's/^[[:space:]]*(RP_[A-Z0-9_]+)[[:space:]]*=[[:space:]]*-?[0-9]+.*/X(\1)/p' $< > $@

$(UNIT_DIR)/test_status.o: $(UNIT_DIR)/status_codes.h

.SECONDARY: $(UNIT_HELPERS) $(UNIT_TESTS:=.o)

-include $(UNIT_DIR)/*.d
