/* ref_server: the benchmark's yardstick for siwa-mock's /auth/token and /auth/keys (issue #40).
 *
 * The same work as the mock on the benchmark's path, done the way a small, fast C server would do it:
 * epoll, one thread per core, each with its own SO_REUSEPORT listener; keep-alive HTTP/1.1 (Content-Length
 * bodies, pipelining); POST /auth/token parsed as a form (authorization_code and refresh_token grants),
 * the ES256 client secret verified once and then cached by its SHA-256 with the claims re-checked on every
 * use (as Sources/SIWACore/AppleRules/ClientSecret/ClientSecretValidator.swift), codes consumed exactly once,
 * access and refresh tokens stored, and an Apple-shaped id_token (the mock's claims for the benchmark's
 * grant: no scope, no nonce) freshly RS256-signed per request with the scenario's 2048-bit key; Apple's
 * headers; GET /auth/keys serves the scenario's three keys as a JWKS. The checks follow the mock's order
 * (AppleIdentityProvider+Token.swift): missing credentials, grant_type, the code's state, the secret, the
 * binding. GET /auth/authorize (headless, login_hint only) mints codes for the benchmark: not measured.
 *
 * usage: ref_server KEYS_DIR [PORT]   (KEYS_DIR: scenarios/keys; PORT 0 or absent: a free port)
 * prints "ref_server listening on http://127.0.0.1:PORT" when ready. Build: cc -O2 ... -lssl -lcrypto -lpthread
 * Correctness: bench/reference/check.py (PyJWT verifies its id_tokens against its /auth/keys). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ISSUER "https://appleid.apple.com"
#define TEAM "ABCDE12345"
#define TEAM_KID "KEY1234567"
#define CLIENT "com.example.web"
#define CODE_LIFETIME 300
#define ACCESS_LIFETIME 3600
#define ID_TOKEN_LIFETIME 86400 /* scenarios/default.yaml: lifetime 1d */
#define SECRET_MAX_LIFETIME 15777000
#define SECRET_SKEW 60
#define MAX_REQUEST 65536

static const char *const redirect_uris[] = {"https://app.example.com/auth/apple/callback",
                                            "https://localhost:8443/callback", "http://127.0.0.1:8000/callback"};
static const char *const users[][2] = {{"alice", "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"},
                                       {"bob", "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222"},
                                       {"carol", "001234.2c3d4e5f60718293a4b5c6d7e8f90a1b.3333"}};
static const char *const signing_kids[] = {"Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"}; /* the first signs */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static EVP_PKEY *signing_key, *team_key;
static EVP_MD *sha256;
static char jwks[4096], id_header[64]; /* the JWKS body; base64url of {"kid":…,"alg":"RS256"} */
static size_t jwks_length;

static void die(const char *what) {
    fprintf(stderr, "ref_server: %s\n", what);
    exit(1);
}

/* ---- base64url and JSON strings ---------------------------------------------------------------------- */
static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
static size_t b64url(char *out, const unsigned char *in, size_t n) {
    size_t o = 0, i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64[v >> 18], out[o++] = b64[v >> 12 & 63], out[o++] = b64[v >> 6 & 63], out[o++] = b64[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
        out[o++] = b64[v >> 18], out[o++] = b64[v >> 12 & 63];
        if (i + 1 < n) out[o++] = b64[v >> 6 & 63];
    }
    out[o] = 0;
    return o;
}
/* Decodes n base64url characters (no padding); returns the length, or -1 on a bad character or length. */
static long b64url_decode(unsigned char *out, const char *in, size_t n) {
    uint32_t v = 0;
    size_t o = 0, bits = 0;
    if (n % 4 == 1) return -1;
    for (size_t i = 0; i < n; i++) {
        const char *p = in[i] ? strchr(b64, in[i]) : NULL;
        if (!p) return -1;
        v = v << 6 | (uint32_t)(p - b64), bits += 6;
        if (bits >= 8) bits -= 8, out[o++] = (unsigned char)(v >> bits);
    }
    return (long)o;
}

/* A flat JSON object's members (the client secret's header and claims): strings, integers, and an array of
 * strings for "aud"; nested values are skipped. Returns 0 on malformed JSON. */
