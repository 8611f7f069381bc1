# Lectern: two commands set everything up on a fresh Debian 12 machine that
# has the Swift toolchain (see README.md):
#
#   make run    install missing system packages, build (release), start lecternd
#   make test   install missing system packages, build, run every test
#
# Swift must be on PATH, or at /opt/swift/usr/bin (where Lectern's machines have it).

SHELL := /bin/bash
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 7878
# Extra flags for lecternd, e.g. make run ARGS='--log-level debug'
ARGS ?=

.PHONY: run test build release deps clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product lecternd

run: release
	exec $$($(SWIFT) build -c release --show-bin-path)/lecternd --host $(HOST) --port $(PORT) $(ARGS)

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	$(SWIFT) package clean
