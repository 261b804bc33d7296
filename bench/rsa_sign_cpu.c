/* rsa_sign_cpu: CPU microseconds per RS256 signature (RSA-2048, PKCS#1 v1.5, SHA-256) on one core,
 * using the same OpenSSL 3 EVP_DigestSign path as siwa-mock and the scenario's signing key.
 * usage: rsa_sign_cpu KEY.pem SECONDS   -> prints "cpu_us_per_sign N signs M"
 * Measured with CLOCK_PROCESS_CPUTIME_ID, so time the process waits for a core does not count;
 * this is the fair yardstick for the server's CPU per token request. */
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s KEY.pem SECONDS\n", argv[0]);
        return 64;
    }
    FILE *file = fopen(argv[1], "r");
    EVP_PKEY *key = file ? PEM_read_PrivateKey(file, NULL, NULL, NULL) : NULL;
    if (!key) {
        fprintf(stderr, "cannot read private key %s\n", argv[1]);
        return 1;
    }
    fclose(file);
    const unsigned char message[] = "eyJraWQiOiJBajNGOGtMcTJYIiwiYWxnIjoiUlMyNTYifQ.eyJpc3MiOiJodHRwczovL2FwcGxlaWQuYXBwbGUuY29tIn0";
    unsigned char signature[512];
    double budget = atof(argv[2]) * 1e6, start = cpu_us();
    long signs = 0;
    while (cpu_us() - start < budget) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        size_t length = sizeof signature;
        if (!ctx || EVP_DigestSignInit(ctx, NULL, EVP_sha256(), NULL, key) != 1 ||
            EVP_DigestSign(ctx, signature, &length, message, sizeof message - 1) != 1) {
            fprintf(stderr, "sign failed\n");
            return 1;
        }
        EVP_MD_CTX_free(ctx);
        signs++;
    }
    printf("cpu_us_per_sign %.1f signs %ld\n", (cpu_us() - start) / signs, signs);
    EVP_PKEY_free(key);
    return 0;
}
