/* Byte scans of UTF-8 text for the JSON encoder, sixteen bytes at a time where the processor
 * has SSE2 (every x86-64), a byte at a time elsewhere. Internal to libcarfit: not exported. */
#ifndef TEXT_SCAN_H
#define TEXT_SCAN_H

#include <stddef.h>

#define TEXT_SCAN_HIDDEN __attribute__((visibility("hidden")))

/* Some byte needs escaping in a JSON string: below 0x20, '"' or '\\', or U+2028 or U+2029
 * (which the encoder escapes for hosts that embed the text in JavaScript). */
#define TEXT_SCAN_ESCAPE 1u
/* The text is not well-formed UTF-8. */
#define TEXT_SCAN_INVALID 2u

/* Copies the n bytes at src to dst (room for n bytes, not overlapping src) and scans them on
 * the way: 0 when they go into a JSON string as they are, else TEXT_SCAN_INVALID or
 * TEXT_SCAN_ESCAPE (dst then holds a copy the caller writes over). */
TEXT_SCAN_HIDDEN unsigned text_scan_copy(unsigned char *dst, const unsigned char *src, size_t n);

/* 1 if the n bytes at p are well-formed UTF-8 (Unicode's Table 3-7: no overlong form, no
 * surrogate, nothing past U+10FFFF, nothing cut short), else 0. *separators is set to 1 when the
 * text holds U+2028 or U+2029 (which the encoder escapes), else 0. */
TEXT_SCAN_HIDDEN int text_scan_utf8(const unsigned char *p, size_t n, int *separators);

/* 1 if every one of the n bytes at p is printable ASCII (0x20-0x7E) other than '%', '|', '~',
 * '"' and '\\': text a visit key and JSON both carry as it is; else 0. */
TEXT_SCAN_HIDDEN int text_scan_plain_key(const unsigned char *p, size_t n);

#endif
