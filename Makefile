# duet: build, install, test and package.
#
#   make install              every dependency (tools/install-deps build), the
#                             release build, then duet, its man page and its
#                             bash/zsh/fish completions under PREFIX
#   make check                what the tests need (tools/install-deps test), the
#                             whole test suite, `make install` into .build/check-prefix,
#                             then tools/duet verify --strict: what CI runs (.ci/run)
#   make                      the release build (tools/build-release)
#   make deps, make test-deps only the dependencies of install, of check
#   make uninstall PREFIX=DIR removes exactly what install wrote
#   make dist                 a tarball for this OS and CPU under .build/dist/
#
# PREFIX is /usr/local for root, $HOME/.local for anyone else (no sudo needed
# to install; put $HOME/.local/bin on PATH). Installing packages uses apt-get
# directly as root and through sudo otherwise (brew on macOS).
# BINARY=PATH installs an already-built duet instead of building one, with no
# dependency step (the test suite installs the debug binary this way, so it
# stays fast). DESTDIR is prepended to every installed path, for packagers.
# VERIFY_ARGS adds arguments to check's tools/duet verify --strict (CI: --junit FILE).

PREFIX ?= $(if $(filter 0,$(shell id -u)),/usr/local,$(HOME)/.local)
VERIFY_ARGS ?=
DESTDIR ?=
BINARY ?=
# install -s: the static Linux binary drops from about 80 MB to 60 MB without its symbols.
STRIP ?= -s

BINDIR := $(DESTDIR)$(PREFIX)/bin
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
# Each completion where its shell looks for this PREFIX (tools/completion-folders
# says which folder and why: Debian's fish searches nothing under /usr/local).
# Worked out once, on first use: only install, uninstall and dist ask the shells.
COMPLETION_FOLDERS = $(eval COMPLETION_FOLDERS := $$(shell tools/completion-folders "$$(PREFIX)" "$$(DESTDIR)"))$(COMPLETION_FOLDERS)
BASHDIR = $(DESTDIR)$(word 2,$(COMPLETION_FOLDERS))
ZSHDIR = $(DESTDIR)$(word 4,$(COMPLETION_FOLDERS))
FISHDIR = $(DESTDIR)$(word 6,$(COMPLETION_FOLDERS))

VERSION := $(shell sed -n 's/^let duetVersion = "\(.*\)"/\1/p' Sources/DuetApp/Call/Version.swift)
OS := $(shell uname -s | tr A-Z a-z)
ARCH := $(shell uname -m)

.PHONY: all deps test-deps build install uninstall check dist clean-dist

all: build

deps:
	@tools/install-deps build

test-deps:
	@tools/install-deps test

# tools/build-release prints the binary's path as its last line.
build: deps
	@tools/build-release > .build-release-path.tmp || { rm -f .build-release-path.tmp; exit 1; }
	@mkdir -p .build && mv .build-release-path.tmp .build/release-path

# The binary install copies: BINARY, or what `build` made.
SOURCE_BINARY = $(if $(BINARY),$(BINARY),$(shell cat .build/release-path))

install: $(if $(BINARY),,build)
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 $(STRIP) "$(SOURCE_BINARY)" "$(BINDIR)/duet"
	"$(BINDIR)/duet" man > "$(MANDIR)/duet.1"
	"$(BINDIR)/duet" completion bash > "$(BASHDIR)/duet"
	"$(BINDIR)/duet" completion zsh > "$(ZSHDIR)/_duet"
	"$(BINDIR)/duet" completion fish > "$(FISHDIR)/duet.fish"
	@$(if $(DESTDIR),true,tools/completion-folders --notes "$(PREFIX)" >/dev/null)
	@"$(BINDIR)/duet" --version

# The whole suite with the test tools found (.build/venv/bin first on PATH),
# the README's install command into a prefix of its own, then duet verifying
# this repository's lanes with the binary that install built.
CHECK_PREFIX := $(CURDIR)/.build/check-prefix
check: test-deps
	swift build --build-tests
	PATH="$(CURDIR)/.build/venv/bin:$$PATH" swift test --skip-build
	rm -rf "$(CHECK_PREFIX)"
	$(MAKE) --no-print-directory install PREFIX="$(CHECK_PREFIX)"
	tools/duet verify --strict $(VERIFY_ARGS)

uninstall:
	rm -f "$(BINDIR)/duet" "$(MANDIR)/duet.1" "$(BASHDIR)/duet" "$(ZSHDIR)/_duet" "$(FISHDIR)/duet.fish"

# duet-VERSION-OS-ARCH.tar.gz: bin/duet, share/man/man1/duet.1 and the completions,
# laid out as under PREFIX, so `tar -xzf ... -C /usr/local --strip-components 1` installs it.
DIST_NAME := duet-$(VERSION)-$(OS)-$(ARCH)
dist: $(if $(BINARY),,build)
	rm -rf ".build/dist/$(DIST_NAME)"
	$(MAKE) --no-print-directory install BINARY="$(SOURCE_BINARY)" PREFIX= DESTDIR="$(CURDIR)/.build/dist/$(DIST_NAME)"
	tar -czf ".build/dist/$(DIST_NAME).tar.gz" -C .build/dist "$(DIST_NAME)"
	@echo ".build/dist/$(DIST_NAME).tar.gz"
