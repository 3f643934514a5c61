#!/usr/bin/env bash
# The install-example suite (TAP): make install into temporary prefixes, check
# the installed tree, then build examples/ through pkg-config and run them.
#   examples/test.sh MAKE BUILD VERSION SOVERSION
set -u
MAKE=$1 BUILD=$2 VERSION=$3 SOVERSION=$4
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
ok()  { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; [ -f "$T/log" ] && tail -5 "$T/log" | sed 's/^/#   /'; }
check() { local name=$1; shift; if "$@" > "$T/log" 2>&1; then ok "$name"; else nok "$name"; fi; }

# DESTDIR staging: files land under DESTDIR/PREFIX, the .pc names PREFIX
check "make install DESTDIR=... PREFIX=/opt/rp" $MAKE --no-print-directory install BUILD="$BUILD" DESTDIR="$T/stage" PREFIX=/opt/rp
check "DESTDIR: .pc file names the final prefix" grep -qx 'prefix=/opt/rp' "$T/stage/opt/rp/lib/pkgconfig/ringproof.pc"

P=$T/prefix
check "make install PREFIX=<tmp>" $MAKE --no-print-directory install BUILD="$BUILD" PREFIX="$P"
check "headers under include/ringproof" test -f "$P/include/ringproof/rp_ring.h" -a -f "$P/include/ringproof/rp_views.h" -a -f "$P/include/ringproof/rp_error.h"
check "static library installed" test -f "$P/lib/libringproof.a"
check "shared library with versioned SONAME libringproof.so.$SOVERSION" \
  bash -c "readelf -d '$P/lib/libringproof.so.$VERSION' | grep -q 'SONAME.*\[libringproof.so.$SOVERSION\]'"
check "libringproof.so -> .so.$SOVERSION -> .so.$VERSION" \
  test "$(readlink "$P/lib/libringproof.so")" = "libringproof.so.$SOVERSION" -a "$(readlink "$P/lib/libringproof.so.$SOVERSION")" = "libringproof.so.$VERSION"
check "pkg-config --modversion ringproof = $VERSION" \
  test "$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --modversion ringproof)" = "$VERSION"
check "installed tool runs (ringproof --version)" \
  bash -c "'$P/bin/ringproof' --version | grep -qx 'ringproof $VERSION'"
check "man page installed and renders" bash -c "man -l '$P/share/man/man1/ringproof.1' 2>/dev/null | grep -q 'ringproof' || grep -q '^\.TH RINGPROOF 1' '$P/share/man/man1/ringproof.1'"
check "man page names ringproof $VERSION" grep -q "^\.TH RINGPROOF 1 .*\"ringproof $VERSION\"" "$P/share/man/man1/ringproof.1"
# the ABI: exactly the symbols of libringproof.symbols (a symbol dropped
# without a new SONAME breaks every program linked against the old list)
check "libringproof.so.$SOVERSION exports exactly the symbols of libringproof.symbols" bash -c "
  diff <(grep -v '^#' libringproof.symbols) \
       <(nm -D --defined-only '$P/lib/libringproof.so.$VERSION' | awk '{print \$3}' | LC_ALL=C sort) |
    sed -n 's/^< /gone from the library (ABI break: new SOVERSION, docs\/changes.md): /p; s/^> /exported but not listed: /p' |
    tee /dev/stderr | { ! grep -q .; }"

# every global function of the objects is either API or listed as internal
check "every global function of libringproof.a is in libringproof.symbols or libringproof.internal, not both" bash -c "
  diff <(grep -hv '^#' libringproof.symbols libringproof.internal | LC_ALL=C sort) \
       <(nm -g --defined-only '$P/lib/libringproof.a' | awk 'NF == 3 {print \$3}' | LC_ALL=C sort) |
    sed -n 's/^< /listed but not in the library: /p; s/^> /in neither list: /p' |
    tee /dev/stderr | { ! grep -q .; }"

export PKG_CONFIG_PATH=$P/lib/pkgconfig
cflags=$(pkg-config --cflags ringproof) libs=$(pkg-config --libs ringproof)
check "example builds with pkg-config --cflags --libs ringproof (shared)" \
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror examples/drain_ring.c $cflags $libs -o "$T/drain_ring"
check "example links the installed shared library" \
  bash -c "LD_LIBRARY_PATH='$P/lib' ldd '$T/drain_ring' | grep -q '$P/lib/libringproof.so.$SOVERSION'"
check "example runs and its payloads round-trip (shared)" \
  bash -c "LD_LIBRARY_PATH='$P/lib' '$T/drain_ring' | grep -q 'payloads match'"
