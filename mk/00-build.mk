# Build suites: the library and its users compile cleanly with gcc and clang.
CHECK_SUITES += build-gcc build-clang

.PHONY: suite-build-gcc suite-build-clang
suite-build-gcc:
	@bash ci/suite.sh build-gcc -- $(MAKE) --no-print-directory BUILD=$(BUILD)/gcc CC=gcc all

suite-build-clang:
	@bash ci/suite.sh build-clang -- $(MAKE) --no-print-directory BUILD=$(BUILD)/clang CC=clang all
