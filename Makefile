# mancala - build, test, benchmark, install.
#   make                 the program ./mancala and the libraries in build/
#                        (and ./mancala-mpi, the table build under mpirun,
#                        when Open MPI's mpicc is there: MPI=0|1)
#   make check           every test (unit, rules data, CLI); SAN=1 for ASan+UBSan
#   make bench           the long perft depths and speed figures
#   make check-python    the Python module's tests (also run by make check);
#                        make bench-python its speed figures (docs/PYTHON.md)
#   make install PREFIX=/usr/local DESTDIR=   (with the static site of
#                        make site, when it is built; SITE= leaves it out)
#   make tune            train the learned evaluations (long; docs/SEARCH.md)
#   make tables          the small default set of Oware endgame tables in
#                        build/egdb, which make install then installs
#   make deb             the Debian packages, in build/deb (debian/)
# Variables: CC (gcc or clang), WERROR=1 (warnings are errors), SAN=1,
# NATIVE=1 (-march=native; the default build is generic).

CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
MANDIR  ?= $(PREFIX)/share/man
PCDIR   ?= $(LIBDIR)/pkgconfig
# Installed data: the endgame tables found without --egdb (docs/EGDB.md).
SHAREDIR ?= $(PREFIX)/share/mancala
# Installed documents: the beginner's pages (web/howto-*), which
# `mancala rules` names when they are there.
DOCDIR  ?= $(PREFIX)/share/doc/mancala
# The Python module (python/mancala, docs/PYTHON.md) and the python3 with
# numpy and pytest that tests it (Debian's, not a pyenv shim).
PYDIR   ?= $(PREFIX)/lib/python3/dist-packages
PYTHON  ?= /usr/bin/python3

VERSION := $(shell sed -n 's/^\#define MC_VERSION_STRING "\(.*\)"/\1/p' include/mancala.h)
# From 1.0 the soname carries the major version only (docs/LIBRARY.md).
SOVER   := $(word 1,$(subst ., ,$(VERSION)))

# CFLAGS is the user's (optimisation and debugging: `make CFLAGS=-O0`
# replaces only those); what the build needs (the language, warnings, the
# sanitizers, include paths, header dependencies) is in MC_CFLAGS, which
# every compile puts in front of it.
OPT     ?= -O2
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(WERROR),1)
WARN    += -Werror
endif
ifeq ($(NATIVE),1)
OPT     += -march=native
endif
ifeq ($(SAN),1)
B       := build-san
OPT     := -O1
SANFLAGS := -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
            -DMC_CHECKS
LDSAN   := -fsanitize=address,undefined
else
B       := build
endif
CFLAGS  ?= $(OPT) -g
MC_CFLAGS = -std=c11 $(WARN) $(SANFLAGS) -fPIC -pthread -Iinclude -Isrc \
            -D_DEFAULT_SOURCE -MMD -MP
LDFLAGS += $(LDSAN) -pthread
# The compressed endgame tables (src/egdb/zfile.c) decompress with zstd
# (Debian: libzstd-dev).
LDLIBS  += -lzstd -lm
# The full-screen game (src/cli/tui.c) needs ncurses (Debian: libncurses-dev);
# only the program links it, never the library.
CURSES_CFLAGS ?= $(shell pkg-config --cflags ncursesw 2>/dev/null)
CURSES_LIBS   ?= $(shell pkg-config --libs ncursesw 2>/dev/null || \
                   pkg-config --libs ncurses 2>/dev/null || echo -lncursesw)

