#!/usr/bin/env python3
"""Run toolschema's normalized output through the real consumers it is written for.

    python tests/consumers/check_wire.py RECORDS.json

RECORDS.json is a JSON array of {"id", "name", "target", "schema", "strict"?, "fallback"?,
"lossy"?} written by `cargo run --release --example corpus`; a record with "error" instead of
"schema" (the normalizer gave no output) counts as one failure. Checks, one result per
record x check:

  proto:v1beta  targets google, cca, gemini-openai: the schema parses into the Gemini API
                message google.ai.generativelanguage.v1beta.Schema
  proto:v1      targets google, cca, gemini-openai: the schema parses into the Vertex AI message
                google.cloud.aiplatform.v1.Schema
  (google-json is sent as `parametersJsonSchema`, a google.protobuf.Value holding JSON Schema:
  any JSON parses there, so it gets the meta-validation below, not the Schema protos.)
  meta:2020-12  every target: jsonschema's Draft202012Validator.check_schema passes, with
                patterns checked as ECMA-262 regexes (see META_FORMATS)

The proto checks use google.protobuf.json_format.ParseDict with ignore_unknown_fields=False,
the same proto3-JSON mapping the Google front ends apply to `FunctionDeclaration.parameters`:
an unknown key, a list-valued `type`, a non-string enum value ... is an error there, and
here. `type` values are upper-cased first (the wire enum is STRING, OBJECT, ...), at schema
positions only: never a property name, an enum value or a default/example payload.

ParseDict is more lenient than the wire in one respect, so a name check runs beside it:
proto-plus renames the proto fields `type` and `format` to `type_` and `format_` (Python
keywords/builtins), and ParseDict accepts those and the snake_case proto names (`any_of`,
`min_items`) as well as the camelCase JSON names. The Google front ends know no `type_`,
and a JSON Schema consumer (Claude behind Cloud Code Assist, any 2020-12 validator) ignores
`any_of`, so only the JSON names count as accepted here.

Prints one line per failure, then `N passed, N failed`. Exit status 1 when anything failed
or when there was nothing to check.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Iterator

sys.setrecursionlimit(20000)

import jsonschema  # noqa: E402
import regress  # noqa: E402
from google.ai.generativelanguage_v1beta.types import Schema as SchemaV1beta  # noqa: E402
from google.cloud.aiplatform_v1.types import Schema as SchemaV1  # noqa: E402
from google.protobuf import json_format  # noqa: E402

# The raw protobuf class behind each proto-plus message: Schema.pb() returns it.
PROTOS = {
    "proto:v1beta": SchemaV1beta.pb(),
    "proto:v1": SchemaV1.pb(),
}

# gemini-openai: Gemini's OpenAI-compatible endpoint reads `parameters` into the same
# Schema message (its errors are the proto parser's: 'Unknown name "additionalProperties"
# ... Cannot find field', pontus-espe/agent-sdk-go#23); it takes a subset of google's keys.
GOOGLE_TARGETS = {"google", "cca", "gemini-openai"}

# protobuf's default nesting limit for JSON parsing (99 nested object levels parse).
# Passed explicitly so a change of the library default cannot move what we test; how deep
# Google's own front ends let a schema nest is not documented.
MAX_PROTO_DEPTH = 100

# JSON Schema (2020-12 and older drafts, plus snake_case spellings) keywords whose value is
# a schema, a list of schemas, or a map of name -> schema. Used only to find where `type`
# is a keyword; everything else (enum, const, default, examples, example, required, ...) is
# data and is never rewritten.
_SCHEMA_ONE = {
    "items", "additionalItems", "additionalProperties", "additional_properties",
    "contains", "propertyNames", "not", "if", "then", "else", "unevaluatedItems",
    "unevaluatedProperties", "contentSchema",
}
_SCHEMA_LIST = {
    "anyOf", "any_of", "allOf", "all_of", "oneOf", "one_of", "prefixItems", "prefix_items",
    "items",
}
_SCHEMA_MAP = {
    "properties", "patternProperties", "pattern_properties", "$defs", "definitions",
    "defs", "dependentSchemas", "dependencies",
}


def upper_types(node: Any) -> Any:
    """Copy of `node` with every string `type` at a schema position upper-cased."""
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str):
            out[key] = value.upper()
        elif key in _SCHEMA_MAP and isinstance(value, dict):
            out[key] = {name: upper_types(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LIST and isinstance(value, list):
            out[key] = [upper_types(sub) for sub in value]
        elif key in _SCHEMA_ONE and isinstance(value, dict):
            out[key] = upper_types(value)
        else:
            out[key] = value
    return out


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _schema_children(node: dict, desc) -> Iterator[tuple[str, str, Any]]:
    """(key, pointer suffix, child) for each Schema-typed child the proto recurses into.

    Driven by the message descriptor: items and anyOf (Schema fields), properties and, on
    v1, defs (maps of Schema). Children of the wrong container shape are not yielded; the
    parser reports those at the parent.
    """
    for field in desc.fields:
        if field.json_name not in node or field.message_type is None:
            continue
        key, value, sub = field.json_name, node[field.json_name], field.message_type
        if sub.GetOptions().map_entry:
            if sub.fields_by_name["value"].message_type is desc and isinstance(value, dict):
                for name, child in value.items():
                    yield key, f"/{_escape(key)}/{_escape(name)}", child
        elif sub is desc:
            if field.is_repeated and isinstance(value, list):
                for i, child in enumerate(value):
                    yield key, f"/{_escape(key)}/{i}", child
            elif not field.is_repeated and isinstance(value, dict):
                yield key, f"/{_escape(key)}", value


def _shallow(node: dict, desc) -> dict:
    """`node` with its Schema children emptied, so a parse reports this node's own fields."""
    out = dict(node)
    for key, _, _ in _schema_children(node, desc):
        out[key] = [] if isinstance(out[key], list) else {}
    return out