check "example builds statically with pkg-config --static" \
  bash -c "${CC:-cc} -std=c11 -Wall -Werror examples/drain_ring.c $cflags '$P/lib/libringproof.a' \$(pkg-config --static --libs-only-l ringproof | sed 's/-lringproof//') -o '$T/drain_ring_static'"
check "example runs (static)" bash -c "'$T/drain_ring_static' | grep -q 'payloads match'"

# headers: one include for everything, usable from C and C++; internal ones not installed
check "ringproof.h compiles as C11 and as C++11 from the installed tree" bash -c "
  echo '#include <ringproof.h>
int main(void) { return rp_strerror(RP_E_OVERRUN)[0] == 0; }' > '$T/u.c' &&
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror -c '$T/u.c' $cflags -o '$T/u.o' &&
  ${CXX:-c++} -std=c++11 -Wall -Wextra -Werror -x c++ -c '$T/u.c' $cflags -o '$T/u_cxx.o'"
check "internal rp_cursor.h not installed; every installed header compiles on its own" bash -c "
  test ! -e '$P/include/ringproof/rp_cursor.h' &&
  for h in '$P'/include/ringproof/*.h; do
    printf '#include <%s>\\n' \"\$(basename \"\$h\")\" | ${CC:-cc} -std=c11 -Wall -Werror -fsyntax-only -x c - $cflags || exit 1
  done"
check "every installed header compiles on its own as C++11, and each that declares functions gives them C linkage" bash -c "
  for h in '$P'/include/ringproof/*.h; do
    printf '#include <%s>\\n' \"\$(basename \"\$h\")\" | ${CXX:-c++} -std=c++11 -Wall -Werror -fsyntax-only -x c++ - $cflags || exit 1
    if grep -qE '^[a-z].*\\b(rp|ringproof)_[a-z0-9_]+\\(' \"\$h\" && ! grep -q 'extern \"C\"' \"\$h\"; then
      echo \"\$h: functions without extern \\\"C\\\"\"; exit 1
    fi
  done"
check "adapter headers and docs refer to nothing outside the install" bash -c "
  ! grep -nE 'SPEC\.md|DESIGN\.md|\.\./shared' $P/include/ringproof/ringproof.h $P/include/ringproof/rp_adapter.h \
    $P/include/ringproof/rp_bpffs.h $P/include/ringproof/rp_error.h $P/include/ringproof/rp_perf*.h \
    $P/include/ringproof/rp_bpf_ringbuf.h $P/share/doc/ringproof/*.md &&
  test -f $P/share/doc/ringproof/abi.md -a -f $P/share/doc/ringproof/api.md"

check "api.md: every rp_* name it uses is declared in an installed header, every file it names is installed" bash -c "
  D='$P/share/doc/ringproof' I='$P/include/ringproof' bad=
  for id in \$(grep -oE '\\brp_[a-z0-9_]+\\b' \"\$D/api.md\" | sort -u); do
    grep -qw \"\$id\" \"\$I\"/*.h || bad=\"\$bad \$id\"
  done
  for f in \$(grep -oE '\\b[a-z_]+\\.(md|h)\\b' \"\$D/api.md\" | sort -u); do
    test -e \"\$I/\$f\" -o -e \"\$D/\$f\" || bad=\"\$bad \$f\"
  done
  [ -z \"\$bad\" ] || { echo \"unresolved:\$bad\"; exit 1; }"

# the complete agent (examples/agent): BPF program loaded with libbpf, events read
# with the perf buffer API and the ringbuf API, as C and as C++
BPF_INC=/usr/include/$(${CC:-cc} -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
check "agent BPF program builds (clang -target bpf)" \
  clang -O2 -g -target bpf -Wall -Werror -I"$BPF_INC" -c examples/agent/agent.bpf.c -o "$T/agent.bpf.o"
check "agent builds as C11 with pkg-config" \
  ${CC:-cc} -std=c11 -Wall -Wextra -Werror examples/agent/agent.c -Iexamples/agent $cflags $libs -lbpf -o "$T/agent"
check "agent builds as C++11 with pkg-config" \
  ${CXX:-c++} -std=c++11 -Wall -Wextra -Werror examples/agent/agent.cpp -Iexamples/agent $cflags $libs -lbpf -o "$T/agent_cxx"
for a in agent agent_cxx; do
  if [ "$(id -u)" != 0 ]; then
    n=$((n + 1)); echo "ok $n - $a runs against the kernel # SKIP needs root (BPF load and attach)"
  else
    check "$a runs against the kernel: every event exactly once through both APIs" \
      bash -c "LD_LIBRARY_PATH='$P/lib' '$T/$a' '$T/agent.bpf.o' 2000 | tee /dev/stderr | grep -q 'exactly once'"
  fi
done
echo "1..$n"
