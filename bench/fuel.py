"""The wasm core's work per call, counted, not timed.

    .venv/bin/python bench/fuel.py pkg/toolschema_bg.wasm [other.wasm] [--targets mcp,google] [--api schema|text]
    .venv/bin/python bench/fuel.py --phases bench/.build/phases/toolschema_bg.wasm [--targets ...]

Runs the module's `normalizeSchemaJson` export over the real MCP schemas of
the corpus in wasmtime with fuel metering (one unit per wasm operator) and
prints the fuel per pass for each target; given a second module, the second
over the first. `--api text` runs `normalizeToolsText` (what
`normalizeToolsJson` calls, without telemetry) on OpenAI request bodies of 20
of those schemas each, as bench/text.mjs builds them. `--phases` splits each
call's count by the phase it was spent in (src/phase.rs), on the module
`bench/build-boundary.sh phases` builds, whose marks call the host. The count is the same on every run and every machine, so a
change of a few percent shows, where timings on a shared machine move by more
than that between two runs of the same build (`ab.mjs` times the same
comparison through the package). An operator is not a fixed time: a change
that trades operators for memory traffic or bulk copies still needs a timing.

Needs the `wasmtime` package (bench/requirements-fuel.txt); `make bench-fuel`
installs it into .venv and compares the built package with `BASE=<module>`.
"""

import argparse
import glob
import json
import os
import sys

import wasmtime

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "..", "shared", "corpus")
TARGETS = ["google", "cca", "mcp", "openai-responses", "openai-strict"]


def schema_texts():
    texts = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "mcp-*.json"))):
        with open(path, encoding="utf-8") as f:
            for entry in json.load(f):
                texts.append(json.dumps(entry["schema"], separators=(",", ":"), ensure_ascii=False))
    if not texts:
        sys.exit(f"fuel: no mcp-*.json schemas under {CORPUS}")
    return texts


MESSAGES = [
    {"role": "system", "content": "You are a helpful assistant. Use the tools when they help."},
    {"role": "user", "content": "Find the open issues about tool schemas and summarize them."},
]


def body_texts(texts, per_body=20):
    """bench/text.mjs's request bodies, the schemas' text spliced in as they are."""
    bodies = []
    for at in range(0, len(texts), per_body):
        tools = ",".join(
            '{"type":"function","function":{"name":"tool_%d","description":"A tool.","parameters":%s}}' % (at + i, t)
            for i, t in enumerate(texts[at : at + per_body])
        )
        head = json.dumps({"model": "gpt-5", "messages": MESSAGES}, separators=(",", ":"), ensure_ascii=False)[:-1]
        bodies.append(head + ',"tools":[' + tools + '],"tool_choice":"auto"}')
    return bodies


class Module:
    """One instance of a wasm-bindgen module, its imports stubbed: a call
    that reached one (a panic's message) would answer zeros, and the outputs
    are checked to be envelopes."""

    def __init__(self, path):
        config = wasmtime.Config()
        config.consume_fuel = True
        self.engine = wasmtime.Engine(config)
        self.module = wasmtime.Module.from_file(self.engine, path)

    def instance(self, on_phase=None):
        """A fresh instance; `on_phase(store, phase)` hears src/phase.rs's marks."""
        store = wasmtime.Store(self.engine)
        store.set_fuel(10**15)

        def stub(ty):
            results = ty.results
            return wasmtime.Func(store, ty, lambda *_: None if not results else 0 if len(results) == 1 else tuple(0 for _ in results))

        def link(imp):
            if imp.module == "toolschema_phases" and on_phase is not None:
                return wasmtime.Func(store, imp.type, lambda phase: on_phase(store, phase))
            return stub(imp.type)

        instance = wasmtime.Instance(store, self.module, [link(i) for i in self.module.imports])
        exports = instance.exports(store)
        exports["__wbindgen_start"](store)
        return store, exports


def put(store, ex, text):
    """`text` copied into the instance's memory, as the glue passes a string: its address and length."""
    data = text.encode()
    at = ex["__wbindgen_malloc"](store, len(data), 1)
    ex["memory"].write(store, data, at)
    return at, len(data)


def normalize_schema(store, ex, text, target, options=""):
    """The `normalizeSchemaJson` export on `text`: its answer's address and length."""
    a, b, c = put(store, ex, text), put(store, ex, target), put(store, ex, options)
    return ex["normalizeSchemaJson"](store, a[0], a[1], b[0], b[1], c[0], c[1])


