// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// SIGINT, SIGTERM and SIGUSR1 blocked before anything else of the process runs.
//
// Why C: the Swift runtime, Foundation, GLib and GStreamer run initialisers (and some start
// threads) before main. A signal that arrives then takes its default action (the process dies
// half-started) or, when the parent left it ignored (a background job of a non-interactive shell
// ignores SIGINT), is discarded and lost: the job then runs on with nobody to stop it. A function
// in the executable's .preinit_array runs before every shared library's initialiser, on the one
// thread there is, so the mask it sets is inherited by every thread started afterwards and a
// signal from then on waits, pending, for the signal thread that main starts (Interrupts). Only
// the dynamic loader's own mapping of the libraries comes earlier; a signal there ends the
// process by its default action before any file is opened.
#include "CStartSignals.h"

#include <signal.h>

static int blocked_at_start = 0;

static void block_signals_at_start(int argc, char **argv, char **envp) {
    (void)argc;
    (void)argv;
    (void)envp;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    blocked_at_start = sigprocmask(SIG_BLOCK, &set, 0) == 0;
}

__attribute__((section(".preinit_array"), used)) static void (*const block_signals_entry)(int, char **, char **) =
    block_signals_at_start;

int camstamp_signals_blocked_at_start(void) { return blocked_at_start; }
