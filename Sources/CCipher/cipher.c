/* Sealed files: what the core writes besides the database (attachments, downloads, the image
 * cache) when it has a key, encrypted as a stream of chunks:
 *
 *   header (64 bytes): magic "carfit-sealed-v1" | salt (16) | key check (16) | nonce prefix (4) | zeros (12)
 *   chunk 0, chunk 1, ...: ciphertext of 65536 bytes (the last: 0 to 65536) | tag (16)
 *
 * ChaCha20-Poly1305 (libcrypto). The file's key is HMAC-SHA256(master key, "carfit sealed key" |
 * salt), so every file has its own; the key check is the first 16 bytes of HMAC-SHA256(master
 * key, "carfit key check" | salt). Chunk i's nonce is the prefix and i (8 bytes, big endian), so
 * it is bound to its index; its associated data is one byte, 1 for the last chunk and 0 before
 * it, so a file cut at a chunk boundary is refused. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "ccipher.h"

static void derive(const unsigned char *master, const char *label, const unsigned char *salt, unsigned char out[32]) {
    unsigned char msg[64];
    size_t n = strlen(label);
    memcpy(msg, label, n);
    memcpy(msg + n, salt, 16);
    unsigned int len = 32;
    HMAC(EVP_sha256(), master, 32, msg, n + 16, out, &len);
    OPENSSL_cleanse(msg, sizeof msg);
}

static void keyCheck(const unsigned char *master, const unsigned char *salt, unsigned char out[16]) {
    unsigned char full[32];
    derive(master, "carfit key check", salt, full);
    memcpy(out, full, 16);
    OPENSSL_cleanse(full, sizeof full);
}
#define CF_SEAL_MAGIC "carfit-sealed-v1"
#define CF_SEAL_HDR 64

struct cf_sealer {
    int fd;
    EVP_CIPHER_CTX *ctx;
    unsigned char prefix[4];
    uint64_t index;
    size_t fill;
    unsigned char buf[CF_SEAL_CHUNK];
    unsigned char out[CF_SEAL_CHUNK + 16];
};

struct cf_opener {
    int fd;
    int done;
    EVP_CIPHER_CTX *ctx;
    unsigned char prefix[4];
    uint64_t index;
    unsigned char in[CF_SEAL_CHUNK + 16];
};

static int writeAll(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        if (w == 0) { errno = EIO; return -1; }
        p += w; n -= (size_t)w;
    }
    return 0;
}

static size_t readFull(int fd, unsigned char *p, size_t n, int *failed) {
    size_t got = 0;
    *failed = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0) { if (errno == EINTR) continue; *failed = 1; break; }
        if (r == 0) break;
        got += (size_t)r;
    }
    return got;
}

static void chunkNonce(const unsigned char prefix[4], uint64_t index, unsigned char nonce[12]) {
    memcpy(nonce, prefix, 4);
    for (int i = 0; i < 8; i++) nonce[4 + i] = (unsigned char)(index >> (56 - 8 * i));
}

cf_sealer *cf_seal_begin(int fd, const unsigned char *key) {
    cf_sealer *s = calloc(1, sizeof *s);
    if (!s) { errno = ENOMEM; return NULL; }
    s->fd = fd;
    unsigned char h[CF_SEAL_HDR], salt[16], fileKey[32];
    memset(h, 0, sizeof h);
    memcpy(h, CF_SEAL_MAGIC, 16);
    s->ctx = EVP_CIPHER_CTX_new();
    int ok = s->ctx && RAND_bytes(salt, 16) == 1 && RAND_bytes(s->prefix, 4) == 1;
    if (ok) {
        memcpy(h + 16, salt, 16);
        keyCheck(key, salt, h + 32);
        memcpy(h + 48, s->prefix, 4);
        derive(key, "carfit sealed key", salt, fileKey);
        ok = EVP_EncryptInit_ex(s->ctx, EVP_chacha20_poly1305(), NULL, fileKey, NULL) == 1;
        OPENSSL_cleanse(fileKey, sizeof fileKey);
    }
    if (!ok) { errno = EIO; cf_seal_free(s); return NULL; }
    if (writeAll(fd, h, sizeof h) != 0) { cf_seal_free(s); return NULL; }
    return s;
}

static int sealChunk(cf_sealer *s, int last) {
    unsigned char nonce[12], aad = last ? 1 : 0;
    chunkNonce(s->prefix, s->index, nonce);
    int len = 0, fin = 0;
    int ok = EVP_EncryptInit_ex(s->ctx, NULL, NULL, NULL, nonce) == 1
        && EVP_EncryptUpdate(s->ctx, NULL, &len, &aad, 1) == 1
        && EVP_EncryptUpdate(s->ctx, s->out, &len, s->buf, (int)s->fill) == 1
        && EVP_EncryptFinal_ex(s->ctx, s->out + len, &fin) == 1
        && EVP_CIPHER_CTX_ctrl(s->ctx, EVP_CTRL_AEAD_GET_TAG, 16, s->out + s->fill) == 1;
    if (!ok) { errno = EIO; return -1; }
    if (writeAll(s->fd, s->out, s->fill + 16) != 0) return -1;
    s->index++;
    s->fill = 0;
    return 0;
}

int cf_seal_write(cf_sealer *s, const void *bytes, size_t n) {
    const unsigned char *p = bytes;
    while (n > 0) {
        /* A full chunk is sealed only when more bytes follow: the last one is marked as such. */
        if (s->fill == CF_SEAL_CHUNK && sealChunk(s, 0) != 0) return -1;
        size_t take = CF_SEAL_CHUNK - s->fill < n ? CF_SEAL_CHUNK - s->fill : n;
        memcpy(s->buf + s->fill, p, take);
        s->fill += take; p += take; n -= take;
    }
    return 0;
}

