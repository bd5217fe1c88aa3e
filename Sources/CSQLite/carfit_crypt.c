/* The encrypting VFS: a wrapper around SQLite's default (unix) VFS.
 *
 * A file opened through it is laid out as
 *
 *   header (64 bytes): magic "carfit-crypt-v1\0" | salt (16, random) | key check (16) | zeros (16)
 *   block 0, block 1, ...: nonce (12, random per write) | ciphertext (4096) | tag (16)
 *
 * Block i holds logical bytes [4096 i, 4096 (i+1)); its associated data is i (8 bytes, little
 * endian) and the file's salt, so a block cannot be moved within a file or between files. The
 * file's key is HMAC-SHA256(master key, "carfit file key" | salt); the key check is the first
 * 16 bytes of HMAC-SHA256(master key, "carfit key check" | salt): a wrong key is told apart
 * without decrypting anything. The logical size is the number of whole physical blocks times
 * 4096 (a torn block at the end, left by a crash mid-extension, is not counted).
 *
 * Writes that cover part of a block read, decrypt, patch and encrypt the whole block. In a WAL
 * a frame's header is encrypted together with the page written right after it. A block that
 * fails authentication is an I/O error in the database; in a WAL or journal it reads as zeros
 * (after a retry, in case a concurrent writer was caught mid-write), which SQLite's own frame and
 * record checksums then refuse, as they refuse a torn tail in a plaintext WAL. The shared-memory
 * index (-shm) holds no row data and is left to the unix VFS as it is; memory mapping is off.
 *
 * Temporary files (no name) are encrypted under a key drawn at random once per process. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include "sqlite3.h"
#include "carfit_crypt.h"

#define CF_MAGIC "carfit-crypt-v1"       /* 15 characters and its NUL: 16 bytes */
#define CF_HDR 64
#define CF_SALT_OFF 16
#define CF_CHECK_OFF 32
#define CF_B 4096
#define CF_NONCE 12
#define CF_TAG 16
#define CF_PB (CF_NONCE + CF_B + CF_TAG)

typedef struct CfVfs {
    sqlite3_vfs base;
    sqlite3_vfs *real;
    unsigned char master[CF_CRYPT_KEY_BYTES];
    char name[48];
} CfVfs;

typedef struct CfFile {
    sqlite3_file base;
    sqlite3_file *real;
    const unsigned char *master;
    int lenient;              /* WAL and journals: a block failing authentication reads as zeros */
    int haveHeader;
    unsigned char salt[16];
    unsigned char fileKey[32];
    EVP_CIPHER_CTX *enc, *dec;
    sqlite3_int64 cachedBlock; /* the block in `plain`, or -1 */
    int writeBack;             /* WAL: a frame's header is encrypted with the page that follows it */
    int dirty;                 /* `plain` holds a write not yet encrypted and written */
    unsigned char plain[CF_B];
    unsigned char phys[CF_PB];
} CfFile;

static unsigned char ephemeral[CF_CRYPT_KEY_BYTES];
static pthread_once_t ephemeralOnce = PTHREAD_ONCE_INIT;
static int ephemeralOK;
static void makeEphemeral(void) { ephemeralOK = RAND_bytes(ephemeral, sizeof ephemeral) == 1; }

static void derive(const unsigned char *master, const char *label, const unsigned char *salt, unsigned char out[32]) {
    unsigned char msg[64];
    size_t n = strlen(label);
    memcpy(msg, label, n);
    memcpy(msg + n, salt, 16);
    unsigned int len = 32;
    HMAC(EVP_sha256(), master, CF_CRYPT_KEY_BYTES, msg, n + 16, out, &len);
    OPENSSL_cleanse(msg, sizeof msg);
}

static void keyCheck(const unsigned char *master, const unsigned char *salt, unsigned char out[16]) {
    unsigned char full[32];
    derive(master, "carfit key check", salt, full);
    memcpy(out, full, 16);
    OPENSSL_cleanse(full, sizeof full);
}

static int setFileKey(CfFile *f) {
    derive(f->master, "carfit file key", f->salt, f->fileKey);
    if (EVP_EncryptInit_ex(f->enc, EVP_chacha20_poly1305(), NULL, f->fileKey, NULL) != 1) return SQLITE_IOERR;
    if (EVP_DecryptInit_ex(f->dec, EVP_chacha20_poly1305(), NULL, f->fileKey, NULL) != 1) return SQLITE_IOERR;
    f->haveHeader = 1;
    f->cachedBlock = -1;
    return SQLITE_OK;
}

