// OpenSSL (libssl-dev, pkg-config `openssl`) for the IRC client's TLS.
//
// Swift imports OpenSSL's functions but not its function-like macros: the few the client
// needs are given here as `static inline` functions that expand them, and nothing else.

#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// `SSL_set_tlsext_host_name(ssl, name)`: the server name sent in the handshake (SNI).
static inline long dl_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

/// `SSL_CTX_set_min_proto_version(context, version)`: the oldest protocol accepted.
static inline int dl_SSL_CTX_set_min_proto_version(SSL_CTX *context, int version) {
    return (int)SSL_CTX_set_min_proto_version(context, version);
}

/// `SSL_set_mode(ssl, mode)`: partial writes and a moving write buffer, for a socket that
/// does not block.
static inline long dl_SSL_set_mode(SSL *ssl, long mode) { return SSL_set_mode(ssl, mode); }

#endif