int cf_seal_finish(cf_sealer *s) { return sealChunk(s, 1); }

void cf_seal_free(cf_sealer *s) {
    if (!s) return;
    EVP_CIPHER_CTX_free(s->ctx);
    OPENSSL_cleanse(s->buf, sizeof s->buf);
    free(s);
}

cf_opener *cf_open_begin(int fd, const unsigned char *key, int *status) {
    unsigned char h[CF_SEAL_HDR], check[16], fileKey[32];
    int failed = 0;
    size_t got = readFull(fd, h, sizeof h, &failed);
    if (failed) { *status = CF_SEALED_IO; return NULL; }
    if (got < sizeof h || memcmp(h, CF_SEAL_MAGIC, 16) != 0) { *status = CF_SEALED_NOT_SEALED; return NULL; }
    keyCheck(key, h + 16, check);
    if (CRYPTO_memcmp(check, h + 32, 16) != 0) { *status = CF_SEALED_WRONG_KEY; return NULL; }
    cf_opener *o = calloc(1, sizeof *o);
    if (!o) { *status = CF_SEALED_IO; return NULL; }
    o->fd = fd;
    memcpy(o->prefix, h + 48, 4);
    derive(key, "carfit sealed key", h + 16, fileKey);
    o->ctx = EVP_CIPHER_CTX_new();
    int ok = o->ctx && EVP_DecryptInit_ex(o->ctx, EVP_chacha20_poly1305(), NULL, fileKey, NULL) == 1;
    OPENSSL_cleanse(fileKey, sizeof fileKey);
    if (!ok) { cf_open_free(o); *status = CF_SEALED_IO; return NULL; }
    *status = CF_SEALED_OK;
    return o;
}

static int openChunk(cf_opener *o, size_t n, int last, unsigned char *out) {
    unsigned char nonce[12], aad = last ? 1 : 0;
    chunkNonce(o->prefix, o->index, nonce);
    int len = 0, fin = 0;
    return EVP_DecryptInit_ex(o->ctx, NULL, NULL, NULL, nonce) == 1
        && EVP_DecryptUpdate(o->ctx, NULL, &len, &aad, 1) == 1
        && EVP_DecryptUpdate(o->ctx, out, &len, o->in, (int)(n - 16)) == 1
        && EVP_CIPHER_CTX_ctrl(o->ctx, EVP_CTRL_AEAD_SET_TAG, 16, o->in + n - 16) == 1
        && EVP_DecryptFinal_ex(o->ctx, out + len, &fin) == 1;
}

long cf_open_chunk(cf_opener *o, unsigned char *out) {
    if (o->done) return 0;
    int failed = 0;
    size_t n = readFull(o->fd, o->in, sizeof o->in, &failed);
    if (failed) return CF_SEALED_READ_FAILED;
    if (n < 16) return CF_SEALED_DAMAGED;  /* cut short: the last chunk never came */
    int last;
    if (n == sizeof o->in && openChunk(o, n, 0, out)) last = 0;
    else if (openChunk(o, n, 1, out)) last = 1;
    else return CF_SEALED_DAMAGED;
    o->index++;
    if (last) {
        unsigned char extra;
        if (readFull(o->fd, &extra, 1, &failed) != 0 || failed) return CF_SEALED_DAMAGED;
        o->done = 1;
    }
    return (long)(n - 16);
}

int cf_open_done(const cf_opener *o) { return o->done; }

void cf_open_free(cf_opener *o) {
    if (!o) return;
    EVP_CIPHER_CTX_free(o->ctx);
    free(o);
}

int cf_is_sealed(int fd) {
    unsigned char h[16];
    return pread(fd, h, 16, 0) == 16 && memcmp(h, CF_SEAL_MAGIC, 16) == 0;
}
