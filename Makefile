# The two things a newcomer needs: `make run` and `make test`.
SWIFT ?= swift
CONFIG ?=

.PHONY: run test build deps test-deps deb-deps release install uninstall deb clean

## What building and running need; the tests' X servers, drivers and sound servers come with
## `make test` only (scripts/install-deps --help).
deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --tests

deb-deps:
	@scripts/install-deps --deb

build: deps
	$(SWIFT) build

## The release binary carries the Swift runtime inside it (--static-swift-stdlib): a user
## needs no toolchain installed, and only the runtime's pages the bridge uses are resident,
## where the shared libraries' relocations and initializers dirty pages of their own in every
## process. The C++ library the runtime calls comes in the same way, from its static archive
## (dist/static-libstdc++ is searched first): the shared libstdc++'s relocated data and
## initializers would be private dirty pages of the bridge's. lld packs the relative
## relocations (-z pack-relative-relocs; the system's default linker, gold, cannot): the table
## the loader reads at start-up is a small fraction of the plain one, less memory for each
## bridge. No debug info (--strip-debug; the symbols stay, for backtraces): a smaller binary
## on disk. BENCHMARKS.md, "Memory".
RELEASE_FLAGS ?= --static-swift-stdlib -Xswiftc -L$(CURDIR)/dist/static-libstdc++ \
	-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --strip-debug

release: deps
	$(SWIFT) build -c release --product gesture-bridge $(RELEASE_FLAGS)

## Sets up, builds and runs the bridge in the current X session (the built-in default config,
## or CONFIG=path/to/config.yaml).
run: release
	.build/release/gesture-bridge run $(if $(CONFIG),--config $(CONFIG),)

## Sets up and runs every test: unit tests, and end-to-end tests on a real headless Xorg
## (those need root; without it they are skipped, and GESTUREBRIDGE_REQUIRE_XORG=1 makes a
## skip a failure). The release binary is built first: the Debian package is made from it.
## The live real-press tests drive force curves in real time and judge their own stimulus to
## the millisecond (StimulusFidelity): they run on their own, after the rest, so the other
## suites' load does not distort what they inject.
## The real-driver tier (wacom, evdev, libinput on emulated evdev nodes) runs apart too.
LIVE_TESTS = RealPressTests
DRIVER_TESTS = RealDrivers
test: test-deps release
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip $(LIVE_TESTS) --skip $(DRIVER_TESTS)
	$(SWIFT) test --skip-build --filter $(DRIVER_TESTS)
	$(SWIFT) test --skip-build --filter $(LIVE_TESTS)

## Installs the binary, a systemd user unit, an autostart entry, the man page and shell
## completions into PREFIX (default ~/.local); `make uninstall` removes them.
PREFIX ?= $(HOME)/.local
install: release
	scripts/install --prefix $(PREFIX) --binary .build/release/gesture-bridge

uninstall:
	scripts/uninstall --prefix $(PREFIX)

## Builds a Debian package of the release binary: .build/deb/gesture-bridge_VERSION_ARCH.deb.
deb: deb-deps release
	scripts/deb --binary .build/release/gesture-bridge --output .build/deb

clean:
	rm -rf .build .build-manual