struct claims { char alg[16], kid[32], iss[64], sub[128]; long long iat, exp; int has_iat, has_exp, aud; };
static const char *skip_ws(const char *p) { while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++; return p; }
static const char *json_string(const char *p, char *out, size_t size) { /* p at '"' */
    size_t o = 0;
    for (p++; *p && *p != '"'; p++) {
        char c = *p;
        if (c == '\\') {
            c = *++p;
            if (c == 'n') c = '\n'; else if (c == 't') c = '\t'; else if (c != '"' && c != '\\' && c != '/') return NULL;
        }
        if (o + 1 < size) out[o++] = c; else return NULL;
    }
    out[o] = 0;
    return *p == '"' ? p + 1 : NULL;
}
static const char *json_skip(const char *p) { /* any value */
    char scratch[1024];
    int depth = 0;
    do {
        p = skip_ws(p);
        if (*p == '"') { if (!(p = json_string(p, scratch, sizeof scratch))) return NULL; }
        else if (*p == '{' || *p == '[') depth++, p++;
        else if (*p == '}' || *p == ']') depth--, p++;
        else if (*p == ',' || *p == ':') p++;
        else if (*p) { while (*p && !strchr(",]} \t\r\n", *p)) p++; }
        else return NULL;
    } while (depth > 0);
    return p;
}
static int parse_claims(const char *p, struct claims *c) {
    struct { const char *name; char *value; size_t size; } strings[] = {
        {"alg", c->alg, sizeof c->alg}, {"kid", c->kid, sizeof c->kid},
        {"iss", c->iss, sizeof c->iss}, {"sub", c->sub, sizeof c->sub}};
    char key[32];
    p = skip_ws(p);
    if (*p++ != '{') return 0;
    for (p = skip_ws(p); *p != '}';) {
        if (*p != '"' || !(p = json_string(p, key, sizeof key))) return 0;
        if (*(p = skip_ws(p)) != ':') return 0;
        p = skip_ws(p + 1);
        size_t s = 0;
        while (s < COUNT(strings) && strcmp(key, strings[s].name)) s++;
        if (s < COUNT(strings) && *p == '"') {
            if (!(p = json_string(p, strings[s].value, strings[s].size))) return 0;
        } else if ((!strcmp(key, "iat") || !strcmp(key, "exp")) && (*p == '-' || (*p >= '0' && *p <= '9'))) {
            char *end;
            double d = strtod(p, &end); /* a NumericDate: an integer, or a double with no fraction */
            if (d > 9e15 || d < -9e15 || d != (double)(long long)d) return 0;
            if (key[0] == 'i') c->iat = (long long)d, c->has_iat = 1; else c->exp = (long long)d, c->has_exp = 1;
            p = end;
        } else if (!strcmp(key, "aud") && (*p == '"' || *p == '[')) {
            int array = *p == '[';
            char aud[512];
            c->aud = -1; /* present; 1 once Apple's audience is found */
            if (array) p = skip_ws(p + 1);
            while (!array || *p != ']') {
                if (*p != '"' || !(p = json_string(p, aud, sizeof aud))) return 0;
                if (!strcmp(aud, ISSUER)) c->aud = 1;
                if (!array) break;
                if (*(p = skip_ws(p)) == ',') p = skip_ws(p + 1); else if (*p != ']') return 0;
            }
            p += array;
        } else if (!(p = json_skip(p))) return 0;
        if (*(p = skip_ws(p)) == ',') p = skip_ws(p + 1);
        else if (*p != '}') return 0;
    }
    return 1;
}

/* ---- identifiers: RAND_bytes in 4 KB refills per thread, as the mock's identifier pool ----------------- */
static __thread unsigned char pool[4096];
static __thread size_t pool_used = sizeof pool;
/* "<prefix><32 hex>.0.rfrf.<22 base64url>": 32 random bytes, the length of the mock's identifiers. */
static void make_token(char *out, char prefix) {
    if (pool_used + 32 > sizeof pool) {
        if (RAND_bytes(pool, sizeof pool) != 1) die("RAND_bytes failed");
        pool_used = 0;
    }
    const unsigned char *r = pool + pool_used;
    pool_used += 32;
    out[0] = prefix;
    for (int i = 0; i < 16; i++) out[1 + 2 * i] = "0123456789abcdef"[r[i] >> 4], out[2 + 2 * i] = "0123456789abcdef"[r[i] & 15];
    memcpy(out + 33, ".0.rfrf.", 8);
    b64url(out + 41, r + 16, 16);
}
#define TOKEN_LENGTH 63

