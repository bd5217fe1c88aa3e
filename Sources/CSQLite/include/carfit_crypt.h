#ifndef CARFIT_CRYPT_H
#define CARFIT_CRYPT_H
/* The encrypting SQLite VFS (carfit_crypt.c): every file SQLite opens through it (the database,
 * its WAL and rollback journal, temporary files) is stored as ChaCha20-Poly1305 blocks under a
 * key derived from a 32-byte master key and a random salt in the file's header. None of these
 * functions is exported from the library. */

#define CF_CRYPT_KEY_BYTES 32

/* What a file holds, as cf_crypt_probe answers. */
#define CF_PROBE_EMPTY 0       /* absent, or empty: a new database */
#define CF_PROBE_PLAIN 1       /* a plaintext SQLite database */
#define CF_PROBE_KEY_OK 2      /* encrypted, under the key given */
#define CF_PROBE_OTHER_KEY 3   /* encrypted, under another key (or no key was given) */
#define CF_PROBE_FOREIGN 4     /* something else: neither SQLite's nor this VFS's header */
#define CF_PROBE_UNREADABLE 5  /* the file exists but cannot be read */

/* Registers the VFS for `key` (once per distinct key, kept for the process's life) and writes its
 * name (NUL-terminated) to `name`, which holds `cap` bytes (at least 48). 0 on success. */
__attribute__((visibility("hidden")))
int cf_crypt_vfs(const unsigned char *key, char *name, int cap);

/* Reads the header of the file at `path` (read only: nothing is created or changed) and says what
 * it holds; `key` may be NULL. */
__attribute__((visibility("hidden")))
int cf_crypt_probe(const char *path, const unsigned char *key);

#endif
