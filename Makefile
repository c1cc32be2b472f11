# camstamp: two commands on a fresh Debian 12 with the Swift toolchain: `make demo`, `make test`.
# Each installs the Debian packages it needs (only those missing), builds, then runs.

SWIFT      ?= swift
BUILD_DIR  ?= .build
CONFIG     ?= debug
CAMSTAMP    = $(BUILD_DIR)/$(CONFIG)/camstamp
DEMO_DIR   ?= demo-output

# Everything the build, the tests and the shipped presets need, by Debian package name
# (the live tests start their own nginx-rtmp, srt-live-transmit and ffmpeg viewers on 127.0.0.1).
DEBS = pkg-config \
       libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools \
       gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad \
       gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-x python3 \
       libcairo2-dev libpango1.0-dev librsvg2-dev libfontconfig-dev fontconfig \
       fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \
       libgexiv2-dev libjpeg62-turbo-dev libimage-exiftool-perl libjpeg-turbo-progs \
       libgeonames-dev libgeonames0 libgeonames-common gpsd gpsd-tools gpsd-clients glib-networking \
       libturbojpeg0-dev imagemagick libvips-tools \
       zsh fish \
       libsoup-3.0-dev curl xvfb xdotool chromium chromium-driver python3-selenium python3-pil \
       libheif-dev libheif-examples libtiff-dev libwebp-dev webp \
       libgstrtspserver-1.0-dev gstreamer1.0-rtsp \
       libgstreamer-plugins-bad1.0-dev gstreamer1.0-nice nginx libnginx-mod-rtmp srt-tools ffmpeg \
       pulseaudio pulseaudio-utils gstreamer1.0-alsa strace libx264-dev zlib1g-dev file python3-venv \
       openssl libssl-dev unzip python3-pip libqrencode-dev zbar-tools kmod

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build release demo test check check-tracked bench clean install install-build install-files \
        uninstall deb deb-check deb-lint

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

# `make upgrade-deps`: bring the installed packages to what a fresh machine gets today (Debian's
# point releases change tools' behaviour; a green run on older packages proves nothing).
.PHONY: upgrade-deps
upgrade-deps: deps
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -q
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --only-upgrade --no-install-recommends \
	  $(DEBS) $(shell dpkg-query -W -f='$${Status} $${Package}\n' $(STRESS_DEBS) 2>/dev/null | \
	    awk '/install ok installed/ {print $$4}')
	@dpkg-query -W imagemagick libheif-examples ffmpeg gstreamer1.0-plugins-base

# Content Credentials: c2pa-rs' C library (libc2pa_c.so, MIT/Apache-2.0) as PyPI's c2pa-python
# wheel ships it, fetched only when missing, checked against its pinned checksum, put where the
# binary looks for it (../c2pa/ beside .build/CONFIG/camstamp; PREFIX/lib/camstamp once installed).
# camstamp opens it at the first --sign or verify (Sources/Credentials), so it builds without it.
# The tests' referee is the same wheel's Python package (python-deps).
C2PA_VERSION = 0.38.1
C2PA_WHEEL   = c2pa_python-$(C2PA_VERSION)-py3-none-manylinux_2_28_x86_64.whl
C2PA_SHA256  = 0885fc72b7741b2af91305d1768618c827d802fa8963cd11f2fe2d00500651d0
C2PA_DIR     = $(BUILD_DIR)/c2pa
C2PA_LIB    ?= $(C2PA_DIR)/libc2pa_c.so

$(C2PA_DIR)/$(C2PA_WHEEL):
	@mkdir -p $(C2PA_DIR)
	python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
	  --python-version 3.11 -d $(C2PA_DIR) c2pa-python==$(C2PA_VERSION)
	echo "$(C2PA_SHA256)  $@" | sha256sum -c --quiet || { rm -f $@; exit 1; }

$(C2PA_LIB): $(C2PA_DIR)/$(C2PA_WHEEL)
	unzip -p $< c2pa/libs/libc2pa_c.so > $@.part && chmod 644 $@.part && mv $@.part $@

.PHONY: c2pa
c2pa: $(C2PA_LIB)

build: deps $(C2PA_LIB)
	$(SWIFT) build -c $(CONFIG)