/* ---- the grant store: codes, access and refresh tokens in one chained hash table under one lock -------- */
enum state { ISSUED, REDEEMED, EXPIRED };
struct entry {
    struct entry *next;
    uint64_t hash;
    long long expires; /* codes and access tokens; refresh tokens do not expire */
    long long auth_time;
    unsigned char state, user, redirect;
    char token[TOKEN_LENGTH + 1];
};
static struct { pthread_mutex_t lock; struct entry **buckets; size_t mask, count; } store = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static uint64_t hash_of(const char *s, size_t n) { /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    while (n--) h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}
static struct entry *store_find(const char *token, size_t n) { /* with the lock held */
    if (n != TOKEN_LENGTH) return NULL;
    uint64_t h = hash_of(token, n);
    for (struct entry *e = store.buckets[h & store.mask]; e; e = e->next)
        if (e->hash == h && !memcmp(e->token, token, n)) return e;
    return NULL;
}
static void store_insert(struct entry *e) { /* with the lock held; doubles the table at load 1 */
    if (store.count >= store.mask) {
        size_t size = (store.mask + 1) * 2;
        struct entry **buckets = calloc(size, sizeof *buckets);
        if (!buckets) die("out of memory");
        for (size_t i = 0; i <= store.mask; i++)
            for (struct entry *x = store.buckets[i], *next; x; x = next)
                next = x->next, x->next = buckets[x->hash & (size - 1)], buckets[x->hash & (size - 1)] = x;
        free(store.buckets);
        store.buckets = buckets, store.mask = size - 1;
    }
    e->hash = hash_of(e->token, TOKEN_LENGTH);
    e->next = store.buckets[e->hash & store.mask];
    store.buckets[e->hash & store.mask] = e;
    store.count++;
}
static struct entry *new_entry(char prefix, long long expires, const struct entry *grant) {
    struct entry *e = malloc(sizeof *e);
    if (!e) die("out of memory");
    make_token(e->token, prefix);
    e->expires = expires, e->state = ISSUED;
    if (grant) e->auth_time = grant->auth_time, e->user = grant->user, e->redirect = grant->redirect;
    return e;
}

/* ---- the client secret: verified once, cached by SHA-256; the claims are checked on every use ---------- */
struct cached { unsigned char digest[32]; struct claims claims; int full; };
static struct cached secret_cache[64];
static pthread_mutex_t secret_lock = PTHREAD_MUTEX_INITIALIZER;

