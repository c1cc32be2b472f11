# camstamp: two commands on a fresh Debian 12 with the Swift toolchain: `make demo`, `make test`.
# Each installs the Debian packages it needs (only those missing), builds, then runs.

SWIFT      ?= swift
BUILD_DIR  ?= .build
CONFIG     ?= debug
CAMSTAMP    = $(BUILD_DIR)/$(CONFIG)/camstamp
DEMO_DIR   ?= demo-output

# Everything the build, the tests and the shipped presets need, by Debian package name.
DEBS = pkg-config \
       libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools \
       gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
       gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-x python3 \
       libcairo2-dev libpango1.0-dev librsvg2-dev libfontconfig-dev fontconfig \
       fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
       libgexiv2-dev libjpeg62-turbo-dev libimage-exiftool-perl libjpeg-turbo-progs \
       libturbojpeg0-dev imagemagick libvips-tools
# The clip tests make their clips and check them with ffmpeg and ffprobe.
DEBS += ffmpeg

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release demo test bench clean

all: build

# install-missing LABEL, PACKAGES: apt-get installs those of PACKAGES that are not installed yet,
# so a second run touches nothing.
define install-missing
	@missing=$$(for p in $(2); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; \
	  done); \
	if [ -n "$$missing" ]; then \
	  echo "$(1): installing Debian packages:" $$missing; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	else \
	  echo "$(1): all Debian packages present"; \
	fi
endef

deps:
	$(call install-missing,camstamp,$(DEBS))

build: deps
	$(SWIFT) build -c $(CONFIG)

release:
	$(MAKE) build CONFIG=release

# The three jobs on the webcam, or on the built-in test camera when there is none.
demo: build
	@mkdir -p $(DEMO_DIR)/photos $(DEMO_DIR)/marked
	@if ls /dev/video* >/dev/null 2>&1; then src=auto; else src=test; \
	  echo "camstamp: no webcam found, using the built-in test camera"; fi; \
	photo=$$($(CAMSTAMP) shoot --source $$src --preset timestamp --preset credit --var author="camstamp demo" -o $(DEMO_DIR)/) && \
	echo "camstamp: demo photo: $$photo" && \
	python3 scripts/make-demo-photos.py $(DEMO_DIR)/photos && \
	$(CAMSTAMP) batch $(DEMO_DIR)/photos -o $(DEMO_DIR)/marked --preset credit --var author="camstamp demo" --overwrite && \
	echo "camstamp: demo batch: $(CURDIR)/$(DEMO_DIR)/marked (from generated photos in mixed orientations)" && \
	$(CAMSTAMP) stream --source $$src --preset logo --preset timestamp --to $(DEMO_DIR)/clip.mp4 --duration 3 --overwrite && \
	echo "camstamp: demo clip: $(CURDIR)/$(DEMO_DIR)/clip.mp4 (3 s, H.264)"

test: build
	G_DEBUG=fatal-criticals CAMSTAMP_BIN=$(CURDIR)/$(CAMSTAMP) $(SWIFT) test -c $(CONFIG)

# `make bench`: camstamp against ImageMagick, libvips, ffmpeg, gst-launch and djpeg|cjpeg (bench/README.md).
BENCH_DEBS = imagemagick libvips-tools ffmpeg libjpeg-turbo-progs libimage-exiftool-perl time

.PHONY: bench-deps

# The build's packages (deps), then the peer tools; only what is missing is installed.
bench-deps: deps
	$(call install-missing,camstamp bench,$(BENCH_DEBS))

# Release build, then bench/run.sh: Markdown tables on stdout and in bench-output/results.md.
bench: bench-deps
	$(SWIFT) build -c release
	@bin=$$($(SWIFT) build -c release --show-bin-path) && \
	  CAMSTAMP=$$bin/camstamp CAMSTAMP_BENCH=$$bin/camstamp-bench bench/run.sh

clean:
	rm -rf $(BUILD_DIR) $(DEMO_DIR)
