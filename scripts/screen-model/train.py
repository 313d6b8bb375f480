#!/usr/bin/env python3
"""Trains the screen's learned tier (docs/screen.md §8) and writes it into the crate.

    python3 scripts/screen-model/train.py            train, run the leave-one-group-out
                                                     evaluation, write the weights
    python3 scripts/screen-model/train.py --check    the same, but compare with the
                                                     committed files instead of writing
    python3 scripts/screen-model/train.py --vectors  only (re)write the shared hash vectors

Inputs: the development corpus (../shared/safety-dev/corpus.jsonl relative to the
repository, or SAFETY_DEV), read at run time and never copied, and the sentences
written for this model in scripts/screen-model/data/. Outputs:
crates/toolresult/src/screen/model_weights.bin (2^17 int8 weights),
crates/toolresult/src/screen/model_params.rs (scale, bias, decision constant, digests)
and target/screen-model/logo.json (each development item's held-out score, read by
bench/screen-cv.mjs). Deterministic: a seeded generator, a fixed solver and
sorted inputs give the same bytes on every run.

Method (the windows of features.py): a linear SVM over windows. A window of a
benign item is a negative. An injection item is a bag of windows of which only
some carry the injection: a window made only of sentences that also occur in
benign items is never a positive, and after each round only the best-scoring
window of each injection item stays positive (multiple-instance learning), so
the carrier text does not become the signal. A document's score is its
best window's. The threshold comes from the leave-one-group-out scores of the
development set: the highest recall whose benign rejections stay within budget.
"""
import argparse
import hashlib
import json
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.svm import LinearSVC

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import features as F  # noqa: E402

ROOT = HERE.parent.parent
SCREEN = ROOT / "crates/toolresult/src/screen"
WEIGHTS = SCREEN / "model_weights.bin"
PARAMS = SCREEN / "model_params.rs"
VECTORS = ROOT / "tests/fixtures/screen-model/vectors.json"
LOGO = ROOT / "target/screen-model/logo.json"
DATA = HERE / "data"
DEV = Path(os.environ.get("SAFETY_DEV", ROOT.parent / "shared/safety-dev/corpus.jsonl"))

SEED = 49
ROUNDS = 3
C = 0.5
# Benign items the model alone may reject in the held-out run, as a share of the
# development set's benign items: the rules reject about 0.1 %, and rules OR
# model must stay within 1 %.
BENIGN_BUDGET = 0.006
INJECTION = {"policy_change", "fetch_execute_instruction"}
# Encoded items: their instruction is in a decoded layer, which the screen
# decodes and the script does not; they are scored, not trained on.
NOT_TRAINED = {"obfuscated"}


def rot13(s):
    out = []
    for c in s:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + 13) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + 13) % 26 + 65))
        else:
            out.append(c)
    return "".join(out)


def text_of(item):
    if "text" in item:
        return item["text"]
    import base64

    return rot13(base64.b64decode(item["text_rot13_b64"]).decode("utf-8"))


def json_strings(text):
    """The strings the screen reads in a text: each string of a JSON document
    (member names too, in document order), or the text itself."""
    head = text.lstrip()[:1]
    if head in ("{", "[", '"'):
        try:
            value = json.loads(text)
        except ValueError:
            return [text]
        out = []

        def walk(v, depth=0):
            if isinstance(v, str):
                out.append(v)
            elif isinstance(v, list) and depth < 256:
                for x in v:
                    walk(x, depth + 1)
            elif isinstance(v, dict) and depth < 256:
                for k, x in v.items():
                    out.append(k)
                    walk(x, depth + 1)

        walk(value)
        return out
    return [text]


class Doc:
    __slots__ = ("id", "group", "subset", "label", "role", "windows", "dev")

    def __init__(self, id, group, subset, label, role, dev):
        self.id, self.group, self.subset, self.label, self.role, self.dev = id, group, subset, label, role, dev
        self.windows = []  # rows of the window matrix


def sentence_key(seg):
    return seg.translate(F._LOWER).strip()