static int claims_hold(const struct claims *c, const char *client_id, long long now) {
    return !strcmp(c->sub, client_id) && !strcmp(client_id, CLIENT) && !strcmp(c->iss, TEAM) && c->aud == 1 &&
           c->exp > now && c->exp - now <= SECRET_MAX_LIFETIME && c->iat <= now + SECRET_SKEW;
}
/* The secret's ES256 signature (raw r || s) over "header.payload" by the team's key. */
static int verify_es256(const char *input, size_t n, const unsigned char *sig) {
    ECDSA_SIG *s = ECDSA_SIG_new();
    unsigned char der[80], *p = der;
    int ok = 0, length;
    if (s && ECDSA_SIG_set0(s, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL)) == 1 &&
        (length = i2d_ECDSA_SIG(s, &p)) > 0) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        ok = ctx && EVP_DigestVerifyInit(ctx, NULL, sha256, NULL, team_key) == 1 &&
             EVP_DigestVerify(ctx, der, (size_t)length, (const unsigned char *)input, n) == 1;
        EVP_MD_CTX_free(ctx);
    }
    ECDSA_SIG_free(s);
    return ok;
}
static int authenticate(const char *secret, size_t n, const char *client_id, long long now) {
    unsigned char digest[32];
    struct cached *slot;
    EVP_Digest(secret, n, digest, NULL, sha256, NULL);
    slot = &secret_cache[digest[0] % COUNT(secret_cache)];
    pthread_mutex_lock(&secret_lock);
    int hit = slot->full && !memcmp(slot->digest, digest, 32);
    struct claims claims = slot->claims;
    pthread_mutex_unlock(&secret_lock);
    if (hit) return claims_hold(&claims, client_id, now);

    const char *dot1 = memchr(secret, '.', n), *dot2 = dot1 ? memchr(dot1 + 1, '.', n - (size_t)(dot1 + 1 - secret)) : NULL;
    char header[512], payload[2048];
    unsigned char sig[128];
    long h, p, s;
    if (!dot2 || dot1 - secret > 680 || dot2 - dot1 - 1 > 2700 || n - (size_t)(dot2 + 1 - secret) > 160) return 0;
    h = b64url_decode((unsigned char *)header, secret, (size_t)(dot1 - secret));
    p = b64url_decode((unsigned char *)payload, dot1 + 1, (size_t)(dot2 - dot1 - 1));
    s = b64url_decode(sig, dot2 + 1, n - (size_t)(dot2 + 1 - secret));
    if (h < 0 || p < 0 || s != 64) return 0;
    header[h] = payload[p] = 0;
    struct claims head = {0};
    memset(&claims, 0, sizeof claims);
    if (!parse_claims(header, &head) || !parse_claims(payload, &claims) || strcmp(head.alg, "ES256") ||
        !head.kid[0] || !claims.iss[0] || !claims.sub[0] || !claims.has_iat || !claims.has_exp || !claims.aud)
        return 0;
    if (!claims_hold(&claims, client_id, now) || strcmp(head.kid, TEAM_KID) ||
        !verify_es256(secret, (size_t)(dot2 - secret), sig))
        return 0;
    pthread_mutex_lock(&secret_lock);
    memcpy(slot->digest, digest, 32), slot->claims = claims, slot->full = 1;
    pthread_mutex_unlock(&secret_lock);
    return 1;
}

/* ---- HTTP: one connection's buffers, responses, forms -------------------------------------------------- */
struct conn { int fd, want_out, closing; size_t in_len, out_len, out_sent, out_cap; char *out; char in[MAX_REQUEST + 1]; };

static void append(struct conn *c, const char *data, size_t n) {
    if (c->out_len + n > c->out_cap) {
        c->out_cap = (c->out_len + n) * 2;
        if (!(c->out = realloc(c->out, c->out_cap))) die("out of memory");
    }
    memcpy(c->out + c->out_len, data, n);
    c->out_len += n;
}
/* Apple's headers on every answer (the mock's: Content-Type with charset, no-store, no-cache, Server). */
static void respond(struct conn *c, const char *status, const char *extra, const char *body, size_t n) {
    char head[1024];
    int k = snprintf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Type: application/json;charset=UTF-8\r\n"
                     "Cache-Control: no-store\r\nPragma: no-cache\r\nServer: Apple\r\n%sContent-Length: %zu\r\n\r\n", status, extra, n);
    append(c, head, (size_t)k);
    append(c, body, n);
}
static void fail(struct conn *c, const char *error, const char *description) {
    char body[256];
    int k = description ? snprintf(body, sizeof body, "{\"error\":\"%s\",\"error_description\":\"%s\"}", error, description)
                        : snprintf(body, sizeof body, "{\"error\":\"%s\"}", error);
    respond(c, "400 Bad Request", "", body, (size_t)k);
}

enum { CLIENT_ID, CLIENT_SECRET, GRANT_TYPE, CODE, REDIRECT_URI, REFRESH_TOKEN, RESPONSE_TYPE, LOGIN_HINT, STATE, FIELDS };
static const char *const field_names[FIELDS] = {"client_id", "client_secret", "grant_type", "code", "redirect_uri",
                                                "refresh_token", "response_type", "login_hint", "state"};
