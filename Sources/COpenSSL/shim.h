#ifndef SIWA_COPENSSL_SHIM_H
#define SIWA_COPENSSL_SHIM_H
// Deprecated OpenSSL APIs vanish from Swift: only the OpenSSL 3 EVP surface is visible.
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/decoder.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// Function-like macros Swift cannot import.
static inline int siwa_BN_num_bytes(const BIGNUM *bn) { return BN_num_bytes(bn); }
static inline void siwa_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline int siwa_EVP_PKEY_KEYPAIR(void) { return EVP_PKEY_KEYPAIR; }
static inline int siwa_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline long siwa_BIO_get_mem_data(BIO *bio, char **out) { return BIO_get_mem_data(bio, out); }

#endif
