// OpenSSL 3 for RS256 verification in the example backend (Linux has no RSA in Foundation).
#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

// EVP_PKEY_PUBLIC_KEY is a compound macro Swift cannot import.
static inline int example_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