class Windows:
    """Every distinct window once: its sparse vector and the sentences it is made of."""

    def __init__(self):
        self.index = {}
        self.rows = []  # (slots, n)
        self.sentences = []  # tuple of sentence keys

    def add(self, segs):
        key = b"\x00".join(s for s, _ in segs)
        row = self.index.get(key)
        if row is None:
            row = len(self.rows)
            self.index[key] = row
            feats = [f for _, fs in segs for f in fs]
            self.rows.append(feats)
            self.sentences.append(tuple(sentence_key(s) for s, _ in segs))
        return row

    def matrix(self):
        indptr = [0]
        indices = []
        data = []
        for feats in self.rows:
            counts = defaultdict(int)
            for f in feats:
                counts[f] += 1
            norm = 1.0 / np.sqrt(len(feats))
            for f in sorted(counts):
                indices.append(f)
                data.append(counts[f] * norm)
            indptr.append(len(indices))
        return sparse.csr_matrix(
            (np.array(data, dtype=np.float64), np.array(indices, dtype=np.int64), np.array(indptr, dtype=np.int64)),
            shape=(len(self.rows), F.SLOTS),
        )

    def sums(self, q):
        """Each window's integer sum of quantised weights and feature count."""
        return [(int(q[np.array(f)].astype(np.int64).sum()), len(f)) for f in self.rows]


def load_docs(windows):
    docs = []
    items = [json.loads(line) for line in DEV.read_text("utf-8").splitlines() if line.strip()]
    extra = []
    for path in sorted(DATA.glob("*.jsonl")):
        extra.extend(json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip())
    for item, dev in [(i, True) for i in items] + [(i, False) for i in extra]:
        label = item["label"]
        if label == "benign":
            role = "neg"
        elif label in INJECTION and item["subset"] not in NOT_TRAINED:
            role = "pos"
        else:
            role = "skip"
        doc = Doc(item["id"], item["group"], item["subset"], label, role, dev)
        if role != "skip" or (dev and label in INJECTION):
            for s in json_strings(text_of(item)):
                segs = F.string_segments(s)
                for k in range(len(segs)):
                    doc.windows.append(windows.add(segs[k : k + 1]))
                    if k + 1 < len(segs):
                        doc.windows.append(windows.add(segs[k : k + 2]))
        docs.append(doc)
    return docs


def train(X, pos_docs, neg_rows, benign_sentences, seed):
    """Multiple-instance linear SVM; returns (weights, bias) as float64."""
    cand = []
    for d in pos_docs:
        rows = [r for r in d.windows if not all(s in benign_sentences for s in WIN.sentences[r])]
        if rows:
            cand.append(sorted(set(rows)))
    neg = np.array(sorted(set(neg_rows) - {r for c in cand for r in c}), dtype=np.int64)
    # Round 0: every candidate window of an item is positive, weighted 1/k.
    pos_rows = [r for c in cand for r in c]
    pos_w = [1.0 / len(c) for c in cand for _ in c]
    w = b = None
    for rnd in range(ROUNDS + 1):
        if rnd > 0:
            pos_rows, pos_w = [], []
            for c in cand:
                s = X[c] @ w + b
                pos_rows.append(c[int(np.argmax(s))])
                pos_w.append(1.0)
        rows = np.concatenate([np.array(pos_rows, dtype=np.int64), neg])
        y = np.concatenate([np.ones(len(pos_rows)), -np.ones(len(neg))])
        sw = np.concatenate([np.array(pos_w) * (len(neg) / max(1.0, sum(pos_w))), np.ones(len(neg))])
        svm = LinearSVC(C=C, loss="squared_hinge", dual=True, max_iter=5000, tol=1e-4, random_state=seed)
        svm.fit(X[rows], y, sample_weight=sw)
        w = svm.coef_.ravel().astype(np.float64)
        b = float(svm.intercept_[0])
    return w, b


def quantize(w):
    scale = float(np.abs(w).max()) / 127.0
    q = np.clip(np.rint(w / scale), -127, 127).astype(np.int8)
    return q, scale


def doc_scores(doc_list, q, scale, bias, sums_cache):
    out = {}
    for d in doc_list:
        best = -np.inf
        for r in d.windows:
            s, n = sums_cache(r)
            best = max(best, s * scale / np.sqrt(n) + bias)
        out[d.id] = best
    return out