static sqlite3_int64 physSize(CfFile *f, int *rc) {
    sqlite3_int64 n = 0;
    *rc = f->real->pMethods->xFileSize(f->real, &n);
    return n;
}

/* Loads the header from the file when it has one and this handle has not read it yet. */
static int loadHeader(CfFile *f) {
    if (f->haveHeader) return SQLITE_OK;
    int rc;
    sqlite3_int64 n = physSize(f, &rc);
    if (rc != SQLITE_OK) return rc;
    if (n < CF_HDR) return SQLITE_OK;
    unsigned char h[CF_HDR];
    rc = f->real->pMethods->xRead(f->real, h, CF_HDR, 0);
    if (rc != SQLITE_OK) return rc == SQLITE_IOERR_SHORT_READ ? SQLITE_OK : rc;
    if (memcmp(h, CF_MAGIC, 16) != 0) return SQLITE_NOTADB;
    unsigned char check[16];
    keyCheck(f->master, h + CF_SALT_OFF, check);
    if (CRYPTO_memcmp(check, h + CF_CHECK_OFF, 16) != 0) return SQLITE_AUTH;
    memcpy(f->salt, h + CF_SALT_OFF, 16);
    return setFileKey(f);
}

/* Writes a new header to a file that has none (the caller holds SQLite's lock for writing). */
static int ensureHeader(CfFile *f) {
    int rc = loadHeader(f);
    if (rc != SQLITE_OK || f->haveHeader) return rc;
    unsigned char h[CF_HDR];
    memset(h, 0, sizeof h);
    memcpy(h, CF_MAGIC, 16);
    if (RAND_bytes(f->salt, 16) != 1) return SQLITE_IOERR;
    memcpy(h + CF_SALT_OFF, f->salt, 16);
    keyCheck(f->master, f->salt, h + CF_CHECK_OFF);
    rc = f->real->pMethods->xWrite(f->real, h, CF_HDR, 0);
    if (rc != SQLITE_OK) return rc;
    return setFileKey(f);
}

static void blockAAD(CfFile *f, sqlite3_int64 block, unsigned char aad[24]) {
    uint64_t b = (uint64_t)block;
    for (int i = 0; i < 8; i++) aad[i] = (unsigned char)(b >> (8 * i));
    memcpy(aad + 8, f->salt, 16);
}

static int allZero(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) if (p[i]) return 0;
    return 1;
}

static int writeBlock(CfFile *f, sqlite3_int64 block);

/* Encrypts and writes the block held back by write-back, if any. */
static int flush(CfFile *f) {
    if (!f->dirty) return SQLITE_OK;
    f->dirty = 0;
    return writeBlock(f, f->cachedBlock);
}

/* Flushes, then forgets the block in `plain` (another connection may change the file). */
static int forget(CfFile *f) {
    int rc = flush(f);
    f->cachedBlock = -1;
    return rc;
}

/* Whether the block in `plain` is still the file's. A WAL is written by other connections between
 * this one's transactions, and its handle hears of none of their locks: a block in memory is
 * taken only while the file still holds the nonce this handle last wrote or read there (a
 * rewrite draws a new one). */
static int cacheCurrent(CfFile *f) {
    if (f->cachedBlock < 0) return 0;
    if (!f->writeBack || f->dirty) return 1;
    unsigned char nonce[CF_NONCE];
    int rc = f->real->pMethods->xRead(f->real, nonce, CF_NONCE, CF_HDR + f->cachedBlock * (sqlite3_int64)CF_PB);
    return rc == SQLITE_OK && memcmp(nonce, f->phys, CF_NONCE) == 0;
}

