// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// CGeonames: the C API of pkg-config package geonames (GeoNames' cities, compiled into the
// library as a GResource), imported as is.
#include <geonames/geonames.h>