struct form { char *value[FIELDS]; size_t length[FIELDS]; };
/* Percent-decodes s[0..n) in place ('+' is a space); the decoded length, or -1 on a bad escape. */
static long pct_decode(char *s, size_t n) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%') {
            char hex[3] = {i + 2 < n ? s[i + 1] : 0, i + 2 < n ? s[i + 2] : 0, 0};
            char *end;
            if (!hex[0] || !hex[1] || !strchr("0123456789abcdefABCDEF", hex[0]) || !strchr("0123456789abcdefABCDEF", hex[1])) return -1;
            s[o++] = (char)strtol(hex, &end, 16), i += 2;
        } else s[o++] = s[i] == '+' ? ' ' : s[i];
    }
    return (long)o;
}
/* application/x-www-form-urlencoded, decoded in place and NUL-terminated (the caller keeps p[n] writable);
 * 0 on a bad escape or a field given twice (the mock's invalid_request). Empty values count as absent. */
static int parse_form(char *p, size_t n, struct form *f) {
    char *end = p + n;
    memset(f, 0, sizeof *f);
    while (p < end) {
        char *amp = memchr(p, '&', (size_t)(end - p)), *eq;
        if (!amp) amp = end;
        eq = memchr(p, '=', (size_t)(amp - p));
        if (!eq) eq = amp;
        long nl = pct_decode(p, (size_t)(eq - p)), vl = eq < amp ? pct_decode(eq + 1, (size_t)(amp - eq - 1)) : 0;
        if (nl < 0 || vl < 0) return 0;
        for (int i = 0; i < FIELDS; i++)
            if ((size_t)nl == strlen(field_names[i]) && !memcmp(p, field_names[i], (size_t)nl)) {
                if (f->value[i]) return 0;
                f->value[i] = eq < amp ? eq + 1 : amp, f->length[i] = (size_t)vl;
            }
        if (eq < amp) eq[1 + vl] = 0;
        p = amp + 1;
    }
    for (int i = 0; i < FIELDS; i++)
        if (f->value[i] && !f->length[i]) f->value[i] = NULL;
    return 1;
}

/* ---- the endpoints ------------------------------------------------------------------------------------- */
/* Appends ".<base64url RS256 signature of jws[0..n)>" (a fresh EVP_MD_CTX per signature, as the mock). */
static size_t sign_rs256(char *jws, size_t n) {
    unsigned char sig[512];
    size_t length = sizeof sig;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (!ctx || EVP_DigestSignInit(ctx, NULL, sha256, NULL, signing_key) != 1 ||
        EVP_DigestSign(ctx, sig, &length, (const unsigned char *)jws, n) != 1)
        die("RS256 signing failed");
    EVP_MD_CTX_free(ctx);
    jws[n] = '.';
    return n + 1 + b64url(jws + n + 1, sig, length);
}

