// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#ifndef CAMSTAMP_START_SIGNALS_H
#define CAMSTAMP_START_SIGNALS_H

/// Whether SIGINT, SIGTERM and SIGUSR1 were blocked before any library's initialiser ran (by a
/// function in the executable's .preinit_array). main calls it, which also keeps this object, and
/// so that function, in the link.
int camstamp_signals_blocked_at_start(void);

#endif
