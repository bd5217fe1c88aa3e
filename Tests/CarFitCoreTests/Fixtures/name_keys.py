"""The name order's keys by Python's unicodedata, the oracle of SortKey.

    name_keys.py            prints "HEX... <TAB> HEX..." lines: a text's code points, then its key's
The texts: random names of Latin, Greek and Cyrillic letters, marks, digits, spaces and signs
with compatibility or singleton decompositions, in NFC and in NFD; then names that hold the marks
a key keeps that have a combining class (which NFKD puts in canonical order), the code points
that decompose to them, removed marks of class 0 and above, and letters, in NFC and in NFD.
(Every code point on its own is checked against `scripts/gen-unicode-tables --keys`.)
"""
import random
import sys
import unicodedata


def key(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn").casefold()


def hexes(text):
    return " ".join(f"{ord(c):X}" for c in text)


def main():
    texts = []
    letters = [chr(cp) for low, high in [(0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x370, 0x3FF), (0x400, 0x52F),
                                         (0x1E00, 0x1FFF)]
               for cp in range(low, high + 1) if unicodedata.category(chr(cp)).startswith("L")]
    extras = [" ", "-", "'", "0", "7", "\u0301", "\u0308", "\u0327", "ß", "Ø", "Ł", "Œ", "ﬁ", "Ａ", "Σ", "ς", "İ",
              "\u2126", "\u212A", "\u212B", "\u2160", "\u00BD", "\u3300", "\uAC01", "\U0001D400", "\uF900"]
    rng = random.Random(22)
    for _ in range(3000):
        name = "".join(rng.choice(letters if rng.random() < 0.85 else extras) for _ in range(rng.randint(1, 12)))
        texts.append(name)
        texts.append(unicodedata.normalize("NFD", name))
    ordered = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF
               and unicodedata.combining(chr(cp)) and unicodedata.category(chr(cp)) != "Mn"]
    decomposing = [chr(cp) for cp in range(0x1D15E, 0x1D1C1)
                   if any(c in ordered for c in unicodedata.normalize("NFKD", chr(cp)))]
    marks = ["\u0301", "\u0334", "\u05B0", "\u0E31", "\u0F71", "\u1B34", "\uFE0F", "a", "Ä", "k", "\u3042"]
    pool = ordered + decomposing + marks
    for _ in range(2000):
        name = "".join(rng.choice(pool) for _ in range(rng.randint(1, 8)))
        texts.append(name)
        texts.append(unicodedata.normalize("NFD", name))
    for text in texts:
        print(f"{hexes(text)}\t{hexes(key(text))}")


if __name__ == "__main__":
    sys.exit(main())