def parser_problems(node: Any, cls, ptr: str = "") -> Iterator[str]:
    """Every node the parser rejects, by JSON pointer, each parsed on its own."""
    if not isinstance(node, dict):
        yield f"{ptr or '/'}: a schema must be a JSON object, got {type(node).__name__}"
        return
    shallow = _shallow(node, cls.DESCRIPTOR)
    while True:  # the parser stops at the first problem: drop each unknown key and go on
        try:
            json_format.ParseDict(shallow, cls(), ignore_unknown_fields=False)
            break
        except Exception as exc:
            unknown = _UNKNOWN.search(str(exc))
            if unknown and unknown.group(1) in shallow:
                yield f"{ptr}/{_escape(unknown.group(1))}: unknown field"
                del shallow[unknown.group(1)]
            else:
                # Some other error: find the key(s) it belongs to by parsing each alone.
                found = False
                for key, value in shallow.items():
                    try:
                        json_format.ParseDict({key: value}, cls(), ignore_unknown_fields=False)
                    except Exception as one:
                        found = True
                        why = _describe(one, value)
                        why = why[len(key) + 2:] if why.startswith(f"{key}: ") else why
                        yield f"{ptr}/{_escape(key)}: {why}"
                if not found:
                    yield f"{ptr or '/'}: {_describe(exc, node)}"
                break
    for _, suffix, child in _schema_children(node, cls.DESCRIPTOR):
        yield from parser_problems(child, cls, ptr + suffix)


def alias_problems(node: Any, desc, ptr: str = "") -> Iterator[str]:
    """Keys ParseDict takes that are not the field's JSON name (`type_`, `any_of`, ...)."""
    if not isinstance(node, dict):
        return
    json_names = {f.json_name for f in desc.fields}
    for field in desc.fields:
        if field.name in node and field.name not in json_names:
            yield f"{ptr}/{_escape(field.name)}: not a wire name; the JSON name is '{field.json_name}'"
    for _, suffix, child in _schema_children(node, desc):
        yield from alias_problems(child, desc, ptr + suffix)
    # Children reached only through an alias (`any_of: [...]`) are schemas too.
    for field in desc.fields:
        if field.name in node and field.name not in json_names and field.message_type is desc:
            value = node[field.name]
            for i, child in enumerate(value if isinstance(value, list) else [value]):
                at = f"{ptr}/{_escape(field.name)}" + (f"/{i}" if isinstance(value, list) else "")
                yield from alias_problems(child, desc, at)


_UNKNOWN = re.compile(r'Message type "[^"]+" has no field named "([^"]*)" at "[^"]*"\.?')
_PARSE_PREFIX = re.compile(r"^(Failed to parse \S+ field: )*(Failed to parse (\S+) field: )")
_AT_PATH = re.compile(r" at Schema[^ ]*$")


def _compact(message: str) -> str:
    message = " ".join(message.split("\n Available Fields", 1)[0].split()).rstrip(".")
    message = _UNKNOWN.sub(r'unknown field "\1"', message)
    message = _PARSE_PREFIX.sub(r"\3: ", message)
    return _AT_PATH.sub("", message).rstrip(".")


def _describe(exc: Exception, value: Any) -> str:
    message = _compact(str(exc)) or type(exc).__name__
    if "unhashable type" in message or "not iterable" in message:
        # The parser's wording for a value of the wrong JSON shape (a list for `type` or
        # `items`, a boolean subschema ...).
        message = f"wrong JSON shape, got {json.dumps(value)[:80]} ({message})"
    return message