/* Reads block `block` into f->plain. *present is 0 when the block lies past the end of the file. */
static int readBlock(CfFile *f, sqlite3_int64 block, int *present) {
    if (f->cachedBlock == block && cacheCurrent(f)) { *present = 1; return SQLITE_OK; }
    int rc = forget(f);
    if (rc != SQLITE_OK) return rc;
    for (int attempt = 0; ; attempt++) {
        int rc = f->real->pMethods->xRead(f->real, f->phys, CF_PB, CF_HDR + block * (sqlite3_int64)CF_PB);
        if (rc == SQLITE_IOERR_SHORT_READ) { memset(f->plain, 0, CF_B); *present = 0; return SQLITE_OK; }
        if (rc != SQLITE_OK) return rc;
        *present = 1;
        if (allZero(f->phys, CF_PB)) { memset(f->plain, 0, CF_B); f->cachedBlock = block; return SQLITE_OK; }
        unsigned char aad[24];
        blockAAD(f, block, aad);
        int len = 0, ok = EVP_DecryptInit_ex(f->dec, NULL, NULL, NULL, f->phys) == 1
            && EVP_DecryptUpdate(f->dec, NULL, &len, aad, sizeof aad) == 1
            && EVP_DecryptUpdate(f->dec, f->plain, &len, f->phys + CF_NONCE, CF_B) == 1
            && EVP_CIPHER_CTX_ctrl(f->dec, EVP_CTRL_AEAD_SET_TAG, CF_TAG, f->phys + CF_NONCE + CF_B) == 1
            && EVP_DecryptFinal_ex(f->dec, f->plain + len, &len) == 1;
        if (ok) { f->cachedBlock = block; return SQLITE_OK; }
        if (attempt < 3) { sched_yield(); continue; }
        memset(f->plain, 0, CF_B);
        return f->lenient ? SQLITE_OK : SQLITE_IOERR_DATA;
    }
}

/* Encrypts f->plain as block `block` and writes it. */
static int writeBlock(CfFile *f, sqlite3_int64 block) {
    unsigned char aad[24];
    blockAAD(f, block, aad);
    if (RAND_bytes(f->phys, CF_NONCE) != 1) return SQLITE_IOERR_WRITE;
    int len = 0, ok = EVP_EncryptInit_ex(f->enc, NULL, NULL, NULL, f->phys) == 1
        && EVP_EncryptUpdate(f->enc, NULL, &len, aad, sizeof aad) == 1
        && EVP_EncryptUpdate(f->enc, f->phys + CF_NONCE, &len, f->plain, CF_B) == 1
        && EVP_EncryptFinal_ex(f->enc, f->phys + CF_NONCE + len, &len) == 1
        && EVP_CIPHER_CTX_ctrl(f->enc, EVP_CTRL_AEAD_GET_TAG, CF_TAG, f->phys + CF_NONCE + CF_B) == 1;
    if (!ok) { f->cachedBlock = -1; return SQLITE_IOERR_WRITE; }
    f->cachedBlock = block;
    return f->real->pMethods->xWrite(f->real, f->phys, CF_PB, CF_HDR + block * (sqlite3_int64)CF_PB);
}

static int cfClose(sqlite3_file *pFile) {
    CfFile *f = (CfFile *)pFile;
    int flushed = f->real->pMethods ? flush(f) : SQLITE_OK;
    int rc = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    if (rc == SQLITE_OK) rc = flushed;
    EVP_CIPHER_CTX_free(f->enc);
    EVP_CIPHER_CTX_free(f->dec);
    OPENSSL_cleanse(f->fileKey, sizeof f->fileKey);
    OPENSSL_cleanse(f->plain, sizeof f->plain);
    return rc;
}

static int cfRead(sqlite3_file *pFile, void *out, int amt, sqlite3_int64 off) {
    CfFile *f = (CfFile *)pFile;
    int rc = loadHeader(f);
    if (rc != SQLITE_OK) return rc;
    unsigned char *dst = out;
    if (!f->haveHeader) { memset(dst, 0, (size_t)amt); return SQLITE_IOERR_SHORT_READ; }
    int shortRead = 0;
    while (amt > 0) {
        sqlite3_int64 block = off / CF_B;
        int within = (int)(off % CF_B), n = CF_B - within < amt ? CF_B - within : amt, present = 0;
        rc = readBlock(f, block, &present);
        if (rc != SQLITE_OK) return rc;
        if (!present) shortRead = 1;
        memcpy(dst, f->plain + within, (size_t)n);
        dst += n; off += n; amt -= n;
    }
    return shortRead ? SQLITE_IOERR_SHORT_READ : SQLITE_OK;
}

static int cfWrite(sqlite3_file *pFile, const void *in, int amt, sqlite3_int64 off) {
    CfFile *f = (CfFile *)pFile;
    int rc = ensureHeader(f);
    if (rc != SQLITE_OK) return rc;
    const unsigned char *src = in;
    /* In a WAL only a frame's header (24 bytes) is held back, to be encrypted with the page
     * written right after it: every other write is in the file when it returns, so a failure
     * is the write's, and nothing waits across transactions. */
    int holdBack = f->writeBack && amt == 24 && off >= 32;
    while (amt > 0) {
        sqlite3_int64 block = off / CF_B;
        int within = (int)(off % CF_B), n = CF_B - within < amt ? CF_B - within : amt, present = 0;
        if (f->cachedBlock != block) {
            rc = forget(f);
            if (rc != SQLITE_OK) return rc;
        }
        if (n < CF_B) {
            rc = readBlock(f, block, &present);
            if (rc != SQLITE_OK) return rc;
        }
        memcpy(f->plain + within, src, (size_t)n);
        if (f->writeBack) {
            f->cachedBlock = block;
            f->dirty = 1;
        } else {
            rc = writeBlock(f, block);
            if (rc != SQLITE_OK) return rc;
        }
        src += n; off += n; amt -= n;
    }
    return holdBack ? SQLITE_OK : flush(f);
}

