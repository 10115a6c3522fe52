#!/usr/bin/env python3
"""Self-test for check_wire.py: proves each check can fail, and on the right inputs.

    .venv/bin/python tests/consumers/test_check_wire.py      (or: pytest tests/consumers)

What the two Schema messages accept, read from their descriptors (protobuf 7.36.2,
google-ai-generativelanguage 0.12.1, google-cloud-aiplatform 2.7.0); test_field_lists below
fails when a package bump changes either list, so this comment cannot drift silently.

google.ai.generativelanguage.v1beta.Schema (Gemini API, FunctionDeclaration.parameters), JSON names:
    type format title description nullable enum items maxItems minItems properties required
    minProperties maxProperties minimum maximum minLength maxLength pattern example anyOf
    propertyOrdering default
  type enum: TYPE_UNSPECIFIED STRING NUMBER INTEGER BOOLEAN ARRAY OBJECT NULL

google.cloud.aiplatform.v1.Schema (Vertex AI v1; Cloud Code Assist's parse errors name its
internal twin google.cloud.aiplatform.master.Schema, providers.md F21), JSON names:
    type format title description nullable default items minItems maxItems enum properties
    propertyOrdering required minProperties maxProperties minimum maximum minLength maxLength
    pattern example anyOf additionalProperties ref defs
  type enum: TYPE_UNSPECIFIED STRING NUMBER INTEGER BOOLEAN ARRAY OBJECT        (no NULL)

Accepted by both, i.e. what a google/cca output may use: the v1beta field list, with no
`type: "null"`. v1 alone adds additionalProperties (any JSON value), ref, defs; v1beta alone
has type NULL (use nullable instead).
Value types: enum, required, propertyOrdering are lists of strings (a number or null in
`enum` fails); min*/max* Items/Length/Properties are int64 (2.5 and true fail; "2" and 2.0
parse); minimum/maximum are doubles; nullable is a bool; example/default (and v1
additionalProperties) are google.protobuf.Value, i.e. any JSON; properties/defs are maps of
Schema; items is one Schema (a list fails); anyOf is a list of Schema; type is one enum name
(a list fails; lower case fails, hence the upper-casing).
Not fields of either, so rejected as `no field named`: const, $ref, $defs, definitions,
$schema, $id, oneOf, allOf, not, if/then/else, uniqueItems, exclusiveMinimum,
exclusiveMaximum, multipleOf, patternProperties, propertyNames, prefixItems, examples
(the proto has `example`), dependentRequired, contentEncoding, readOnly, deprecated.
ParseDict also takes the raw proto names: snake_case (any_of, min_items) and proto-plus's
renamed `type_`/`format_`; check_wire rejects those by name (see its docstring).
Nesting: ParseDict stops at 100 nested messages ("Message too deep"); one object level
(properties -> value) is one message, so 99 levels parse.
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

import check_wire  # noqa: E402
from check_wire import PROTOS, check_meta, check_proto, upper_types  # noqa: E402
from google.protobuf import json_format  # noqa: E402

V1BETA_FIELDS = [
    "type", "format", "title", "description", "nullable", "enum", "items", "maxItems",
    "minItems", "properties", "required", "minProperties", "maxProperties", "minimum",
    "maximum", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
    "default",
]
V1_FIELDS = [
    "type", "format", "title", "description", "nullable", "default", "items", "minItems",
    "maxItems", "enum", "properties", "propertyOrdering", "required", "minProperties",
    "maxProperties", "minimum", "maximum", "minLength", "maxLength", "pattern", "example",
    "anyOf", "additionalProperties", "ref", "defs",
]
TYPES_COMMON = ["TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]

GOOD = {
    "type": "object",
    "properties": {"a": {"type": "string", "nullable": True, "enum": ["x"]}},
    "required": ["a"],
    "propertyOrdering": ["a"],
}


def obj(prop: dict) -> dict:
    return {"type": "object", "properties": {"p": prop}}


# (label, schema, rejected by v1beta, rejected by v1)
BAD_GOOGLE = [
    ("additionalProperties", {"type": "object", "properties": {}, "additionalProperties": False}, True, False),
    ("const", obj({"type": "string", "const": "x"}), True, True),
    ("type list", obj({"type": ["string", "null"]}), True, True),
    ("$ref", {"type": "object", "properties": {"p": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"type": "string"}}}, True, True),
    ("uniqueItems", obj({"type": "array", "items": {"type": "string"}, "uniqueItems": True}), True, True),
    ("exclusiveMinimum", obj({"type": "number", "exclusiveMinimum": 0}), True, True),
    ("numeric enum", obj({"type": "integer", "enum": [1, 2]}), True, True),
    ("items as list", obj({"type": "array", "items": [{"type": "string"}]}), True, True),
    ("type null", obj({"type": "null"}), False, True),
    ("unknown type name", obj({"type": "text"}), True, True),
    ("oneOf", obj({"oneOf": [{"type": "string"}, {"type": "integer"}]}), True, True),
    ("examples", obj({"type": "string", "examples": ["a"]}), True, True),
    ("$schema", {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}, True, True),
    ("boolean subschema", {"type": "object", "properties": {"p": True}}, True, True),
    ("deep bad key", obj({"type": "array", "items": {"anyOf": [{"type": "object", "properties": {"q": {"type": "string", "format": "uri", "multipleOf": 2}}}]}}), True, True),
]


def parse_raw(schema, check):
    """The consumer alone, without check_wire's name check."""
    json_format.ParseDict(upper_types(schema), PROTOS[check](), ignore_unknown_fields=False)