LIB_SRC := $(wildcard src/core/*.c src/games/*.c src/session/*.c src/search/*.c \
             src/record/*.c src/protocol/*.c src/egdb/*.c)
CLI_SRC := $(filter-out src/cli/tui_none.c,$(wildcard src/cli/*.c))
# The web server (mancala serve): libmicrohttpd for HTTP, Jansson for JSON,
# SQLite for its store of games (Debian: libsqlite3-dev), libsodium for the
# accounts' password hashes (Debian: libsodium-dev), and the page (web/)
# embedded by tools/embed_web.c.
SERVER_SRC := $(filter-out src/server/store_none.c src/server/password_none.c,\
                $(wildcard src/server/*.c))
# The JSON API alone (api.c and the files beside it, src/server/api_int.h):
# the server's, the fuzzer's and the page's (make wasm, over store_none.c
# and password_none.c).
API_SRC    := $(wildcard src/server/api*.c)
WEB_FILES := $(wildcard web/*)
SERVER_OBJ := $(SERVER_SRC:%.c=$(B)/%.o) $(B)/gen/web_files.o
SQLITE_CFLAGS ?= $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS   ?= $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)
SODIUM_CFLAGS ?= $(shell pkg-config --cflags libsodium 2>/dev/null)
SODIUM_LIBS   ?= $(shell pkg-config --libs libsodium 2>/dev/null || echo -lsodium)
SERVER_LIBS := -lmicrohttpd -ljansson $(SQLITE_LIBS) $(SODIUM_LIBS) -ldl
# PostgreSQL as the store (--db postgresql://..., docs/SERVER.md): libpq is
# loaded at run time (dlopen), only its header is needed to build (Debian:
# libpq-dev); without it store_pg_none.c is a store that refuses PostgreSQL.
PG_CFLAGS ?= $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
RULES_MD := $(wildcard docs/rules/*.md)
# Search journals shipped with the library (docs/EGDB.md), embedded too.
EGDB_JOURNALS := $(wildcard data/egdb/*.journal)
# Learned evaluation weights (docs/SEARCH.md), embedded too.
EVAL_WEIGHTS := $(wildcard data/eval/*.txt)
# Opening books shipped with the library (docs/BOOK.md), embedded too.
BOOKS := $(wildcard data/book/*.book)
# The players' languages (docs/TRANSLATING.md): po/<domain>/<lang>.po,
# made .mo by GNU gettext's msgfmt (Debian: gettext) and built in: po/lib
# into the library (every word it gives players, the server's included),
# po/cli into the program, po/web into the page (make site).
LIB_PO  := $(wildcard po/lib/*.po)
CLI_PO  := $(wildcard po/cli/*.po)
LIB_MO  := $(LIB_PO:po/lib/%.po=$(B)/gen/mo/lib/%.mo)
CLI_MO  := $(CLI_PO:po/cli/%.po=$(B)/gen/mo/cli/%.mo)
# The page's (po/web; web/i18n.js): each language's lang-<tag>.mo, the
# pseudo-language's made from the .pot (build/pseudo), and langs.json (the
# languages there are, and those with how-to pages: po/howto), made into
# $(B)/gen/web and served with web/'s files (embedded, and in make site).
WEB_PO  := $(wildcard po/web/*.po)
WEB_GEN := $(B)/gen/web/langs.json $(WEB_PO:po/web/%.po=$(B)/gen/web/lang-%.mo) \
           $(B)/gen/web/lang-en-XA.mo
WEB_FILES += $(WEB_GEN)
MSGFMT  ?= msgfmt
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o) $(B)/gen/rules_text.o \
           $(B)/gen/egdb_journals.o $(B)/gen/eval_weights.o $(B)/gen/books.o \
           $(B)/gen/catalogs_lib.o
CLI_OBJ := $(CLI_SRC:%.c=$(B)/%.o) $(SERVER_OBJ) $(B)/gen/catalogs_cli.o
# The shared library exports only what include/*.h declares with MC_API
# (docs/LIBRARY.md); the static library holds the same objects.
LIB_CFLAGS := -fvisibility=hidden -DMC_BUILDING
$(LIB_OBJ): MC_CFLAGS += $(LIB_CFLAGS)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(B)/tests/%)

ifeq ($(SAN),1)
PROG    := $(B)/mancala
else
PROG    := mancala
endif

.PHONY: bench-site
.PHONY: all check bench install uninstall clean fuzz screenshots tsan tsan-egdb tables tune \
        format check-format \
        check-python bench-python
all: $(PROG) $(B)/libmancala.a $(B)/libmancala.so.$(VERSION)

# Header dependencies come from the compiler (-MMD -MP: the .d files
# beside the objects).
$(B)/%.o: %.c | $(B)/dirs
	@mkdir -p $(dir $@)
	$(CC) $(MC_CFLAGS) $(CFLAGS) -c $< -o $@

-include $(wildcard $(B)/src/*/*.d $(B)/gen/*.d $(B)/tests/*.d)

$(B)/dirs:
	mkdir -p $(B)/src/core $(B)/src/games $(B)/src/session $(B)/src/search \
	  $(B)/src/record $(B)/src/protocol $(B)/src/egdb $(B)/src/server \
	  $(B)/src/cli $(B)/gen $(B)/tests
	touch $@

$(B)/embed: tools/embed.c | $(B)/dirs
	$(CC) -O1 -o $@ $<

# The rules in the players' languages (docs/TRANSLATING.md): po4a (Debian:
# po4a) keeps the translations of docs/rules/*.md in po/rules/<lang>.po, one
# message a paragraph (po/rules/po4a.cfg), and writes each language's files
# into $(B)/gen/rules/<lang>/ (--no-update: nothing in po/ is touched).
# --keep 0 (in po4a.cfg): a file is written however little is translated,
# since a paragraph with no current translation (new, or its English
# changed: fuzzy) stays English in it, as a message falls back to English
# in the catalogs; tests/po.sh checks that po/rules/fr.po is whole.
# neverwrap: the tables and the lettered sub-lists keep their lines (each
# translation's lines are its translator's).  All are embedded (tools/embed.c
# -l); src/core/rules_text.c picks by the thread's language.  po4a puts a
# blank line between two items of a list: the awk takes it out again, so
# that a translation is laid out as its English.
RULES_PO    := $(wildcard po/rules/*.po)
RULES_LANGS := $(RULES_PO:po/rules/%.po=%)
RULES_TR    := $(foreach l,$(RULES_LANGS),$(RULES_MD:docs/rules/%.md=$(B)/gen/rules/$(l)/%.md))
PO4A_RULES  ?= po4a
$(B)/gen/rules/stamp: po/rules/po4a.cfg $(RULES_MD) $(RULES_PO) | $(B)/dirs
	rm -rf $(B)/gen/rules && mkdir -p $(B)/gen/rules
	$(PO4A_RULES) --no-update --destdir $(B)/gen po/rules/po4a.cfg
	@for f in $(RULES_TR); do [ -f $$f ] || { echo "$$f not made: is its" \
	  "language in po/rules/po4a.cfg's [po4a_langs]?"; exit 1; }; \
	awk '$$0 == "" { blank = 1; next } \
	  { if (blank && !(item && /^ *- /)) print ""; blank = 0; print; \
	    if (/^- /) item = 1; else if (!/^ /) item = 0 } \
	  END { if (blank) print "" }' $$f >$$f.tmp && mv $$f.tmp $$f || exit 1; done
	touch $@
$(RULES_TR): $(B)/gen/rules/stamp ;

# make po-update brings po/rules up to date too (po4a: the .pot from
# docs/rules/*.md, each <lang>.po merged with it; tests/po.sh checks both).
# The French manual page (man/fr) is installed beside the English one.
.PHONY: rules-po install-man-fr uninstall-man-fr
rules-po:
	$(PO4A_RULES) --no-translations --package-name mancala --package-version $(VERSION) \
	  --copyright-holder "the mancala authors" po/rules/po4a.cfg
po-update: rules-po
install: install-man-fr
install-man-fr:
	install -d $(DESTDIR)$(MANDIR)/fr/man1
	install -m 644 man/fr/mancala.1 $(DESTDIR)$(MANDIR)/fr/man1/mancala.1
uninstall: uninstall-man-fr
uninstall-man-fr:
	rm -f $(DESTDIR)$(MANDIR)/fr/man1/mancala.1

$(B)/gen/rules_text.c: $(B)/embed $(RULES_MD) $(RULES_TR)
	$(B)/embed -l $@ core/rules_text.h mc_rules_texts \
	  $(RULES_MD:%=en=%) $(foreach f,$(RULES_TR),$(word 3,$(subst /, ,$(f:$(B)/%=%)))=$(f))

$(B)/gen/rules_text.o: $(B)/gen/rules_text.c
	$(CC) $(MC_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/gen/egdb_journals.c: $(B)/embed $(EGDB_JOURNALS)
	$(B)/embed $@ egdb/egdb_int.h eg_shipped_journal $(EGDB_JOURNALS)

$(B)/gen/egdb_journals.o: $(B)/gen/egdb_journals.c src/egdb/egdb_int.h
	$(CC) $(MC_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/gen/eval_weights.c: $(B)/embed $(EVAL_WEIGHTS)
	$(B)/embed $@ games/learned.h mc_eval_text $(EVAL_WEIGHTS)

$(B)/gen/eval_weights.o: $(B)/gen/eval_weights.c src/games/learned.h
	$(CC) $(MC_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/gen/books.c: $(B)/embed $(BOOKS)
	$(B)/embed $@ search/book.h mc_book_shipped $(BOOKS)

$(B)/gen/books.o: $(B)/gen/books.c src/search/book.h include/mancala.h
	$(CC) $(MC_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/gen/mo/%.mo: po/%.po
	@mkdir -p $(dir $@)
	$(MSGFMT) --check -o $@ $<

$(B)/gen/catalogs_lib.c: $(B)/embed $(LIB_MO)
	$(B)/embed -t $@ core/i18n.h mc_catalogs_lib $(LIB_MO)

$(B)/gen/catalogs_cli.c: $(B)/embed $(CLI_MO)
	$(B)/embed -t $@ core/i18n.h mc_catalogs_cli $(CLI_MO)

$(B)/gen/catalogs_%.o: $(B)/gen/catalogs_%.c src/core/i18n.h
	$(CC) $(MC_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/embed_web: tools/embed_web.c | $(B)/dirs
	$(CC) -O1 -o $@ $<

# ---- the beginner's pages in the players' languages (po/howto) -------------
# po4a (po/howto/po4a.cfg) makes $(B)/gen/web/LANG/howto-GAME.html from
# web/howto-GAME.html and po/howto/LANG.po, whatever share of it is
# translated (--keep 0): a paragraph the catalog lacks stays English, whole,
# so that a change to an English page never stops the build; make check-po
# fails while a shipped language (French) lacks a message.  Their links to the files
# beside the English pages (the stylesheet, the icon, the board) then go
# one folder up.  mancala serve embeds them as LANG/howto-GAME.html, make
# site copies them into $(SITE)/LANG, make install into $(DOCDIR)/LANG.
# make po-howto (run by make po-update) extracts the English pages' texts
# into po/howto/mancala-howto.pot and merges it into each LANG.po (in
# HOWTO_ROOT's po/howto and from its web/: tests/po.sh runs it on a copy);
# make check-po checks the catalogs (tests/po.sh).
PO4A        ?= po4a
PO4A_FLAGS  := -M UTF-8 -L UTF-8 --porefs file --package-name mancala \
               --package-version $(VERSION) --copyright-holder "the mancala authors"
HOWTO_SRC   := $(sort $(wildcard web/howto-*.html))
HOWTO_LANGS := $(sort $(basename $(notdir $(wildcard po/howto/*.po))))
HOWTO_L10N  := $(foreach l,$(HOWTO_LANGS),$(HOWTO_SRC:web/%=$(B)/gen/web/$(l)/%))
$(B)/gen/web/howto.stamp: po/howto/po4a.cfg $(HOWTO_SRC) $(wildcard po/howto/*.po) | $(B)/dirs
	rm -rf $(addprefix $(B)/gen/web/,$(HOWTO_LANGS)) && mkdir -p $(B)/gen/web
	$(PO4A) $(PO4A_FLAGS) --no-update --keep 0 --destdir $(B)/gen/web po/howto/po4a.cfg
	@miss=; for f in $(HOWTO_L10N); do [ -f $$f ] || miss="$$miss $$f"; done; \
	if [ -n "$$miss" ]; then echo "not made:$$miss (the page is not in po/howto/po4a.cfg)"; exit 1; fi
	$(if $(HOWTO_L10N),sed -i 's/href="\(howto\.css\|favicon\.svg\|index\.html\)"/href="..\/\1"/g' \
	  $(HOWTO_L10N))
	touch $@
$(HOWTO_L10N): $(B)/gen/web/howto.stamp ;
.PHONY: po-howto
HOWTO_ROOT  ?= .
po-howto:
	cd $(HOWTO_ROOT) && $(PO4A) $(PO4A_FLAGS) --no-translations po/howto/po4a.cfg
po-update: po-howto

$(B)/gen/web_files.c: $(B)/embed_web $(WEB_FILES) $(HOWTO_L10N)
	$(B)/embed_web $@ $(WEB_FILES) $(foreach l,$(HOWTO_LANGS),-d $(l) \
	  $(filter $(B)/gen/web/$(l)/%,$(HOWTO_L10N)))

$(B)/gen/web_files.o: $(B)/gen/web_files.c src/server/server.h
	$(CC) $(MC_CFLAGS) $(CFLAGS) -c $< -o $@

$(B)/libmancala.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(B)/libmancala.so.$(VERSION): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libmancala.so.$(SOVER) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The table build shared by processes under mpirun (src/cli/mpi.c,
# docs/EGDB.md "Over MPI") is a program of its own, mancala-mpi, as
# scientific codes ship theirs (GROMACS: gmx and gmx_mpi): mancala and the
# library never link MPI.  Built with Open MPI (Debian: libopenmpi-dev),
# found by its mpicc; MPI=0 leaves it out, MPI=1 insists.  It is mpi.c
# compiled with MC_MPI (its main and the transport) and, from an archive,
# the program's files its `egdb build` needs.
MPI ?= $(if $(shell command -v mpicc 2>/dev/null),1,0)
ifeq ($(SAN),1)
MPI_PROG := $(B)/mancala-mpi
else
MPI_PROG := mancala-mpi
endif
ifeq ($(MPI),1)
MPI_CFLAGS := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null || echo -lmpi)
all: $(MPI_PROG)
endif
$(B)/mpi/mpi.o: src/cli/mpi.c | $(B)/dirs
	@mkdir -p $(dir $@)
	$(CC) $(MC_CFLAGS) -DMC_MPI $(MPI_CFLAGS) $(CFLAGS) -c $< -o $@
$(B)/cli.a: $(filter-out $(B)/src/cli/main.o $(B)/src/cli/mpi.o,$(CLI_OBJ))
	rm -f $@
	ar rcs $@ $^
$(MPI_PROG): $(B)/mpi/mpi.o $(B)/cli.a $(B)/libmancala.a
	$(CC) $(LDFLAGS) -o $@ $(B)/mpi/mpi.o $(B)/cli.a $(B)/libmancala.a $(MPI_LIBS) $(LDLIBS)
-include $(wildcard $(B)/mpi/*.d)

$(B)/src/cli/tui.o: MC_CFLAGS += $(CURSES_CFLAGS)
$(B)/src/server/store.o $(B)/src/server/store_account.o: MC_CFLAGS += $(SQLITE_CFLAGS)
$(B)/src/server/store_pg.o $(B)/src/server/store_pg_account.o \
  $(B)/src/server/store_pg_name.o $(B)/src/server/store_pg_none.o: MC_CFLAGS += $(PG_CFLAGS)
$(B)/src/server/store_copy.o: MC_CFLAGS += $(SQLITE_CFLAGS)
$(B)/src/server/password.o: MC_CFLAGS += $(SODIUM_CFLAGS)

# The library looks for installed tables in $(SHAREDIR)/egdb.  The name is
# kept in a stamp so that a make with another PREFIX rebuilds dirs.o.
$(shell mkdir -p $(B)/gen && { echo '$(SHAREDIR)' | cmp -s - $(B)/gen/sharedir || \
  echo '$(SHAREDIR)' > $(B)/gen/sharedir; })
$(B)/src/egdb/dirs.o: MC_CFLAGS += -DMC_SHAREDIR='"$(SHAREDIR)"'
$(B)/src/egdb/dirs.o: $(B)/gen/sharedir
$(shell mkdir -p $(B)/gen && { echo '$(DOCDIR)' | cmp -s - $(B)/gen/docdir || \
  echo '$(DOCDIR)' > $(B)/gen/docdir; })
$(B)/src/cli/rules.o: MC_CFLAGS += -DMC_DOCDIR='"$(DOCDIR)"'
$(B)/src/cli/rules.o: $(B)/gen/docdir

$(PROG): $(CLI_OBJ) $(B)/libmancala.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(B)/libmancala.a $(CURSES_LIBS) $(SERVER_LIBS) $(LDLIBS)

$(B)/tests/%: tests/%.c tests/check.h $(B)/libmancala.a
	$(CC) $(MC_CFLAGS) $(CFLAGS) -Itests -o $@ $< $(B)/libmancala.a $(LDFLAGS) $(LDLIBS)

# The server's API tests link the server objects.
$(B)/tests/test_server: tests/test_server.c tests/check.h $(SERVER_OBJ) $(B)/libmancala.a
	$(CC) $(MC_CFLAGS) $(CFLAGS) -Itests -o $@ $< $(SERVER_OBJ) $(B)/libmancala.a $(LDFLAGS) \
	  $(SERVER_LIBS) $(LDLIBS)

# Every test runs with its data and state directories in the build tree
# (its own, so that tests can run side by side), never the real home, and
# without endgame tables unless it asks for them (tests/cli_egdb.sh does),
# so that outputs do not depend on what a user has built or installed.
test_env = XDG_DATA_HOME=$(abspath $(B))/xdg/$(1)/data \
           XDG_STATE_HOME=$(abspath $(B))/xdg/$(1)/state MANCALA_EGDB_DIR=none
TEST_ENV = $(call test_env,tsan)

# The match statistics' tests link that one program file.
$(B)/tests/test_match_stats: tests/test_match_stats.c tests/check.h \
  $(B)/src/cli/match_stats.o $(B)/libmancala.a
	$(CC) $(MC_CFLAGS) $(CFLAGS) -Itests -o $@ $< $(B)/src/cli/match_stats.o \
	  $(B)/libmancala.a $(LDFLAGS) $(LDLIBS)

# The ratings' tests link that one server file (pure arithmetic: none of
# the server's libraries).
$(B)/tests/test_rating: tests/test_rating.c tests/check.h \
  $(B)/src/server/rating.o $(B)/libmancala.a
	$(CC) $(MC_CFLAGS) $(CFLAGS) -Itests -o $@ $< $(B)/src/server/rating.o \
	  $(B)/libmancala.a $(LDFLAGS) $(LDLIBS)

# make check runs every test; each is a target of its own, so that
# `make -j2 check` runs them side by side and `make check-cli_tui` runs one:
# check-<test_x> for the C programs tests/test_x.c, check-<cli_x> for the
# shell tests tests/cli_x.sh, check-e2e for the browser tests.  A test's
# output goes to $(B)/log/<name>.log and is shown when it fails; every test
# runs (make -k) before make check reports.  The longest start first.
# test_egdb runs as four parts side by side (its abapa builds, its awari
# builds, the brute-force minimax, the rest); make check-test_egdb runs
# all four.
EGDB_PARTS  := check-test_egdb-abapa check-test_egdb-awari check-test_egdb-brute \
               check-test_egdb-rest
SLOW_TESTS  := check-test_egdb-abapa check-e2e-full check-test_egdb-brute \
               check-e2e-features \
               check-test_egdb-rest check-cli_tui check-e2e-howto \
               check-test_omweso check-test_egdb-awari check-cli_help \
               check-test_gore check-test_server-pg check-cli_pg2
UNIT_CHECKS := $(filter-out check-test_egdb,$(TEST_BIN:$(B)/tests/%=check-%))
CLI_CHECKS  := $(patsubst tests/%.sh,check-%,$(wildcard tests/cli*.sh))
CHECKS      := $(SLOW_TESTS) $(filter-out $(SLOW_TESTS),$(UNIT_CHECKS) $(CLI_CHECKS)) \
               check-python check-mpi check-layers check-po
# The WebAssembly and static-site tests run after the others, two at a
# time: a browser and node beside the timed tests (an engine's readyok
# within 0.3 s) made those fail under the load.  The WebAssembly ones are
# each a target of their own (make check-wasm runs them all), so that they
# spread beside the browser tests.  The longest first: the
# site's browser run, then the WebAssembly parts one by one beside it.
WASM_PARTS := check-wasm-cli check-wasm-protocol check-wasm-page-protocol \
              check-wasm-js check-wasm-rules
ifeq ($(SAN),1)
LATE_CHECKS := check-wasm-all check-e2e-site check-e2e-i18n
else
LATE_CHECKS := check-e2e-site $(WASM_PARTS) check-e2e-i18n
endif
.PHONY: check-all check-late check-test_egdb check-e2e check-wasm-all $(CHECKS) $(LATE_CHECKS) \
        $(WASM_PARTS)

# make -jN check runs N tests at a time (the submakes share make's job
# slots); a plain make check runs CHECK_JOBS at a time (default: twice the
# cores: many tests wait on a browser, a terminal or a clock more than they
# compute), and CHECK_JOBS=N on the command line always wins.
CHECK_JOBS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))
check_j = $(if $(and $(filter -j%,$(MAKEFLAGS)),$(filter-out command line,$(origin CHECK_JOBS))),,-j$(1))
# The WebAssembly builds and the site are made before any test starts
# (not beside the tests: compiling would slow the timed ones down).
ifeq ($(SAN),1)
CHECK_BUILDS :=
else
CHECK_BUILDS := wasm-check-builds
endif
check: $(PROG) $(TEST_BIN) $(CHECK_BUILDS)
	@rm -rf $(B)/xdg $(B)/log; mkdir -p $(B)/log
	@$(MAKE) --no-print-directory -k $(call check_j,$(CHECK_JOBS)) check-all; a=$$?; \
	  $(MAKE) --no-print-directory -k $(call check_j,2) check-late; b=$$?; \
	  if [ $$a -ne 0 ] || [ $$b -ne 0 ]; then echo "make check: FAILED"; exit 1; fi
	@echo "make check: all test programs passed"

# make check-pg: test_server's every test against PostgreSQL (a throwaway
# cluster of Debian's postgresql, tests/pg_run.sh; no network) and
# tests/cli_pg.sh, tests/cli_pg2.sh (two servers on one database); the
# SQLite store's file tests skip there, said.
.PHONY: check-pg check-test_server-pg
check-pg: check-test_server-pg check-cli_pg check-cli_pg2
check-test_server-pg: $(B)/tests/test_server
	@$(call run_test,test_server-pg,sh tests/pg_run.sh $(B)/tests/test_server)
	@grep "^SKIPPED" $(B)/log/test_server-pg.log || true

check-all: $(CHECKS)
check-late: $(LATE_CHECKS)

# run_test: name, command.
run_test = rm -rf $(B)/xdg/$(1); mkdir -p $(B)/log; start=$$(date +%s); \
  if $(call test_env,$(1)) MANCALA=./$(PROG) $(2) >$(B)/log/$(1).log 2>&1; then \
    echo "ok   $(1) ($$(( $$(date +%s) - start )) s)"; \
  else cat $(B)/log/$(1).log; echo "FAIL $(1) (log: $(B)/log/$(1).log)"; exit 1; fi

$(UNIT_CHECKS): check-%: $(B)/tests/% $(PROG)
	@$(call run_test,$*,$(B)/tests/$* tests)

$(EGDB_PARTS): check-test_egdb-%: $(B)/tests/test_egdb $(PROG)
	@$(call run_test,test_egdb-$*,$(B)/tests/test_egdb tests $*)

check-test_egdb: $(EGDB_PARTS)

$(CLI_CHECKS): check-%: tests/%.sh $(PROG)
	@$(call run_test,$*,sh tests/$*.sh)

# The layout of every C file (.clang-format; docs/HACKING.md): make format
# applies it, make check-format (run by CI) fails on any difference.
FORMAT_SRC := $(wildcard src/*/*.c src/*/*.h include/*.h tests/*.c tests/*.h \
                tools/*.c fuzz/*.c bench/*.c)
format:
	clang-format -i $(FORMAT_SRC)
check-format:
	clang-format --dry-run -Werror $(FORMAT_SRC)

# The layers of docs/HACKING.md: no call into a layer above, no two files
# calling each other (tools/calls.py reads the objects' symbols).
check-layers: $(PROG)
	@$(call run_test,layers,python3 tools/calls.py $(B))

E2E_PARTS := check-e2e-full check-e2e-features check-e2e-howto
$(E2E_PARTS): check-e2e-%: $(PROG)
	@$(call run_test,e2e-$*,sh tests/e2e/run.sh ./$(PROG) $*)

# The static site (make site) in Chromium, served by a plain file server
# of the test's own: no mancala server anywhere (tests/e2e/site.mjs).
ifeq ($(SAN),1)
check-e2e-site:
	@echo "check-e2e-site: not run under SAN=1 (the site's engine is the WebAssembly build)"
else
check-e2e-site: site
	@$(call run_test,e2e-site,sh tests/e2e/run.sh ./$(PROG) site)
endif

check-e2e: $(E2E_PARTS) check-e2e-site check-e2e-i18n

# A table build shared by processes under mpirun (tests/mpi.sh), when
# mancala-mpi is built (Open MPI); not under SAN=1 (Open MPI's own
# allocations are not the program's to free).
ifeq ($(MPI)$(SAN),1)
check-mpi: $(PROG) $(MPI_PROG)
	@$(call run_test,mpi,MANCALA_MPI=./$(MPI_PROG) sh tests/mpi.sh)
else
check-mpi: $(PROG)
	@echo "check-mpi: not run ($(if $(filter 1,$(SAN)),under SAN=1,mancala-mpi is not built: make MPI=1 with libopenmpi-dev))"
endif

# The symbol test links C and C++ programs with the shared library.
check-cli_symbols: $(B)/libmancala.so.$(VERSION)

# The Python module's tests (python/tests, pytest) against the shared
# library and program of this build.  A sanitized library cannot be loaded
# into an unsanitized python3, so under SAN=1 they are not run (and say so).
check-python: $(PROG) $(B)/libmancala.so.$(VERSION)
ifeq ($(SAN),1)
	@echo "check-python: not run under SAN=1 (python3 cannot load an ASan library)"
else
	@$(call run_test,python,MANCALA_LIB=$(abspath $(B))/libmancala.so.$(VERSION) \
	  $(PYTHON) -m pytest -q -rs -p no:cacheprovider python/tests)
	@grep "^SKIPPED" $(B)/log/python.log || true
endif

# The Python module's speed figures (docs/PYTHON.md).
bench-python: all
	$(TEST_ENV) $(PYTHON) python/bench.py

# The threaded code (the player's search threads, the compressed tables'
# block caches, the protocol's search thread, the web server's connections
# and per-game locks, the solved tables' builder) under ThreadSanitizer:
# test_player, test_egdbz, test_solved and test_server in-process, and the
# protocol's
# transcripts against a mancala program built with it (test_protocol runs
# $MANCALA engine; a report makes the engine exit non-zero, which fails the
# transcript).
TSAN_FLAGS := -std=c11 -O1 -g -fsanitize=thread -pthread -Iinclude -Isrc \
              -Itests -D_DEFAULT_SOURCE -DMC_CHECKS
TSAN_GEN   := build/gen/rules_text.c build/gen/egdb_journals.c \
              build/gen/eval_weights.c build/gen/books.c build/gen/catalogs_lib.c
# The endgame tables' tests under ThreadSanitizer (docs/HACKING.md: the
# builder's threads; about 10 minutes): built by make tsan, run by this.
TSAN_EGDB = $(CC) $(TSAN_FLAGS) -o build-tsan/test_egdb tests/test_egdb.c \
	  $(LIB_SRC) $(TSAN_GEN) -lzstd -lm
tsan-egdb: $(TSAN_GEN)
	mkdir -p build-tsan
	$(TSAN_EGDB)
	$(TEST_ENV) MANCALA_SAN=1 build-tsan/test_egdb tests

tsan: $(TSAN_GEN) build/gen/web_files.c build/gen/catalogs_cli.c
	mkdir -p build-tsan
	$(TSAN_EGDB)
	$(CC) $(TSAN_FLAGS) $(CURSES_CFLAGS) -o build-tsan/mancala $(CLI_SRC) \
	  build/gen/catalogs_cli.c \
	  $(SERVER_SRC) build/gen/web_files.c $(LIB_SRC) $(TSAN_GEN) \
	  $(CURSES_LIBS) $(SERVER_LIBS) -lzstd -lm
	$(CC) $(TSAN_FLAGS) -o build-tsan/test_player tests/test_player.c \
	  $(LIB_SRC) $(TSAN_GEN) -lzstd -lm
	$(CC) $(TSAN_FLAGS) -o build-tsan/test_protocol tests/test_protocol.c -lm
	$(CC) $(TSAN_FLAGS) -o build-tsan/test_egdbz tests/test_egdbz.c \
	  $(LIB_SRC) $(TSAN_GEN) -lzstd -lm
	$(CC) $(TSAN_FLAGS) -o build-tsan/test_solved tests/test_solved.c \
	  $(LIB_SRC) $(TSAN_GEN) -lzstd -lm
	$(CC) $(TSAN_FLAGS) $(SQLITE_CFLAGS) -o build-tsan/test_server tests/test_server.c \
	  $(SERVER_SRC) build/gen/web_files.c $(LIB_SRC) $(TSAN_GEN) $(SERVER_LIBS) -lzstd -lm
	@fail=0; \
	echo "== build-tsan/test_player"; $(TEST_ENV) build-tsan/test_player || fail=1; \
	echo "== build-tsan/test_egdbz (the compressed tables' caches per thread)"; \
	$(TEST_ENV) build-tsan/test_egdbz || fail=1; \
	echo "== build-tsan/test_solved (the solved tables' builder threads)"; \
	$(TEST_ENV) build-tsan/test_solved threads || fail=1; \
	echo "== build-tsan/test_server (the server's threads and locks)"; \
	$(TEST_ENV) build-tsan/test_server || fail=1; \
	echo "== build-tsan/test_protocol (a ThreadSanitizer engine)"; \
	$(TEST_ENV) MANCALA=build-tsan/mancala build-tsan/test_protocol tests || fail=1; \
	if [ $$fail -ne 0 ]; then echo "make tsan: FAILED"; exit 1; fi

# The learned evaluations (docs/SEARCH.md, "Learned evaluations"): self-play
# data in build/tune (resumable: rerun after an interruption), weights into
# data/eval.  Long (tens of minutes a game on two cores): run it in the
# background with its output in a file.
# Omweso is left out: every learned Omweso evaluation tried so far played
# no better than its hand-set one at equal time (docs/SEARCH.md), so it has
# no weights file; `make tune TUNE_GAME_LIST=omweso` trains one anyway.
TUNE_GAMES ?= 4000
TUNE_GAME_LIST ?= oware sadeqa2 gore
tune: $(PROG)
	mkdir -p build/tune
	for g in $(TUNE_GAME_LIST); do \
	  ./$(PROG) tune $$g all --games $(TUNE_GAMES) --epochs 800 \
	    --data build/tune/$$g.tune --out data/eval/$$g.txt || exit 1; \
	done

# libFuzzer targets (clang): the protocol parser, the record reader, the
# opening-book reader and the JSON API,
# built with the library sources instrumented.  Run briefly in .ci/run:
#   build-fuzz/fuzz_record -max_total_time=20 build-fuzz/corpus-record fuzz/seeds/record
FUZZ_CC    ?= clang
FUZZ_FLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined \
              -fno-sanitize-recover=all -pthread -Iinclude -Isrc \
              -D_DEFAULT_SOURCE -DMC_CHECKS
fuzz: build-fuzz/fuzz_protocol build-fuzz/fuzz_record build-fuzz/fuzz_api \
  build-fuzz/fuzz_book

GEN_SRC    := $(B)/gen/rules_text.c $(B)/gen/egdb_journals.c \
              $(B)/gen/eval_weights.c $(B)/gen/books.c $(B)/gen/catalogs_lib.c

# The JSON API's request handler, fed method, path and body.
build-fuzz/fuzz_api: fuzz/fuzz_api.c $(API_SRC) src/server/store.c src/server/store_account.c $(wildcard src/server/store_pg*.c) src/server/password.c src/server/rating.c src/server/store_rate.c $(LIB_SRC) $(GEN_SRC) $(wildcard include/*.h src/*/*.h)
	mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) $(SQLITE_CFLAGS) $(SODIUM_CFLAGS) -o $@ $< $(API_SRC) \
	  src/server/store.c src/server/store_account.c $(wildcard src/server/store_pg*.c) src/server/password.c src/server/rating.c src/server/store_rate.c \
	  $(LIB_SRC) $(GEN_SRC) -ljansson $(SQLITE_LIBS) $(SODIUM_LIBS) -lzstd -lm

