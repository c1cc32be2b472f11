// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CQREncode: the C API of pkg-config package libqrencode, imported as is.
#include <qrencode.h>