# The tests' Python referees, pinned, in a venv of their own (Debian's python3 is externally
# managed); the tests find it at $(PYTHON_ENV)/bin/python3 (or CAMSTAMP_PYTHON). invisible-watermark
# judges the invisible mark: installed --no-deps, since its other methods pull in torch and
# onnxruntime, while dwtDct needs only numpy, PyWavelets and OpenCV (and the tests load its
# maxDct.py by path: the package's __init__ imports torch). c2pa-python, the Content Credentials'
# referee, from the wheel make fetched and checked (C2PA_WHEEL), with its three dependencies.
# aiortc, the WHIP endpoint of the tests (Tests/TestSupport/Scripts/whip_endpoint.py): a WebRTC
# stack nobody here wrote, with its dependencies pinned (its pyOpenSSL needs cryptography 49+).
# Installed only when the list changed.
PYTHON_ENV      = $(BUILD_DIR)/python
PYTHON_PACKAGES = numpy==2.2.6 PyWavelets==1.8.0 opencv-python-headless==4.12.0.88 \
                  toml==0.10.2 cryptography==50.0.2 requests==2.34.2 \
                  aiortc==1.16.0 aioice==0.13.0 av==18.1.0 pylibsrtp==1.0.0 pyee==13.0.1 \
                  pyOpenSSL==26.4.0 google-crc32c==1.9.0 dnspython==2.9.2 ifaddr==0.2.0
PYTHON_NO_DEPS  = invisible-watermark==0.2.0 $(C2PA_DIR)/$(C2PA_WHEEL)
PYTHON_STAMP    = $(PYTHON_ENV)/camstamp-packages.txt
.PHONY: python-deps

python-deps: deps $(C2PA_LIB)
	@want="$(PYTHON_PACKAGES) --no-deps $(PYTHON_NO_DEPS)"; \
	if [ "$$(cat $(PYTHON_STAMP) 2>/dev/null)" = "$$want" ]; then \
	  echo "camstamp: the tests' Python packages are present"; \
	else \
	  echo "camstamp: installing the tests' Python packages into $(PYTHON_ENV): $$want"; \
	  /usr/bin/python3 -m venv $(PYTHON_ENV) && \
	  $(PYTHON_ENV)/bin/pip install -q $(PYTHON_PACKAGES) && \
	  $(PYTHON_ENV)/bin/pip install -q --no-deps $(PYTHON_NO_DEPS) && \
	  echo "$$want" > $(PYTHON_STAMP); \
	fi

release:
	$(MAKE) build CONFIG=release

# The four jobs on the webcam, or on the built-in test camera when there is none.
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
	echo "camstamp: demo clip: $(CURDIR)/$(DEMO_DIR)/clip.mp4 (3 s, H.264)" && \
	scripts/camera-demo.sh $(CAMSTAMP) $$src $(DEMO_DIR)/camera

# No media outside Tests/, docs/images/ and presets/logos/, no generated files: a second, cheap
# look at what .gitignore should have kept out (scripts/check-tracked-files.sh says why each fails).
check-tracked: deps
	scripts/check-tracked-files.sh

# `make lint`: the toolchain's swift-format with the checked-in .swift-format (swift-nio's settings,
# less the rules this code does not follow: see CONTRIBUTING.md); `make format` rewrites in place.
FORMAT_PATHS = Package.swift Sources Tests $(foreach e,StampPhoto StampFolder LiveFrames,Examples/$(e)/Package.swift Examples/$(e)/Sources)
.PHONY: lint format
lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)
format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

# `make test`: every suite (CI runs it), then the docs and the example package.
# The ten slowest suites are printed at the end (scripts/slowest-suites.py keeps the exit status).
test: check-tracked lint build python-deps
	G_DEBUG=fatal-criticals CAMSTAMP_BIN=$(CURDIR)/$(CAMSTAMP) \
	  python3 scripts/slowest-suites.py -- $(SWIFT) test -c $(CONFIG)
	$(MAKE) docs example

