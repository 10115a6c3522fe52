"""The core's work stays linear in a schema's size and depth, counted, not timed.

    .venv/bin/python tests/linearity.py pkg/toolschema_bg.wasm

Runs each shape of bench/scaling.mjs (and a wide object) through the
module's `normalizeSchemaJson` at a size n and at 4n, for every target, and
counts the wasm
operators of the second call with wasmtime's fuel (bench/fuel.py). The count
is the same on every run and every machine, so this is a test where the
timed slopes of `make bench` are not: a path that does work quadratic in the
input fails it, where the timings would move within the machine's noise.
Linear work gives a ratio of about 4 for 4x the input; a ratio past
`BOUND` (a log-log slope past about 1.13) fails.

The sizes are large enough for a quadratic term to show (a `$defs` name
searched among every name given before made a `$ref` per property 6.4x the
work for 1,000 to 4,000 properties, 4.65x once looked up in a set; Cloud Code
Assist's nullable unions were 7.22x for 32 to 128 levels while a dropped
`null` was found by its pointer's text, 3.97x by the pointer's id; WebMCP's
10.47x while folding a union copied the subschemas below it; Moonshot's and
OpenRouter's unions of many objects 15.8x while each branch was compared with
every one kept) and small
enough that no target fails open (OpenAI strict's limits run the pipeline
three times past them: a step, not a slope). A little over 4 is expected: a
few steps sort names (n log n).
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from fuel import Module, normalize_schema  # noqa: E402

TARGETS = [
    "openai", "openai-strict", "openai-responses", "google", "cca", "mcp", "llamacpp", "xgrammar", "llguidance",
    "ollama", "anthropic", "anthropic-strict", "bedrock", "xai", "moonshot", "deepseek-strict", "mistral", "groq",
    "openrouter", "fireworks", "gemini-openai", "webmcp", "google-json",
]
# Strict targets whose limits 4,000 `$ref`ed objects pass (they fail open there).
FAIL_OPEN = ["openai-strict", "deepseek-strict"]
BOUND = 4.8


def nested_object(levels):
    s = {"type": "string", "description": "leaf"}
    for level in range(levels, 0, -1):
        s = {"type": "object", "description": f"level {level}", "properties": {"child": s}, "required": ["child"]}
    return s


def sized(groups):
    def group(g):
        return {
            "type": "object",
            "description": f"settings group {g}",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z][a-z0-9_-]*$", "description": "identifier"},
                "count": {"type": ["integer", "null"], "minimum": 0, "maximum": 1000, "default": 10},
                "mode": {"anyOf": [{"const": "fast"}, {"const": "safe"}], "description": "how to run"},
                "tags": {"type": "array", "items": {"type": "string", "format": "uri"}, "maxItems": 20},
                "when": {"type": "string", "format": "date-time"},
                "ratio": {"type": "number", "exclusiveMinimum": 0},
                "flag": {"type": "boolean", "default": False},
                "owner": {"type": "object", "properties": {"id": {"type": "integer"}, "email": {"type": "string", "format": "email"}}, "required": ["id"]},
            },
            "required": ["name", "mode"],
            "additionalProperties": False,
        }

    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "description": "synthetic tool",
        "properties": {f"g{g}": group(g) for g in range(groups)},
        "required": ["g0"],
    }


def nested_all_of(n):
    s = {"type": "string"}
    for i in range(n):
        s = {
            "allOf": [
                {"type": "object", "properties": {f"a{i}": {"type": "string"}}, "required": [f"a{i}"]},
                {"type": "object", "properties": {"b": {"type": "integer"}, "child": s}},
            ]
        }
    return s


def nullable_unions(n):
    s = {"type": "string"}
    for i in range(n):
        s = {"anyOf": [{"type": "object", "properties": {f"x{i}": s, "y": {"type": "number"}}}, {"type": "null"}]}
    return s


def ref_per_property(n):
    return {
        "type": "object",
        "properties": {f"p{i}": {"$ref": f"#/$defs/D{i}"} for i in range(n)},
        "$defs": {
            f"D{i}": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"$ref": f"#/$defs/D{(i * 7 + 1) % n}"}}}
            for i in range(n)
        },
    }


def all_of_many(n):
    branches = [{"type": "object", "properties": {f"p{i}": {"type": "string"}}, "required": [f"p{i}"]} for i in range(n)]
    return {"type": "object", "properties": {"x": {"allOf": branches}}}


def union_many(n):
    branches = [
        {"type": "object", "properties": {"kind": {"const": f"k{i}"}, f"v{i}": {"type": "string"}}, "required": ["kind"]}
        for i in range(n)
    ]
    return {"type": "object", "properties": {"x": {"anyOf": branches}}}


def wide(n):
    return {
        "type": "object",
        "properties": {f"p{i}": {"type": ["string", "null"], "description": "d"} for i in range(n)},
        "required": [f"p{i}" for i in range(0, n, 2)],
    }


# name -> (make, n, targets that take 4n without failing open or hitting a budget)
SHAPES = {
    "size": (sized, 40, TARGETS),
    "depth": (nested_object, 30, TARGETS),
    "nested allOf": (nested_all_of, 32, TARGETS),
    "nullable unions": (nullable_unions, 32, TARGETS),
    # google and cca inline references up to a budget: past it their work
    # levels off, which says nothing of the path measured here.
    "a $ref per property": (ref_per_property, 1000, [t for t in TARGETS if t not in ["google", "cca"] + FAIL_OPEN]),
    "a $ref per property (strict)": (ref_per_property, 250, FAIL_OPEN),
    "an allOf of many objects": (all_of_many, 500, TARGETS),
    "a union of many objects": (union_many, 200, TARGETS),
    "a wide object": (wide, 1000, TARGETS),
}

OPTIONS = json.dumps({"maxDepth": 100000})


def work(module, target, text):
    """Wasm operators of one normalizeSchemaJson call, after one that grew the memory."""
    store, ex = module.instance()

    def call():
        at, length = normalize_schema(store, ex, text, target, OPTIONS)
        out = bytes(ex["memory"].read(store, at, at + length)).decode()
        ex["__wbindgen_free"](store, at, length, 1)
        return out

    first = call()
    if '"ok"' not in first[:8]:
        sys.exit(f"linearity: {target}: an error answer: {first[:300]}")
    before = store.get_fuel()
    call()
    return before - store.get_fuel()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests/linearity.py <module.wasm>")
    module = Module(sys.argv[1])
    failed = []
    print(f"{'shape':30} {'target':17} {'n':>6} {'work(n)':>12} {'work(4n)':>12} {'ratio':>6}")
    for name, (make, n, targets) in SHAPES.items():
        small, large = json.dumps(make(n)), json.dumps(make(4 * n))
        for target in targets:
            a, b = work(module, target, small), work(module, target, large)
            ratio = b / a
            mark = "" if ratio <= BOUND else f"  over {BOUND}"
            print(f"{name:30} {target:17} {n:>6} {a:>12} {b:>12} {ratio:>6.2f}{mark}")
            if ratio > BOUND:
                failed.append(f"{name} on {target}: {ratio:.2f}x the work for 4x the input (bound {BOUND})")
    if failed:
        sys.exit("linearity: work grows faster than the input:\n  " + "\n  ".join(failed))
    print("linearity: every shape's work grows linearly")


if __name__ == "__main__":
    main()