def test_field_lists():
    for check, fields in (("proto:v1beta", V1BETA_FIELDS), ("proto:v1", V1_FIELDS)):
        desc = PROTOS[check].DESCRIPTOR
        assert [f.json_name for f in desc.fields] == fields, (check, [f.json_name for f in desc.fields])
    v1beta_types = [v.name for v in PROTOS["proto:v1beta"].DESCRIPTOR.fields_by_name["type_"].enum_type.values]
    v1_types = [v.name for v in PROTOS["proto:v1"].DESCRIPTOR.fields_by_name["type_"].enum_type.values]
    assert v1beta_types == TYPES_COMMON + ["NULL"], v1beta_types
    assert v1_types == TYPES_COMMON, v1_types


def test_good_google_schema_passes():
    for check in PROTOS:
        assert check_proto(GOOD, check) is None, check_proto(GOOD, check)
        parse_raw(GOOD, check)
    assert check_meta(GOOD) is None


def test_cca_fallback_passes():
    fallback = {"type": "object", "properties": {}}
    for check in PROTOS:
        assert check_proto(fallback, check) is None
    assert check_meta(fallback) is None


def test_known_bad_google_schemas_are_rejected_by_the_parser():
    for label, schema, bad_v1beta, bad_v1 in BAD_GOOGLE:
        for check, bad in (("proto:v1beta", bad_v1beta), ("proto:v1", bad_v1)):
            try:
                parse_raw(schema, check)
                raw_rejected = False
            except Exception:
                raw_rejected = True
            assert raw_rejected == bad, f"{label} {check}: parser rejected={raw_rejected}, expected {bad}"
            verdict = check_proto(schema, check)
            assert (verdict is not None) == bad, f"{label} {check}: check_proto -> {verdict!r}"


def test_failure_names_the_offending_key():
    why = check_proto(obj({"type": "string", "const": "x"}), "proto:v1beta")
    assert why == "/properties/p/const: unknown field", why
    why = check_proto(BAD_GOOGLE[-1][1], "proto:v1")
    assert "/properties/p/items/anyOf/0/properties/q/multipleOf" in why, why
    assert "Available Fields" not in why, why
    why = check_proto({"type": "object", "properties": {"a": {"type": "string", "const": "x", "examples": ["x"]},
                                                         "b": {"type": "integer", "enum": [1]}},
                       "additionalProperties": False}, "proto:v1beta")
    assert why.split("; ") == ["/additionalProperties: unknown field", "/properties/a/const: unknown field",
                               "/properties/a/examples: unknown field",
                               "/properties/b/enum: expected string or bytes-like object, got 'int'"], why
    why = check_proto(obj({"type": ["string", "null"]}), "proto:v1")
    assert why.startswith("/properties/p/type: wrong JSON shape"), why
    why = check_proto(obj({"type": "array", "items": [{"type": "string"}]}), "proto:v1")
    assert why.startswith("/properties/p/items: wrong JSON shape"), why
    why = check_proto(obj({"type": "text"}), "proto:v1")
    assert why.startswith("/properties/p/type: Invalid enum value TEXT"), why


def test_parser_takes_proto_names_that_the_wire_does_not():
    for schema, key in (({"type_": "OBJECT"}, "/type_"), (obj({"type": "array", "items": {"type": "string"}, "min_items": 1}), "/properties/p/min_items"), ({"type": "object", "any_of": [{"type": "object"}]}, "/any_of")):
        for check in PROTOS:
            parse_raw(schema, check)  # ParseDict alone would let these through ...
            why = check_proto(schema, check)  # ... so check_wire checks names itself.
            assert why is not None and key in why, (schema, check, why)


def test_type_is_upper_cased_at_schema_positions_only():
    schema = {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": ["object", "string"], "default": "object"},
            "items": {"type": "array", "items": {"type": "integer"}, "example": [{"type": "x"}]},
            "u": {"anyOf": [{"type": "string"}, {"type": "number", "default": {"type": "y"}}]},
        },
        "$defs": {"d": {"type": "boolean"}},
        "propertyOrdering": ["type", "items", "u"],
    }
    out = upper_types(schema)
    assert out["type"] == "OBJECT"
    p = out["properties"]
    assert list(p) == ["type", "items", "u"]
    assert p["type"] == {"type": "STRING", "enum": ["object", "string"], "default": "object"}
    assert p["items"]["type"] == "ARRAY" and p["items"]["items"]["type"] == "INTEGER"
    assert p["items"]["example"] == [{"type": "x"}]
    assert p["u"]["anyOf"][0]["type"] == "STRING"
    assert p["u"]["anyOf"][1]["default"] == {"type": "y"}
    assert out["$defs"]["d"]["type"] == "BOOLEAN"
    assert out["propertyOrdering"] == ["type", "items", "u"]
    assert schema["type"] == "object", "input must not be mutated"


