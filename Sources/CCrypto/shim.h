#ifndef CARFIT_CCRYPTO_SHIM_H
#define CARFIT_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto (already a dependency of libcurl4-openssl): its EVP digests, for the
   SHA-256 of attachments (hardware-accelerated where the CPU has SHA extensions). */
#include <openssl/evp.h>
#endif
