"""Checks labelled extraction JSONL files against LABELLING.md.

    python3 training/extraction/check_corpus.py FILE_OR_FOLDER [...]

Prints one line per problem and a summary; exits 1 when any record is invalid. Standard library only,
so writers can run it anywhere.
"""
import json
import re
import sys
from pathlib import Path

CANONICAL = set(
    """likes dislikes prefers favorite_food favorite_color favorite_movie favorite_book favorite_music favorite_sport hobby plays
    supports married_to divorced_from partner has_mother has_father has_sister has_brother has_son has_daughter has_child
    has_relative has_friend has_colleague has_manager has_roommate lives_in is_from born_in visited wants_to_visit works_at
    job_title works_in studies studies_at has_skill owns has_pet drives uses allergic_to has_condition takes_medication diet
    eats drinks habit height weight salary banks_with has_loan invests_in saving_for pays_rent subscribes_to budget birthday
    anniversary has_appointment attending trip_to graduated_from name age birth_year speaks nationality learning wants_to
    member_of""".split()
)
VOICES = {"chat", "agent-note", "transcript", "dialogue", "profile", "form", "email", "dictation", "other"}
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$")


def problems(record):
    out = []
    content = record.get("content")
    if not isinstance(record.get("id"), str) or not record["id"]:
        out.append("missing id")
    if not isinstance(content, str) or not content.strip():
        return out + ["missing content"]
    if record.get("voice") not in VOICES:
        out.append(f"voice {record.get('voice')!r} is not one of {sorted(VOICES)}")
    if "referenceTime" in record and not ISO.match(str(record["referenceTime"])):
        out.append("referenceTime is not ISO with Z")
    facts = record.get("facts")
    if not isinstance(facts, list):
        return out + ["facts is not a list"]
    for i, f in enumerate(facts):
        where = f"fact {i}"
        for key in ("subject", "predicate", "object", "tense"):
            if key not in f:
                out.append(f"{where}: missing {key}")
        if out:
            continue
        if not SNAKE.match(f["predicate"]):
            out.append(f"{where}: predicate {f['predicate']!r} is not snake_case")
        elif f["predicate"] not in CANONICAL and not f["predicate"].startswith("favorite_") and not f.get("predicate_raw"):
            out.append(f"{where}: an `other` predicate needs predicate_raw")
        if f["tense"] not in ("current", "past", "planned"):
            out.append(f"{where}: tense {f['tense']!r}")
        if "validFrom" in f and f["validFrom"] is not None and not DAY.match(str(f["validFrom"])):
            out.append(f"{where}: validFrom must be YYYY-MM-DD")
        alts = f["object"] if isinstance(f["object"], list) else [f["object"]]
        if not alts or not all(isinstance(a, str) and a for a in alts):
            out.append(f"{where}: object must be a non-empty string or list of strings")
            continue
        if alts[0] not in content and not (isinstance(f.get("span"), str) and f["span"] in content):
            out.append(f"{where}: first object {alts[0]!r} is not in content and no span (copied exactly) is given")
        if f.get("predicate_raw") and f["predicate_raw"] not in content:
            out.append(f"{where}: predicate_raw {f['predicate_raw']!r} is not in content")
        subject = f["subject"]
        if subject != "user" and not subject.startswith("user's ") and subject.lower() not in content.lower():
            out.append(f"{where}: subject {subject!r} is neither user, user's <relation> nor written in content")
    return out


def main(paths):
    files = []
    for p in map(Path, paths):
        files += sorted(p.rglob("*.jsonl")) if p.is_dir() else [p]
    total = bad = facts = 0
    ids = set()
    for file in files:
        for n, line in enumerate(file.read_text(encoding="utf8").splitlines(), 1):
            if not line.strip():
                continue
            total += 1
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                bad += 1
                print(f"{file}:{n}: not JSON ({e})")
                continue
            errs = problems(record)
            if record.get("id") in ids:
                errs.append(f"duplicate id {record.get('id')}")
            ids.add(record.get("id"))
            facts += len(record.get("facts") or [])
            if errs:
                bad += 1
                for e in errs:
                    print(f"{file}:{n}: {e}")
    print(f"{total} records, {facts} facts, {bad} invalid, in {len(files)} files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["training/extraction/corpus"]))