def test_bad_2020_12_schemas_fail_meta_validation():
    for schema in ({"type": 5}, {"required": "a"}, {"type": "object", "properties": {"a": {"minLength": -1}}},
                   {"type": "object", "properties": {"a": {"pattern": "("}}}, {"type": "STRING"}):
        assert check_meta(schema) is not None, schema
    for schema in (GOOD, True, {}, {"type": ["string", "null"]}, {"$ref": "#/$defs/a", "$defs": {"a": {}}}):
        assert check_meta(schema) is None, (schema, check_meta(schema))


def test_patterns_are_checked_as_ecma_262():
    def pat(p):
        return {"type": "object", "properties": {"s": {"type": "string", "pattern": p}}}
    for ok in (r"^\p{L}+$", r"(?<year>\d{4})", r"^(?=.*\d)[a-z\d]+$", r"^[\u0041-\u005A]$"):
        assert check_meta(pat(ok)) is None, (ok, check_meta(pat(ok)))
    for bad in ("(", "[a-", "a{2,1}", r"(?P<year>\d{4})", r"abc\Z", "(?i)abc"):
        why = check_meta(pat(bad))
        assert why is not None and "regex" in why, (bad, why)
    assert check_meta({"type": "object", "patternProperties": {"(": {}}}) is not None
    assert check_meta({"type": "object", "patternProperties": {r"^\p{Lu}": {}}}) is None


def test_deep_nesting():
    def nested(levels):
        s = {"type": "string"}
        for _ in range(levels):
            s = {"type": "object", "properties": {"p": s}}
        return s
    for check in PROTOS:
        assert check_proto(nested(40), check) is None
        assert check_proto(nested(99), check) is None
        assert "too deep" in (check_proto(nested(150), check) or ""), check_proto(nested(150), check)[:200]
    assert check_meta(nested(40)) is None


def run_main(records_text):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "records.json")
        if records_text is not None:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(records_text)
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = check_wire.main(["check_wire.py", path])
        return code, out.getvalue().splitlines(), err.getvalue()


def test_main_counts_per_record_and_check():
    records = [
        {"id": "ok-g", "name": "t", "target": "google", "schema": GOOD},
        {"id": "ok-c", "name": "t", "target": "cca", "schema": {"type": "object", "properties": {}}},
        {"id": "ok-o", "name": "t", "target": "openai-strict", "strict": True,
         "schema": {"type": "object", "properties": {}, "required": [], "additionalProperties": False}},
        {"id": "bad-g", "name": "t", "target": "google", "schema": obj({"type": "string", "const": "x"})},
        {"id": "bad-m", "name": "t", "target": "mcp", "schema": {"type": 5}},
        {"id": "bad-t", "name": "t", "schema": {}},
        {"id": "bad-e", "name": "t", "target": "cca", "error": "E_BUDGET: inlining budget exceeded"},
    ]
    code, lines, _ = run_main(json.dumps(records))
    assert code == 1
    assert lines[-1] == "8 passed, 5 failed", lines
    fails = lines[:-1]
    assert len(fails) == 5 and all(line.startswith("FAIL ") for line in fails), fails
    assert any("bad-e" in line and "normalize: E_BUDGET" in line for line in fails)
    assert sum("bad-g" in line for line in fails) == 2
    assert any("bad-m" in line and "meta:2020-12" in line for line in fails)
    assert any("bad-t" in line for line in fails)


def test_main_green_run():
    code, lines, _ = run_main(json.dumps([{"id": "a", "name": "a", "target": "google", "schema": GOOD},
                                          {"id": "b", "name": "b", "target": "mcp", "schema": {"type": "object"}}]))
    assert (code, lines) == (0, ["4 passed, 0 failed"]), (code, lines)
    code, lines, _ = run_main(json.dumps([{"id": "c", "name": "c", "target": "cca", "fallback": True,
                                           "schema": {"type": "object", "properties": {}}}]))
    assert code == 0 and lines[-1] == "3 passed, 0 failed" and "1 of 1 records" in lines[0], (code, lines)


def test_main_empty_or_missing_is_not_green():
    code, lines, err = run_main("[]")
    assert code == 1 and lines[-1] == "0 passed, 0 failed" and "no records" in err
    code, lines, err = run_main(None)
    assert code == 1 and "cannot read" in err
    code, lines, err = run_main('{"not": "a list"}')
    assert code == 1
    code, lines, err = run_main("not json")
    assert code == 1


def main() -> int:
    tests = [(name, fn) for name, fn in globals().items() if name.startswith("test_") and callable(fn)]
    passed = failed = 0
    for name, fn in tests:
        try:
            fn()
        except Exception:
            failed += 1
            print(f"FAIL {name}")
            traceback.print_exc(file=sys.stdout)
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