# `make stress` (minutes; not in `make test`): SIGINT and SIGTERM at 300 random moments of each
# job's first 600 ms (scripts/stress-signals.py), then the timing-sensitive suites 10 times each
# under `stress-ng --cpu 2` (scripts/stress-suites.py). Any failure fails it.
STRESS_DEBS = stress-ng
STRESS_RUNS ?= 300
SUITE_RUNS  ?= 10
.PHONY: stress
stress: build python-deps
	$(call install-missing,stress,$(STRESS_DEBS))
	$(SWIFT) build --build-tests -c $(CONFIG)
	python3 scripts/stress-signals.py --runs $(STRESS_RUNS) $(CAMSTAMP)
	CAMSTAMP_BIN=$(CURDIR)/$(CAMSTAMP) python3 scripts/stress-suites.py --runs $(SUITE_RUNS) $(CONFIG)

# `make scale-test` (CI runs it after `make test`; 2 to 4 minutes): docs/scale.md's recipes run
# as written under GNU parallel and a one-node Slurm cluster started on 127.0.0.1 (with munge),
# each shard set equal to one plain batch, byte for byte; a cancelled and requeued Slurm task
# finished by --skip-existing (scripts/scale-test.py).
SCALE_DEBS = parallel slurm-wlm munge jq python3-yaml
.PHONY: scale-test
scale-test: build
	$(call install-missing,scale-test,$(SCALE_DEBS))
	python3 scripts/scale-test.py $(CAMSTAMP)

# `make check`: the unit tier, to try a change in seconds (well under a minute after a build):
# the suites below, which run no GStreamer pipeline, camera, server or browser. GStreamer's
# plugins are hidden from them, so a test there that starts using an element fails and names it:
# give it `.runsGStreamerElements` (Tests/TestSupport/Tiers.swift), which skips it here and runs
# it in `make test`, or put it in a suite outside this list. A new test target or MediaTests suite
# of that kind joins the tier by being added here.
UNIT_SUITES = ^(PresetsTests|RenderTests|ISOBMFFTests|PhotoMetadataTests|CredentialsUnitTests|CLITests|CamStampTests|TestSupportTests)\. \
  ^WatermarkTests\.PayloadTests/ \
  ^MediaTests\.(BlendTests|ColumnBlendTests|ClipContainerTests|ClipMetadataUnitTests|CameraControlsTests)/ \
  ^MediaTests\.(TemplateTests|UpstreamFixTests|SpliceFuzzTests|CoefficientPlanCacheTests)/
NO_PLUGINS = $(BUILD_DIR)/no-gstreamer-plugins

check: build python-deps
	@mkdir -p $(NO_PLUGINS)
	CAMSTAMP_UNIT_TIER=1 GST_PLUGIN_SYSTEM_PATH_1_0=$(CURDIR)/$(NO_PLUGINS) GST_PLUGIN_PATH_1_0= \
	  GST_REGISTRY_1_0=$(CURDIR)/$(NO_PLUGINS)/registry.bin G_DEBUG=fatal-criticals \
	  CAMSTAMP_BIN=$(CURDIR)/$(CAMSTAMP) $(SWIFT) test -c $(CONFIG) $(foreach s,$(UNIT_SUITES),--filter '$(s)')

# The library product's public API: every symbol has a doc comment, and no signature names a C type
# or a type from a module outside the product (scripts/check-library-api.py).
SYMBOL_GRAPHS = $(BUILD_DIR)/symbol-graphs
.PHONY: api-check docs example

api-check: build
	python3 scripts/check-library-api.py --symbol-graphs $(SYMBOL_GRAPHS)/product $(BUILD_DIR)/$(CONFIG)

