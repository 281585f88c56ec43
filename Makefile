# The two commands of the README: `make demo` and `make check`.
BUILD ?= build
BUILD_TYPE ?= RelWithDebInfo

.PHONY: all deps configure build demo check litmus clean

all: build

deps:
	@sh scripts/install-deps.sh

configure: deps
	@test -f $(BUILD)/build.ninja || \
	  cmake -G Ninja -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

build: configure
	@ninja -C $(BUILD)

demo: build
	@sh scripts/demo.sh $(BUILD)

check: build
	@ctest --test-dir $(BUILD) --output-on-failure

litmus: build
	@ninja -C $(BUILD) litmus-long

clean:
	rm -rf $(BUILD)
