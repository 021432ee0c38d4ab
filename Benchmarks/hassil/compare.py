"""Times hassil (PyPI `hassil`) on the same templates and sentences as `intents-bench match`.

The English phrases of the bundled apps become hassil intents: `(a|b)`, `[opt]` and `<rule>` are
the same syntax; each `{slot}` becomes a hassil list (enum cases with their titles and synonyms as
values, integers as a range, everything else a wildcard), `{app}` a list of app names. The
sentences are the English `examples:` of the definitions, as `intents test` runs them.

    pip install hassil pyyaml
    python3 Benchmarks/hassil/compare.py [--rounds 20]      # after `make bench` (needs .build/release/intents)
"""
import argparse
import glob
import json
import statistics
import subprocess
import time

import yaml
from hassil import Intents, recognize


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--intents", default="Intents")
    parser.add_argument("--binary", default=".build/release/intents")
    args = parser.parse_args()

    graph = json.loads(subprocess.run([args.binary, "graph", "--format", "json", "--intents", args.intents],
                                      check=True, capture_output=True, text=True).stdout)
    rules = {}
    examples = {}  # intent name (bare) -> [(say, lang)], None -> app-level sentences
    for path in sorted(glob.glob(f"{args.intents}/*/*.yaml")):
        with open(path, encoding="utf-8") as file:
            document = yaml.safe_load(file) or {}
        for name, text in (document.get("rules") or {}).items():
            rules[name] = text
        for name, intent in (document.get("intents") or {}).items():
            for example in intent.get("examples") or []:
                examples.setdefault(name, []).append(example)
        for example in document.get("examples") or []:
            examples.setdefault(None, []).append(example)

    lists = {"app": {"values": []}}
    intents = {}
    sentences = []
    enum_values = {}
    for app in graph["apps"]:
        lists["app"]["values"] += [app["name"]] + app.get("synonyms", [])
        for enumeration in app["enums"]:
            values = []
            for case in enumeration["cases"]:
                for text in [case["id"].replace("_", " "), case["title"]] + case.get("synonyms", []):
                    values.append({"in": text, "out": case["id"]})
            enum_values[enumeration["name"]] = values
        for intent in app["intents"]:
            name = f'{app["name"]}.{intent["name"]}'
            templates = [p["text"] for p in intent["phrases"] if p["lang"] == "en"]
            if not templates:
                continue
            intents[name] = {"data": [{"sentences": templates}]}
            for parameter in intent["parameters"]:
                kind = parameter["type"]
                if kind in enum_values:
                    lists.setdefault(parameter["name"], {"values": enum_values[kind]})
                elif kind in ("integer", "number"):
                    lists.setdefault(parameter["name"], {"range": {"from": 0, "to": 10000}})
                else:
                    lists.setdefault(parameter["name"], {"wildcard": True})
            for example in examples.get(intent["name"], []):
                if example.get("lang", "en") == "en":
                    sentences.append((example["say"], None if example.get("expect") == "no_match" else name))
    for example in examples.get(None, []):
        if example.get("lang", "en") == "en":
            sentences.append((example["say"], None))

    hassil_intents = Intents.from_dict({"language": "en", "intents": intents, "lists": lists, "expansion_rules": rules})

    matched = 0
    for sentence, expected in sentences:
        result = recognize(sentence, hassil_intents)
        if (result.intent.name if result else None) == expected:
            matched += 1

    samples = []
    for _ in range(args.rounds):
        for sentence, _ in sentences:
            start = time.perf_counter_ns()
            recognize(sentence, hassil_intents)
            samples.append((time.perf_counter_ns() - start) / 1000)
    samples.sort()
    p50 = samples[len(samples) // 2]
    p99 = samples[min(len(samples) - 1, len(samples) * 99 // 100)]
    print(f"hassil on the example domains: {len(intents)} intents, {sum(len(i['data'][0]['sentences']) for i in intents.values())} templates, "
          f"{len(sentences)} English sentences x {args.rounds} rounds")
    print(f"  recognize p50 {p50:.1f} µs, p99 {p99:.1f} µs, max {samples[-1]:.1f} µs; "
          f"{matched}/{len(sentences)} gave the intent the example expects")


if __name__ == "__main__":
    main()
