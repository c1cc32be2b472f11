// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#include "jpeg_errors.h"

static void fail(j_common_ptr info) {
    cs_error_state *state = (cs_error_state *)info->err;
    (*info->err->format_message)(info, state->message);
    longjmp(*state->escape, 1);
}

// A warning means damaged data: treated as fatal.
static void warn(j_common_ptr info, int level) {
    if (level < 0) fail(info);
}

struct jpeg_error_mgr *cs_catch_errors(cs_error_state *state, jmp_buf *escape, char *message) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&state->manager);
    manager->error_exit = fail;
    manager->emit_message = warn;
    state->escape = escape;
    state->message = message;
    return manager;
}
