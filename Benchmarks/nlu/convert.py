#!/usr/bin/env python3
"""Converts SNIPS 2017 and CLINC150 into an Intents/ project of ours plus test files.

    python3 Benchmarks/nlu/convert.py snips /work/data/snips Benchmarks/.generated/snips
    python3 Benchmarks/nlu/convert.py clinc /work/data/clinc/data_full.json Benchmarks/.generated/clinc

Writes OUT/Intents/<app>/app.yaml, OUT/val.jsonl (for choosing thresholds) and OUT/test.jsonl
(scored once): one JSON object a line, {"text", "intent" ("" when out of scope), "slots": [[name, value], ...]}.
Python 3 standard library only: a one-off data transformation that needs no part of the engine
(the engine is what intents-bench measures), and JSON plus a little text handling is what Python's
standard library does in a page. Deterministic: no randomness, files and intents sorted.
"""
import collections
import json
import os
import re
import sys

# Characters that mean something in our phrase grammar or in training marks: left out of sentences.
SPECIAL = re.compile(r"[\[\](){}|<>]")


def clean(text):
    return re.sub(r"\s+", " ", SPECIAL.sub(" ", text)).strip()


def quoted(text):
    return json.dumps(text, ensure_ascii=False)


def camel(label):
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", label) if part)


def read_json(path):
    with open(path, "rb") as f:
        data = f.read()
    # UTF-8, but one SNIPS file has an emoji as two encoded surrogates: those bytes are dropped.
    return json.loads(data.decode("utf-8-sig", errors="ignore"))


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def snips_sentence(chunks):
    """(marked training sentence, template pattern, plain text, slots) of one SNIPS query."""
    marked, pattern, plain, slots = [], [], [], []
    for chunk in chunks:
        text = clean(chunk["text"])
        if not text:
            continue
        slot = chunk.get("entity")
        if slot:
            marked.append("[%s](%s)" % (text, slot))
            pattern.append("{%s}" % slot)
            slots.append([slot, text])
        else:
            marked.append(text)
            words = re.sub(r"[.?!,;:\"]", " ", text.lower()).split()
            if words:
                pattern.append(" ".join(words))
        plain.append(text)
    return " ".join(marked), " ".join(pattern), " ".join(plain), slots


def good_template(pattern):
    """A shape an author would write as a phrase: two literal words at least, no two slots side by side."""
    words = pattern.split()
    literal = [w for w in words if not w.startswith("{")]
    adjacent = any(a.startswith("{") and b.startswith("{") for a, b in zip(words, words[1:]))
    return len(literal) >= 2 and not adjacent and len(set(w for w in words if w.startswith("{"))) == sum(
        1 for w in words if w.startswith("{"))


def snips(source, out):
    intents = sorted(
        name[len("train_"):-len("_full.json")] for name in os.listdir(source) if name.startswith("train_"))
    lines = ["# SNIPS 2017, converted by Benchmarks/nlu/convert.py: not committed.", "app: Snips",
             "languages: [en]", "intents:"]
    validation, test = [], []
    # A shape two intents share (free text either way) is no phrase of either: it would only be ambiguous.
    shared = collections.Counter(
        shape for intent in intents for shape in {
            re.sub(r"\{[^}]*\}", "{}", snips_sentence(q["data"])[1])
            for q in read_json(os.path.join(source, "train_%s_full.json" % intent))[intent]})
    for intent in intents:
        queries = read_json(os.path.join(source, "train_%s_full.json" % intent))[intent]
        converted = [snips_sentence(q["data"]) for q in queries]
        # Every tenth training sentence is held out for choosing thresholds, never trained on.
        training = [c for i, c in enumerate(converted) if i % 10 != 9]
        validation += [{"text": c[2], "intent": "Snips." + intent, "slots": c[3]}
                       for i, c in enumerate(converted) if i % 10 == 9]
        slots = sorted({slot for c in converted for slot, _ in c[3]})
        # The shapes people use most, as an author would write them: phrases (the exact matcher);
        # every sentence, values marked, as training (the learned stage).
        # One naming per shape: two templates alike but for their slots' names would only compete.
        counts = collections.Counter(c[1] for c in training if good_template(c[1]))
        phrases, shapes = [], set()
        for p, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            shape = re.sub(r"\{[^}]*\}", "{}", p)
            if n >= 3 and shape not in shapes and shared[shape] == 1 and len(phrases) < 10:
                shapes.add(shape)
                phrases.append(p)
        lines += ["  %s:" % intent, "    parameters:"]
        lines += ["      %s: { type: string, optional: true }" % slot for slot in slots]
        lines += ["    phrases:"] + ["      - %s" % quoted(p) for p in phrases] if phrases else []
        lines += ["    training:"] + ["      - %s" % quoted(c[0]) for c in training]
        lines += ["    result:", "      dialog: \"OK\"", "    examples: []"]
        for query in read_json(os.path.join(source, "validate_%s.json" % intent))[intent]:
            _, _, plain, slots_ = snips_sentence(query["data"])
            test.append({"text": plain, "intent": "Snips." + intent, "slots": slots_})
    write(out, "snips", lines, validation, test)


def clinc(source, out):
    data = read_json(source)
    by_intent = collections.defaultdict(list)
    for text, label in data["train"]:
        by_intent[label].append(clean(text))
    # Questions and chit-chat without values: an author gives example sentences (training), not
    # templates; the out-of-scope training sentences are left out (an author has none to give).
    lines = ["# CLINC150, converted by Benchmarks/nlu/convert.py: not committed.", "app: Clinc",
             "languages: [en]", "intents:"]
    for label in sorted(by_intent):
        lines += ["  %s:" % camel(label), "    training:"]
        lines += ["      - %s" % quoted(s) for s in by_intent[label] if s]
        lines += ["    result:", "      dialog: \"OK\"", "    examples: []"]

    def rows(pairs):
        return [{"text": clean(t), "intent": "" if label == "oos" else "Clinc." + camel(label), "slots": []}
                for t, label in pairs]

    write(out, "clinc", lines, rows(data["val"] + data["oos_val"]), rows(data["test"] + data["oos_test"]))


def write(out, app, lines, validation, test):
    folder = os.path.join(out, "Intents", app)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "app.yaml"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    write_jsonl(os.path.join(out, "val.jsonl"), validation)
    write_jsonl(os.path.join(out, "test.jsonl"), test)
    print("%s: %d validation, %d test sentences → %s" % (app, len(validation), len(test), out))


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("snips", "clinc"):
        sys.exit("usage: convert.py snips|clinc SOURCE OUT")
    (snips if sys.argv[1] == "snips" else clinc)(sys.argv[2], sys.argv[3])
