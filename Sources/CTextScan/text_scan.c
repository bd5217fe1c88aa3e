#include "text_scan.h"

#include <stdint.h>
#include <string.h>

/* A mark of copy_marks: some byte is 0x80 or above. */
#define NON_ASCII 4u

#if defined(__SSE2__)
#include <emmintrin.h>

/* The escape and non-ASCII marks of sixteen bytes, or-ed into *escape and *high. */
static inline void marks16(__m128i v, __m128i *escape, __m128i *high) {
    const __m128i below = _mm_set1_epi8(0x1F);
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, below), v); /* v <= 0x1F, unsigned */
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    *escape = _mm_or_si128(*escape, _mm_or_si128(control, _mm_or_si128(quote, backslash)));
    *high = _mm_or_si128(*high, v);
}

/* The n bytes at p (n < 16) padded with spaces, which no test here marks. */
static inline __m128i load_short(const unsigned char *p, size_t n) {
    if (n >= 8) {
        /* The first eight and the last eight, overlapping. */
        uint64_t first, last;
        memcpy(&first, p, 8);
        memcpy(&last, p + n - 8, 8);
        return _mm_set_epi64x((long long)last, (long long)first);
    }
    uint64_t word = 0x2020202020202020u;
    if (n > 0) memcpy(&word, p, n);
    return _mm_set_epi64x(0x2020202020202020, (long long)word);
}

/* The escape and non-ASCII marks of the n bytes at src, copied to dst on the way. */
static unsigned copy_marks(unsigned char *dst, const unsigned char *src, size_t n) {
    __m128i escape = _mm_setzero_si128(), high = _mm_setzero_si128();
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 <= n; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(src + i));
            marks16(v, &escape, &high);
            _mm_storeu_si128((__m128i *)(dst + i), v);
        }
        if (i < n) {
            /* The last sixteen, overlapping the ones before. */
            __m128i v = _mm_loadu_si128((const __m128i *)(src + n - 16));
            marks16(v, &escape, &high);
            _mm_storeu_si128((__m128i *)(dst + n - 16), v);
        }
    } else {
        marks16(load_short(src, n), &escape, &high);
        if (n >= 8) {
            uint64_t first, last;
            memcpy(&first, src, 8);
            memcpy(&last, src + n - 8, 8);
            memcpy(dst, &first, 8);
            memcpy(dst + n - 8, &last, 8);
        } else {
            for (size_t i = 0; i < n; i++) dst[i] = src[i];
        }
    }
    return (_mm_movemask_epi8(escape) ? TEXT_SCAN_ESCAPE : 0u) | (_mm_movemask_epi8(high) ? NON_ASCII : 0u);
}

/* The bytes of sixteen that a plain key may not hold. */
static inline __m128i key_marks16(__m128i v) {
    __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);      /* <= 0x1F */
    __m128i high = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x7F)), v);         /* >= 0x7F */
    __m128i marks = _mm_or_si128(control, high);
    marks = _mm_or_si128(marks, _mm_cmpeq_epi8(v, _mm_set1_epi8('%')));
    marks = _mm_or_si128(marks, _mm_cmpeq_epi8(v, _mm_set1_epi8('|')));
    marks = _mm_or_si128(marks, _mm_cmpeq_epi8(v, _mm_set1_epi8('~')));
    marks = _mm_or_si128(marks, _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    return _mm_or_si128(marks, _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
}

int text_scan_plain_key(const unsigned char *p, size_t n) {
    __m128i marks = _mm_setzero_si128();
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 <= n; i += 16) marks = _mm_or_si128(marks, key_marks16(_mm_loadu_si128((const __m128i *)(p + i))));
        if (i < n) marks = _mm_or_si128(marks, key_marks16(_mm_loadu_si128((const __m128i *)(p + n - 16))));
    } else {
        marks = key_marks16(load_short(p, n));
    }
    return _mm_movemask_epi8(marks) == 0;
}

/* The index of the first byte from i on that is not ASCII, or n. */
static inline size_t skip_ascii(const unsigned char *p, size_t i, size_t n) {
    while (i + 16 <= n) {
        int mask = _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(p + i)));
        if (mask) return i + (size_t)__builtin_ctz((unsigned)mask);
        i += 16;
    }
    while (i < n && p[i] < 0x80) i++;
    return i;
}
#else
static unsigned copy_marks(unsigned char *dst, const unsigned char *src, size_t n) {
    unsigned marks = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = src[i];
        if (c < 0x20 || c == '"' || c == '\\') marks |= TEXT_SCAN_ESCAPE;
        if (c >= 0x80) marks |= NON_ASCII;
        dst[i] = c;
    }
    return marks;
}

int text_scan_plain_key(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c < 0x20 || c >= 0x7F || c == '%' || c == '|' || c == '~' || c == '"' || c == '\\') return 0;
    }
    return 1;
}

static inline size_t skip_ascii(const unsigned char *p, size_t i, size_t n) {
    while (i < n && p[i] < 0x80) i++;
    return i;
}
#endif

int text_scan_utf8(const unsigned char *p, size_t n, int *separators) {
    *separators = 0;
    size_t i = 0;
    for (;;) {
        i = skip_ascii(p, i, n);
        if (i >= n) return 1;
        unsigned char c = p[i];
        size_t length;
        unsigned char low = 0x80, high = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c == 0xE0) {
            length = 3;
            low = 0xA0;
        } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
            length = 3;
        } else if (c == 0xED) {
            length = 3;
            high = 0x9F;
        } else if (c == 0xF0) {
            length = 4;
            low = 0x90;
        } else if (c >= 0xF1 && c <= 0xF3) {
            length = 4;
        } else if (c == 0xF4) {
            length = 4;
            high = 0x8F;
        } else {
            return 0;
        }
        if (n - i < length) return 0;
        if (p[i + 1] < low || p[i + 1] > high) return 0;
        for (size_t k = 2; k < length; k++) {
            if (p[i + k] < 0x80 || p[i + k] > 0xBF) return 0;
        }
        if (c == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) *separators = 1;
        i += length;
    }
}

unsigned text_scan_copy(unsigned char *dst, const unsigned char *src, size_t n) {
    unsigned marks = copy_marks(dst, src, n);
    if (marks & NON_ASCII) {
        int separators = 0;
        if (!text_scan_utf8(src, n, &separators)) return TEXT_SCAN_INVALID;
        if (separators) marks |= TEXT_SCAN_ESCAPE;
    }
    return marks & TEXT_SCAN_ESCAPE;
}