static int cfTruncate(sqlite3_file *pFile, sqlite3_int64 size) {
    CfFile *f = (CfFile *)pFile;
    int rc = forget(f);
    if (rc != SQLITE_OK) return rc;
    rc = loadHeader(f);
    if (rc != SQLITE_OK) return rc;
    if (!f->haveHeader) return f->real->pMethods->xTruncate(f->real, 0);
    sqlite3_int64 blocks = (size + CF_B - 1) / CF_B;
    return f->real->pMethods->xTruncate(f->real, CF_HDR + blocks * CF_PB);
}

static int cfSync(sqlite3_file *pFile, int flags) {
    CfFile *f = (CfFile *)pFile;
    int rc = flush(f);
    if (rc != SQLITE_OK) return rc;
    return f->real->pMethods->xSync(f->real, flags);
}

static int cfFileSize(sqlite3_file *pFile, sqlite3_int64 *size) {
    CfFile *f = (CfFile *)pFile;
    int rc = flush(f);
    if (rc != SQLITE_OK) return rc;
    rc = loadHeader(f);
    if (rc != SQLITE_OK) return rc;
    sqlite3_int64 n = physSize(f, &rc);
    if (rc != SQLITE_OK) return rc;
    *size = n <= CF_HDR ? 0 : ((n - CF_HDR) / CF_PB) * CF_B;
    return SQLITE_OK;
}

static int cfLock(sqlite3_file *pFile, int lock) {
    CfFile *f = (CfFile *)pFile;
    int rc = forget(f);
    if (rc != SQLITE_OK) return rc;
    return f->real->pMethods->xLock(f->real, lock);
}

static int cfUnlock(sqlite3_file *pFile, int lock) {
    CfFile *f = (CfFile *)pFile;
    int rc = forget(f);
    if (rc != SQLITE_OK) return rc;
    return f->real->pMethods->xUnlock(f->real, lock);
}

