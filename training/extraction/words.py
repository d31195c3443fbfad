"""Words and windows: the text layout the extractor is trained and run on.

pipeline/extraction/model/words.ts is the same procedure in TypeScript; the shipped labels.json records the
pattern and window size so both read one definition. A word's label sits on its first word piece.
"""
from dataclasses import dataclass

import regex

WORD_PATTERN = r"[\p{L}\p{N}\p{M}]+|[^\s\p{L}\p{N}\p{M}]"
MAX_PIECES = 126  # per window, without [CLS] and [SEP]
SENTENCE_END = {".", "!", "?", ";"}

_word = regex.compile(WORD_PATTERN)


@dataclass
class Word:
    text: str
    start: int
    end: int


def split_words(text):
    return [Word(m.group(0), m.start(), m.end()) for m in _word.finditer(text)]


def ends_sentence(words, text, i):
    if words[i].text in SENTENCE_END:
        return True
    nxt = words[i + 1].start if i + 1 < len(words) else len(text)
    return "\n" in text[words[i].end : nxt]


def windows(words, text, piece_counts, max_pieces=MAX_PIECES):
    """Splits word indices into windows of at most max_pieces pieces, cutting after a sentence end when one exists."""
    out, current, size, last_end = [], [], 0, -1
    for i, count in enumerate(piece_counts):
        count = min(count, max_pieces)
        while current and size + count > max_pieces:
            cut = last_end + 1 if last_end >= 0 else len(current)
            out.append(current[:cut])
            current = current[cut:]
            size = sum(min(piece_counts[j], max_pieces) for j in current)
            last_end = -1
            for k, j in enumerate(current):
                if ends_sentence(words, text, j):
                    last_end = k
        current.append(i)
        size += count
        if ends_sentence(words, text, i):
            last_end = len(current) - 1
    if current:
        out.append(current)
    return out
