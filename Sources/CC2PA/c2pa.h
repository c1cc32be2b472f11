// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// The few functions of c2pa-rs' C API (c2pa_c_ffi, libc2pa_c.so from PyPI's c2pa-python wheel)
// that camstamp calls, declared as pointer types: the library is opened with dlopen at the first
// signature or verification, so camstamp builds and runs without it, and says how to get it.
// The declarations follow c2pa_c_ffi's sources for the version the Makefile pins (C2PA_VERSION).
#ifndef CAMSTAMP_C2PA_H
#define CAMSTAMP_C2PA_H

#include <stddef.h>
#include <stdint.h>

typedef struct C2paStream C2paStream;
typedef struct C2paReader C2paReader;
typedef struct C2paBuilder C2paBuilder;
typedef struct C2paSigner C2paSigner;
typedef struct C2paSettings C2paSettings;
typedef struct C2paContextBuilder C2paContextBuilder;
typedef struct C2paContext C2paContext;
/// Whatever the stream callbacks are handed back: camstamp's own buffer.
typedef struct StreamContext StreamContext;

/// 0 from the start, 1 from the current position, 2 from the end.
typedef int C2paSeekMode;

typedef struct C2paSignerInfo {
    const char *alg;
    const char *sign_cert;
    const char *private_key;
    const char *ta_url;
} C2paSignerInfo;

typedef intptr_t (*C2paReadCallback)(StreamContext *context, uint8_t *data, intptr_t len);
typedef intptr_t (*C2paSeekCallback)(StreamContext *context, intptr_t offset, C2paSeekMode mode);
typedef intptr_t (*C2paWriteCallback)(StreamContext *context, const uint8_t *data, intptr_t len);
typedef intptr_t (*C2paFlushCallback)(StreamContext *context);

typedef char *(*c2pa_version_fn)(void);
typedef char *(*c2pa_error_fn)(void);
typedef int (*c2pa_free_fn)(const void *ptr);

typedef C2paSettings *(*c2pa_settings_new_fn)(void);
typedef int (*c2pa_settings_update_from_string_fn)(C2paSettings *settings, const char *text, const char *format);
typedef C2paContextBuilder *(*c2pa_context_builder_new_fn)(void);
typedef int (*c2pa_context_builder_set_settings_fn)(C2paContextBuilder *builder, C2paSettings *settings);
typedef C2paContext *(*c2pa_context_builder_build_fn)(C2paContextBuilder *builder);
/// The context takes the signer over: it is not freed by the caller afterwards.
typedef int (*c2pa_context_builder_set_signer_fn)(C2paContextBuilder *builder, C2paSigner *signer);

typedef C2paStream *(*c2pa_create_stream_fn)(StreamContext *context, C2paReadCallback read,
                                             C2paSeekCallback seek, C2paWriteCallback write,
                                             C2paFlushCallback flush);
typedef void (*c2pa_release_stream_fn)(C2paStream *stream);

typedef C2paBuilder *(*c2pa_builder_from_context_fn)(C2paContext *context);
typedef C2paBuilder *(*c2pa_builder_with_definition_fn)(C2paBuilder *builder, const char *manifest_json);
typedef int (*c2pa_builder_add_ingredient_from_stream_fn)(C2paBuilder *builder, const char *ingredient_json,
                                                          const char *format, C2paStream *source);
typedef int64_t (*c2pa_builder_sign_fn)(C2paBuilder *builder, const char *format, C2paStream *source,
                                        C2paStream *dest, C2paSigner *signer,
                                        const unsigned char **manifest_bytes);
typedef C2paSigner *(*c2pa_signer_from_info_fn)(const C2paSignerInfo *info);

/// Signing by the caller's embedding (the context's signer signs): the placeholder, composed for
/// the format (a JPEG's APP11 segments), is put into the asset by the caller; the exclusions say
/// where (pairs of start and length); the asset with it is hashed; the signed manifest comes back
/// composed and exactly the placeholder's size, to be written where the placeholder was.
typedef int64_t (*c2pa_builder_placeholder_fn)(C2paBuilder *builder, const char *format,
                                               const unsigned char **manifest_bytes);
typedef int (*c2pa_builder_set_data_hash_exclusions_fn)(C2paBuilder *builder, const uint64_t *exclusions,
                                                        size_t exclusion_count);
typedef int (*c2pa_builder_update_hash_from_stream_fn)(C2paBuilder *builder, const char *format,
                                                       C2paStream *stream);
typedef int64_t (*c2pa_builder_sign_embeddable_fn)(C2paBuilder *builder, const char *format,
                                                   const unsigned char **manifest_bytes);

typedef C2paReader *(*c2pa_reader_from_context_fn)(C2paContext *context);
typedef C2paReader *(*c2pa_reader_with_stream_fn)(C2paReader *reader, const char *format, C2paStream *stream);
typedef char *(*c2pa_reader_json_fn)(C2paReader *reader);

#endif