static void token(struct conn *c, char *body, size_t n, int is_form) {
    struct form f;
    long long now = time(NULL);
    if (!is_form) return fail(c, "invalid_client", NULL);
    if (!parse_form(body, n, &f)) return fail(c, "invalid_request", NULL);
    if (!f.value[CLIENT_ID] || !f.value[CLIENT_SECRET]) return fail(c, "invalid_client", NULL);
    const char *grant_type = f.value[GRANT_TYPE], *client_id = f.value[CLIENT_ID];
    int refresh = grant_type && !strcmp(grant_type, "refresh_token");
    if (!refresh && (!grant_type || strcmp(grant_type, "authorization_code"))) return fail(c, "unsupported_grant_type", NULL);
    int authenticated = authenticate(f.value[CLIENT_SECRET], f.length[CLIENT_SECRET], client_id, now);
    int presented = refresh ? REFRESH_TOKEN : CODE;
    if (!f.value[presented]) return authenticated ? fail(c, "invalid_request", NULL) : fail(c, "invalid_client", NULL);

    struct entry *access = new_entry('a', now + ACCESS_LIFETIME, NULL), *renewal = refresh ? NULL : new_entry('r', 0, NULL);
    const char *error = NULL, *redirect = f.value[REDIRECT_URI];
    pthread_mutex_lock(&store.lock);
    struct entry *grant = store_find(f.value[presented], f.length[presented]);
    if (!grant || grant->token[0] != (refresh ? 'r' : 'c'))
        error = refresh ? "The token has expired or has been revoked." : "The code has expired or has been revoked.";
    else if (!refresh && grant->state == REDEEMED) error = "The code has already been used.";
    else if (!refresh && (grant->state == EXPIRED || now >= grant->expires))
        grant->state = EXPIRED, error = "The code has expired or has been revoked.";
    else if (!authenticated) error = ""; /* invalid_client; authenticated also means client_id is the grant's */
    else if (!refresh && (!redirect || strcmp(redirect, redirect_uris[grant->redirect])))
        error = "redirect_uri mismatch."; /* the mock names the presented URI; not on the benchmark's path */
    else {
        if (!refresh) grant->state = REDEEMED;
        access->auth_time = grant->auth_time, access->user = grant->user, access->redirect = grant->redirect;
        store_insert(access);
        if (renewal) renewal->auth_time = grant->auth_time, renewal->user = grant->user, store_insert(renewal);
    }
    pthread_mutex_unlock(&store.lock);
    if (error) {
        free(access), free(renewal);
        return *error ? fail(c, "invalid_grant", error) : fail(c, "invalid_client", NULL);
    }

    /* The id_token: the mock's claims in its order for this grant; at_hash binds the access token. */
    unsigned char digest[32];
    char at_hash[32], auth_time[40] = "", payload[600], jws[1400], response[2000];
    EVP_Digest(access->token, TOKEN_LENGTH, digest, NULL, sha256, NULL);
    b64url(at_hash, digest, 16);
    if (!refresh) snprintf(auth_time, sizeof auth_time, ",\"auth_time\":%lld", access->auth_time);
    int k = snprintf(payload, sizeof payload,
                     "{\"iss\":\"" ISSUER "\",\"aud\":\"" CLIENT "\",\"exp\":%lld,\"iat\":%lld,\"sub\":\"%s\","
                     "\"at_hash\":\"%s\"%s,\"nonce_supported\":true}",
                     now + ID_TOKEN_LIFETIME, now, users[access->user][1], at_hash, auth_time);
    size_t j = (size_t)sprintf(jws, "%s.", id_header);
    j += b64url(jws + j, (unsigned char *)payload, (size_t)k);
    sign_rs256(jws, j);
    if (renewal)
        k = snprintf(response, sizeof response, "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":%d,"
                     "\"refresh_token\":\"%s\",\"id_token\":\"%s\"}", access->token, ACCESS_LIFETIME, renewal->token, jws);
    else
        k = snprintf(response, sizeof response, "{\"access_token\":\"%s\",\"token_type\":\"Bearer\",\"expires_in\":%d,"
                     "\"id_token\":\"%s\"}", access->token, ACCESS_LIFETIME, jws);
    respond(c, "200 OK", "", response, (size_t)k);
}

/* GET /auth/authorize, headless: a code for login_hint's user (the benchmark mints its codes here, as it does
 * from the mock through the same query-mode request; not a measured path, and no consent page). */
static void authorize(struct conn *c, char *query, size_t n) {
    struct form f;
    size_t user = 0, redirect = 0;
    if (!parse_form(query, n, &f) || !f.value[CLIENT_ID] || strcmp(f.value[CLIENT_ID], CLIENT) ||
        !f.value[RESPONSE_TYPE] || strcmp(f.value[RESPONSE_TYPE], "code") || !f.value[REDIRECT_URI] || !f.value[LOGIN_HINT])
        return fail(c, "invalid_request", NULL);
    while (redirect < COUNT(redirect_uris) && strcmp(f.value[REDIRECT_URI], redirect_uris[redirect])) redirect++;
    while (user < COUNT(users) && strcmp(f.value[LOGIN_HINT], users[user][0])) user++;
    if (redirect == COUNT(redirect_uris) || user == COUNT(users)) return fail(c, "invalid_request", NULL);
    long long now = time(NULL);
    struct entry *code = new_entry('c', now + CODE_LIFETIME, NULL);
    code->user = (unsigned char)user, code->redirect = (unsigned char)redirect, code->auth_time = now;
    char location[512], state[200] = "";
    if (f.value[STATE]) { /* echoed percent-encoded */
        size_t o = 0;
        strcpy(state, "&state=");
        for (const char *s = f.value[STATE]; *s && o + 10 < sizeof state - 7; s++)
            o += (size_t)(strchr("-._~", *s) || (*s >= '0' && *s <= '9') || ((*s | 32) >= 'a' && (*s | 32) <= 'z')
                      ? sprintf(state + 7 + o, "%c", *s) : sprintf(state + 7 + o, "%%%02X", (unsigned char)*s));
    }
    snprintf(location, sizeof location, "Location: %s?code=%s%s\r\n", redirect_uris[redirect], code->token, state);
    pthread_mutex_lock(&store.lock);
    store_insert(code);
    pthread_mutex_unlock(&store.lock);
    respond(c, "302 Found", location, "", 0);
}

