#!/usr/bin/env python3
"""Self-test for check_grammars.py: every compiler wrapper accepts a trivially valid schema
and can fail, and the loss counting finds what each compiler drops (and only that).

    .venv/bin/python tests/grammars/test_check_grammars.py      (or: pytest tests/grammars)

Needs scripts/setup-grammars.sh first. What the pinned compilers were seen to do, and what
the cases below pin (a compiler bump that changes any of it fails here, not silently in the
tables):

  llama.cpp (llama-cpp-python 0.3.36 sdist)
    rejects: a boolean subschema ("schema must be an object"), a $ref it cannot resolve or
      that is not "#/..." (so `"$ref": "#"` recursion too), an unknown `type`, a pure $ref
      cycle (the GBNF loader: "left recursion detected")
    warns (its only warning): a pattern it cannot convert, "accepting any string": not
      anchored ^...$, \\d \\w \\s \\S \\p escapes, lookaround and other groups, \\/ inside [...]
    drops silently: number bounds and multipleOf (integer bounds are kept), every format but
      date, time, date-time, uuid; uniqueItems, contains, not, if/then/else,
      patternProperties, propertyNames, min/maxProperties, dependent*, unevaluated*;
      minItems/maxItems on a tuple; minLength/maxLength beside pattern or format; format
      beside pattern; everything beside $ref, or beside anyOf/oneOf (incl. type, properties,
      required), or beside const/enum; anyOf beside oneOf; allOf members' own keywords
      other than properties (and enum intersection); oneOf exclusivity
  xgrammar (0.2.8, vLLM defaults)
    rejects: a $ref it cannot resolve, \\p{..} and lookahead inside groups in patterns
    warns: "multipleOf is not supported for type:number; ignoring multipleOf", "pattern
      (or format) combined with minLength/maxLength is not supported; ignoring ...",
      "Lookahead assertion is not supported and is ignored in regex", "Anchor '$' in the
      middle of regex is ignored", "oneOf with overlapping or non-provably-disjoint branches
      ... falling back to anyOf", "Support for allOf with multiple options is still ongoing",
      "URI should either be '#' or start with '#/'" (a non-local $ref, compiled as any value)
    drops silently: not, uniqueItems, if/then/else, dependent*, unevaluatedProperties
  llguidance (1.9.1): strict errors "Unimplemented keys: [...]" (not, uniqueItems,
    propertyNames, if/then/else, dependentRequired, ...), "Unknown format: X", "oneOf
    constraints are not supported", regex look-around; lenient turns them into warnings
  outlines-core (0.2.14): errors on not, boolean subschemas, unknown formats, ref cycles
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import traceback
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ beside the sources (it is not git-ignored)

import check_grammars as cg  # noqa: E402

VALID = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}

_ENGINES: dict = {}


def engine(name: str):
    if name not in _ENGINES:
        _ENGINES[name] = cg.ENGINE_CLASSES[name]()
    return _ENGINES[name]


def analyze(name: str, schema):
    return cg.analyze(name, engine(name), schema)


def losses(name: str, schema) -> set[tuple]:
    a = analyze(name, schema)
    assert a.ok, (name, schema, a.errors)
    return {(l.pointer, l.keyword) for l in a.losses}


def sources(name: str, schema) -> set[str]:
    return {l.source for l in analyze(name, schema).losses}


# --- each wrapper passes a trivially valid schema -------------------------------------------


def test_trivially_valid_compiles_everywhere_without_loss():
    for name in cg.ENGINE_CLASSES:
        a = analyze(name, VALID)
        assert a.ok and not a.errors and not a.losses, (name, a)
        assert engine(name).version()


# --- ... and can fail ------------------------------------------------------------------------


def test_llamacpp_rejects_at_each_stage():
    a = analyze("llama.cpp", {"type": "object", "properties": {"a": True}})
    assert not a.ok and a.errors[0].startswith("convert: ") and "schema must be an object" in a.errors[0], a
    a = analyze("llama.cpp", {"$ref": "#/$defs/nope"})
    assert not a.ok and "cannot resolve $ref" in a.errors[0], a
    a = analyze("llama.cpp", {"type": "object", "properties": {"n": {"$ref": "#"}}})
    assert not a.ok and "only references into the same document" in a.errors[0], a
    # Converts, then the GBNF loader refuses it: the driver runs both steps.
    a = analyze("llama.cpp", {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"})
    assert not a.ok and a.errors[0].startswith("grammar: ") and "left recursion" in a.errors[0], a


def test_llamacpp_pattern_warnings_are_its_own():
    for pattern, why in [("[0-9]+", "not anchored"), ("^\\d+$", "unsupported escape: \\d"),
                         ("^(?=a)[a-z]+$", "unsupported group syntax")]:
        a = analyze("llama.cpp", {"type": "string", "pattern": pattern})
        assert a.ok and len(a.losses) == 1, (pattern, a)
        loss = a.losses[0]
        assert (loss.pointer, loss.keyword, loss.source) == ("", "pattern", "compiler"), loss
        assert why in loss.message and pattern in loss.message, loss
    assert losses("llama.cpp", {"type": "string", "pattern": "^[0-9]+$"}) == set()


def test_llamacpp_silent_drops_found_by_ablation():
    assert losses("llama.cpp", {"type": "number", "minimum": 0, "maximum": 9}) == {("", "minimum"), ("", "maximum")}
    assert losses("llama.cpp", {"type": "integer", "minimum": 0, "maximum": 9}) == set()
    assert losses("llama.cpp", {"type": "string", "format": "email"}) == {("", "format")}
    assert losses("llama.cpp", {"type": "string", "format": "date-time"}) == set()
    assert losses("llama.cpp", {"type": "array", "items": {"type": "string"}, "uniqueItems": True}) == {("", "uniqueItems")}
    assert sources("llama.cpp", {"type": "number", "minimum": 0}) == {"ablation"}
    # Siblings of anyOf are dropped (the distribution rule's reason); the top-most loss
    # stands for its subtree.
    schema = {"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}, "required": ["a"],
              "anyOf": [{"required": ["a"]}, {"properties": {"b": {"type": "string"}}}]}
    found = losses("llama.cpp", schema)
    assert ("", "properties") in found and ("/properties/a", "minLength") not in found, found


def test_ollama_is_llamacpp():
    assert cg.TARGET_ENGINES["ollama"] == cg.TARGET_ENGINES["llamacpp"] == "llama.cpp"


def test_xgrammar_rejects_and_warns():
    a = analyze("xgrammar", {"$ref": "#/$defs/nope"})
    assert not a.ok and a.errors and "[" not in a.errors[0][:3], a
    a = analyze("xgrammar", {"type": "string", "pattern": "^\\p{L}+$"})
    assert not a.ok, a
    a = analyze("xgrammar", {"type": "number", "multipleOf": 0.5})
    assert a.ok and [(l.keyword, l.source) for l in a.losses] == [("multipleOf", "compiler")], a
    assert "ignoring multipleOf" in a.losses[0].message
    a = analyze("xgrammar", {"type": "string", "pattern": "^[a-z]+$", "maxLength": 3})
    assert {(l.keyword, l.source) for l in a.losses} == {("maxLength", "compiler")}, a
    assert losses("xgrammar", {"type": "object", "properties": {"a": {"not": {"type": "string"}}}}) == {("/properties/a", "not")}
    assert losses("xgrammar", {"type": "number", "minimum": 0}) == set()


def test_xgrammar_gate_matches_vllm():
    # vllm/v1/structured_output/backend_xgrammar.py, has_xgrammar_unsupported_json_features
    yes = [
        {"type": "integer", "multipleOf": 2},
        {"type": ["number", "null"], "multipleOf": 2},
        {"type": "array", "uniqueItems": True},
        {"type": "array", "contains": {"type": "string"}},
        {"type": "string", "format": "binary"},
        {"type": "string", "pattern": "^a$", "minLength": 1},
        {"type": "string", "format": "email", "maxLength": 9},
        {"type": "object", "propertyNames": {"pattern": "^a", "maxLength": 3}},
        {"type": "object", "propertyNames": {"enum": ["a"]}, "properties": {"a": {}}},
        {"type": "object", "propertyNames": {"enum": ["a"]}, "unevaluatedProperties": False},
        {"type": "object", "patternProperties": {"^a": {}, "^b": {}}},
        {"type": "object", "patternProperties": {"^a": {}}, "properties": {"b": {}}},
        {"type": "object", "properties": {"x": {"type": "number", "multipleOf": 3}}},
        {"anyOf": [{"type": "array", "maxContains": 2}]},
    ]
    no = [
        {"type": "string", "format": "email"},
        {"type": "number", "minimum": 1},
        {"multipleOf": 2},  # no type: vLLM does not look
        {"type": "string", "pattern": "^a$"},
        {"type": "object", "propertyNames": {"enum": ["a"]}},
        {"type": "object", "patternProperties": {"^a": {}}},
    ]
    for schema in yes:
        assert cg.has_xgrammar_unsupported_json_features(schema), schema
    for schema in no:
        assert not cg.has_xgrammar_unsupported_json_features(schema), schema
    gate = cg.xgrammar_gate({"type": "object", "properties": {"x": {"type": "number", "multipleOf": 3}}})
    assert gate == [("/properties/x", "multipleOf", "vLLM: multipleOf is unsupported by xgrammar")], gate
    a = analyze("xgrammar", {"type": "string", "format": "binary"})
    assert a.ok and [(l.keyword, l.source) for l in a.losses] == [("format", "vllm-gate")], a


def test_llguidance_strict_errors_lenient_warnings():
    a = analyze("llguidance", {"type": "object", "properties": {"a": {"not": {"type": "string"}}}})
    assert not a.ok and 'Unimplemented keys: ["not"]' in a.errors[0], a
    assert [(l.pointer, l.keyword, l.source) for l in a.losses] == [("/properties/a", "not", "compiler")], a
    a = analyze("llguidance", {"type": "string", "format": "foo"})
    assert not a.ok and "Unknown format: foo" in a.errors[0], a
    a = analyze("llguidance", {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]})
    assert not a.ok and [l.keyword for l in a.losses] == ["oneOf"], a
    # A construct lenient mode cannot accept either: an error without warnings.
    a = analyze("llguidance", {"type": "string", "pattern": "^(?=a)[a-z]+$"})
    assert not a.ok and "look-around" in a.errors[0] and not a.losses, a
    assert analyze("llguidance", {"oneOf": [{"type": "string"}, {"type": "integer"}]}).ok


def test_outlines_rejects():
    a = analyze("outlines-core", {"type": "object", "properties": {"a": {"not": {"type": "string"}}}})
    assert not a.ok and "Unsupported JSON Schema structure" in a.errors[0], a
    assert not analyze("outlines-core", {"type": "string", "format": "foo"}).ok


# --- the counting rules ------------------------------------------------------------------------


def test_redundant_beside_enum_is_not_a_loss():
    assert losses("llama.cpp", {"type": "string", "enum": ["a", "bc"], "maxLength": 3}) == set()
    assert losses("llama.cpp", {"type": "string", "enum": ["a", "bcde"], "maxLength": 3}) == {("", "maxLength")}
    assert losses("llama.cpp", {"type": "string", "const": "x"}) == set()


def test_oneof_exclusivity_only_when_not_provably_disjoint():
    assert losses("llama.cpp", {"oneOf": [{"type": "string"}, {"type": "integer"}]}) == set()
    tagged = {"oneOf": [
        {"type": "object", "properties": {"k": {"const": "a"}, "x": {"type": "string"}}, "required": ["k"]},
        {"type": "object", "properties": {"k": {"const": "b"}, "x": {"type": "string"}}, "required": ["k"]},
    ]}
    assert losses("llama.cpp", tagged) == set()
    assert losses("llama.cpp", {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}) == {("", "oneOf")}
    assert not cg.provably_disjoint({}, [{"properties": {"a": {}}}, {"type": "string"}])


def test_type_confined_by_union_is_not_a_loss():
    # llama.cpp ignores `type` beside oneOf, but every branch is an object anyway.
    schema = {"type": "object", "oneOf": [
        {"properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "string"}}, "required": ["b"]},
    ]}
    assert ("", "type") not in losses("llama.cpp", schema)
    schema = {"type": "string", "anyOf": [{"format": "email"}, {"format": "uri"}]}
    assert ("", "type") in losses("llama.cpp", schema)


def test_unreachable_definitions_are_not_ablated():
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/used"}},
              "$defs": {"used": {"type": "number", "minimum": 1}, "unused": {"type": "number", "minimum": 1}}}
    assert losses("llama.cpp", schema) == {("/$defs/used", "minimum")}


def test_isolation_agrees_with_whole_document():
    schema = {"type": "object", "properties": {
        "n": {"type": "number", "minimum": 0},
        "i": {"type": "integer", "minimum": 0},
        "s": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 3},
        "z": {"type": "null", "const": None},
        "x": {"not": {"type": "string"}},
        "r": {"$ref": "#/$defs/D"},
        "c": {"allOf": [{"$ref": "#/$defs/D"}, {"properties": {"q": {"type": "number", "maximum": 3}}}]},
    }, "$defs": {"D": {"type": "object", "properties": {"e": {"type": "string", "format": "uri"}}}}}
    for name in cg.ABLATED:
        whole = cg.analyze(name, engine(name), schema, isolate=False)
        alone = cg.analyze(name, engine(name), schema, isolate=True)
        assert [l.key() for l in whole.losses] == [l.key() for l in alone.losses], (name, whole, alone)


def test_message_parsing():
    assert cg.LlamaCpp.split_warnings([
        "WARNING: JSON schema conversion was incomplete: pattern a; b is not supported (not anchored "
        "with '^' and '$'), accepting any string; pattern ^\\d$ is not supported (unsupported escape: \\d), "
        "accepting any string"]) == [
        "pattern a; b is not supported (not anchored with '^' and '$'), accepting any string",
        "pattern ^\\d$ is not supported (unsupported escape: \\d), accepting any string"]
    units = cg.message_units("llguidance", 'Unimplemented keys: ["else", "if", "then"] (2 times)')
    assert units == [(["if"], None)] * 2, units
    assert cg.message_units("xgrammar", "URI should either be '#' or start with '#/' but got T0") == [(["$ref"], "T0")]


def test_driver_crash_and_timeout_cost_one_schema():
    with tempfile.TemporaryDirectory() as tmp:
        crash = os.path.join(tmp, "crash")
        with open(crash, "w") as fh:
            fh.write("#!/bin/sh\nread line\nkill -SEGV $$\n")
        os.chmod(crash, 0o755)
        hang = os.path.join(tmp, "hang")
        with open(hang, "w") as fh:
            fh.write("#!/bin/sh\nexec sleep 30\n")
        os.chmod(hang, 0o755)
        e = cg.LlamaCpp(driver=crash)
        try:
            first, second = e.compile(VALID), e.compile(VALID)
        finally:
            e.close()
        assert not first.ok and "crashed (signal 11)" in first.errors[0], first
        assert not second.ok and "crashed" in second.errors[0], second  # restarted, crashed again
        e = cg.LlamaCpp(driver=hang, timeout=0.5)
        try:
            r = e.compile(VALID)
        finally:
            e.close()
        assert not r.ok and "timed out" in r.errors[0], r
    try:
        cg.LlamaCpp(driver="/nonexistent/gbnf-driver")
    except cg.SetupMissing as exc:
        assert "setup-grammars" in str(exc)
    else:
        raise AssertionError("a missing driver must say how to install it")


# --- main(): records, tables, closing line ------------------------------------------------------


def run_main(records, corpus, *extra: str) -> tuple[int, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        cdir = os.path.join(tmp, "corpus")
        os.mkdir(cdir)
        with open(os.path.join(cdir, "c.json"), "w") as fh:
            json.dump([{"name": f"s{i}", "source": "test", "schema": s} for i, s in enumerate(corpus)], fh)
        path = os.path.join(tmp, "records.json")
        if records is not None:
            with open(path, "w") as fh:
                fh.write(records if isinstance(records, str) else json.dumps(records))
        out = io.StringIO()
        with redirect_stdout(out), redirect_stderr(io.StringIO()):
            code = cg.main(["check_grammars.py", path, "--corpus", cdir, *extra])
    return code, out.getvalue().splitlines()


CORPUS = [
    {"type": "object", "properties": {"n": {"type": "number", "minimum": 0}, "p": {"type": "string", "pattern": "^\\d+$"}}},
    {"type": "object", "properties": {"a": True}},
]
# What a grammar-aware normalizer would emit for CORPUS: the pattern rewritten, the boolean
# subschema made an object. (The number bound has no llama.cpp form.)
OURS = [
    {"type": "object", "properties": {"n": {"type": "number", "minimum": 0}, "p": {"type": "string", "pattern": "^[0-9]+$"}}},
    {"type": "object", "properties": {"a": {}}},
]


def records_for(target: str, schemas: list) -> list[dict]:
    return [{"id": f"c/{i}", "name": f"s{i}", "target": target, "schema": s} for i, s in enumerate(schemas)]


def test_main_green_for_a_better_normalizer():
    code, lines = run_main(records_for("llamacpp", OURS), CORPUS, "--only", "llamacpp")
    # 2 records compile + our warnings are below both columns.
    assert code == 0 and lines[-1] == "3 passed, 0 failed", lines
    table = "\n".join(lines)
    assert "raw input" in table and "mcp-schema-normalize" in table and "toolschema" in table


def test_main_fails_on_compile_error_and_on_no_improvement():
    code, lines = run_main(records_for("llamacpp", CORPUS), CORPUS, "--only", "llamacpp")
    assert code == 1 and lines[-1] == "1 passed, 2 failed", lines
    assert any(l.startswith("FAIL c/1 (s1) [llamacpp] compile:") for l in lines), lines
    assert any(l.startswith("FAIL llamacpp fidelity:") for l in lines), lines
    bad = [{"id": "c/0", "name": "s0", "target": "xgrammar", "error": "E_SOMETHING: broke"}]
    code, lines = run_main(bad, CORPUS[:1], "--only", "xgrammar")
    assert code == 1 and any("normalize: E_SOMETHING" in l for l in lines), lines


def test_main_no_records_fails_unless_baseline():
    code, lines = run_main(records_for("mcp", CORPUS), CORPUS, "--only", "ollama")
    assert code == 1 and "FAIL ollama: no records for target ollama" in "\n".join(lines), lines
    code, lines = run_main(records_for("mcp", CORPUS), CORPUS, "--only", "ollama", "--baseline")
    assert code == 0 and lines[-1] == "0 passed, 0 failed" and "raw input" in "\n".join(lines), lines


def test_main_missing_records_fails():
    code, lines = run_main(None, CORPUS)
    assert code == 1 and lines[-1] == "0 passed, 1 failed", lines
    code, lines = run_main('{"not": "a list"}', CORPUS)
    assert code == 1, lines


def main() -> int:
    tests = [(name, fn) for name, fn in globals().items() if name.startswith("test_") and callable(fn)]
    passed = failed = 0
    try:
        for name, fn in tests:
            try:
                fn()
            except Exception:
                failed += 1
                print(f"FAIL {name}")
                traceback.print_exc(file=sys.stdout)
            else:
                passed += 1
    finally:
        for e in _ENGINES.values():
            if hasattr(e, "close"):
                e.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