static int cfCheckReservedLock(sqlite3_file *pFile, int *out) {
    CfFile *f = (CfFile *)pFile;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int cfFileControl(sqlite3_file *pFile, int op, void *arg) {
    CfFile *f = (CfFile *)pFile;
    switch (op) {
    case SQLITE_FCNTL_SIZE_HINT: {
        sqlite3_int64 hint = *(sqlite3_int64 *)arg;
        sqlite3_int64 phys = CF_HDR + ((hint + CF_B - 1) / CF_B) * CF_PB;
        return f->real->pMethods->xFileControl(f->real, op, &phys);
    }
    case SQLITE_FCNTL_MMAP_SIZE:
        *(sqlite3_int64 *)arg = 0;  /* pages are decrypted on read: never mapped */
        return SQLITE_OK;
    default:
        return f->real->pMethods->xFileControl(f->real, op, arg);
    }
}

static int cfSectorSize(sqlite3_file *pFile) { (void)pFile; return CF_B; }

static int cfDeviceCharacteristics(sqlite3_file *pFile) {
    CfFile *f = (CfFile *)pFile;
    int c = f->real->pMethods->xDeviceCharacteristics(f->real);
    /* A write rewrites whole blocks: no atomic or powersafe-overwrite promise survives. */
    return c & (SQLITE_IOCAP_SAFE_APPEND | SQLITE_IOCAP_SEQUENTIAL | SQLITE_IOCAP_UNDELETABLE_WHEN_OPEN);
}

static int cfShmMap(sqlite3_file *pFile, int pg, int pgsz, int extend, void volatile **pp) {
    CfFile *f = (CfFile *)pFile;
    return f->real->pMethods->xShmMap(f->real, pg, pgsz, extend, pp);
}

static int cfShmLock(sqlite3_file *pFile, int offset, int n, int flags) {
    CfFile *f = (CfFile *)pFile;
    f->cachedBlock = -1;
    return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void cfShmBarrier(sqlite3_file *pFile) {
    CfFile *f = (CfFile *)pFile;
    f->cachedBlock = -1;
    f->real->pMethods->xShmBarrier(f->real);
}

static int cfShmUnmap(sqlite3_file *pFile, int deleteFlag) {
    CfFile *f = (CfFile *)pFile;
    return f->real->pMethods->xShmUnmap(f->real, deleteFlag);
}

static const sqlite3_io_methods cfMethods = {
    2, cfClose, cfRead, cfWrite, cfTruncate, cfSync, cfFileSize, cfLock, cfUnlock, cfCheckReservedLock,
    cfFileControl, cfSectorSize, cfDeviceCharacteristics, cfShmMap, cfShmLock, cfShmBarrier, cfShmUnmap,
    NULL, NULL,
};

static int cfOpen(sqlite3_vfs *pVfs, sqlite3_filename name, sqlite3_file *pFile, int flags, int *outFlags) {
    CfVfs *v = (CfVfs *)pVfs;
    CfFile *f = (CfFile *)pFile;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)(f + 1);
    f->cachedBlock = -1;
    if (name == NULL || (flags & SQLITE_OPEN_DELETEONCLOSE)) {
        pthread_once(&ephemeralOnce, makeEphemeral);
        if (!ephemeralOK) return SQLITE_CANTOPEN;
        f->master = ephemeral;
    } else {
        f->master = v->master;
    }
    f->lenient = (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_TEMP_DB | SQLITE_OPEN_TRANSIENT_DB)) == 0;
    f->writeBack = (flags & SQLITE_OPEN_WAL) != 0;
    f->enc = EVP_CIPHER_CTX_new();
    f->dec = EVP_CIPHER_CTX_new();
    if (!f->enc || !f->dec) { EVP_CIPHER_CTX_free(f->enc); EVP_CIPHER_CTX_free(f->dec); return SQLITE_NOMEM; }
    int rc = v->real->xOpen(v->real, name, f->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        EVP_CIPHER_CTX_free(f->enc);
        EVP_CIPHER_CTX_free(f->dec);
        f->enc = f->dec = NULL;
        return rc;
    }
    f->base.pMethods = &cfMethods;
    if (flags & SQLITE_OPEN_MAIN_DB) {
        rc = loadHeader(f);
        if (rc != SQLITE_OK) { cfClose(pFile); f->base.pMethods = NULL; return rc == SQLITE_AUTH ? SQLITE_AUTH : SQLITE_NOTADB; }
    }
    return SQLITE_OK;
}

static int cfDelete(sqlite3_vfs *p, const char *name, int sync) { CfVfs *v = (CfVfs *)p; return v->real->xDelete(v->real, name, sync); }
static int cfAccess(sqlite3_vfs *p, const char *name, int flags, int *out) { CfVfs *v = (CfVfs *)p; return v->real->xAccess(v->real, name, flags, out); }
static int cfFullPathname(sqlite3_vfs *p, const char *name, int n, char *out) { CfVfs *v = (CfVfs *)p; return v->real->xFullPathname(v->real, name, n, out); }
static int cfRandomness(sqlite3_vfs *p, int n, char *out) { CfVfs *v = (CfVfs *)p; return v->real->xRandomness(v->real, n, out); }
static int cfSleep(sqlite3_vfs *p, int us) { CfVfs *v = (CfVfs *)p; return v->real->xSleep(v->real, us); }
static int cfCurrentTime(sqlite3_vfs *p, double *t) { CfVfs *v = (CfVfs *)p; return v->real->xCurrentTime(v->real, t); }
static int cfGetLastError(sqlite3_vfs *p, int n, char *out) { CfVfs *v = (CfVfs *)p; return v->real->xGetLastError(v->real, n, out); }
static int cfCurrentTimeInt64(sqlite3_vfs *p, sqlite3_int64 *t) { CfVfs *v = (CfVfs *)p; return v->real->xCurrentTimeInt64(v->real, t); }

static pthread_mutex_t registry = PTHREAD_MUTEX_INITIALIZER;

