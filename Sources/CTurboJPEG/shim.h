// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// libjpeg-turbo's TurboJPEG API (Debian: libturbojpeg0-dev). Chosen over the libjpeg API because
// it reports errors as return codes: libjpeg's error_exit must longjmp, which Swift cannot.
#include <turbojpeg.h>
