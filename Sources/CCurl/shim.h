#ifndef CARFIT_CCURL_SHIM_H
#define CARFIT_CCURL_SHIM_H
#include <curl/curl.h>
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call; these inline
   wrappers fix the argument type of each kind of option. */

static inline CURLcode cf_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cf_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/* The string is copied by libcurl (every string option since 7.17). */
static inline CURLcode cf_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cf_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode cf_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION. */
static inline CURLcode cf_curl_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback value) {
    return curl_easy_setopt(handle, option, value);
}

/* CURLOPT_XFERINFOFUNCTION. */
static inline CURLcode cf_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback value) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode cf_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* The string stays owned by the handle: valid until it is cleaned up. */
static inline CURLcode cf_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode cf_curl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/* CURL_GLOBAL_ALL is a composed macro Swift does not import. */
static inline long cf_curl_global_all(void) { return CURL_GLOBAL_ALL; }

/* The value a write callback returns to stop the transfer (any count other than the one given). */
static inline size_t cf_curl_write_abort(void) { return 0; }

/* An anonymous file in memory, closed on exec (memfd_create(2) with MFD_CLOEXEC, Linux 3.17):
   a descriptor, or -1 with errno set. Called through syscall(2), which Swift cannot call. */
static inline int cf_memfd_create(const char *name) {
#ifdef SYS_memfd_create
    return (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
#else
    (void)name;
    errno = ENOSYS;
    return -1;
#endif
}
#endif