build-fuzz/%: fuzz/%.c $(LIB_SRC) $(GEN_SRC) $(wildcard include/*.h src/*/*.h)
	mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(LIB_SRC) $(GEN_SRC) -lzstd -lm

# ---- the players' languages (docs/TRANSLATING.md) ---------------------------
# po/<domain>/mancala-<domain>.pot: every message of a domain, made by
# xgettext from the marks of src/core/i18n.h (_ P_ C_ N_) and the page's
# (web/i18n.js: t tn); make po-update merges it into every language's .po
# (msgmerge); make check-po (in make check) checks every catalog with
# msgfmt --check and that the .pot files are current; make po-stats prints
# how much of each is translated.
PO_DOMAINS := lib cli web
XGETTEXT   ?= xgettext
XGETTEXT_C := --language=C --from-code=UTF-8 --add-comments=TRANSLATORS: \
              --keyword=_ --keyword=N_ --keyword=P_:1,2 --keyword=C_:1c,2 \
              --package-name=mancala --package-version=$(VERSION) \
              --msgid-bugs-address= --sort-by-file
XGETTEXT_JS := --language=JavaScript --from-code=UTF-8 \
              --add-comments=TRANSLATORS: --keyword=t --keyword=tn:1,2 \
              --keyword=tc:1c,2 --package-name=mancala \
              --package-version=$(VERSION) --sort-by-file