# docs/presets.md's pictures: every shipped preset drawn by `camstamp presets render` on the sample
# photos, into docs/images/presets/NAME.jpg (checked in; PresetPicturesTests checks that each
# preset has one, that the page shows it, and that a fresh one has its size).
PRESET_PICTURE_SIZE    = 384x256
PRESET_PICTURE_QUALITY = 80
PRESET_PICTURES_DIR    = docs/images/presets
.PHONY: preset-pictures
preset-pictures: build
	@mkdir -p $(PRESET_PICTURES_DIR)
	@for preset in presets/*.json; do name=$$(basename $$preset .json); \
	  $(CAMSTAMP) presets render $$preset --size $(PRESET_PICTURE_SIZE) --quality $(PRESET_PICTURE_QUALITY) \
	    -o $(PRESET_PICTURES_DIR)/$$name.jpg --overwrite || exit 1; done

# DocC for the library, with the toolchain's docc (no swift-docc-plugin needed), into .build/docs
# (static hosting layout). Warnings (a broken link, an undocumented parameter) are errors.
docs: api-check preset-pictures
	@command -v docc >/dev/null || { echo "camstamp: docc is not in this Swift toolchain; the catalog is Sources/CamStamp/CamStamp.docc"; exit 1; }
	rm -rf $(SYMBOL_GRAPHS)/CamStamp $(BUILD_DIR)/docs && mkdir -p $(SYMBOL_GRAPHS)/CamStamp
	cp $(SYMBOL_GRAPHS)/product/CamStamp*.symbols.json $(SYMBOL_GRAPHS)/CamStamp/
	docc convert Sources/CamStamp/CamStamp.docc --additional-symbol-graph-dir $(SYMBOL_GRAPHS)/CamStamp \
	  --output-path $(BUILD_DIR)/docs --fallback-display-name CamStamp \
	  --fallback-bundle-identifier org.camstamp.CamStamp --transform-for-static-hosting --warnings-as-errors
	@echo "camstamp: documentation in $(CURDIR)/$(BUILD_DIR)/docs"

# Examples/*: packages that embed the library by path, built into one scratch folder (the camstamp
# targets are built once for all three), each run and what it wrote checked: StampPhoto (a photo in
# memory), StampFolder (a folder through stampAll, then cancelled after 2), LiveFrames (frames from
# the test camera). Their manifests are also loaded from a copy of the tree in a folder not named
# camstamp: a path dependency's identity is its folder's name unless the manifest names it.
EXAMPLES       = StampPhoto StampFolder LiveFrames
EXAMPLE_DIR    = $(BUILD_DIR)/example
EXAMPLE_BUILD  = $(BUILD_DIR)/examples
EXAMPLE_OUTPUT = $(EXAMPLE_DIR)/stamped.jpg
EXAMPLE_CLONE  = $(EXAMPLE_DIR)/a-checkout-not-named-camstamp
example: deps
	@# SwiftPM keeps a build plan, and with it the list of the library's source files, until the
	@# root manifest changes: files added to camstamp since would be missing. Plan anew.
	rm -rf $(EXAMPLE_DIR) && mkdir -p $(EXAMPLE_DIR)/photos $(EXAMPLE_CLONE)
	cp -R Package.swift Sources Tests $(EXAMPLE_CLONE)/
	@for e in $(EXAMPLES); do mkdir -p $(EXAMPLE_CLONE)/Examples/$$e && cp -R Examples/$$e/Package.swift \
	  Examples/$$e/Sources $(EXAMPLE_CLONE)/Examples/$$e/ && \
	  $(SWIFT) package --package-path $(EXAMPLE_CLONE)/Examples/$$e --scratch-path $(EXAMPLE_DIR)/resolve-$$e \
	    show-dependencies >/dev/null || { echo "camstamp: Examples/$$e does not resolve from a folder not named camstamp"; exit 1; }; \
	done
	@for e in $(EXAMPLES); do rm -f $(EXAMPLE_BUILD)/debug.yaml $(EXAMPLE_BUILD)/debug/description.json && \
	  echo "$(SWIFT) build --package-path Examples/$$e" && \
	  $(SWIFT) build --package-path Examples/$$e --scratch-path $(EXAMPLE_BUILD) || exit 1; done
	$(EXAMPLE_BUILD)/debug/stamp-photo $(EXAMPLE_OUTPUT)
	@test "$$(head -c 2 $(EXAMPLE_OUTPUT) | od -An -tx1 | tr -d ' ')" = ffd8 || { echo "camstamp: the example wrote no JPEG"; exit 1; }
	python3 scripts/make-demo-photos.py $(EXAMPLE_DIR)/photos
	$(EXAMPLE_BUILD)/debug/stamp-folder $(EXAMPLE_DIR)/photos $(EXAMPLE_DIR)/all
	@test $$(ls $(EXAMPLE_DIR)/all | wc -l) -eq $$(ls $(EXAMPLE_DIR)/photos | wc -l) || { echo "camstamp: stamp-folder missed photos"; exit 1; }
	@status=0; $(EXAMPLE_BUILD)/debug/stamp-folder $(EXAMPLE_DIR)/photos $(EXAMPLE_DIR)/two --stop-after 2 || status=$$?; \
	  test $$status -eq 130 && test $$(ls $(EXAMPLE_DIR)/two | wc -l) -eq 2 || \
	  { echo "camstamp: stamp-folder --stop-after 2: exit $$status, $$(ls $(EXAMPLE_DIR)/two | wc -l) photos"; exit 1; }
	$(EXAMPLE_BUILD)/debug/live-frames $(EXAMPLE_DIR)/frames.i420 10
	@test $$(stat -c %s $(EXAMPLE_DIR)/frames.i420) -eq $$((10 * 640 * 360 * 3 / 2)) || { echo "camstamp: live-frames wrote no 10 frames"; exit 1; }

# `make sanitize`: the C below the JPEG fast path (CJPEGCoefficients: the splice and the coefficient
# rewrite) under AddressSanitizer, LeakSanitizer and UBSan, any report fatal. A small C driver
# (Tests/Sanitize/splice_fuzz.c) calls the C functions directly on cjpeg files of synthetic
# pictures and on seeded mutations of them (the Swift fuzz's kinds), and checks that what they
# write decodes in libjpeg. Seconds, where a sanitized Swift build would rebuild every target and
# the tests in minutes, and would check Swift code that has no out-of-range reads to find. The
# Swift toolchain's clang and lld (with their sanitizer runtimes) are what it needs.
SANITIZE_CC    ?= clang
SANITIZE_DIR    = $(BUILD_DIR)/sanitize
SANITIZE_CASES ?= 20000
SANITIZE_FLAGS  = -std=gnu11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
                  -fuse-ld=lld -Wall -Wextra -Werror
# WIDTH HEIGHT:cjpeg options, one file each: samplings, restart intervals, optimal tables, grey.
SANITIZE_PHOTOS = "17 9:" "64 48:-restart 1" "40 40:-sample 1x1" "48 40:-restart 2B -sample 2x1" \
                  "40 32:-grayscale -restart 1" "64 40:-optimize" "48 48:-restart 3B -optimize" "96 64:-restart 1"
.PHONY: sanitize

sanitize: deps
	@mkdir -p $(SANITIZE_DIR) && rm -f $(SANITIZE_DIR)/*.jpg
	$(SANITIZE_CC) $(SANITIZE_FLAGS) -ISources/CJPEGCoefficients/include -ISources/CJPEGCoefficients \
	  Sources/CJPEGCoefficients/*.c Tests/Sanitize/splice_fuzz.c -ljpeg -lcrypto -lpthread -lm -o $(SANITIZE_DIR)/splice-fuzz
	@i=0; for photo in $(SANITIZE_PHOTOS); do \
	  $(SANITIZE_DIR)/splice-fuzz --ppm $${photo%%:*} $$i > $(SANITIZE_DIR)/photo$$i.ppm && \
	  cjpeg -quality 85 $${photo#*:} -outfile $(SANITIZE_DIR)/photo$$i.jpg $(SANITIZE_DIR)/photo$$i.ppm || exit 1; \
	  i=$$((i + 1)); done
	$(SANITIZE_DIR)/splice-fuzz 21 $(SANITIZE_CASES) $(SANITIZE_DIR)/photo*.jpg

# `make bench`: camstamp against ImageMagick, libvips, ffmpeg, gst-launch and djpeg|cjpeg (bench/README.md).
BENCH_DEBS = imagemagick libvips-tools ffmpeg libjpeg-turbo-progs libimage-exiftool-perl time libheif-examples strace

.PHONY: bench-deps

# The build's packages (deps), then the peer tools; only what is missing is installed.
bench-deps: deps
	$(call install-missing,camstamp bench,$(BENCH_DEBS))

# Release build, then bench/run.sh: Markdown tables on stdout and in bench-output/results.md.
bench: bench-deps python-deps
	$(SWIFT) build -c release
	@bin=$$($(SWIFT) build -c release --show-bin-path) && \
	  CAMSTAMP=$$bin/camstamp CAMSTAMP_BENCH=$$bin/camstamp-bench bench/run.sh

clean:
	rm -rf $(BUILD_DIR) $(STATIC_DIR) $(DEMO_DIR) $(DEB_DIR)

# `make install PREFIX=/usr/local DESTDIR=/tmp/stage`: a release binary with the Swift runtime and
# Foundation linked in (-static-stdlib: it runs where no Swift toolchain is), its shipped files in
# PREFIX/share/camstamp, the man page and the shell completions, both generated by the binary from
# the tables --help prints. INSTALL_BIN=path installs a binary built already instead (the tests do).
# The binary is stripped (STRIP= keeps its symbols: debian/rules leaves that to dh_strip). The
# folders install-files creates are listed in MADE_LIST, so uninstall removes them once empty and
# never a folder that was there before (RECORD_FOLDERS=no writes no list: a .deb's are dpkg's).
# FONTS=system leaves out the bundled fonts/ (the .deb depends on fonts-noto-core instead, and
# fontconfig finds Noto Sans there).
PREFIX      ?= /usr/local
DESTDIR     ?=
BINDIR       = $(PREFIX)/bin
DATADIR      = $(PREFIX)/share/camstamp
MANDIR       = $(PREFIX)/share/man/man1
# The C2PA SDK, where the installed binary looks for it (PREFIX/bin/../lib/camstamp).
C2PALIBDIR   = $(PREFIX)/lib/camstamp
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
STATIC_DIR  ?= .build-static
INSTALL_BIN ?=
STRIP       ?= -s
FONTS       ?= bundled
RECORD_FOLDERS ?= yes
MADE_LIST    = $(DATADIR)/installed-folders
SHIPPED      = $(shell find presets pipelines web $(if $(filter system,$(FONTS)),,fonts) -type f ! -name '.*' | sort)
# Every folder install-files writes into (install-files also lists their missing parents).
INSTALL_DIRS = $(BINDIR) $(C2PALIBDIR) $(MANDIR) $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR) \
               $(sort $(patsubst %/,%,$(dir $(addprefix $(DATADIR)/,$(SHIPPED)))))

install-build:
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(STATIC_DIR) --product camstamp

install: $(if $(INSTALL_BIN),,install-build)
	$(MAKE) install-files INSTALL_BIN=$(or $(INSTALL_BIN),$(STATIC_DIR)/release/camstamp)

install-files: $(C2PA_LIB)
	@test -x "$(INSTALL_BIN)" || { echo "camstamp: install: no binary at '$(INSTALL_BIN)'; run make install" >&2; exit 1; }
	@made=$$(for d in $(INSTALL_DIRS); do \
	    while [ "$$d" != / ] && [ "$$d" != . ]; do [ -d "$(DESTDIR)$$d" ] || echo "$$d"; d=$$(dirname "$$d"); done; \
	  done) && \
	  install -d $(DESTDIR)$(DATADIR) && \
	  if [ "$(RECORD_FOLDERS)" = yes ]; then printf '%s\n' $$made | sort -u > $(DESTDIR)$(MADE_LIST); fi
	install -D -m 755 $(STRIP) $(INSTALL_BIN) $(DESTDIR)$(BINDIR)/camstamp
	install -D -m 644 $(C2PA_LIB) $(DESTDIR)$(C2PALIBDIR)/libc2pa_c.so
	@for f in $(SHIPPED); do install -D -m 644 $$f $(DESTDIR)$(DATADIR)/$$f || exit 1; done
	install -d $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	$(INSTALL_BIN) --generate-man > $(DESTDIR)$(MANDIR)/camstamp.1
	$(INSTALL_BIN) --generate-completion bash > $(DESTDIR)$(BASHCOMPDIR)/camstamp
	$(INSTALL_BIN) --generate-completion zsh > $(DESTDIR)$(ZSHCOMPDIR)/_camstamp
	$(INSTALL_BIN) --generate-completion fish > $(DESTDIR)$(FISHCOMPDIR)/camstamp.fish
	chmod 644 $(DESTDIR)$(MANDIR)/camstamp.1 $(DESTDIR)$(BASHCOMPDIR)/camstamp $(DESTDIR)$(ZSHCOMPDIR)/_camstamp \
	  $(DESTDIR)$(FISHCOMPDIR)/camstamp.fish

# Removes exactly what install-files wrote (same PREFIX and DESTDIR), then the folders it made,
# deepest first, each only once empty.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/camstamp $(DESTDIR)$(C2PALIBDIR)/libc2pa_c.so \
	  $(DESTDIR)$(MANDIR)/camstamp.1 $(DESTDIR)$(BASHCOMPDIR)/camstamp \
	  $(DESTDIR)$(ZSHCOMPDIR)/_camstamp $(DESTDIR)$(FISHCOMPDIR)/camstamp.fish
	@for f in $(SHIPPED); do rm -f $(DESTDIR)$(DATADIR)/$$f; done
	@list=$(DESTDIR)$(MADE_LIST); made=; \
	  if [ -f $$list ]; then made=$$(sort -r $$list); rm -f $$list; fi; \
	  if [ -d $(DESTDIR)$(DATADIR) ]; then find $(DESTDIR)$(DATADIR) -depth -type d -empty -delete; fi; \
	  for d in $$made; do [ -d "$(DESTDIR)$$d" ] && rmdir --ignore-fail-on-non-empty "$(DESTDIR)$$d"; done; true

# `make deb`: debian/ turned into $(DEB_DIR)/camstamp_VERSION_ARCH.deb by `dpkg-buildpackage -b -us
# -uc`, run in a copy of the tree (it writes beside the source folder, and would see .build).
# The binary is install-build's, the one `make install` uses (a release build: a few minutes the
# first time, nothing when it is up to date), handed to debian/rules as INSTALL_BIN.
# `make deb-check` then installs it with dpkg into a scratch root and runs it from there;
# `make deb-lint` runs lintian on it.
DEB_DEBS = dpkg-dev debhelper fakeroot lintian
DEB_DIR ?= deb-output

deb: deps $(C2PA_LIB) $(if $(INSTALL_BIN),,install-build)
	$(call install-missing,camstamp deb,$(DEB_DEBS))
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/camstamp
	tar -c --exclude=./.git --exclude=./.build --exclude=./$(STATIC_DIR) --exclude=./$(DEB_DIR) \
	  --exclude=./$(DEMO_DIR) --exclude=./bench-output . | tar -x -C $(DEB_DIR)/camstamp
	cd $(DEB_DIR)/camstamp && C2PA_LIB=$(abspath $(C2PA_LIB)) \
	  INSTALL_BIN=$(abspath $(or $(INSTALL_BIN),$(STATIC_DIR)/release/camstamp)) dpkg-buildpackage -b -us -uc
	@ls $(DEB_DIR)/*.deb

deb-lint:
	lintian --info $$(ls $(DEB_DIR)/camstamp_*.deb | head -1)

deb-check:
	@deb=$$(ls $(DEB_DIR)/camstamp_*.deb | head -1) && root=$(CURDIR)/$(DEB_DIR)/root && rm -rf $$root && \
	  mkdir -p $$root/var/lib/dpkg/info $$root/var/lib/dpkg/updates && touch $$root/var/lib/dpkg/status && \
	  echo "camstamp: dpkg --dry-run -i $$deb (this machine's dependencies):" && dpkg --dry-run -i $$deb && \
	  dpkg --root=$$root --force-depends --force-not-root -i $$deb && \
	  cd / && env -i PATH=/usr/bin:/bin HOME=/tmp $$root/usr/bin/camstamp --version && \
	  env -i PATH=/usr/bin:/bin HOME=/tmp $$root/usr/bin/camstamp presets list && \
	  echo "camstamp: the package has no fonts/: Noto Sans must come from fonts-noto-core (fontconfig):" && \
	  env -i PATH=/usr/bin:/bin HOME=/tmp strace -f -e trace=openat -o $$root/fonts.trace \
	    $$root/usr/bin/camstamp presets check credit && \
	  grep -o '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf' $$root/fonts.trace | head -1 | grep . || \
	  { echo "camstamp: deb-check: the installed camstamp did not open fonts-noto-core's Noto Sans" >&2; exit 1; }