int cf_crypt_vfs(const unsigned char *key, char *name, int cap) {
    if (cap < 48) return SQLITE_MISUSE;
    /* The name tells keys apart without revealing them: part of a keyed hash of the key. */
    unsigned char id[32];
    static const unsigned char zero16[16];
    derive(key, "carfit vfs name", zero16, id);
    char want[48];
    snprintf(want, sizeof want, "carfit-crypt-%02x%02x%02x%02x%02x%02x%02x%02x", id[0], id[1], id[2], id[3], id[4], id[5], id[6], id[7]);
    int rc = sqlite3_initialize();
    if (rc != SQLITE_OK) return rc;
    pthread_mutex_lock(&registry);
    sqlite3_vfs *found = sqlite3_vfs_find(want);
    if (found && CRYPTO_memcmp(((CfVfs *)found)->master, key, CF_CRYPT_KEY_BYTES) != 0) found = NULL, rc = SQLITE_INTERNAL;
    if (!found && rc == SQLITE_OK) {
        sqlite3_vfs *real = sqlite3_vfs_find("unix");
        CfVfs *v = real ? calloc(1, sizeof *v) : NULL;
        if (!v) rc = SQLITE_NOMEM;
        else {
            memcpy(v->master, key, CF_CRYPT_KEY_BYTES);
            memcpy(v->name, want, sizeof want);
            v->real = real;
            v->base.iVersion = 2;
            v->base.szOsFile = (int)sizeof(CfFile) + real->szOsFile;
            v->base.mxPathname = real->mxPathname;
            v->base.zName = v->name;
            v->base.xOpen = cfOpen;
            v->base.xDelete = cfDelete;
            v->base.xAccess = cfAccess;
            v->base.xFullPathname = cfFullPathname;
            v->base.xRandomness = cfRandomness;
            v->base.xSleep = cfSleep;
            v->base.xCurrentTime = cfCurrentTime;
            v->base.xGetLastError = cfGetLastError;
            v->base.xCurrentTimeInt64 = cfCurrentTimeInt64;
            rc = sqlite3_vfs_register(&v->base, 0);
            if (rc != SQLITE_OK) { OPENSSL_cleanse(v->master, sizeof v->master); free(v); }
        }
    }
    pthread_mutex_unlock(&registry);
    if (rc == SQLITE_OK) memcpy(name, want, sizeof want);
    return rc;
}

/* Reads up to n bytes from the start of the file at path through SQLite's own unix VFS, not a
 * descriptor of its own: closing any descriptor of a file drops every POSIX lock this process
 * holds on it, so a probe with open()/close() while another connection of this process has the
 * database open would release that connection's locks (and let another process delete the WAL
 * and shared memory under it). The unix VFS keeps such a descriptor until those locks go.
 * 1: read (*got bytes, maybe 0); 0: no such file; -1: unreadable. */
static int readHead(const char *path, unsigned char *h, int n, int *got) {
    struct stat info;
    if (stat(path, &info) != 0) return errno == ENOENT ? 0 : -1;
    sqlite3_vfs *os = sqlite3_vfs_find("unix");
    if (!os || os->szOsFile <= 0) return -1;
    sqlite3_file *f = (sqlite3_file *)calloc(1, (size_t)os->szOsFile);
    if (!f) return -1;
    int flags = 0;
    if (os->xOpen(os, path, f, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &flags) != SQLITE_OK) {
        if (f->pMethods) f->pMethods->xClose(f);
        free(f);
        return -1;
    }
    sqlite3_int64 size = 0;
    int result = 1;
    if (f->pMethods->xFileSize(f, &size) != SQLITE_OK) {
        result = -1;
    } else {
        int want = size < (sqlite3_int64)n ? (int)size : n;
        *got = 0;
        if (want > 0) {
            int rc = f->pMethods->xRead(f, h, want, 0);
            if (rc == SQLITE_OK) *got = want;
            else result = -1;
        }
    }
    f->pMethods->xClose(f);
    free(f);
    return result;
}

int cf_crypt_probe(const char *path, const unsigned char *key) {
    unsigned char h[CF_HDR];
    int got = 0, r = readHead(path, h, CF_HDR, &got);
    if (r < 0) return CF_PROBE_UNREADABLE;
    if (r == 0 || got == 0) return CF_PROBE_EMPTY;
    if (got >= 16 && memcmp(h, "SQLite format 3", 16) == 0) return CF_PROBE_PLAIN;
    if (got < CF_HDR || memcmp(h, CF_MAGIC, 16) != 0) return CF_PROBE_FOREIGN;
    if (!key) return CF_PROBE_OTHER_KEY;
    unsigned char check[16];
    keyCheck(key, h + CF_SALT_OFF, check);
    return CRYPTO_memcmp(check, h + CF_CHECK_OFF, 16) == 0 ? CF_PROBE_KEY_OK : CF_PROBE_OTHER_KEY;
}
