/*
 * The text scan (Sources/CTextScan) against a byte-at-a-time reference written here from the
 * rules it promises: what JSON escapes, Unicode's Table 3-7 of well-formed UTF-8, U+2028 and
 * U+2029, a plain visit key. Texts of every length from 0 to 80, from an alphabet of the bytes
 * each rule treats apart, placed at random (a fixed seed), each scanned at every offset 0..3 of
 * a buffer so unaligned loads are met. Prints one line: the number of texts, then "ok" or the
 * first text that disagrees, and which way the scan was built. Built and run twice by test_text_scan.py: as the compiler builds
 * it for the machine (SSE2 on x86-64) and with SSE2 turned off (the byte-at-a-time fallback).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_scan.h"

static unsigned long long state = 0x9E3779B97F4A7C15ULL;

static unsigned next(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)(state >> 32);
}

/* The length of the well-formed sequence at p[i] (non-ASCII lead), or 0. */
static size_t sequence(const unsigned char *p, size_t i, size_t n) {
    unsigned char c = p[i];
    size_t length;
    unsigned char low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) length = 2;
    else if (c == 0xE0) { length = 3; low = 0xA0; }
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) length = 3;
    else if (c == 0xED) { length = 3; high = 0x9F; }
    else if (c == 0xF0) { length = 4; low = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) length = 4;
    else if (c == 0xF4) { length = 4; high = 0x8F; }
    else return 0;
    if (n - i < length || p[i + 1] < low || p[i + 1] > high) return 0;
    for (size_t k = 2; k < length; k++)
        if (p[i + k] < 0x80 || p[i + k] > 0xBF) return 0;
    return length;
}

static int reference_utf8(const unsigned char *p, size_t n, int *separators) {
    *separators = 0;
    for (size_t i = 0; i < n;) {
        if (p[i] < 0x80) { i++; continue; }
        size_t length = sequence(p, i, n);
        if (length == 0) return 0;
        if (p[i] == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9)) *separators = 1;
        i += length;
    }
    return 1;
}

static unsigned reference_copy(const unsigned char *p, size_t n) {
    int separators;
    if (!reference_utf8(p, n, &separators)) return TEXT_SCAN_INVALID;
    unsigned marks = separators ? TEXT_SCAN_ESCAPE : 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 || p[i] == '"' || p[i] == '\\') marks |= TEXT_SCAN_ESCAPE;
    return marks;
}

static int reference_key(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        if (c < 0x20 || c >= 0x7F || c == '%' || c == '|' || c == '~' || c == '"' || c == '\\') return 0;
    }
    return 1;
}

/* Pieces the rules treat apart: plain ASCII, each escape, the key's escapes, DEL, sequences
 * well-formed and not, the separators and their neighbours. */
static const char *const pieces[] = {
    "a", "Z", " ", "0", "\"", "\\", "\n", "\x01", "\x1f", "\x7f", "%", "|", "~", "\xc3\xb8",
    "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xa7", "\xe2\x82\xac", "\xf0\x9f\x9a\x97", "\xef\xbf\xbf",
    "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe0\x80\x80", "\xc3", "\xe2\x80", "\xff", "\x80",
};

int main(void) {
    enum { MAX = 80 };
    unsigned char text[MAX + 8], buffer[MAX + 8 + 4], copy[MAX + 8];
    long texts = 0;
    for (int round = 0; round < 4000; round++) {
        size_t target = (size_t)(round % (MAX + 1)), n = 0;
        int plain_run = next() % 2;
        while (n < target) {
            const char *piece = plain_run && next() % 8 ? "a" : pieces[next() % (sizeof pieces / sizeof *pieces)];
            size_t length = strlen(piece);
            if (n + length > target) piece = "b", length = 1;
            memcpy(text + n, piece, length);
            n += length;
        }
        for (size_t offset = 0; offset < 4; offset++) {
            unsigned char *p = buffer + offset;
            memcpy(p, text, n);
            texts++;
            int separators, expected_separators;
            int valid = text_scan_utf8(p, n, &separators);
            int expected_valid = reference_utf8(p, n, &expected_separators);
            memset(copy, 0xAA, sizeof copy);
            unsigned marks = text_scan_copy(copy, p, n);
            /* The copy is the text when it goes out as it is, and nothing is written past it. */
            int copied = (marks != 0 || memcmp(copy, p, n) == 0) && copy[n] == 0xAA;
            if (valid != expected_valid || (valid && separators != expected_separators) ||
                marks != reference_copy(p, n) || !copied || text_scan_plain_key(p, n) != reference_key(p, n)) {
                printf("%ld texts: disagrees on a text of %zu bytes at offset %zu:", texts, n, offset);
                for (size_t i = 0; i < n; i++) printf(" %02x", p[i]);
                printf("\n");
                return 1;
            }
        }
    }
#if defined(__SSE2__)
    printf("%ld texts: ok (sse2)\n", texts);
#else
    printf("%ld texts: ok (a byte at a time)\n", texts);
#endif
    return 0;
}
