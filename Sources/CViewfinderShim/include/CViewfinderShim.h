// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The few calls of libsoup and GStreamer that Swift cannot import, each wrapped in a fixed-arity
// function. Nothing else belongs here.
#pragma once
#include <libsoup/soup.h>
#include <gst/gst.h>

/// soup_server_new is variadic (property list): a server named in its Server header.
SoupServer *camstamp_soup_server_new(const char *server_header);

/// g_signal_emit_by_name is variadic: multisocketsink's "add" action signal hands it a socket.
void camstamp_multisocketsink_add(GstElement *sink, GSocket *socket);

/// g_signal_emit_by_name is variadic: multisocketsink's "remove" action signal drops a socket.
void camstamp_multisocketsink_remove(GstElement *sink, GSocket *socket);