def fuel_per_pass(module, target, texts, passes, api="schema"):
    store, ex = module.instance()
    memory, free = ex["memory"], ex["__wbindgen_free"]

    def run(text):
        if api == "text":
            a, o = put(store, ex, text), put(store, ex, json.dumps({"target": target}))
            return ex["normalizeToolsText"](store, a[0], a[1], o[0], o[1], 0)
        return normalize_schema(store, ex, text, target)

    def one_pass(check):
        for text in texts:
            at, length = run(text)
            if check:
                out = bytes(memory.read(store, at, at + length)).decode()
                ok = out.startswith("o") if api == "text" else "ok" in json.loads(out)
                if not ok:
                    sys.exit(f"fuel: {target}: an error answer: {out[:300]}")
            free(store, at, length, 1)

    # The first pass grows the memory and is checked; the counted ones follow.
    one_pass(True)
    before = store.get_fuel()
    for _ in range(passes):
        one_pass(False)
    return (before - store.get_fuel()) / passes


# src/phase.rs's `Phase`, by number: each mark ends its phase.
PHASES = ["crossing in", "setup", "parse", "context", "upgrade", "refs", "rules", "settle", "check", "answer"]


def phases_per_pass(module, target, texts):
    """One pass's fuel by phase (after a first pass that grows the memory),
    and what followed the last mark (dropping, crossing out)."""
    spent = dict.fromkeys(PHASES + ["crossing out"], 0)
    last = [None]

    def on_phase(store, phase):
        now = store.get_fuel()
        if last[0] is not None:
            spent[PHASES[phase]] += last[0] - now
        last[0] = now

    store, ex = module.instance(on_phase)
    if not any(i.module == "toolschema_phases" for i in module.module.imports):
        sys.exit("fuel: --phases needs the module bench/build-boundary.sh phases builds (it has no phase marks)")
    free = ex["__wbindgen_free"]
    for counted in (False, True):
        for key in spent:
            spent[key] = 0
        for text in texts:
            last[0] = store.get_fuel()
            at, length = normalize_schema(store, ex, text, target)
            spent["crossing out"] += last[0] - store.get_fuel()
            free(store, at, length, 1)
    return spent


def print_phases(module, targets, texts):
    spent = {t: phases_per_pass(module, t, texts) for t in targets}
    print(f"fuel per pass over {len(texts)} real MCP schemas by phase (normalizeSchemaJson; millions of wasm operators, and share of the call)")
    print(f"{'phase':>14}" + "".join(f"{t:>24}" for t in targets))
    for phase in PHASES + ["crossing out"]:
        cells = [f"{spent[t][phase] / 1e6:.3f}M {spent[t][phase] / sum(spent[t].values()) * 100:5.1f}%" for t in targets]
        print(f"{phase:>14}" + "".join(f"{c:>24}" for c in cells))
    print(f"{'total':>14}" + "".join(f"{sum(spent[t].values()) / 1e6:.3f}M{'':>8}".rjust(24) for t in targets))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="+", help="one module, or a base and a changed one")
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--api", choices=["schema", "text"], default="schema")
    parser.add_argument("--phases", action="store_true", help="split one module's count by phase (src/phase.rs)")
    args = parser.parse_args()
    if args.phases:
        if len(args.modules) != 1 or args.api != "schema":
            parser.error("--phases takes one module, on the schema path")
        print_phases(Module(args.modules[0]), args.targets.split(","), schema_texts())
        return
    if len(args.modules) > 2:
        parser.error("at most two modules")
    texts = schema_texts()
    what = f"{len(texts)} real MCP schemas (normalizeSchemaJson"
    if args.api == "text":
        texts = body_texts(texts)
        what = f"{len(texts)} request bodies of 20 real MCP schemas (normalizeToolsText"
    modules = [Module(p) for p in args.modules]
    print(f"fuel per pass over {what}; wasm operators, millions)")
    header = ["target"] + [os.path.relpath(p) for p in args.modules] + (["second / first"] if len(modules) == 2 else [])
    print("  ".join(f"{h:>22}" for h in header))
    for target in args.targets.split(","):
        counts = [fuel_per_pass(m, target, texts, args.passes, args.api) for m in modules]
        row = [target] + [f"{c / 1e6:.3f}M" for c in counts]
        if len(counts) == 2:
            row.append(f"{counts[1] / counts[0]:.4f}")
        print("  ".join(f"{c:>22}" for c in row))


if __name__ == "__main__":
    main()