POT_LIB_SRC := $(sort $(LIB_SRC) $(API_SRC) src/server/store.c src/server/password.c \
              src/server/rating.c src/server/server.c)
POT_CLI_SRC := $(sort $(wildcard src/cli/*.c))
POT_WEB_SRC := $(sort $(wildcard web/*.js))
.PHONY: pot po-update check-po po-stats
POT_DIR    ?= po
pot:
	@mkdir -p $(POT_DIR)/lib $(POT_DIR)/cli $(POT_DIR)/web
	$(XGETTEXT) $(XGETTEXT_C) -o $(POT_DIR)/lib/mancala-lib.pot $(POT_LIB_SRC)
	$(XGETTEXT) $(XGETTEXT_C) -o $(POT_DIR)/cli/mancala-cli.pot $(POT_CLI_SRC)
	$(XGETTEXT) $(XGETTEXT_JS) -o $(POT_DIR)/web/mancala-web.pot $(POT_WEB_SRC)
	@for d in $(PO_DOMAINS); do f=$(POT_DIR)/$$d/mancala-$$d.pot; \
	  [ -f $$f ] && sed -i '/^"POT-Creation-Date:/d' $$f; done; true
po-update: pot
	@for d in $(PO_DOMAINS); do for f in po/$$d/*.po; do [ -f "$$f" ] || continue; \
	  msgmerge --quiet --update --backup=none --no-fuzzy-matching "$$f" po/$$d/mancala-$$d.pot \
	  || exit 1; done; done
check-po:
	@$(call run_test,po,sh tests/po.sh)
po-stats:
	@sh tests/po.sh --stats

# The page's catalogs (WEB_GEN above).  en-XA: the .pot's messages as
# their own translations (msgen), each made the pseudo-language's by the
# library's transform (build/pseudo, tools/pseudo.c) under msgfilter.
$(B)/pseudo: tools/pseudo.c $(B)/libmancala.a
	$(CC) $(MC_CFLAGS) $(CFLAGS) -o $@ $< $(B)/libmancala.a $(LDFLAGS) $(LDLIBS)
$(B)/gen/web/lang-%.mo: po/web/%.po
	@mkdir -p $(dir $@)
	$(MSGFMT) --check -o $@ $<
$(B)/gen/web/en-XA.po: po/web/mancala-web.pot $(B)/pseudo
	@mkdir -p $(dir $@)
	sed -e 's/charset=CHARSET/charset=UTF-8/' \
	  -e 's/nplurals=INTEGER; plural=EXPRESSION;/nplurals=2; plural=(n != 1);/' \
	  -e 's/^"Language: \\n"/"Language: en-XA\\n"/' -e '/^#, fuzzy$$/d' $< | \
	  msgen - | msgfilter --keep-header -i - -o $@ ./$(B)/pseudo
$(B)/gen/web/lang-en-XA.mo: $(B)/gen/web/en-XA.po
	$(MSGFMT) --check-format -o $@ $<
web_comma := ,
web_space := $() $()
web_list = $(subst $(web_space),$(web_comma),$(patsubst %,"%",$(1)))
.PHONY: web-langs-force
$(B)/gen/web/langs.json: web-langs-force
	@mkdir -p $(dir $@)
	@printf '{"page": [%s], "howto": [%s]}\n' \
	  '$(call web_list,$(WEB_PO:po/web/%.po=%))' \
	  '$(call web_list,$(patsubst po/howto/%.po,%,$(wildcard po/howto/*.po)))' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

# The page in French and in the pseudo-language (tests/e2e/i18n.mjs), on
# the static site as check-e2e-site.
ifeq ($(SAN),1)
check-e2e-i18n:
	@echo "check-e2e-i18n: not run under SAN=1 (the site's engine is the WebAssembly build)"
else
check-e2e-i18n: site
	@$(call run_test,e2e-i18n,sh tests/e2e/run.sh ./$(PROG) i18n)
endif

# ---- WebAssembly (docs/WASM.md) ----------------------------------------------
# make wasm: the library compiled with Debian's emscripten (tools/deps.sh
# test installs it), with Jansson and zstd compiled from their Debian
# sources (tools/wasm/fetch-sources.sh), into build/wasm:
#   mancala.js       the program for Node (`node build/wasm/mancala.js perft
#                    oware 5`): every command but serve and the full screen,
#                    with threads (Node has SharedArrayBuffer)
#   mancala-web.js   an ES module for pages, workers and bundlers: the rules,
#                    the engine (protocol and UCI dialect), the JSON API of
#                    `mancala serve` in memory (the page's device back end);
#                    one thread (MC_NO_THREADS): a static host cannot give a
#                    page SharedArrayBuffer, so a search runs on the caller's
#                    thread and is always bounded
# make check-wasm: the rules' tests and the protocol's transcripts against
# them.  make site: build/site, the page with no server (docs/WASM.md).
EMCC      ?= emcc
WB        := build/wasm
SITE      := build/site
WASM_SRC_DIR := build/wasm-src
# Debian's emscripten finds its node modules there when node is not Debian's.
EMENV     := NODE_PATH=/usr/share/nodejs
WASM_OPT  ?= -O3
WASM_CFLAGS := -std=c11 $(WARN) -Iinclude -Isrc -D_DEFAULT_SOURCE \
               -I$(WASM_SRC_DIR)/zstd/lib -Itools/wasm -I$(WASM_SRC_DIR)/jansson/src \
               $(WASM_OPT) -MMD -MP
# obj-node: with threads, for Node; obj-web: one thread, for pages.
WASM_NODE_FLAGS := -pthread -DMC_NO_SERVER
WASM_WEB_FLAGS  := -DMC_NO_THREADS
WASM_LIB  := $(LIB_SRC:%.c=%.o) $(GEN_SRC:$(B)/gen/%.c=gen/%.o)
WASM_CLI  := $(patsubst %.c,%.o,$(filter-out src/cli/tui.c src/cli/serve.c,$(CLI_SRC)) \
             src/cli/tui_none.c) gen/catalogs_cli.o
WASM_WEB  := $(API_SRC:%.c=%.o) src/server/store_none.o src/server/password_none.o \
             src/wasm/wasm.o
JANSSON_C := dump error hashtable hashtable_seed load memory pack_unpack strbuffer \
             strconv utf value version
ZSTD_C    := common/debug common/entropy_common common/error_private \
             common/fse_decompress common/pool common/threading common/xxhash \
             common/zstd_common decompress/huf_decompress decompress/zstd_ddict \
             decompress/zstd_decompress decompress/zstd_decompress_block \
             compress/fse_compress compress/hist compress/huf_compress \
             compress/zstd_compress compress/zstd_compress_literals \
             compress/zstd_compress_sequences compress/zstd_compress_superblock \
             compress/zstd_double_fast compress/zstd_fast compress/zstd_lazy \
             compress/zstd_ldm compress/zstd_opt
WASM_NODE_OBJ := $(addprefix $(WB)/obj-node/,$(WASM_CLI) $(WASM_LIB) $(ZSTD_C:%=zstd/%.o))
WASM_WEB_OBJ  := $(addprefix $(WB)/obj-web/,$(WASM_WEB) $(WASM_LIB) $(ZSTD_C:%=zstd/%.o) \
                   $(JANSSON_C:%=jansson/%.o))
WASM_LINK := -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=64MB -sTOTAL_STACK=2MB \
             -sSINGLE_FILE=1 -lm
# Node: the host's files (records, tables) through NODERAWFS; main() on a
# thread of its own so that the protocol's reader and search can both run.
# Four workers made at start (about 0.1 s of each start): with one or two,
# the engine's threads wait for workers made on demand and miss the
# protocol tests' times.
WASM_NODE_LINK := $(WASM_LINK) -pthread -sENVIRONMENT=node -sNODERAWFS=1 \
             -sEXIT_RUNTIME=1 -sPROXY_TO_PTHREAD=1 -sPTHREAD_POOL_SIZE=4 \
             -Wno-pthreads-mem-growth
WASM_WEB_FUNCS := _malloc,_free,_mc_wasm_call
# A plain script (a global createMancala, or CommonJS): pages opened from
# a folder and classic workers load it; the package's mancala-web.mjs is
# the same with an ES export.
WASM_WEB_LINK := $(WASM_LINK) -sENVIRONMENT=web,worker -sMODULARIZE=1 \
             -sEXPORT_NAME=createMancala \
             -sEXPORTED_FUNCTIONS=$(WASM_WEB_FUNCS) \
             -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString,FS,ENV

.PHONY: wasm check-wasm site wasm-check-builds
wasm-check-builds: $(WB)/mancala $(WB)/page-engine $(WB)/test_rules.js \
  $(WB)/pkg/package.json $(SITE)/sw.js
wasm: $(WB)/mancala.js $(WB)/pkg/package.json

# The npm package's folder (js/README.md): the module, its ES face, the
# JavaScript API, the worker, the types.  `npm pack` in it makes the tarball.
JS_FILES := js/mancala-core.js js/mancala.mjs js/engine-worker.js js/mancala.d.ts \
            js/mancala-board.js js/README.md
$(WB)/pkg/package.json: js/package.json.in $(JS_FILES) $(WB)/mancala-web.js
	@mkdir -p $(WB)/pkg
	cp $(JS_FILES) $(WB)/mancala-web.js $(WB)/pkg/
	{ cat $(WB)/mancala-web.js; echo; echo 'export default createMancala;'; } \
	  > $(WB)/pkg/mancala-web.mjs
	sed 's/@VERSION@/$(VERSION)/' js/package.json.in > $@

# One run fetches both (a grouped target: make -j must not start two runs,
# which share one private apt state).
$(WASM_SRC_DIR)/jansson/src/value.c $(WASM_SRC_DIR)/zstd/lib/zstd.h &:
	sh tools/wasm/fetch-sources.sh $(WASM_SRC_DIR)

# One emcc per folder (its files in one call, the objects written in the
# folder's object directory): emcc is a Python program that checks clang
# before each compile, and that start cost more than compiling most of
# our files (make check's WebAssembly builds: 127 s before).  A folder's
# files are compiled again together when one of them or any header changes.
WASM_HDRS := $(wildcard include/*.h src/*/*.h tools/wasm/*.h)
abs_inc = $(patsubst -I%,-I$(CURDIR)/%,$(filter-out -MMD -MP,$(1)))
# wasm_src REL: the source folder of objects in REL (src/egdb/, gen/,
# zstd/common/, jansson/); wasm_flags VARIANT REL: their flags.
wasm_src = $(if $(filter gen/,$(1)),$(B)/gen/,$(if $(filter zstd/%,$(1)),$(WASM_SRC_DIR)/zstd/lib/$(1:zstd/%=%),$(if $(filter jansson/,$(1)),$(WASM_SRC_DIR)/jansson/src/,$(1))))
wasm_flags = $(if $(filter zstd/%,$(2)),-O2 $(if $(filter node,$(1)),-pthread) -DZSTD_DISABLE_ASM,$(if $(filter jansson/,$(2)),$(call abs_inc,-O2 -Itools/wasm) -DHAVE_CONFIG_H,$(call abs_inc,$(WASM_CFLAGS)) $(WASM_$(if $(filter node,$(1)),NODE,WEB)_FLAGS)))
wasm_srcs = $(patsubst %.o,$(call wasm_src,$(1))%.c,$(notdir $(2)))
# wasm_batch VARIANT REL OBJECTS: the rule for the objects of REL (the
# fetched libraries' once they are there).
define wasm_batch
$(WB)/obj-$(1)/$(2).batch: $(if $(filter zstd/% jansson/,$(2)),,$(call wasm_srcs,$(2),$(3)) $(WASM_HDRS)) \
  | $(WASM_SRC_DIR)/zstd/lib/zstd.h $(WASM_SRC_DIR)/jansson/src/value.c
	@mkdir -p $$(@D)
	@echo "emcc $(2)*.c ($(1): $(words $(3)) files)"
	@cd $$(@D) && $$(EMENV) $$(EMCC) $(call wasm_flags,$(1),$(2)) -c $(abspath $(call wasm_srcs,$(2),$(3)))
	@touch $$@
$(addprefix $(WB)/obj-$(1)/,$(3)): $(WB)/obj-$(1)/$(2).batch ;
endef
WASM_NODE_REL := $(WASM_CLI) $(WASM_LIB) $(ZSTD_C:%=zstd/%.o)
WASM_WEB_REL  := $(WASM_WEB) $(WASM_LIB) $(ZSTD_C:%=zstd/%.o) $(JANSSON_C:%=jansson/%.o)
$(foreach d,$(sort $(dir $(WASM_NODE_REL))),$(eval $(call wasm_batch,node,$(d),$(filter $(d)%,$(filter-out $(d)%/%,$(WASM_NODE_REL))))))
$(foreach d,$(sort $(dir $(WASM_WEB_REL))),$(eval $(call wasm_batch,web,$(d),$(filter $(d)%,$(filter-out $(d)%/%,$(WASM_WEB_REL))))))

$(WB)/mancala.js: $(WASM_NODE_OBJ)
	@echo "emcc -o $@"
	@$(EMENV) $(EMCC) $(WASM_OPT) -o $@ $^ $(WASM_NODE_LINK)

$(WB)/mancala-web.js: $(WASM_WEB_OBJ) Makefile
	@echo "emcc -o $@"
	@$(EMENV) $(EMCC) $(WASM_OPT) -o $@ $(WASM_WEB_OBJ) $(WASM_WEB_LINK)

# The program under the name the tests run ($MANCALA): node with the
# WebAssembly build.
$(WB)/mancala: $(WB)/mancala.js
	printf '#!/bin/sh\nexec node "$$(dirname "$$0")/mancala.js" "$$@"\n' > $@
	chmod +x $@

# The engine of the page's module (one thread, as the worker drives it)
# under that name, for the same transcripts.
$(WB)/page-engine: tests/wasm/web-engine.mjs
	mkdir -p $(WB)
	printf '#!/bin/sh\nexec node tests/wasm/web-engine.mjs "$$@"\n' > $@
	chmod +x $@

# The rules' data tests (tests/rules, every numbered rule and the worked
# examples) compiled to WebAssembly as they are, run by node.
$(WB)/test_rules.js: tests/test_rules.c tests/check.h $(filter-out $(WB)/obj-node/src/cli/%,$(WASM_NODE_OBJ))
	@echo "emcc -o $@"
	@$(EMENV) $(EMCC) $(WASM_CFLAGS) $(WASM_NODE_FLAGS) -Itests -o $@ $(filter %.c %.o,$^) $(WASM_NODE_LINK)

# make check-wasm: the WebAssembly build against the native tests: the
# rules' data, the protocol's and the UCI dialect's transcripts, the CLI's
# scriptable commands (tests/cli.sh), and the bench signature, node for
# node the native one's (tests/wasm/check.sh).
# In make check (not under SAN=1: the WebAssembly build has no sanitizers,
# and the native one under test is the unsanitized program's twin).
check-wasm-all:
ifeq ($(SAN),1)
	@echo "check-wasm, check-e2e-site: not run under SAN=1 (make check-wasm, make check-e2e-site run them)"
else
	@$(MAKE) --no-print-directory check-wasm
endif

check-wasm: $(WASM_PARTS)
$(WASM_PARTS): $(WB)/mancala $(WB)/page-engine $(WB)/test_rules.js $(WB)/pkg/package.json \
  $(PROG) $(B)/tests/test_protocol
check-wasm-rules:
	@$(call run_test,wasm-rules,node $(WB)/test_rules.js tests)
check-wasm-protocol:
	@$(call run_test,wasm-protocol,env MANCALA=$(WB)/mancala $(B)/tests/test_protocol tests)
check-wasm-page-protocol:
	@$(call run_test,wasm-page-protocol,env MANCALA=$(WB)/page-engine $(B)/tests/test_protocol tests)
check-wasm-cli:
	@$(call run_test,wasm-cli,env MANCALA=$(WB)/mancala MANCALA_WASM=1 sh tests/cli.sh)
check-wasm-js:
	@$(call run_test,wasm-js,sh tests/wasm/check.sh ./$(PROG) $(WB))

# make site: build/site, the board as static files that need no server
# (docs/WASM.md): the page of web/, the engine's worker and module, a web
# app manifest and a service worker that keeps every file for offline use.
# Serve the folder from any static host (or open index.html from it).
SITE_FILES := $(WEB_FILES) js/engine-worker.js js/mancala-core.js js/mancala-board.js \
              $(WB)/mancala-web.js site/manifest.webmanifest site/icon-192.png \
              site/icon-512.png site/embed.html
site: $(SITE)/sw.js

# Oware's small endgame tables (layers 0-$(TABLE_SEEDS), the default rules),
# compressed, for the page's engine: it plays endings perfectly offline.
SITE_EGDB := build/site-egdb
$(SITE_EGDB)/egdb.json: $(PROG)
	rm -rf $(SITE_EGDB) && mkdir -p $(SITE_EGDB)
	MANCALA_EGDB_DIR=none ./$(PROG) egdb build oware --seeds $(TABLE_SEEDS) \
	  --dir $(SITE_EGDB) --quiet
	./$(PROG) egdb compress oware --seeds $(TABLE_SEEDS) --dir $(SITE_EGDB)
	(cd $(SITE_EGDB) && ls *.egdbz | sed 's/.*/"&"/' | paste -sd, - | \
	  sed 's/^/[/;s/$$/]/') > $@

$(SITE)/sw.js: site/sw.js.in $(SITE_FILES) $(SITE_EGDB)/egdb.json $(HOWTO_L10N)
	rm -rf $(SITE) && mkdir -p $(SITE)
	cp $(SITE_FILES) $(SITE_EGDB)/egdb.json $(SITE_EGDB)/*.egdbz $(SITE)/
	for l in $(HOWTO_LANGS); do mkdir -p $(SITE)/$$l && \
	  cp $(B)/gen/web/$$l/howto-*.html $(SITE)/$$l/ || exit 1; done
	sed -i 's|<link rel="icon"|<link rel="manifest" href="manifest.webmanifest">\n<meta name="theme-color" content="#a86b35">\n<link rel="icon"|' \
	  $(SITE)/index.html
	list=$$(cd $(SITE) && find . -type f | sed 's|^\./||' | LC_ALL=C sort); \
	files=$$(echo "$$list" | sed 's/.*/"&"/' | tr '\n' ',' | sed 's/,$$//'); \
	hash=$$(cd $(SITE) && cat $$list | cksum | cut -d' ' -f1); \
	sed -e "s|@FILES@|\"./\",$$files|" -e "s|@HASH@|$$hash|" site/sw.js.in > $@

# The README's board pictures (and the static site's), taken by the browser tests.
screenshots: $(PROG) site
	MANCALA_SHOTS=docs/img sh tests/e2e/run.sh ./$(PROG)
	MANCALA_SHOTS=docs/img sh tests/e2e/run.sh ./$(PROG) site

bench: $(PROG) bench-site
	sh bench/run.sh ./$(PROG)

# The computer's answer in the static site's page, every level of every
# game, against its set time (tests/e2e/site.mjs; docs/WASM.md).
bench-site: site
	SITE_ONLY=1 MANCALA_SITE_TIMING=1 MANCALA=./$(PROG) node tests/e2e/site.mjs $(SITE)

# The small default set of Oware endgame tables, the one the program
# builds on first use (src/cli/tables.c, FIRST_SEEDS: layers 0-10, about
# 6 s), of both presets, for make install to ship in $(SHAREDIR)/egdb.
TABLE_SEEDS ?= 10
tables: $(PROG)
	./$(PROG) egdb build oware --seeds $(TABLE_SEEDS) --dir $(B)/egdb --quiet
	./$(PROG) egdb build oware:awari --seeds $(TABLE_SEEDS) --dir $(B)/egdb --quiet

# The library the installed Python module loads (its _installed.py): the
# installed file by default; Debian's python3-mancala (debian/rules) names
# the soname, libmancala.so.1, which the dynamic loader finds in the
# multiarch directory, so that the module is the same on every
# architecture.
PYLIB ?= $(LIBDIR)/libmancala.so.$(VERSION)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR) \
	  $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(MANDIR)/man6 $(DESTDIR)$(PCDIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/mancala
ifeq ($(MPI),1)
	install -m 755 $(MPI_PROG) $(DESTDIR)$(BINDIR)/mancala-mpi
	install -m 644 man/mancala-mpi.1 $(DESTDIR)$(MANDIR)/man1/mancala-mpi.1
endif
	install -m 644 $(B)/libmancala.a $(DESTDIR)$(LIBDIR)/libmancala.a
	install -m 755 $(B)/libmancala.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libmancala.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libmancala.so.$(SOVER)
	ln -sf libmancala.so.$(SOVER) $(DESTDIR)$(LIBDIR)/libmancala.so
	install -m 644 include/mancala.h include/mancala_record.h \
	  include/mancala_protocol.h include/mancala_egdb.h include/mancala_ml.h \
	  $(DESTDIR)$(INCDIR)/
	install -m 644 man/mancala.1 $(DESTDIR)$(MANDIR)/man1/mancala.1
	install -m 644 man/mancala-record.5 $(DESTDIR)$(MANDIR)/man5/mancala-record.5
	install -m 644 man/mancala-engine.6 $(DESTDIR)$(MANDIR)/man6/mancala-engine.6
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 $(wildcard web/howto*) $(DESTDIR)$(DOCDIR)/
	for l in $(HOWTO_LANGS); do install -d $(DESTDIR)$(DOCDIR)/$$l && \
	  install -m 644 $(B)/gen/web/$$l/howto-*.html $(DESTDIR)$(DOCDIR)/$$l/ || exit 1; done
	if [ -n "$(SITE)" ] && [ -f "$(SITE)/sw.js" ]; then \
	  install -d $(DESTDIR)$(SHAREDIR)/site && \
	  install -m 644 $$(find $(SITE) -maxdepth 1 -type f) $(DESTDIR)$(SHAREDIR)/site/ && \
	  for l in $(HOWTO_LANGS); do install -d $(DESTDIR)$(SHAREDIR)/site/$$l && \
	  install -m 644 $(SITE)/$$l/* $(DESTDIR)$(SHAREDIR)/site/$$l/ || exit 1; done; fi
	install -d $(DESTDIR)$(SHAREDIR)/egdb
	if [ -n "$$(ls $(B)/egdb/*.egdb 2>/dev/null)" ]; then \
	  install -m 644 $(B)/egdb/*.egdb $(DESTDIR)$(SHAREDIR)/egdb/; fi
	install -d $(DESTDIR)$(PYDIR)/mancala
	install -m 644 python/mancala/*.py $(DESTDIR)$(PYDIR)/mancala/
	echo 'LIBRARY = "$(PYLIB)"' > $(DESTDIR)$(PYDIR)/mancala/_installed.py
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	  -e 's|@INCDIR@|$(INCDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	  mancala.pc.in > $(DESTDIR)$(PCDIR)/mancala.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/mancala $(DESTDIR)$(BINDIR)/mancala-mpi \
	  $(DESTDIR)$(MANDIR)/man1/mancala-mpi.1 $(DESTDIR)$(LIBDIR)/libmancala.a \
	  $(DESTDIR)$(LIBDIR)/libmancala.so* $(DESTDIR)$(INCDIR)/mancala.h \
	  $(DESTDIR)$(INCDIR)/mancala_record.h $(DESTDIR)$(INCDIR)/mancala_protocol.h \
	  $(DESTDIR)$(INCDIR)/mancala_egdb.h $(DESTDIR)$(INCDIR)/mancala_ml.h \
	  $(DESTDIR)$(MANDIR)/man1/mancala.1 $(DESTDIR)$(MANDIR)/man5/mancala-record.5 \
	  $(DESTDIR)$(MANDIR)/man6/mancala-engine.6 $(DESTDIR)$(PCDIR)/mancala.pc
	rm -f $(DESTDIR)$(SHAREDIR)/egdb/oware-*.egdb $(DESTDIR)$(DOCDIR)/howto*
	rm -rf $(addprefix $(DESTDIR)$(DOCDIR)/,$(HOWTO_LANGS))
	rm -rf $(DESTDIR)$(SHAREDIR)/site
	rm -rf $(DESTDIR)$(PYDIR)/mancala
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null
	-rmdir $(DESTDIR)$(SHAREDIR)/egdb $(DESTDIR)$(SHAREDIR) 2>/dev/null

# The Debian packages (debian/, debian/README.Debian): mancala,
# libmancala1, libmancala-dev, python3-mancala, mancala-mpi, built by
# dpkg-buildpackage in a copy of the tree's files (git's, with new ones
# not yet added) under build/deb, so that its `make clean` and its PREFIX
# touch nothing here; the .deb files are left in build/deb.
# DEB_BUILD_OPTIONS=nocheck skips the package build's few fast tests.
# Needs debhelper, dh-python and the build dependencies of debian/control.
DEB_DIR := build/deb
DEB_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
.PHONY: deb
deb:
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/mancala-$(VERSION)
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  git ls-files -z --cached --others --exclude-standard | \
	    tar --null -T - --ignore-failed-read -cf - 2>/dev/null; \
	else \
	  tar --exclude='./build*' --exclude=./mancala --exclude=./mancala-mpi -cf - .; \
	fi | tar -xf - -C $(DEB_DIR)/mancala-$(VERSION)
	cd $(DEB_DIR)/mancala-$(VERSION) && dpkg-buildpackage -us -uc -b -j$(DEB_JOBS)
	@ls -l $(DEB_DIR)/*.deb

clean:
	rm -rf build build-san build-fuzz build-tsan mancala mancala-mpi
