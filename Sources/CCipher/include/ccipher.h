#ifndef CARFIT_CCIPHER_H
#define CARFIT_CCIPHER_H
#include <stddef.h>

/* Sealed files (carfit_crypt.c): a stream of AEAD chunks of at most CF_SEAL_CHUNK bytes. */
#define CF_SEAL_CHUNK 65536
#define CF_SEALED_OK 0
#define CF_SEALED_NOT_SEALED 1
#define CF_SEALED_WRONG_KEY 2
#define CF_SEALED_IO 3
#define CF_SEALED_DAMAGED (-1)
#define CF_SEALED_READ_FAILED (-2)
typedef struct cf_sealer cf_sealer;
typedef struct cf_opener cf_opener;
/* Writes the header to fd and answers the sealer of what follows (NULL, errno set, on failure). */
__attribute__((visibility("hidden"))) cf_sealer *cf_seal_begin(int fd, const unsigned char *key);
/* Seals and writes the bytes: 0, or -1 with errno set. */
__attribute__((visibility("hidden"))) int cf_seal_write(cf_sealer *s, const void *bytes, size_t n);
/* Seals and writes the last chunk: 0, or -1 with errno set. */
__attribute__((visibility("hidden"))) int cf_seal_finish(cf_sealer *s);
__attribute__((visibility("hidden"))) void cf_seal_free(cf_sealer *s);
/* Reads the header from fd: the opener, or NULL with *status CF_SEALED_NOT_SEALED, _WRONG_KEY or _IO. */
__attribute__((visibility("hidden"))) cf_opener *cf_open_begin(int fd, const unsigned char *key, int *status);
/* The next chunk's bytes into out (CF_SEAL_CHUNK bytes): its length (0 after the last), or
 * CF_SEALED_DAMAGED (altered, cut short, moved) or CF_SEALED_READ_FAILED (errno set). */
__attribute__((visibility("hidden"))) long cf_open_chunk(cf_opener *o, unsigned char *out);
__attribute__((visibility("hidden"))) int cf_open_done(const cf_opener *o);
__attribute__((visibility("hidden"))) void cf_open_free(cf_opener *o);
/* Whether the file open at fd starts with the sealed header. */
__attribute__((visibility("hidden"))) int cf_is_sealed(int fd);

#endif
