// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// webrtcbin's action signals, which only g_signal_emit_by_name (variadic, so not importable into
// Swift) can emit, each wrapped in a fixed-arity function. Nothing else belongs here.
#pragma once
#include <gst/gst.h>
#include <gst/webrtc/webrtc.h>

/// "create-offer" or "create-answer" (`signal`), without options; the reply comes in `promise`.
void camstamp_webrtc_create(GstElement *webrtc, const char *signal, GstPromise *promise);

/// "set-local-description" or "set-remote-description" (`signal`) to `description`.
void camstamp_webrtc_set_description(GstElement *webrtc, const char *signal,
                                     GstWebRTCSessionDescription *description, GstPromise *promise);

/// "get-stats" for the whole connection; the statistics come in `promise`'s reply.
void camstamp_webrtc_get_stats(GstElement *webrtc, GstPromise *promise);

/// A new ECDSA P-256 key and a self-signed certificate for it (valid for 30 days), as PEM text
/// (certificate, then key): a WebRTC connection's DTLS identity. GStreamer 1.22 makes an RSA one,
/// which ECDSA-only stacks (aiortc) refuse. In C because libcrypto's key generation is variadic
/// (EVP_PKEY_Q_keygen). NULL on failure; free it with g_free.
char *camstamp_webrtc_ecdsa_identity(void);
