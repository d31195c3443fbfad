"""Agreement between two labellers of the same messages (LABELLING.md), per field.

    python3 training/extraction/agreement.py FIRST.jsonl SECOND.jsonl

Facts are paired within a message by object (any alternative of one equals any of the other, compared
lower-case without articles and punctuation). For paired facts it reports how often subject, predicate,
negated, tense and validFrom agree; over all facts, strict agreement as the evaluation matches
(subject, predicate, object and negated), as an F1 between the two labellers.
"""
import json
import re
import sys

ARTICLES = re.compile(r"^(?:(?:the|a|an|my|our|his|her|their)\s+)+")


def key(value):
    value = re.sub(r"[^\w$€£%+# ]+", " ", str(value).lower().replace("'s", "s"))
    return ARTICLES.sub("", " ".join(value.split()))


def objects(fact):
    alts = fact.get("object")
    return {key(a) for a in (alts if isinstance(alts, list) else [alts])}


def load(path):
    return {r["id"]: r for r in (json.loads(line) for line in open(path, encoding="utf8") if line.strip())}


def main(first_path, second_path):
    first, second = load(first_path), load(second_path)
    ids = [i for i in second if i in first]
    pairs, strict, only_first, only_second = [], 0, 0, 0
    empty_agree = empty_total = 0
    for i in ids:
        a, b = first[i]["facts"], second[i]["facts"]
        empty_total += 1
        empty_agree += (len(a) == 0) == (len(b) == 0)
        used = set()
        for fa in a:
            match = next((k for k, fb in enumerate(b) if k not in used and objects(fa) & objects(fb)), None)
            if match is None:
                only_first += 1
                continue
            used.add(match)
            fb = b[match]
            pairs.append((fa, fb))
            if (
                key(fa["subject"]) == key(fb["subject"])
                and fa["predicate"] == fb["predicate"]
                and bool(fa.get("negated")) == bool(fb.get("negated"))
            ):
                strict += 1
        only_second += len(b) - len(used)
    total_first = strict + (len(pairs) - strict) + only_first
    total_second = strict + (len(pairs) - strict) + only_second

    def share(same):
        return round(sum(1 for fa, fb in pairs if same(fa, fb)) / max(1, len(pairs)), 3)

    dated = [(fa, fb) for fa, fb in pairs if fa.get("validFrom") or fb.get("validFrom")]
    report = {
        "messages": len(ids),
        "facts": {"first": total_first, "second": total_second, "paired by object": len(pairs)},
        "strict agreement F1 (subject, predicate, object, negated)": round(2 * strict / max(1, total_first + total_second), 3),
        "object found by both (F1)": round(2 * len(pairs) / max(1, total_first + total_second), 3),
        "paired facts agreeing on": {
            "subject": share(lambda fa, fb: key(fa["subject"]) == key(fb["subject"])),
            "predicate": share(lambda fa, fb: fa["predicate"] == fb["predicate"]),
            "negated": share(lambda fa, fb: bool(fa.get("negated")) == bool(fb.get("negated"))),
            "tense": share(lambda fa, fb: fa.get("tense") == fb.get("tense")),
            "validFrom (where either gives one)": round(sum(1 for fa, fb in dated if fa.get("validFrom") == fb.get("validFrom")) / max(1, len(dated)), 3),
        },
        "fact-free or not, same call": round(empty_agree / max(1, empty_total), 3),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(*sys.argv[1:3])
