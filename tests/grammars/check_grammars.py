#!/usr/bin/env python3
"""Compile toolschema's grammar-target output with the real grammar compilers, and count what
each compiler loses, beside the raw corpus and mcp-schema-normalize's output.

    python tests/grammars/check_grammars.py RECORDS.json [--baseline] [--corpus DIR]
                                            [--only TARGET] [--report OUT.json] [--details]
    python tests/grammars/check_grammars.py --versions

RECORDS.json is written by `cargo run --release --example corpus` (a JSON array of {"id",
"name", "target", "schema", "strict"?, "fallback"?, "lossy"?}; "error" instead of "schema"
when the normalizer gave no output). Records of other targets are ignored; each record's id
("file-stem/index") names the corpus schema it came from (--corpus, default
../shared/corpus), which is what the raw and peer columns compile.

Backends (target -> compiler; set up by scripts/setup-grammars.sh):

  llamacpp    llama.cpp's json_schema_to_grammar + GBNF loader (llama_grammar_init_impl),
              built from llama-cpp-python's sdist into .cache/grammars/bin/gbnf-driver
              (tests/grammars/driver.cpp). What llama-server does with `json_schema`.
  ollama      the same converter: Ollama's `format` goes through its copy of it. (Tool
              `parameters` are not grammar-constrained in Ollama at all.)
  xgrammar    xgrammar.Grammar.from_json_schema with vLLM's defaults (any_whitespace,
              strict_mode), the call vLLM validates a request with, plus vLLM's
              has_xgrammar_unsupported_json_features gate (XGRAMMAR_GATE below).
  llguidance  LLMatcher.grammar_from_json_schema + validate_grammar_with_warnings, as vLLM's
              `guidance` backend: strict (the default) for errors, `lenient` for warnings.
  outlines    outlines-core build_regex_from_schema, in a worker process (5 s per schema):
              baseline table only (no target of ours).

Per schema and compiler: an ERROR is a schema the compiler refuses (one per schema, whatever
the number of messages); a WARNING is one lost constraint, a (JSON pointer, keyword) whose
constraint the compiled grammar does not enforce. Warnings are collected from:

  1. The compiler's own words. llama.cpp: the converter's stderr line "WARNING: JSON schema
     conversion was incomplete: w1; w2" (it only ever warns about patterns); xgrammar: its
     logged "Warning: ..." lines; llguidance: the lenient compile's warnings. Each message is
     tied to a location when it names a keyword (and, for llama.cpp, the pattern text).
  2. Ablation, for the compilers that skip keywords silently (llama.cpp, xgrammar): every
     constraint keyword at every location reachable from the root (following local $refs;
     unused $defs are not looked at) is relaxed in turn and the schema compiled again. A
     byte-identical grammar means the compiler never used that keyword: it is lost.
     Relaxing: most keywords are removed; additionalProperties, items, unevaluated* become
     {}; `type` is widened to every type; `not` gets a different content (xgrammar compiles
     any `not` to an "anything" rule of its own, so only its content can be tested);
     `required` names absent from `properties` are also removed one by one; `oneOf` is
     renamed to `anyOf`, and an identical grammar means exclusivity is not enforced.
     Not counted: oneOf exclusivity when the branches are provably disjoint (by type, or by a
     required const/enum discriminator); a keyword beside `enum`/`const` that every listed
     value already satisfies (checked with jsonschema); a `type` that the node's $ref /
     anyOf / oneOf / allOf already confine the output to; a `required` listing exactly the
     `properties` (llama.cpp's allOf merge requires them all anyway; a lost `properties`
     counts on its own); vacuous values (minLength 0, additionalProperties true, a draft-03
     boolean `required`, ...); annotations; anything below a keyword already counted lost
     (the top-most loss stands for its subtree).
     A node is ablated on its own (as the one required property of a wrapper object, with
     the root's $defs/definitions) when its pointer only steps through properties, items,
     prefixItems, additionalProperties, anyOf, oneOf, $defs, definitions and its refs only
     go into $defs/definitions; otherwise in the whole document. On the corpus both give the
     same losses (test_isolation_agrees_with_whole_document pins a sample); alone, a
     600-property object is not recompiled whole for each of its ~960 keywords.
  3. xgrammar only: vLLM's gate, reproduced from vllm/v1/structured_output/backend_xgrammar.py
     (has_xgrammar_unsupported_json_features): each reason is a warning at its location.
     vLLM rejects such a schema for `xgrammar` and reroutes it to guidance under `auto`.

A (pointer, keyword) found by more than one source counts once. Inlining copies a lost
keyword into every use site, and each copy counts, as in the compilers' own warnings.

Output: a table per backend (schemas, compile errors, warnings) for the raw input,
mcp-schema-normalize and ours, then the lost keywords per backend, then `N passed, N failed`.
Failures: one per record that does not compile in its backend (or has no output), and per
backend with records, one when our warning count is not lower than both raw's and
mcp-schema-normalize's. A grammar target without records fails ("no records for target X")
unless --baseline. Exit status 1 on any failure, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import glob
import hashlib
import importlib
import importlib.metadata
import json
import logging
import os
import re
import select
import subprocess
import sys
import tempfile
import types
from typing import Any, Callable, Iterable, Iterator

sys.setrecursionlimit(20000)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CACHE = os.path.join(ROOT, ".cache", "grammars")
DRIVER = os.path.join(CACHE, "bin", "gbnf-driver")
XGRAMMAR_SITE = os.path.join(CACHE, "xgrammar")
DEFAULT_CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus")

# Grammar targets of the core -> the compiler that consumes them.
TARGET_ENGINES = {
    "llamacpp": "llama.cpp",
    "ollama": "llama.cpp",
    "xgrammar": "xgrammar",
    "llguidance": "llguidance",
}
# Compilers shown as a baseline only (no target of ours feeds them).
INFO_ENGINES = ["outlines-core"]

# Seconds one compile may take before it counts as an error (a hung compiler must not hang CI).
COMPILE_TIMEOUT = 60


class SetupMissing(RuntimeError):
    """A compiler is not installed: run scripts/setup-grammars.sh."""


# --- Compilers ---------------------------------------------------------------------------


@dataclasses.dataclass
class Compiled:
    ok: bool
    errors: list[str]
    # Messages the compiler itself emitted about what it did not enforce.
    emitted: list[str]
    # Identifies the compiled grammar's text (for ablation); None when there is none.
    fingerprint: str | None = None


_FD2_SINK: Any = None


@contextlib.contextmanager
def captured_fd2() -> Iterator[list[str]]:
    """Redirects file descriptor 2 (native code's stderr) to a temporary file; the text is
    appended to the yielded list on exit. One file serves every call (truncated each time):
    creating one per compile costs more than compiling most schemas."""
    global _FD2_SINK
    if _FD2_SINK is None:
        _FD2_SINK = tempfile.TemporaryFile()
    sink = _FD2_SINK
    sink.seek(0)
    sink.truncate()
    sys.stderr.flush()
    saved = os.dup(2)
    box: list[str] = []
    os.dup2(sink.fileno(), 2)
    try:
        yield box
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        sink.seek(0)
        box.append(sink.read().decode("utf-8", "replace"))


def _one_line(text: str, limit: int = 400) -> str:
    return " ".join(str(text).split())[:limit]


def _dump(schema: Any) -> str:
    # ensure_ascii: one line, and lone surrogates survive as escapes for the C++ parser.
    return json.dumps(schema, ensure_ascii=True, separators=(",", ":"))


class LlamaCpp:
    """llama.cpp through tests/grammars/driver.cpp, one long-lived process fed JSON lines.
    A crash or a timeout costs that schema only: the process is restarted for the next."""

    name = "llama.cpp"
    WARNING_PREFIX = "WARNING: JSON schema conversion was incomplete: "

    def __init__(self, driver: str = DRIVER, timeout: float = COMPILE_TIMEOUT):
        if not os.access(driver, os.X_OK):
            raise SetupMissing(f"{driver} is missing: run scripts/setup-grammars.sh")
        self.driver = driver
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None

    def version(self) -> str:
        out = subprocess.run([self.driver, "--version"], capture_output=True, text=True, check=True)
        return out.stdout.strip()

    def _start(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [self.driver],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
            )
        return self.proc

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None

    def _exchange(self, line: bytes) -> bytes | str:
        """The driver's answer line, or why there is none."""
        proc = self._start()
        assert proc.stdin and proc.stdout
        try:
            proc.stdin.write(line)
            proc.stdin.flush()
        except BrokenPipeError:
            self.close()
            return "the driver exited before reading the schema"
        answer = b""
        while not answer.endswith(b"\n"):
            ready, _, _ = select.select([proc.stdout], [], [], self.timeout)
            if not ready:
                self.close()
                return f"timed out after {self.timeout:g} s"
            chunk = os.read(proc.stdout.fileno(), 1 << 20)
            if not chunk:
                code = proc.wait()
                self.proc = None
                why = f"signal {-code}" if code < 0 else f"exit status {code}"
                return f"the driver crashed ({why})"
            answer += chunk
        return answer

    @staticmethod
    def split_warnings(lines: Iterable[str]) -> list[str]:
        """The converter prints all its warnings on one line joined by "; "; each ends in
        ", accepting any string" (the only kind there is in this version)."""
        out: list[str] = []
        for line in lines:
            if line.startswith(LlamaCpp.WARNING_PREFIX):
                body = line[len(LlamaCpp.WARNING_PREFIX):]
                out += [w for w in re.split(r"(?<=, accepting any string); ", body) if w]
            elif line.strip():
                out.append(line.strip())
        return out

    def compile(self, schema: Any) -> Compiled:
        answer = self._exchange(_dump(schema).encode("ascii") + b"\n")
        if isinstance(answer, str):
            return Compiled(False, [answer], [])
        result = json.loads(answer)
        return Compiled(
            bool(result["ok"]),
            [f"{result['stage']}: {e}" for e in result["errors"]],
            self.split_warnings(result["warnings"]),
            result.get("grammar_hash"),
        )


def load_xgrammar(site: str = XGRAMMAR_SITE) -> types.ModuleType:
    """xgrammar's Grammar class, imported without the package __init__ (which imports torch
    for the token-mask kernels; the schema compiler does not use it)."""
    if "xgrammar.grammar" in sys.modules:
        return sys.modules["xgrammar.grammar"]
    pkg_dir = os.path.join(site, "xgrammar")
    if not os.path.isdir(pkg_dir):
        raise SetupMissing(f"{pkg_dir} is missing: run scripts/setup-grammars.sh")
    if site not in sys.path:
        sys.path.insert(0, site)
    pkg = types.ModuleType("xgrammar")
    pkg.__path__ = [pkg_dir]  # type: ignore[attr-defined]
    pkg.__file__ = os.path.join(pkg_dir, "__init__.py")
    sys.modules["xgrammar"] = pkg
    importlib.import_module("xgrammar.load_binding")  # loads libxgrammar_bindings.so
    importlib.import_module("xgrammar.exception")
    return importlib.import_module("xgrammar.grammar")


class XGrammar:
    name = "xgrammar"
    # "[12:34:56] /project/cpp/json_schema_converter.cc:1161: Warning: <message>"
    LOG_LINE = re.compile(r"^\[[0-9:]+\] \S+:\d+: (Warning|Error): (.*)$")

    def __init__(self) -> None:
        self.grammar = load_xgrammar().Grammar

    def version(self) -> str:
        return "xgrammar " + importlib.metadata.version("xgrammar")

    def compile(self, schema: Any) -> Compiled:
        text = _dump(schema)
        grammar = None
        errors: list[str] = []
        with captured_fd2() as logged:
            try:
                # vLLM: compile_json_schema(schema, any_whitespace=not disable_any_whitespace),
                # validated first with Grammar.from_json_schema(schema): both the defaults.
                grammar = self.grammar.from_json_schema(text)
            except Exception as exc:  # RuntimeError / InvalidJSONSchemaError from the binding
                # Drop the logger's "[hh:mm:ss] /project/cpp/file.cc:123: " prefix.
                text = re.sub(r"\[[0-9:]+\] \S+:\d+: ", "", str(exc))
                errors.append(_one_line(f"{type(exc).__name__}: {text}"))
        emitted = []
        for line in "".join(logged).splitlines():
            m = self.LOG_LINE.match(line)
            if m and m.group(1) == "Warning":
                emitted.append(m.group(2).strip())
            elif line.strip() and not m:
                emitted.append(line.strip())
        if grammar is None:
            return Compiled(False, errors or ["no grammar"], emitted)
        return Compiled(True, [], emitted, hashlib.sha256(str(grammar).encode()).hexdigest())


class LLGuidance:
    name = "llguidance"

    def __init__(self) -> None:
        try:
            from llguidance import LLMatcher
        except ImportError as exc:
            raise SetupMissing(f"llguidance does not import ({exc}): run scripts/setup-grammars.sh")
        self.matcher = LLMatcher

    def version(self) -> str:
        return "llguidance " + importlib.metadata.version("llguidance")

    def _validate(self, text: str, lenient: bool) -> tuple[bool, list[str]]:
        # vLLM's guidance backend: grammar_from_json_schema(schema, defaults={"whitespace_flexible":
        # not disable_any_whitespace}), then LLMatcher.validate_grammar(grammar, tokenizer=None).
        try:
            grammar = self.matcher.grammar_from_json_schema(
                text,
                defaults={"whitespace_flexible": True},
                overrides={"lenient": True} if lenient else None,
            )
            is_error, messages = self.matcher.validate_grammar_with_warnings(grammar, None)
        except Exception as exc:
            return True, [_one_line(f"{type(exc).__name__}: {exc}")]
        return bool(is_error), [_one_line(m, 600) for m in messages]

    def compile(self, schema: Any) -> Compiled:
        text = _dump(schema)
        is_error, messages = self._validate(text, lenient=False)
        lenient_error, lenient_messages = self._validate(text, lenient=True)
        if is_error:
            # What lenient mode would have dropped to accept it, when it would.
            return Compiled(False, messages, [] if lenient_error else lenient_messages)
        return Compiled(True, [], messages + ([] if lenient_error else
                                              [m for m in lenient_messages if m not in messages]))


class OutlinesCore(LlamaCpp):
    """outlines-core in a worker process of its own (this file with --outlines-worker), fed
    JSON lines like the llama.cpp driver: its regex builder is exponential in nesting depth
    (deep_arrays_25 takes ~30 s and gigabytes) and cannot be interrupted in-process."""

    name = "outlines-core"
    TIMEOUT = 5  # a baseline-only column: a schema over this counts as an error

    def __init__(self, timeout: float = TIMEOUT) -> None:
        try:
            importlib.import_module("outlines_core.json_schema")
        except ImportError as exc:
            raise SetupMissing(f"outlines-core does not import ({exc}): run scripts/setup-grammars.sh")
        self.driver = os.path.abspath(__file__)
        self.timeout = timeout
        self.proc = None

    def _start(self) -> subprocess.Popen:
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen(
                [sys.executable, self.driver, "--outlines-worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0,
            )
        return self.proc

    def version(self) -> str:
        return "outlines-core " + importlib.metadata.version("outlines-core")

    def compile(self, schema: Any) -> Compiled:
        answer = self._exchange(_dump(schema).encode("ascii") + b"\n")
        if isinstance(answer, str):
            return Compiled(False, [answer.replace("the driver", "the outlines-core worker")], [])
        result = json.loads(answer)
        if result.get("error") is not None:
            return Compiled(False, [result["error"]], [])
        return Compiled(True, [], [], result["hash"])


def outlines_worker() -> int:
    """One JSON schema per stdin line -> {"hash"} or {"error"} per stdout line."""
    from outlines_core.json_schema import build_regex_from_schema

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            regex = build_regex_from_schema(line.strip())
            out = {"hash": hashlib.sha256(regex.encode()).hexdigest()}
        except Exception as exc:
            out = {"error": _one_line(f"{type(exc).__name__}: {exc}")}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


ENGINE_CLASSES: dict[str, Callable[[], Any]] = {
    "llama.cpp": LlamaCpp,
    "xgrammar": XGrammar,
    "llguidance": LLGuidance,
    "outlines-core": OutlinesCore,
}
# Compilers that skip what they do not support without a word: their losses are found by
# ablation. (llguidance errors or warns; outlines-core errors.)
ABLATED = {"llama.cpp", "xgrammar"}


# --- JSON pointers and schema walking -------------------------------------------------------


def esc(token: str) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def unesc(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def resolve(root: Any, pointer: str) -> Any:
    """The value at a JSON pointer ("" or "/a/0"), or KeyError."""
    node = root
    if pointer == "":
        return node
    for raw in pointer.split("/")[1:]:
        token = unesc(raw)
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(pointer)
    return node


def ref_pointer(ref: Any) -> str | None:
    """The JSON pointer of a same-document $ref ("#/..." or "#"), else None."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    from urllib.parse import unquote

    frag = unquote(ref[1:])
    return frag if frag == "" or frag.startswith("/") else None


SCHEMA_ONE = {
    "additionalProperties", "additionalItems", "unevaluatedItems", "unevaluatedProperties",
    "contains", "propertyNames", "not", "if", "then", "else", "contentSchema", "items",
}
SCHEMA_LIST = {"allOf", "anyOf", "oneOf", "prefixItems", "items"}
SCHEMA_MAP = {"properties", "patternProperties", "dependentSchemas", "dependencies"}


def children(node: dict, ptr: str) -> Iterator[tuple[str, Any]]:
    """(pointer, subschema) for every subschema position of `node` except $defs (reached
    only through $ref)."""
    for key, value in node.items():
        if key in SCHEMA_ONE and isinstance(value, dict):
            yield f"{ptr}/{esc(key)}", value
        elif key in SCHEMA_LIST and isinstance(value, list):
            for i, sub in enumerate(value):
                yield f"{ptr}/{esc(key)}/{i}", sub
        elif key in SCHEMA_MAP and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, dict):
                    yield f"{ptr}/{esc(key)}/{esc(name)}", sub


def reachable(root: Any) -> list[tuple[str, dict]]:
    """Every schema object reachable from the root, following same-document $refs, once."""
    seen: set[str] = set()
    out: list[tuple[str, dict]] = []
    stack: list[tuple[str, Any]] = [("", root)]
    while stack:
        ptr, node = stack.pop()
        if ptr in seen or not isinstance(node, dict):
            continue
        seen.add(ptr)
        out.append((ptr, node))
        target = ref_pointer(node.get("$ref"))
        if target is not None and target not in seen:
            try:
                stack.append((target, resolve(root, target)))
            except KeyError:
                pass
        stack.extend(reversed(list(children(node, ptr))))
    return out


# --- Ablation ---------------------------------------------------------------------------------

ALL_TYPES = ["array", "boolean", "null", "number", "object", "string"]

# Keyword -> how it is relaxed to "no constraint". Annotations ($comment, title, description,
# default, examples, deprecated, readOnly, writeOnly, contentMediaType/Encoding) and
# containers ($defs, definitions) are never ablated.
REMOVE = {
    "enum", "const", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
    "uniqueItems", "contains", "minContains", "maxContains", "prefixItems", "minProperties",
    "maxProperties", "patternProperties", "propertyNames", "dependentRequired",
    "dependentSchemas", "dependencies", "if", "allOf", "anyOf", "oneOf", "required",
    "properties", "additionalItems",
}
TO_ANY = {"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "items"}
# Values that constrain nothing: relaxing them proves nothing.
VACUOUS: dict[str, Callable[[Any], bool]] = {
    "additionalProperties": lambda v: v is True or v == {},
    "unevaluatedProperties": lambda v: v is True or v == {},
    "unevaluatedItems": lambda v: v is True or v == {},
    "items": lambda v: v is True or v == {},
    "minLength": lambda v: v == 0,
    "minItems": lambda v: v == 0,
    "minProperties": lambda v: v == 0,
    # A draft-03 boolean `required` (WordPress) is no 2020-12 constraint.
    "required": lambda v: not isinstance(v, list) or v == [],
    "properties": lambda v: v == {},
    "uniqueItems": lambda v: v is False,
    "type": lambda v: isinstance(v, list) and set(ALL_TYPES) <= set(v),
}


@dataclasses.dataclass
class Candidate:
    pointer: str
    keyword: str
    detail: str | None  # a `required` name, or "exclusivity" for oneOf -> anyOf
    edit: Callable[[dict], None]  # relaxes the schema object at `pointer`, in place


@dataclasses.dataclass(frozen=True)
class Loss:
    pointer: str | None  # None: a compiler message that names no location
    keyword: str
    detail: str | None
    message: str
    source: str  # "compiler", "ablation" or "vllm-gate"

    def key(self) -> tuple:
        return (self.pointer, self.keyword, self.detail)

    def line(self) -> str:
        where = "?" if self.pointer is None else (self.pointer or "/")
        what = self.keyword + (f"[{self.detail}]" if self.detail else "")
        return f"{where} {what}: {self.message} ({self.source})"


def _drop(key: str) -> Callable[[dict], None]:
    def edit(node: dict) -> None:
        del node[key]
        if key == "if":
            node.pop("then", None)
            node.pop("else", None)
    return edit


def _set(key: str, value: Any) -> Callable[[dict], None]:
    return lambda node: node.__setitem__(key, copy.deepcopy(value))


def _drop_required(name: str) -> Callable[[dict], None]:
    return lambda node: node.__setitem__("required", [r for r in node["required"] if r != name])


def _one_of_to_any_of(node: dict) -> None:
    node["anyOf"] = node.pop("oneOf")


def candidates(root: Any) -> list[Candidate]:
    out: list[Candidate] = []
    for ptr, node in reachable(root):
        for key, value in node.items():
            if key in VACUOUS and VACUOUS[key](value):
                continue
            if key == "not":
                # Its content is replaced rather than the keyword removed: xgrammar compiles
                # any `not` to an "anything" rule of its own, so only a changed content
                # shows whether the content is used at all.
                out.append(Candidate(ptr, key, None, _set("not", {} if value != {} else {"type": "null"})))
            elif key in REMOVE:
                out.append(Candidate(ptr, key, None, _drop(key)))
            elif key in TO_ANY:
                out.append(Candidate(ptr, key, None, _set(key, {})))
            elif key == "type" and isinstance(value, (str, list)):
                out.append(Candidate(ptr, key, None, _set("type", ALL_TYPES)))
        required = node.get("required")
        props = node.get("properties") if isinstance(node.get("properties"), dict) else {}
        if isinstance(required, list) and len(required) > 1:
            for name in required:
                if isinstance(name, str) and name not in props:
                    out.append(Candidate(ptr, "required", name, _drop_required(name)))
        if isinstance(node.get("oneOf"), list) and "anyOf" not in node:
            out.append(Candidate(ptr, "oneOf", "exclusivity", _one_of_to_any_of))
    return out


def _refs_in(node: Any) -> Iterator[Any]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from _refs_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs_in(item)


# Pointers made only of steps where a subschema is compiled as a value schema of its own:
# not below allOf (llama.cpp merges the members' properties without converting them), not,
# if/then/else, propertyNames, contains, patternProperties, dependentSchemas, ...
_ISOLABLE = re.compile(
    r"(/(properties|\$defs|definitions)/[^/]+|/(anyOf|oneOf|prefixItems|items)/\d+|/items|/additionalProperties)+"
)


def isolated(root: Any, pointer: str) -> Any | None:
    """The schema object at `pointer` as a document of its own (with the root's $defs and
    definitions when it refers into them), or None where its meaning may depend on where it
    sits: the root itself, a pointer with a step outside _ISOLABLE, and a subtree with refs
    to anywhere but $defs/definitions.

    Ablating a keyword of a node compiled on its own gives the same verdict as in the whole
    document and costs a fraction: a 600-property object is compiled once, not once per
    property keyword."""
    if pointer == "" or not _ISOLABLE.fullmatch(pointer):
        return None
    node = resolve(root, pointer)
    refs = list(_refs_in(node))
    for ref in refs:
        target = ref_pointer(ref)
        if target is None or not (target.startswith("/$defs/") or target.startswith("/definitions/")):
            return None
    # Wrapped as a required property, not made the root: compilers name and shortcut the
    # root rule differently (llama.cpp emits `root ::= "null"` both for {"const": null} and
    # for {"type": "null"}, but distinct rules for the two one level down).
    doc: dict[str, Any] = {
        "type": "object",
        "properties": {"p": copy.deepcopy(node)},
        "required": ["p"],
        "additionalProperties": False,
    }
    if refs and isinstance(root, dict):
        for key in ("$defs", "definitions"):
            if key in root:
                doc[key] = root[key]
    return doc


def _value_types(value: Any) -> set[str]:
    if value is None:
        return {"null"}
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int):
        return {"integer", "number"}
    if isinstance(value, float):
        return {"number", "integer"} if value.is_integer() else {"number"}
    if isinstance(value, str):
        return {"string"}
    if isinstance(value, list):
        return {"array"}
    return {"object"}


def _branch_types(root: Any, branch: Any, depth: int = 0) -> set[str] | None:
    """The JSON types a branch admits, or None for "any / unknown"."""
    if not isinstance(branch, dict) or depth > 20:
        return None
    target = ref_pointer(branch.get("$ref"))
    if target is not None:
        try:
            return _branch_types(root, resolve(root, target), depth + 1)
        except KeyError:
            return None
    if "const" in branch:
        return _value_types(branch["const"])
    if isinstance(branch.get("enum"), list):
        return set().union(*(_value_types(v) for v in branch["enum"])) if branch["enum"] else set()
    t = branch.get("type")
    types_ = {t} if isinstance(t, str) else set(t) if isinstance(t, list) else None
    if types_ is not None and "number" in types_:
        types_.add("integer")
    for key in ("anyOf", "oneOf"):
        if isinstance(branch.get(key), list) and types_ is None:
            parts = [_branch_types(root, b, depth + 1) for b in branch[key]]
            types_ = None if any(p is None for p in parts) else set().union(*parts)
    return types_


def _discriminators(root: Any, branch: Any, depth: int = 0) -> dict[str, set[str]]:
    """Required properties of a branch whose value is a const/enum: name -> values (JSON)."""
    if not isinstance(branch, dict) or depth > 20:
        return {}
    target = ref_pointer(branch.get("$ref"))
    if target is not None:
        try:
            return _discriminators(root, resolve(root, target), depth + 1)
        except KeyError:
            return {}
    out: dict[str, set[str]] = {}
    props = branch.get("properties") if isinstance(branch.get("properties"), dict) else {}
    required = branch.get("required") if isinstance(branch.get("required"), list) else []
    for name in required:
        prop = props.get(name)
        if isinstance(prop, dict):
            if "const" in prop:
                out[name] = {json.dumps(prop["const"], sort_keys=True)}
            elif isinstance(prop.get("enum"), list):
                out[name] = {json.dumps(v, sort_keys=True) for v in prop["enum"]}
    return out


def provably_disjoint(root: Any, branches: list) -> bool:
    """No value can match two branches: their types are disjoint, or both require a property
    whose const/enum values do not overlap."""
    for i in range(len(branches)):
        for j in range(i + 1, len(branches)):
            a, b = _branch_types(root, branches[i]), _branch_types(root, branches[j])
            if a is not None and b is not None and not (a & b):
                continue
            da, db = _discriminators(root, branches[i]), _discriminators(root, branches[j])
            if any(name in db and not (da[name] & db[name]) for name in da):
                continue
            return False
    return True


# The keywords from which both llama.cpp and xgrammar build a value of one type when `type`
# is absent (llama.cpp's build_node: properties / additionalProperties -> object, items /
# prefixItems -> array, pattern / minLength / maxLength -> string; an unsupported `format`
# or `required` alone give any value).
_INFERRED = [
    ("object", ("properties", "additionalProperties")),
    ("array", ("items", "prefixItems")),
    ("string", ("pattern", "minLength", "maxLength")),
]


def _generated_types(root: Any, branch: Any, depth: int = 0) -> set[str] | None:
    """The types a compiler's grammar for `branch` can produce, or None for any. Unlike
    _branch_types (JSON Schema semantics), an untyped branch with only one kind of keyword
    counts as that kind: llama.cpp and xgrammar compile {"properties": ...} to objects only."""
    types_ = _branch_types(root, branch, depth)
    if types_ is not None or not isinstance(branch, dict) or depth > 20:
        return types_
    kinds = {kind for kind, keys in _INFERRED if any(k in branch for k in keys)}
    if len(kinds) == 1:
        return kinds
    if isinstance(branch.get("allOf"), list):
        for member in branch["allOf"]:
            inner = _generated_types(root, member, depth + 1)
            if inner is not None:
                return inner
    return None


def redundant_type(root: Any, node: dict) -> bool:
    """True when `type` only repeats what the node's own $ref / anyOf / oneOf / allOf already
    confine the output to, so the compiler ignoring it loses nothing."""
    t = node.get("type")
    allowed = {t} if isinstance(t, str) else set(t) if isinstance(t, list) else None
    if allowed is None:
        return False
    if "number" in allowed:
        allowed.add("integer")
    groups: list[list[set[str] | None]] = []
    if ref_pointer(node.get("$ref")) is not None:
        groups.append([_generated_types(root, {"$ref": node["$ref"]})])
    for key in ("anyOf", "oneOf"):
        if isinstance(node.get(key), list) and node[key]:
            groups.append([_generated_types(root, b) for b in node[key]])
    if isinstance(node.get("allOf"), list):
        members = [_generated_types(root, m) for m in node["allOf"]]
        known = [m for m in members if m is not None]
        if known:
            groups.append([set.intersection(*known)])
    return any(all(g is not None and g <= allowed for g in group) for group in groups)


def redundant_beside_enum(root: Any, node: dict, keyword: str) -> bool:
    """True when `node` lists its values (enum/const) and each of them already satisfies
    `keyword`: dropping the keyword then loses nothing."""
    if keyword in ("enum", "const") or ("enum" not in node and "const" not in node):
        return False
    values = [node["const"]] if "const" in node else node["enum"]
    if not isinstance(values, list):
        return False
    import jsonschema

    probe: dict[str, Any] = {keyword: node[keyword]}
    if keyword == "if":
        probe.update({k: node[k] for k in ("then", "else") if k in node})
    if isinstance(root, dict):
        probe.update({k: root[k] for k in ("$defs", "definitions") if k in root})
    try:
        validator = jsonschema.Draft202012Validator(probe, format_checker=jsonschema.FormatChecker())
        return all(validator.is_valid(v) for v in values)
    except Exception:
        return False


# --- vLLM's xgrammar gate ------------------------------------------------------------------------

# vllm/v1/structured_output/backend_xgrammar.py (STRING_SUPPORTED_FORMATS,
# has_xgrammar_unsupported_json_features), reproduced reason by reason. vLLM answers one
# boolean; here every reason is kept with its location, walking exactly as it walks (every
# dict and list value, schema position or not).
XGRAMMAR_STRING_FORMATS = {
    "email", "date", "time", "date-time", "duration", "ipv4", "ipv6", "hostname", "uuid",
    "uri", "uri-reference", "uri-template", "json-pointer", "relative-json-pointer",
}


def _gate_types(obj: dict) -> set[str]:
    t = obj.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list):
        return {x for x in t if isinstance(x, str)}
    return set()


def _pattern_and_length(obj: dict) -> bool:
    return ("pattern" in obj or "format" in obj) and ("minLength" in obj or "maxLength" in obj)


def xgrammar_gate(schema: Any) -> list[tuple[str, str, str]]:
    """(pointer, keyword, reason) for every reason vLLM's gate would refuse xgrammar."""
    out: list[tuple[str, str, str]] = []

    def check(obj: Any, ptr: str) -> None:
        if not isinstance(obj, dict):
            return
        types_ = _gate_types(obj)
        if types_ & {"integer", "number"} and "multipleOf" in obj:
            out.append((ptr, "multipleOf", "vLLM: multipleOf is unsupported by xgrammar"))
        if "array" in types_:
            for key in ("uniqueItems", "contains", "minContains", "maxContains"):
                if key in obj:
                    out.append((ptr, key, f"vLLM: {key} is unsupported by xgrammar"))
        if "string" in types_ and "format" in obj and obj["format"] not in XGRAMMAR_STRING_FORMATS:
            out.append((ptr, "format", f"vLLM: format {obj['format']!r} is unsupported by xgrammar"))
        if "string" in types_ and _pattern_and_length(obj):
            for key in ("minLength", "maxLength"):
                if key in obj:
                    out.append((ptr, key, "vLLM: pattern/format with length bounds (xgrammar drops the bounds)"))
        if "object" in types_ and isinstance(obj.get("propertyNames"), dict) and _pattern_and_length(obj["propertyNames"]):
            out.append((ptr, "propertyNames", "vLLM: propertyNames with pattern/format and length bounds"))
        if "object" in types_ and "propertyNames" in obj and (
            "properties" in obj
            or "patternProperties" in obj
            or isinstance(obj.get("additionalProperties"), dict)
            or obj.get("unevaluatedProperties", True) is not True
        ):
            out.append((ptr, "propertyNames", "vLLM: propertyNames beside properties/patternProperties/additionalProperties"))
        if "object" in types_ and isinstance(obj.get("patternProperties"), dict) and (
            "properties" in obj or len(obj["patternProperties"]) > 1
        ):
            out.append((ptr, "patternProperties", "vLLM: patternProperties beside properties, or more than one"))
        for key, value in obj.items():
            if isinstance(value, dict):
                check(value, f"{ptr}/{esc(key)}")
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, dict):
                        check(item, f"{ptr}/{esc(key)}/{i}")

    check(schema, "")
    return out


def has_xgrammar_unsupported_json_features(schema: Any) -> bool:
    """vLLM's boolean, for the self-test to pin against its cases."""
    return bool(xgrammar_gate(schema))


# --- Per-schema analysis ---------------------------------------------------------------------

KEYWORDS_IN_MESSAGES = [
    # Longest first, so "minLength" is not read as "min..." of something else.
    "exclusiveMinimum", "exclusiveMaximum", "additionalProperties", "patternProperties",
    "propertyNames", "unevaluatedProperties", "unevaluatedItems", "dependentRequired",
    "dependentSchemas", "minProperties", "maxProperties", "prefixItems", "uniqueItems",
    "minContains", "maxContains", "multipleOf", "minLength", "maxLength", "minItems",
    "maxItems", "minimum", "maximum", "contains", "pattern", "format", "oneOf", "anyOf",
    "allOf", "not", "if",
]


def message_units(engine: str, message: str) -> list[tuple[list[str], Any]]:
    """What a compiler message is about: a list of (keywords, quoted value) units, each one
    loss. The quoted value is llama.cpp's pattern text, else None. llguidance folds repeats
    into one message ending in "(N times)": N units."""
    m = re.match(r"^(.*) \((\d+) times\)$", message, re.S)
    if m:
        return message_units(engine, m.group(1)) * int(m.group(2))
    if engine == "llama.cpp":
        m = re.match(r"^pattern (.*) is not supported \(.*\), accepting any string$", message, re.S)
        if m:
            return [(["pattern"], m.group(1))]
    if engine == "xgrammar":
        if "combined with minLength/maxLength" in message or "length constraints of string" in message:
            return [(["minLength", "maxLength"], None)]
        if "regex" in message or "Lookahead" in message:
            return [(["pattern"], None)]
        m = re.match(r"^URI should either be '#' or start with '#/' but got (.*)$", message, re.S)
        if m:  # a $ref it cannot follow, compiled as any value
            return [(["$ref"], m.group(1))]
    if engine == "llguidance":
        m = re.search(r"Unimplemented keys: \[(.*?)\]", message)
        if m:
            keys = re.findall(r'"([^"]+)"', m.group(1))
            if "if" in keys:  # then/else belong to their if
                keys = [k for k in keys if k not in ("then", "else")]
            return [([k], None) for k in keys]
        if message.startswith("oneOf "):
            return [(["oneOf"], None)]
        if message.startswith("Unknown format"):
            return [(["format"], None)]
    found = [k for k in KEYWORDS_IN_MESSAGES if re.search(rf"\b{re.escape(k)}\b", message)]
    return [(found[:1], None)]


@dataclasses.dataclass
class Analysis:
    ok: bool
    errors: list[str]
    losses: list[Loss]


def _subsumed(loss: Loss, by: Iterable[Loss]) -> bool:
    if loss.pointer is None:
        return False
    for other in by:
        if other is loss or other.pointer is None:
            continue
        if other.keyword == loss.keyword and other.pointer == loss.pointer and other.detail is None and loss.detail:
            return True  # the whole `required` / `oneOf` is lost, not only a name of it
        base = f"{other.pointer}/{esc(other.keyword)}"
        roots = [base] + ([f"{other.pointer}/then", f"{other.pointer}/else"] if other.keyword == "if" else [])
        if any(loss.pointer == r or loss.pointer.startswith(r + "/") for r in roots):
            return True
    return False


def analyze(engine_name: str, engine: Any, schema: Any, isolate: bool = True) -> Analysis:
    base = engine.compile(schema)
    found: dict[tuple, Loss] = {}

    def add(loss: Loss) -> None:
        found.setdefault(loss.key(), loss)

    # A schema the compiler refuses has no grammar to ablate and no gate verdict that
    # matters; llguidance's lenient warnings still say what accepting it would drop.
    cands = candidates(schema) if engine_name in ABLATED and base.ok and base.fingerprint else []
    nodes = dict(reachable(schema))
    # pointer -> (document, its fingerprint) to ablate in: the node on its own when that is
    # safe (see isolated) and it compiles, else the whole schema.
    contexts: dict[str, tuple[Any, str, str]] = {}

    def context(ptr: str) -> tuple[Any, str, str]:
        if ptr not in contexts:
            doc = isolated(schema, ptr) if isolate else None
            alone = engine.compile(doc) if doc is not None else None
            if alone is not None and alone.ok and alone.fingerprint:
                contexts[ptr] = (doc, "/properties/p", alone.fingerprint)
            else:
                contexts[ptr] = (schema, ptr, base.fingerprint)
        return contexts[ptr]

    for cand in cands:
        node = nodes.get(cand.pointer, {})
        if cand.detail == "exclusivity":
            if provably_disjoint(schema, node.get("oneOf", [])):
                continue
        elif redundant_beside_enum(schema, node, cand.keyword):
            continue
        elif cand.keyword == "type" and redundant_type(schema, node):
            continue
        doc, at, fingerprint = context(cand.pointer)
        variant = copy.deepcopy(doc)
        cand.edit(resolve(variant, at))
        result = engine.compile(variant)
        if result.ok and result.fingerprint == fingerprint:
            required = node.get("required")
            if (cand.keyword == "required" and cand.detail is None and isinstance(node.get("properties"), dict)
                    and all(isinstance(r, str) for r in required) and set(required) == set(node["properties"])):
                # Every property listed is required: either the compiler requires them all
                # anyway (llama.cpp's allOf merge) or `properties` itself is lost, which
                # counts on its own.
                continue
            if cand.detail == "exclusivity":
                message = "oneOf compiled as anyOf: exclusivity not enforced (branches not provably disjoint)"
            elif cand.detail:
                message = f"required name {cand.detail!r} (not in properties) not enforced"
            else:
                message = "silently ignored (the grammar is identical without it)"
            add(Loss(cand.pointer, cand.keyword, cand.detail, message, "ablation"))
    if engine_name == "xgrammar" and base.ok:
        for ptr, keyword, reason in xgrammar_gate(schema):
            add(Loss(ptr, keyword, None, reason, "vllm-gate"))
    # The compiler's own messages. Each is about one or more keywords (one message may name
    # several: llguidance's "Unimplemented keys: [...]" stands for each key, xgrammar's
    # "pattern combined with minLength/maxLength" for both bounds of one string). It takes
    # the place of the ablation/gate findings at the first location holding those keywords
    # (and the pattern it quotes), else marks the first such location, else counts on its
    # own without a location.
    used: set[tuple] = set()
    # Only llguidance's warnings mean something for a schema it refuses (they are what
    # lenient mode would drop); the others' messages then belong to the error.
    emitted = base.emitted if base.ok or engine_name == "llguidance" else []
    for message in emitted:
        for unit, value in message_units(engine_name, message):
            def holds(ptr: str, node: dict, want_found: bool) -> list[tuple]:
                keys = [(ptr, kw, None) for kw in unit
                        if kw in node and (value is None or node.get(kw) == value)]
                keys = [k for k in keys if k not in used]
                if want_found:
                    keys = [k for k in keys if k in found]
                return keys
            keys: list[tuple] = []
            for want_found in (True, False):
                for ptr, node in nodes.items():
                    keys = holds(ptr, node, want_found)
                    if keys:
                        break
                if keys:
                    break
            for key in keys:
                used.add(key)
                found[key] = Loss(key[0], key[1], None, message, "compiler")
            if not keys:
                kw = unit[0] if unit else "?"
                found[(None, kw, f"#{len(found)}")] = Loss(None, kw, None, message, "compiler")
    losses = list(found.values())
    losses = [l for l in losses if not _subsumed(l, losses)]
    losses.sort(key=lambda l: (l.pointer is None, l.pointer or "", l.keyword, l.detail or ""))
    return Analysis(base.ok, base.errors, losses)


# --- Inputs -------------------------------------------------------------------------------------


def load_corpus(directory: str) -> dict[str, tuple[str, Any]]:
    """id ("file-stem/index") -> (name, schema), in file order."""
    out: dict[str, tuple[str, Any]] = {}
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        stem = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as fh:
            entries = json.load(fh)
        for i, entry in enumerate(entries):
            out[f"{stem}/{i}"] = (entry.get("name", "?"), entry.get("schema"))
    return out


def peer_normalize(schema: Any) -> tuple[Any, str | None]:
    """mcp-schema-normalize's output (its default settings), or why there is none."""
    from mcp_schema_normalize import normalize_schema

    logging.getLogger("mcp_schema_normalize").setLevel(logging.CRITICAL)
    try:
        out, _telemetry = normalize_schema(schema)
        return out, None
    except Exception as exc:
        return None, _one_line(f"{type(exc).__name__}: {exc}")


def versions() -> list[str]:
    lines = []
    for name, cls in ENGINE_CLASSES.items():
        engine = cls()
        try:
            lines.append(f"{name}: {engine.version()}")
            result = engine.compile({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
            if not result.ok:
                raise SetupMissing(f"{name} rejects a trivial schema: {result.errors}")
        finally:
            if hasattr(engine, "close"):
                engine.close()
    lines.append("mcp-schema-normalize: " + importlib.metadata.version("mcp-schema-normalize"))
    return lines


# --- The run ------------------------------------------------------------------------------------


@dataclasses.dataclass
class Column:
    schemas: int = 0
    errors: int = 0
    warnings: int = 0
    by_keyword: dict = dataclasses.field(default_factory=dict)

    def add(self, analysis: Analysis) -> None:
        self.schemas += 1
        if not analysis.ok:
            self.errors += 1
        self.warnings += len(analysis.losses)
        for loss in analysis.losses:
            self.by_keyword[loss.keyword] = self.by_keyword.get(loss.keyword, 0) + 1


class Runner:
    def __init__(self) -> None:
        self.engines: dict[str, Any] = {}
        self.cache: dict[tuple[str, str], Analysis] = {}

    def engine(self, name: str) -> Any:
        if name not in self.engines:
            self.engines[name] = ENGINE_CLASSES[name]()
        return self.engines[name]

    def analyze(self, engine_name: str, schema: Any) -> Analysis:
        key = (engine_name, hashlib.sha256(_dump(schema).encode()).hexdigest())
        if key not in self.cache:
            self.cache[key] = analyze(engine_name, self.engine(engine_name), schema)
        return self.cache[key]

    def close(self) -> None:
        for engine in self.engines.values():
            if hasattr(engine, "close"):
                engine.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="?", help="records JSON from examples/corpus.rs")
    parser.add_argument("--baseline", action="store_true",
                        help="a grammar target without records is reported, not failed")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS, help="corpus directory (default ../shared/corpus)")
    parser.add_argument("--only", action="append", choices=sorted(TARGET_ENGINES) + ["outlines"],
                        help="check only these targets (repeatable)")
    parser.add_argument("--report", help="write every schema's errors and losses to this JSON file")
    parser.add_argument("--details", action="store_true", help="print every loss of our output")
    parser.add_argument("--versions", action="store_true", help="load every compiler, print versions, exit")
    parser.add_argument("--outlines-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv[1:])

    if args.outlines_worker:
        return outlines_worker()

    if args.versions:
        try:
            for line in versions():
                print(line)
        except SetupMissing as exc:
            print(f"check_grammars: {exc}", file=sys.stderr)
            return 1
        return 0
    if not args.records:
        parser.print_usage(sys.stderr)
        return 2

    failures: list[str] = []
    passed = 0
    try:
        with open(args.records, encoding="utf-8") as fh:
            records = json.load(fh)
        if not isinstance(records, list):
            raise ValueError("not a JSON array")
    except (OSError, ValueError) as exc:
        print(f"check_grammars: cannot read {args.records}: {exc}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    try:
        corpus = load_corpus(args.corpus)
    except (OSError, ValueError) as exc:
        print(f"check_grammars: cannot read the corpus {args.corpus}: {exc}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    if not corpus:
        print(f"check_grammars: no corpus schemas in {args.corpus}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1

    targets = [t for t in TARGET_ENGINES if not args.only or t in args.only]
    info = [e for e in INFO_ENGINES if not args.only or "outlines" in args.only]
    by_target: dict[str, list[dict]] = {t: [] for t in TARGET_ENGINES}
    for record in records:
        if isinstance(record, dict) and record.get("target") in by_target:
            by_target[record["target"]].append(record)

    peer: dict[str, tuple[Any, str | None]] = {}

    def peer_of(rid: str) -> tuple[Any, str | None]:
        if rid not in peer:
            peer[rid] = peer_normalize(corpus[rid][1])
        return peer[rid]

    runner = Runner()
    report: dict[str, Any] = {}
    try:
        for backend in targets + info:
            engine_name = TARGET_ENGINES.get(backend, backend)
            ours = by_target.get(backend, [])
            ids = [r.get("id") for r in ours if r.get("id") in corpus] if ours else list(corpus)
            try:
                runner.engine(engine_name)
            except SetupMissing as exc:
                failures.append(f"FAIL {backend}: {exc}")
                continue
            cols = {"raw input": Column(), "mcp-schema-normalize": Column(), "toolschema": Column()}
            rows: dict[str, Any] = {}
            for rid in ids:
                name, raw = corpus[rid]
                a_raw = runner.analyze(engine_name, raw)
                cols["raw input"].add(a_raw)
                out, why = peer_of(rid)
                a_peer = Analysis(False, [f"mcp-schema-normalize: {why}"], []) if why else runner.analyze(engine_name, out)
                cols["mcp-schema-normalize"].add(a_peer)
                rows[rid] = {"name": name, "raw": a_raw, "peer": a_peer}
            for record in ours:
                rid = record.get("id")
                label = f"{rid} ({record.get('name', '?')}) [{backend}]"
                if "schema" not in record:
                    a_ours = Analysis(False, [f"normalize: {_one_line(record.get('error', 'no schema'))}"], [])
                else:
                    a_ours = runner.analyze(engine_name, record["schema"])
                cols["toolschema"].add(a_ours)
                rows.setdefault(rid, {"name": record.get("name")})["ours"] = a_ours
                rows[rid]["lossy"] = record.get("lossy")
                if a_ours.ok:
                    passed += 1
                else:
                    failures.append(f"FAIL {label} compile: {'; '.join(a_ours.errors)[:500]}")
                if args.details:
                    for loss in a_ours.losses:
                        print(f"  {label} {loss.line()}")
            if ours and any(r.get("id") not in corpus for r in ours):
                missing = [r.get("id") for r in ours if r.get("id") not in corpus]
                failures.append(f"FAIL {backend}: {len(missing)} record ids not in the corpus (e.g. {missing[0]})")

            version = runner.engine(engine_name).version()
            print(f"== {backend}: {version}" + ("" if backend in TARGET_ENGINES else " (baseline only)"))
            shown = ["raw input", "mcp-schema-normalize"] + (["toolschema"] if ours else [])
            print(f"   {'':24}{'schemas':>8}{'errors':>8}{'warnings':>10}")
            for label in shown:
                c = cols[label]
                print(f"   {label:24}{c.schemas:>8}{c.errors:>8}{c.warnings:>10}")
            # A schema a column fails to compile adds no warnings to it; on the schemas every
            # column compiles, the warning counts compare like for like (shown, not judged).
            keys = {"raw input": "raw", "mcp-schema-normalize": "peer", "toolschema": "ours"}
            common = [row for row in rows.values()
                      if all(keys[l] in row and row[keys[l]].ok for l in shown)]
            if len(common) < len(rows):
                print(f"   (warnings on the {len(common)} schemas every column compiles: " + ", ".join(
                    f"{keys[l]} {sum(len(row[keys[l]].losses) for row in common)}" for l in shown) + ")")
            if ours:
                lossy = sum(1 for r in ours if r.get("lossy"))
                print(f"   (toolschema itself reported {lossy} of {len(ours)} records lossy)")
            keywords = sorted(set().union(*(cols[l].by_keyword for l in shown)),
                              key=lambda k: (-max(cols[l].by_keyword.get(k, 0) for l in shown), k))
            if keywords:
                heads = {"raw input": "raw", "mcp-schema-normalize": "peer", "toolschema": "ours"}
                print(f"   {'warnings by keyword':24}" + "".join(f"{heads[l]:>8}" for l in shown))
                for k in keywords:
                    print(f"     {k:22}" + "".join(f"{cols[l].by_keyword.get(k, 0):>8}" for l in shown))
            if backend in TARGET_ENGINES:
                if not ours:
                    if not args.baseline:
                        failures.append(f"FAIL {backend}: no records for target {backend} in {args.records}")
                else:
                    c, raw, p = cols["toolschema"], cols["raw input"], cols["mcp-schema-normalize"]
                    if c.warnings < raw.warnings and c.warnings < p.warnings:
                        passed += 1
                    else:
                        failures.append(
                            f"FAIL {backend} fidelity: our warnings {c.warnings} are not lower than both "
                            f"raw input's {raw.warnings} and mcp-schema-normalize's {p.warnings}")
            if args.report:
                report[backend] = {
                    "compiler": version,
                    "totals": {l: dataclasses.asdict(cols[l]) for l in shown},
                    "schemas": {
                        rid: {
                            "name": row.get("name"),
                            **({"lossy": row["lossy"]} if "lossy" in row else {}),
                            **{
                                which: {
                                    "ok": row[which].ok,
                                    "errors": row[which].errors,
                                    "losses": [dataclasses.asdict(l) for l in row[which].losses],
                                }
                                for which in ("raw", "peer", "ours") if which in row
                            },
                        }
                        for rid, row in rows.items()
                    },
                }
            print()
    finally:
        runner.close()

    if args.report:
        with open(args.report, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1)
        print(f"check_grammars: wrote {args.report}")
    for line in failures:
        print(line)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
