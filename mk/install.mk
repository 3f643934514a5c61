# make install [PREFIX=/usr/local] [DESTDIR=]: headers, static and shared
# libraries, ringproof.pc, the ringproof tool and its man page.  The
# install-example suite (mk/suites.mk) installs to a temporary prefix and
# builds examples/ against it through pkg-config.
BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/ringproof
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL     ?= install
# Every core header but the internal rp_cursor.h (the parsers' cursor
# helpers; no public header includes it), and the adapters' public headers
# (private ones end in _int.h); ringproof.h includes them all.
INTERNAL_HEADERS = core/rp_cursor.h
PUBLIC_HEADERS = $(sort $(filter-out $(INTERNAL_HEADERS),$(wildcard core/*.h)) $(filter-out %_int.h,$(wildcard adapters/linux/*.h)))

.PHONY: install uninstall

$(BUILD)/ringproof.pc: ringproof.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@LIBBPF_LIBS@|$(LIBBPF_LIBS)|g' $< > $@

# The .pc file depends on PREFIX: always regenerate it on install.
install: $(BUILD)/lib/libringproof.a $(BUILD)/lib/libringproof.so.$(VERSION) $(BUILD)/tools/ringproof
	@rm -f $(BUILD)/ringproof.pc
	@$(MAKE) --no-print-directory $(BUILD)/ringproof.pc
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR)/ringproof $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/ringproof/
	$(INSTALL) -m 644 $(BUILD)/lib/libringproof.a $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 755 $(BUILD)/lib/libringproof.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libringproof.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libringproof.so.$(SOVERSION)
	ln -sf libringproof.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libringproof.so
	$(INSTALL) -m 644 $(BUILD)/ringproof.pc $(DESTDIR)$(PKGCONFIGDIR)/
	$(INSTALL) -m 755 $(BUILD)/tools/ringproof $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 tools/ringproof.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -d $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 644 $(wildcard docs/*.md) $(DESTDIR)$(DOCDIR)/

uninstall:
	rm -rf $(DESTDIR)$(INCLUDEDIR)/ringproof
	rm -f $(DESTDIR)$(LIBDIR)/libringproof.a $(DESTDIR)$(LIBDIR)/libringproof.so \
	      $(DESTDIR)$(LIBDIR)/libringproof.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libringproof.so.$(VERSION) \
	      $(DESTDIR)$(PKGCONFIGDIR)/ringproof.pc $(DESTDIR)$(BINDIR)/ringproof \
	      $(DESTDIR)$(MANDIR)/man1/ringproof.1
	rm -rf $(DESTDIR)$(DOCDIR)