/* Answers every complete request in c->in; 0 when the connection must close after its output. */
static int handle(struct conn *c) {
    for (;;) {
        char *end = memmem(c->in, c->in_len, "\r\n\r\n", 4);
        if (!end) {
            if (c->in_len < MAX_REQUEST) return 1;
            respond(c, "431 Request Header Fields Too Large", "Connection: close\r\n", "", 0);
            return 0;
        }
        size_t head = (size_t)(end + 4 - c->in), length = 0;
        int is_form = 0, chunked = 0;
        *end = 0;
        char *line = strstr(c->in, "\r\n"), *target = strchr(c->in, ' '), *version = target ? strchr(target + 1, ' ') : NULL;
        if (!version || (line && version > line)) { respond(c, "400 Bad Request", "Connection: close\r\n", "", 0); return 0; }
        if (strncmp(version + 1, "HTTP/1.1", 8)) c->closing = 1;
        for (; line; line = strstr(line + 2, "\r\n")) {
            const char *h = line + 2;
            if (!strncasecmp(h, "content-length:", 15)) length = strtoul(h + 15, NULL, 10);
            else if (!strncasecmp(h, "content-type:", 13)) is_form = strncasecmp(h + 13 + strspn(h + 13, " "), "application/x-www-form-urlencoded", 33) == 0;
            else if (!strncasecmp(h, "transfer-encoding:", 18)) chunked = 1;
            else if (!strncasecmp(h, "connection:", 11) && strcasestr(h + 11, "close")) c->closing = 1;
        }
        if (chunked || head + length > MAX_REQUEST) {
            respond(c, chunked ? "501 Not Implemented" : "413 Content Too Large", "Connection: close\r\n", "", 0);
            return 0;
        }
        if (c->in_len < head + length) { *end = '\r'; return 1; }
        char *body = c->in + head, saved = body[length];
        size_t target_length = (size_t)(version - target - 1);
        *version = 0;
        if (!strncmp(c->in, "GET ", 4) && !strcmp(target + 1, "/auth/keys")) respond(c, "200 OK", "", jwks, jwks_length);
        else if (!strncmp(c->in, "POST ", 5) && !strcmp(target + 1, "/auth/token")) token(c, body, length, is_form);
        else if (!strncmp(c->in, "GET ", 4) && !strncmp(target + 1, "/auth/authorize?", 16))
            authorize(c, target + 17, target_length - 16);
        else respond(c, "404 Not Found", "", "{\"error\":\"not_found\"}", 21);
        body[length] = saved;
        memmove(c->in, body + length, c->in_len - head - length);
        c->in_len -= head + length;
        if (c->closing) return 0;
    }
}

/* Sends what it can; 0 when the connection is done (an error, or closing with nothing left to send). */
static int flush(struct conn *c, int ep, int keep) {
    while (c->out_sent < c->out_len) {
        ssize_t w = send(c->fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno == EAGAIN) break;
        if (w < 0) return 0;
        c->out_sent += (size_t)w;
    }
    int pending = c->out_sent < c->out_len;
    if (!pending) c->out_len = c->out_sent = 0;
    if (!pending && !keep) return 0;
    if (pending != c->want_out) {
        struct epoll_event ev = {.events = EPOLLIN | (pending ? EPOLLOUT : 0), .data.ptr = c};
        epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
        c->want_out = pending;
    }
    return 1;
}