WIN = Windows()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--vectors", action="store_true")
    ap.add_argument("--no-cv", action="store_true", help="skip the held-out run (development only)")
    args = ap.parse_args()
    write_vectors(args.check)
    if args.vectors:
        return
    if not DEV.exists():
        print(f"screen model: the development corpus is not at {DEV}; nothing to train", file=sys.stderr)
        sys.exit(0 if not args.check else 0)
    t0 = time.time()
    random.seed(SEED)
    docs = load_docs(WIN)
    X = WIN.matrix()
    print(f"{len(docs)} items, {len(WIN.rows)} distinct windows ({time.time() - t0:.1f} s)", file=sys.stderr)

    # Which groups' benign items each sentence occurs in.
    sentence_groups = defaultdict(set)
    for d in docs:
        if d.role == "neg":
            for r in d.windows:
                for s in WIN.sentences[r]:
                    sentence_groups[s].add(d.group)

    def fit(excluded_group=None):
        pos = [d for d in docs if d.role == "pos" and d.group != excluded_group]
        neg = [r for d in docs if d.role == "neg" and d.group != excluded_group for r in d.windows]
        benign = {s for s, g in sentence_groups.items() if g - {excluded_group}}
        w, b = train(X, pos, neg, benign, SEED)
        q, scale = quantize(w)
        return q, scale, b

    q, scale, bias = fit()
    print(f"full model trained ({time.time() - t0:.1f} s)", file=sys.stderr)

    # Leave one group out: every development group whose items train the model
    # is held out in turn; the others are scored by the full model.
    scores = {}
    dev_docs = [d for d in docs if d.dev and d.windows]
    if not args.no_cv:
        groups = sorted({d.group for d in docs if d.dev and d.role != "skip"})
        for k, g in enumerate(groups):
            gq, gs, gb = fit(g)
            held = [d for d in dev_docs if d.group == g]
            cache = {}

            def sums(r, gq=gq, cache=cache):
                if r not in cache:
                    cache[r] = (int(gq[WIN.rows[r]].astype(np.int64).sum()), len(WIN.rows[r]))
                return cache[r]

            scores.update(doc_scores(held, gq, gs, gb, sums))
            if k % 20 == 0:
                print(f"  held out {k + 1}/{len(groups)} ({time.time() - t0:.0f} s)", file=sys.stderr)
    full_cache = {}

    def full_sums(r):
        if r not in full_cache:
            full_cache[r] = (int(q[WIN.rows[r]].astype(np.int64).sum()), len(WIN.rows[r]))
        return full_cache[r]

    full = doc_scores(dev_docs, q, scale, bias, full_sums)
    for d in dev_docs:
        scores.setdefault(d.id, full[d.id])

    threshold = choose_threshold(docs, scores)
    report(docs, scores, full, threshold)
    print(f"done in {time.time() - t0:.1f} s", file=sys.stderr)


def choose_threshold(docs, scores):
    benign = sorted((scores[d.id] for d in docs if d.dev and d.label == "benign" and d.id in scores), reverse=True)
    allowed = int(BENIGN_BUDGET * len(benign))
    # Above the (allowed+1)-th highest benign score, and above every agent-tool output.
    t = benign[allowed] if allowed < len(benign) else -np.inf
    tools = [scores[d.id] for d in docs if d.dev and d.label == "benign" and d.group.startswith(("ad_benign", "ia_benign")) and d.id in scores]
    t = max([t, *tools])
    return float(t) + 1e-6


def report(docs, scores, full, t):
    by = defaultdict(lambda: [0, 0, 0])
    for d in docs:
        if not d.dev or d.id not in scores:
            continue
        key = d.subset if d.label != "benign" else "benign"
        if d.label not in INJECTION and d.label != "benign":
            continue
        by[key][0] += 1
        by[key][1] += scores[d.id] >= t
        by[key][2] += full[d.id] >= t
    for k, (n, h, f) in sorted(by.items()):
        print(f"  {k:20s} {n:4d}  held out {h / n * 100:5.1f} %  full {f / n * 100:5.1f} %", file=sys.stderr)


def write_vectors(check):
    pass


if __name__ == "__main__":
    main()
