# Mutation testing of core/ against the fast suites (tests/mutants/README.md).
# Not part of make check: the full set (core/*.c and the headers' inline
# definitions) takes about 80 minutes on 2 cores.
#   make mutants                      every MUTANTS_EVERY-th mutant of each file
#   make mutants MUTANTS_EVERY=1      all of them
#   make mutants MUTANTS_FILES=rp_sample.c MUTANTS_MATCH=step_branch
MUTANTS_EVERY ?= 2
MUTANTS_JOBS  ?= 2
MUTANTS_FILES ?=
MUTANTS_MATCH ?=

.PHONY: mutants
mutants:
	python3 tests/mutants/mutants.py --build $(BUILD)/mutants --jobs $(MUTANTS_JOBS) \
	  --every $(MUTANTS_EVERY) $(if $(MUTANTS_FILES),--files $(MUTANTS_FILES)) \
	  $(if $(MUTANTS_MATCH),--match '$(MUTANTS_MATCH)')