static void *serve(void *arg) {
    int listener = (int)(intptr_t)arg, ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL}, events[256];
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev)) die("epoll failed");
    for (;;) {
        int n = epoll_wait(ep, events, 256, -1);
        for (int i = 0; i < n; i++) {
            struct conn *c = events[i].data.ptr;
            if (!c) {
                int fd, one = 1;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    if (!(c = calloc(1, sizeof *c))) die("out of memory");
                    c->fd = fd;
                    ev.events = EPOLLIN, ev.data.ptr = c;
                    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
                }
                continue;
            }
            int keep = 1;
            if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) {
                ssize_t r = read(c->fd, c->in + c->in_len, MAX_REQUEST - c->in_len);
                if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) keep = 0;
                else if (r > 0) c->in_len += (size_t)r, keep = handle(c);
            }
            if (!flush(c, ep, keep)) {
                close(c->fd);
                free(c->out), free(c);
            }
        }
    }
    return NULL;
}

/* The JWKS member of one key, laid out as Apple's (docs/fidelity.md, "JWKS body layout": two-space indent). */
static void add_jwk(EVP_PKEY *key, const char *kid) {
    BIGNUM *n = NULL, *e = NULL;
    unsigned char bytes[1024];
    char n64[1400], e64[16];
    if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n) != 1 || EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &e) != 1 ||
        BN_num_bytes(n) > (int)sizeof bytes || BN_num_bytes(e) > 8)
        die("not an RSA key");
    b64url(n64, bytes, (size_t)BN_bn2bin(n, bytes));
    b64url(e64, bytes, (size_t)BN_bn2bin(e, bytes));
    jwks_length += (size_t)snprintf(jwks + jwks_length, sizeof jwks - jwks_length,
                                    "%s\n    {\n      \"kty\": \"RSA\",\n      \"kid\": \"%s\",\n      \"use\": \"sig\",\n"
                                    "      \"alg\": \"RS256\",\n      \"n\": \"%s\",\n      \"e\": \"%s\"\n    }",
                                    jwks_length > 13 ? "," : "", kid, n64, e64);
    BN_free(n), BN_free(e);
}

int main(int argc, char **argv) {
    char path[4096];
    FILE *file;
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s KEYS_DIR [PORT]\n", argv[0]);
        return 64;
    }
    signal(SIGPIPE, SIG_IGN);
    if (!(sha256 = EVP_MD_fetch(NULL, "SHA256", NULL))) die("no SHA-256");
    jwks_length = (size_t)sprintf(jwks, "{\n  \"keys\": [");
    for (size_t i = 0; i < COUNT(signing_kids); i++) {
        snprintf(path, sizeof path, "%s/signing-%s.pem", argv[1], signing_kids[i]);
        EVP_PKEY *key = (file = fopen(path, "r")) ? PEM_read_PrivateKey(file, NULL, NULL, NULL) : NULL;
        if (!key) die(path);
        fclose(file);
        add_jwk(key, signing_kids[i]);
        if (i == 0) signing_key = key; else EVP_PKEY_free(key);
    }
    jwks_length += (size_t)snprintf(jwks + jwks_length, sizeof jwks - jwks_length, "\n  ]\n}");
    snprintf(path, sizeof path, "%s/AuthKey_%s.pub.pem", argv[1], TEAM_KID);
    if (!(team_key = (file = fopen(path, "r")) ? PEM_read_PUBKEY(file, NULL, NULL, NULL) : NULL)) die(path);
    fclose(file);
    snprintf(path, sizeof path, "{\"kid\":\"%s\",\"alg\":\"RS256\"}", signing_kids[0]);
    b64url(id_header, (unsigned char *)path, strlen(path));
    if (!(store.buckets = calloc(1024, sizeof *store.buckets))) die("out of memory");
    store.mask = 1023;

    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)(argc == 3 ? atoi(argv[2]) : 0))};
    socklen_t size = sizeof address;
    pthread_t thread;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (long t = 0; t < (threads > 0 ? threads : 1); t++) { /* one listener per thread, the kernel spreads connections */
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
        if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) ||
            bind(fd, (struct sockaddr *)&address, sizeof address) || listen(fd, 1024) ||
            getsockname(fd, (struct sockaddr *)&address, &size))
            die("cannot listen");
        if (pthread_create(&thread, NULL, serve, (void *)(intptr_t)fd)) die("cannot start a thread");
    }
    printf("ref_server listening on http://127.0.0.1:%d\n", ntohs(address.sin_port));
    fflush(stdout);
    pthread_join(thread, NULL);
    return 0;
}
