# The two things a newcomer needs: `make run` and `make test`.
SWIFT ?= swift
CONFIG ?=

.PHONY: run test build deps release install uninstall deb clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

## The release binary carries the Swift runtime inside it, linked by lld with packed relative
## relocations (as shared libraries their relocations and initializers stay resident for a
## bridge that uses little of them), without debug info (symbols stay, for backtraces), every
## function in a section of its own, and the functions the listening bridge runs placed first,
## together, in the order dist/link-order.txt gives (scripts/link-order writes it from a
## profile): a fault maps the page's cached neighbours with it (64 KiB by default), so code
## kept together is code kept small.
## BENCHMARKS.md, "Where the memory goes".
RELEASE_FLAGS ?= --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --strip-debug \
	-Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/dist/link-order.txt -Xlinker --no-warn-symbol-ordering

release: deps
	@# The build does not know the order is an input of the link: a newer order relinks.
	@if [ dist/link-order.txt -nt .build/release/gesture-bridge ]; then rm -f .build/release/gesture-bridge; fi
	$(SWIFT) build -c release --product gesture-bridge $(RELEASE_FLAGS)

## Sets up, builds and runs the bridge in the current X session (the built-in default config,
## or CONFIG=path/to/config.yaml).
run: release
	.build/release/gesture-bridge run $(if $(CONFIG),--config $(CONFIG),)

## Sets up and runs every test: unit tests, and end-to-end tests on a real headless Xorg
## (those need root; without it they are skipped, and GESTUREBRIDGE_REQUIRE_XORG=1 makes a
## skip a failure). The release binary is built first: the Debian package is made from it.
test: deps release
	$(SWIFT) build --build-tests
	$(SWIFT) test

## Installs the binary, a systemd user unit, an autostart entry, the man page and shell
## completions into PREFIX (default ~/.local); `make uninstall` removes them.
PREFIX ?= $(HOME)/.local
install: release
	scripts/install --prefix $(PREFIX) --binary .build/release/gesture-bridge

uninstall:
	scripts/uninstall --prefix $(PREFIX)

## Builds a Debian package (gesture-bridge_VERSION_ARCH.deb) of the release binary.
deb: release
	scripts/deb --binary .build/release/gesture-bridge

clean:
	rm -rf .build
