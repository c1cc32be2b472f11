// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// libjpeg's errors, caught: a fatal error or a warning (damaged data, whose blocks might not be
// the file's) jumps back to the caller's setjmp with libjpeg's message in `message`. The one
// thing Swift cannot do is longjmp, so it is here, once, for every reader and writer of the shim.
#ifndef CS_JPEG_ERRORS_H
#define CS_JPEG_ERRORS_H

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf *escape;
    char *message;
} cs_error_state;

// `state` set up to jump to `escape`, libjpeg's message written into `message` (at least
// JMSG_LENGTH_MAX bytes); the manager to give a jpeg struct's `err`.
struct jpeg_error_mgr *cs_catch_errors(cs_error_state *state, jmp_buf *escape, char *message);

#endif
