"""Labelled records (LABELLING.md) to word tags and per-word attributes.

Each fact becomes a tagged object span (B-/I-<predicate class>), its attributes on the span's words
(negated, tense, whether the object is "whatever the current value is", whether the subject is the user),
a SUBJ span when the subject is someone else, and a REL span (the words that express the relation) when
the predicate has no class of its own.
"""
import json
from collections import Counter
from pathlib import Path

import regex

from words import split_words

CANONICAL = """likes dislikes prefers favorite_food favorite_color favorite_movie favorite_book favorite_music favorite_sport
hobby plays supports married_to divorced_from partner has_mother has_father has_sister has_brother has_son has_daughter
has_child has_relative has_friend has_colleague has_manager has_roommate lives_in is_from born_in visited wants_to_visit
works_at job_title works_in studies studies_at has_skill owns has_pet drives uses allergic_to has_condition
takes_medication diet eats drinks habit height weight salary banks_with has_loan invests_in saving_for pays_rent
subscribes_to budget birthday anniversary has_appointment attending trip_to graduated_from name age birth_year speaks
nationality learning wants_to member_of""".split()
OTHER = "other"
HEADS = {
    "negated": ["no", "yes"],
    "tense": ["current", "past", "planned"],
    "any_object": ["no", "yes"],
    "subject": ["user", "other"],
}
IGNORE = -100


def load_records(folders):
    records = []
    for folder in folders:
        for file in sorted(Path(folder).rglob("*.jsonl")):
            for line in file.read_text(encoding="utf8").splitlines():
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError:
                        pass
    return [r for r in records if isinstance(r.get("content"), str) and isinstance(r.get("facts"), list)]


def predicate_classes(records, min_count):
    """Canonical predicates, plus `other` predicates seen at least min_count times, plus the catch-all `other`."""
    counts = Counter(f.get("predicate") for r in records for f in r["facts"] if f.get("predicate") not in CANONICAL)
    frequent = sorted(p for p, n in counts.items() if isinstance(p, str) and n >= min_count)
    return CANONICAL + frequent + [OTHER]


def tag_names(classes):
    tags = ["O"]
    for c in classes + ["SUBJ", "REL"]:
        tags += [f"B-{c}", f"I-{c}"]
    return tags


def find_span(content, candidates, taken):
    """The first free occurrence of the first candidate found (exact case first, then any case)."""
    for candidate in candidates:
        if not isinstance(candidate, str) or not candidate.strip() or candidate == "*":
            continue
        for flags in (0, regex.IGNORECASE):
            for m in regex.finditer(regex.escape(candidate), content, flags=flags):
                if not any(m.start() < e and s < m.end() for s, e in taken):
                    return m.start(), m.end()
    return None


# Everyday words for a relation, as the TypeScript side maps them back (pipeline/extraction/model/subjects.ts).
RELATION_WORDS = {
    "mother": ["mom", "mum", "mommy", "mummy", "mama", "ma"],
    "father": ["dad", "daddy", "papa", "pa"],
    "grandmother": ["grandma", "granny", "gran", "nana", "nan"],
    "grandfather": ["grandpa", "grandad", "granddad", "gramps"],
    "husband": ["hubby"],
    "boyfriend": ["bf"],
    "girlfriend": ["gf"],
    "brother": ["bro"],
    "sister": ["sis"],
    "manager": ["boss"],
    "boss": ["manager"],
}


def subject_candidates(subject):
    if subject.startswith("user's "):
        relation = subject[len("user's ") :]
        words = [relation] + RELATION_WORDS.get(relation, [])
        owners = ("my", "user's", "his", "her", "their", "our", "client's", "patient's")
        return [f"{o} {w}" for w in words for o in owners] + words
    return [subject]


class Aligner:
    def __init__(self, classes):
        self.classes = classes
        self.tags = tag_names(classes)
        self.tag_id = {t: i for i, t in enumerate(self.tags)}
        self.stats = Counter()

    def predicate_class(self, predicate):
        return predicate if predicate in self.classes else OTHER

    def align(self, record):
        content = record["content"]
        words = split_words(content)
        tags = [self.tag_id["O"]] * len(words)
        heads = {name: [IGNORE] * len(words) for name in HEADS}
        taken = []

        def words_in(span):
            s, e = span
            return [i for i, w in enumerate(words) if w.start < e and s < w.end]

        def place(span, label, attributes=None):
            idx = words_in(span)
            if not idx or any(tags[i] != self.tag_id["O"] for i in idx):
                return False
            for k, i in enumerate(idx):
                tags[i] = self.tag_id[("B-" if k == 0 else "I-") + label]
                for name, value in (attributes or {}).items():
                    heads[name][i] = value
            taken.append(span)
            return True

        for fact in record["facts"]:
            self.stats["facts"] += 1
            alts = fact.get("object")
            alts = alts if isinstance(alts, list) else [alts]
            any_object = alts == ["*"] or alts[0] == "*"
            candidates = ([] if any_object else alts) + [fact.get("span")]
            span = find_span(content, candidates, taken)
            if span is None:
                self.stats["facts without a span"] += 1
                continue
            subject = fact.get("subject") or "user"
            attributes = {
                "negated": 1 if fact.get("negated") else 0,
                "tense": HEADS["tense"].index(fact.get("tense")) if fact.get("tense") in HEADS["tense"] else 0,
                "any_object": 1 if any_object else 0,
                "subject": 0 if subject == "user" else 1,
            }
            label = self.predicate_class(fact.get("predicate", ""))
            if not place(span, label, attributes):
                self.stats["facts overlapping another"] += 1
                continue
            self.stats["facts aligned"] += 1
            if subject != "user":
                # A subject already tagged (an earlier fact's subject, or a person object such as has_sister Anna)
                # is found again at inference by linking.
                subject_span = find_span(content, subject_candidates(subject), [])
                if subject_span is None:
                    self.stats["subjects not found"] += 1
                elif place(subject_span, "SUBJ"):
                    self.stats["subject spans"] += 1
            if label == OTHER and fact.get("predicate_raw"):
                rel = find_span(content, [fact["predicate_raw"]], taken)
                if rel:
                    place(rel, "REL")
        return words, tags, heads
