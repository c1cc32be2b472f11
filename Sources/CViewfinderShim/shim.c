// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#include "CViewfinderShim.h"

SoupServer *camstamp_soup_server_new(const char *server_header) {
    return soup_server_new("server-header", server_header, NULL);
}

void camstamp_multisocketsink_add(GstElement *sink, GSocket *socket) {
    g_signal_emit_by_name(sink, "add", socket);
}

void camstamp_multisocketsink_remove(GstElement *sink, GSocket *socket) {
    g_signal_emit_by_name(sink, "remove", socket);
}