def check_proto(schema: Any, check: str) -> str | None:
    """None if `schema` parses into the message for `check`, else why not."""
    cls = PROTOS[check]
    wire = upper_types(schema)
    problems: list[str] = []
    try:
        json_format.ParseDict(
            wire, cls(), ignore_unknown_fields=False, max_recursion_depth=MAX_PROTO_DEPTH
        )
    except Exception as exc:  # ParseError, and TypeError/AttributeError on odd shapes
        # The whole-document error names only the first problem; list them all by pointer,
        # falling back to the whole-document error for limits (depth) no single node hits.
        problems = list(parser_problems(wire, cls)) or [_compact(str(exc)) or type(exc).__name__]
    problems += alias_problems(wire, cls.DESCRIPTOR)
    if not problems:
        return None
    shown = problems[:8]
    more = f" (+{len(problems) - len(shown)} more)" if len(problems) > len(shown) else ""
    return "; ".join(shown) + more


# Formats asserted while meta-validating. By default check_schema uses every format checker
# whose optional package happens to be importable (uri via rfc3987, idn-hostname via idna,
# ...), so adding an unrelated package to the venv could change the verdict. The only format
# that matters for a schema's own keywords is "regex" (pattern, patternProperties), and JSON
# Schema defines it as ECMA-262, so that is what is checked: with the `u` flag, as Ajv (the
# usual JS validator) compiles patterns, so `\p{L}` and `(?<n>..)` pass while Python-only
# `(?P<n>..)`, `\Z` and inline `(?i)` fail, as they would in a JS consumer.
META_FORMATS = jsonschema.FormatChecker(formats=())


@META_FORMATS.checks("regex", raises=regress.RegressError)
def _ecma_regex(instance: object) -> bool:
    if isinstance(instance, str):
        regress.Regex(instance, "u")
    return True


def check_meta(schema: Any) -> str | None:
    """None if `schema` is a valid draft 2020-12 schema, else the validator's best error."""
    try:
        jsonschema.Draft202012Validator.check_schema(schema, format_checker=META_FORMATS)
    except jsonschema.SchemaError as exc:
        where = exc.json_path if hasattr(exc, "json_path") else "$"
        return f"{where}: {' '.join(exc.message.split())[:300]}"
    except Exception as exc:  # e.g. RecursionError on absurd nesting
        return f"{type(exc).__name__}: {exc}"[:300]
    return None


def checks_for(target: str) -> list[str]:
    return (["proto:v1beta", "proto:v1"] if target in GOOGLE_TARGETS else []) + ["meta:2020-12"]


def run(records: list) -> tuple[int, int, list[str]]:
    """Check every record; returns (passed, failed, failure lines)."""
    passed = failed = 0
    lines: list[str] = []
    for index, record in enumerate(records):
        label = f"#{index}"
        if isinstance(record, dict):
            label = f"{record.get('id', label)} ({record.get('name', '?')}) [{record.get('target', '?')}]"
        if isinstance(record, dict) and "error" in record and "schema" not in record:
            # The normalizer produced no output: nothing a consumer could accept.
            failed += 1
            lines.append(f"FAIL {label} normalize: {' '.join(str(record['error']).split())[:300]}")
            continue
        if (
            not isinstance(record, dict)
            or "schema" not in record
            or not isinstance(record.get("target"), str)
            or not record.get("target")
        ):
            failed += 1
            lines.append(f"FAIL {label} record: needs 'schema' and a target id")
            continue
        schema = record["schema"]
        for check in checks_for(record["target"]):
            why = check_meta(schema) if check == "meta:2020-12" else check_proto(schema, check)
            if why is None:
                passed += 1
            else:
                failed += 1
                lines.append(f"FAIL {label} {check}: {why}")
    return passed, failed, lines


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: check_wire.py RECORDS.json", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        with open(path, encoding="utf-8") as fh:
            records = json.load(fh)
    except (OSError, ValueError) as exc:
        print(f"check_wire: cannot read {path}: {exc}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    if not isinstance(records, list):
        print(f"check_wire: {path} must hold a JSON array of records", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    passed, failed, lines = run(records)
    for line in lines:
        print(line)
    fallbacks = sum(1 for r in records if isinstance(r, dict) and r.get("fallback") is True)
    if fallbacks:
        # Passing through the per-tool fallback is allowed but loses the tool's parameters.
        print(f"check_wire: {fallbacks} of {len(records)} records are the reported fallback schema")
    if not records:
        print(f"check_wire: {path} holds no records; nothing was checked", file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not records else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
