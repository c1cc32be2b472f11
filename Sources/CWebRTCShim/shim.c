// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
#include "CWebRTCShim.h"

void camstamp_webrtc_create(GstElement *webrtc, const char *signal, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, signal, NULL, promise);
}

void camstamp_webrtc_set_description(GstElement *webrtc, const char *signal,
                                     GstWebRTCSessionDescription *description, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, signal, description, promise);
}

void camstamp_webrtc_get_stats(GstElement *webrtc, GstPromise *promise) {
    g_signal_emit_by_name(webrtc, "get-stats", NULL, promise);
}

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>

char *camstamp_webrtc_ecdsa_identity(void) {
    char *text = NULL;
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *certificate = X509_new();
    BIO *out = BIO_new(BIO_s_mem());
    if (key == NULL || certificate == NULL || out == NULL) goto done;
    unsigned char serial[8];
    if (RAND_bytes(serial, sizeof serial) != 1) goto done;
    serial[0] &= 0x7f;  // a positive serial number
    BIGNUM *number = BN_bin2bn(serial, sizeof serial, NULL);
    int numbered = number != NULL && BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != NULL;
    BN_free(number);
    X509_NAME *name = X509_get_subject_name(certificate);
    if (!numbered || X509_set_version(certificate, 2) != 1 ||
        X509_gmtime_adj(X509_getm_notBefore(certificate), -3600) == NULL ||
        X509_gmtime_adj(X509_getm_notAfter(certificate), 30L * 24 * 3600) == NULL ||
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)"camstamp", -1, -1, 0) != 1 ||
        X509_set_issuer_name(certificate, name) != 1 || X509_set_pubkey(certificate, key) != 1 ||
        X509_sign(certificate, key, EVP_sha256()) == 0 || PEM_write_bio_X509(out, certificate) != 1 ||
        PEM_write_bio_PrivateKey(out, key, NULL, NULL, 0, NULL, NULL) != 1)
        goto done;
    char *data = NULL;
    long length = BIO_get_mem_data(out, &data);
    if (length > 0) text = g_strndup(data, (gsize)length);
done:
    BIO_free(out);
    X509_free(certificate);
    EVP_PKEY_free(key);
    return text;
}
