// The playground page: the package's browser entry, loaded from next to this
// file (scripts/playground.mjs copies it there), run on what is pasted, for
// every target chosen. No framework: the page is a handful of elements that
// are rebuilt from `state` whenever the input or a choice changes.
import * as ts from "./toolschema/browser.mjs";
import { diffLines } from "./diff.mjs";
import { jsonLines, nearestNode } from "./jsonlines.mjs";
import { MEASURES } from "./measure.mjs";
import { inputKind, parseInput, problemOf, runTarget } from "./model.mjs";

const DEFAULT_TARGETS = ["openai-strict", "google", "anthropic"];
const DEBOUNCE_MS = 250;
const $ = (id) => document.getElementById(id);
const number = new Intl.NumberFormat("en");

const state = {
  targets: [], // targets() of the package, in its order
  examples: [], // {file, title, origin, text}
  value: undefined,
  kind: undefined,
  inputLines: undefined,
  results: new Map(), // target id -> runTarget(...)
  active: null,
  view: undefined, // the rendered panel: {result, out, rowOfRight, rowOfLeft}
};

/** An element with attributes and children (strings become text). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

const plural = (n, one, many = `${one}s`) => `${number.format(n)} ${n === 1 ? one : many}`;

function showBanner(message) {
  $("banner").textContent = message;
  $("banner").hidden = false;
}

async function start() {
  try {
    state.targets = ts.targets();
    $("version").textContent = `toolschema ${ts.version()}, ${state.targets.length} targets`;
  } catch (err) {
    const p = problemOf(err);
    $("version").textContent = "The module did not load.";
    showBanner(`${p.code}: ${p.message}`);
    return;
  }
  renderTargetChoices();
  // Every example is fetched now, so that the page needs no network later.
  try {
    const index = await (await fetch("examples/index.json")).json();
    state.examples = await Promise.all(index.map(async (e) => ({ ...e, text: await (await fetch(`examples/${e.file}`)).text() })));
  } catch (err) {
    showBanner(`The examples could not be loaded (${err.message}); pasting still works.`);
  }
  const select = $("example");
  state.examples.forEach((e, i) => select.append(el("option", { value: String(i), text: e.title })));
  select.addEventListener("change", () => pickExample(select.value));
  let timer;
  $("source").addEventListener("input", () => {
    select.value = "";
    $("example-origin").textContent = "";
    clearTimeout(timer);
    timer = setTimeout(run, DEBOUNCE_MS);
  });
  if (state.examples.length > 0) {
    select.value = "0";
    pickExample("0");
  } else {
    run();
  }
  document.body.dataset.ready = "true";
}

function pickExample(value) {
  const example = state.examples[Number(value)];
  if (value === "" || example === undefined) {
    $("example-origin").textContent = "";
    return;
  }
  $("source").value = example.text;
  $("example-origin").textContent = example.origin;
  run();
}

function renderTargetChoices() {
  const box = $("targets");
  const list = el("div", { class: "target-list" });
  for (const t of state.targets) {
    const id = `target-${t.id}`;
    list.append(
      el("div", { class: "target-choice" },
        el("input", { type: "checkbox", id, value: t.id, checked: DEFAULT_TARGETS.includes(t.id), onchange: run }),
        el("label", { for: id, title: t.description }, t.id, t.strict ? el("span", { class: "badge", text: "strict" }) : null)),
    );
  }
  box.append(list);
}

const chosenTargets = () => state.targets.filter((t) => $(`target-${t.id}`).checked);

function run() {
  const text = $("source").value;
  state.results.clear();
  state.value = undefined;
  if (text.trim() === "") {
    setStatus("Paste a schema or a tool list, or pick an example.", false);
    return render();
  }
  try {
    state.value = parseInput(ts, text);
  } catch (err) {
    const p = problemOf(err);
    setStatus(`${p.code}: ${p.message}`, true);
    return render();
  }
  const kind = inputKind(state.value);
  state.kind = kind.kind;
  state.inputLines = jsonLines(state.value);
  setStatus(kind.kind === "tools" ? `A tool list: ${kind.shape}.` : "A schema.", false);
  for (const t of chosenTargets()) state.results.set(t.id, runTarget(ts, state.value, state.kind, t));
  if (!state.results.has(state.active)) state.active = state.results.keys().next().value ?? null;
  render();
}

function setStatus(message, error) {
  const status = $("input-status");
  status.textContent = message;
  status.classList.toggle("error", error);
  $("source").setAttribute("aria-invalid", String(error));
}

function render() {
  renderSummary();
  renderTabs();
  renderPanel();
}

function strictCell(r) {
  if (!r.strictTarget) return { text: "—", label: "not a strict target" };
  if (r.error) return { text: "—", label: "not normalized" };
  const { sent, of } = r.strict;
  if (r.tools === undefined) return { text: sent === 1 ? "yes" : "no", cls: sent === 1 ? "ok" : "warn" };
  return { text: `${sent} of ${of}`, cls: sent === of ? "ok" : "warn" };
}

function checkerCell(r) {
  if (r.error) return { text: `error: ${r.error.code}`, cls: "bad" };
  if (r.checked === 0) return { text: "sent non-strict", cls: "warn" };
  return r.problems.length === 0 ? { text: "accepted", cls: "ok" } : { text: plural(r.problems.length, "problem"), cls: "bad" };
}

function change(out, input) {
  const delta = (out - input) / input;
  if (!Number.isFinite(delta)) return "";
  return `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${Math.abs(delta * 100).toFixed(1)}%`;
}

function renderSummary() {
  const table = $("summary");
  const head = table.tHead;
  const body = table.tBodies[0];
  head.replaceChildren(
    el("tr", {},
      el("th", { scope: "col", text: "Target" }),
      el("th", { scope: "col", text: "Strict" }),
      el("th", { scope: "col", text: "Checker" }),
      MEASURES.map((m) => el("th", { scope: "col", class: "num", text: `${m.label} sent` })),
      el("th", { scope: "col", class: "num", text: "Bytes vs input" }),
      el("th", { scope: "col", class: "num", text: "Changes (lossy)" })),
  );
  body.replaceChildren();
  if (state.value !== undefined && state.results.size > 0) {
    body.append(
      el("tr", { class: "input-row" },
        el("th", { scope: "row", text: "input" }),
        el("td", { text: "" }),
        el("td", { text: "" }),
        MEASURES.map((m) => el("td", { class: "num", "data-measure": m.id, text: number.format(state.results.values().next().value.inputSize[m.id]) })),
        el("td", { text: "" }),
        el("td", { text: "" })),
    );
  }
  for (const r of state.results.values()) {
    const s = strictCell(r);
    const c = checkerCell(r);
    const lossy = r.diagnostics.filter((d) => d.lossy).length;
    body.append(
      el("tr", { "data-target": r.target, class: r.target === state.active ? "active" : undefined },
        el("th", { scope: "row" }, el("button", { type: "button", class: "link", onclick: () => activate(r.target, true), text: r.target })),
        el("td", { class: s.cls }, s.label ? [el("span", { "aria-hidden": "true", text: s.text }), el("span", { class: "sr", text: s.label })] : s.text),
        el("td", { class: c.cls, text: c.text }),
        MEASURES.map((m) => el("td", { class: "num", "data-measure": m.id, text: r.size ? number.format(r.size[m.id]) : "—" })),
        el("td", { class: "num", text: r.size ? change(r.size.bytes, r.inputSize.bytes) : "—" }),
        el("td", { class: "num", text: r.error ? "—" : `${number.format(r.diagnostics.length)} (${number.format(lossy)})` })),
    );
  }
  if (state.results.size === 0) {
    body.append(el("tr", {}, el("td", { colspan: String(5 + MEASURES.length), class: "empty", text: state.value === undefined ? "No input to normalize." : "Choose at least one target." })));
  }
}

function renderTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren();
  for (const id of state.results.keys()) {
    const selected = id === state.active;
    tabs.append(el("button", { type: "button", role: "tab", id: `tab-${id}`, "aria-selected": String(selected), "aria-controls": "panel", tabindex: selected ? "0" : "-1", "data-target": id, onclick: () => activate(id, false), text: id }));
  }
  tabs.onkeydown = (event) => {
    const ids = [...state.results.keys()];
    const i = ids.indexOf(state.active);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: ids.length - 1 }[event.key];
    if (next === undefined || ids.length === 0) return;
    event.preventDefault();
    activate(ids[(next + ids.length) % ids.length], false);
    $(`tab-${state.active}`).focus();
  };
  $("panel").setAttribute("aria-labelledby", state.active ? `tab-${state.active}` : "tabs");
}

function activate(id, focusPanel) {
  state.active = id;
  render();
  if (focusPanel) $("panel").focus();
}

function renderPanel() {
  const result = state.results.get(state.active);
  const panel = $("panel");
  panel.hidden = result === undefined;
  $("highlight-status").textContent = "";
  state.view = undefined;
  if (result === undefined) return;
  panel.dataset.target = result.target;
  renderVerdict(result);
  const out = result.output === undefined ? undefined : jsonLines(result.output);
  renderDiff(result, out);
  renderDiagnostics(result);
  renderProblems(result);
}

function renderVerdict(r) {
  const box = $("verdict");
  box.replaceChildren();
  if (r.error) {
    box.append(el("p", { class: "bad", "data-verdict": "error" }, el("strong", { text: `${r.target} cannot take this input. ` }), `${r.error.code}${r.error.pointer ? ` at ${r.error.pointer}` : ""}: ${r.error.message}`));
    return;
  }
  if (r.strictTarget) {
    const { sent, of, reasons } = r.strict;
    const all = sent === of;
    const text = r.tools === undefined
      ? all ? "Strict: yes. Send it with strict: true." : "Strict: no. It is sent with strict: false, as the non-strict schema."
      : `Strict: ${sent} of ${of} tools can be sent with strict: true${all ? "." : "; the others are sent non-strict."}`;
    box.append(el("p", { class: all ? "ok" : "warn", "data-verdict": "strict" }, text));
    if (reasons.length > 0) {
      box.append(el("ul", { class: "reasons" }, reasons.map((w) => el("li", {}, w.tool ? `${w.tool}: ` : "", el("code", { text: w.code }), w.pointer ? [" at ", el("code", { text: w.pointer })] : "", `: ${w.message}`))));
    }
  }
  const inputNote = r.inputProblems.length === 0 ? "The input as pasted has no problem for it either." : `The input as pasted has ${plural(r.inputProblems.length, "problem")} for it.`;
  const checked = r.checked === 0
    ? "Its checker does not apply: the schema is sent without strict."
    : r.problems.length === 0
      ? `The ${r.target} checker accepts ${r.tools === undefined ? "the output" : `all ${plural(r.checked, "schema")} sent as ${r.target}`}.`
      : `The ${r.target} checker finds ${plural(r.problems.length, "problem")} in the output.`;
  box.append(el("p", { class: r.problems.length === 0 ? "ok" : "bad", "data-verdict": "checker" }, `${checked} ${inputNote}`));
  const sizes = MEASURES.map((m) => `${number.format(r.size[m.id])} ${m.unit} (input ${number.format(r.inputSize[m.id])} ${m.unit}, ${change(r.size[m.id], r.inputSize[m.id])})`).join(", ");
  box.append(el("p", { "data-verdict": "size" }, `Sent as compact JSON: ${sizes}.`));
}

function renderDiff(result, out) {
  const body = $("diff").tBodies[0];
  body.replaceChildren();
  $("output-heading").textContent = `Output: ${result.target}`;
  $("diff-caption").textContent = `The input and the ${result.target} output, line by line`;
  if (out === undefined) return;
  const left = state.inputLines.lines;
  const right = out.lines;
  const rows = diffLines(left, right);
  if (rows.coarse) $("diff-caption").textContent += " (too many changed lines to align: the changed middle is shown removed, then added)";
  const rowOfRight = new Array(right.length);
  const rowOfLeft = new Array(left.length);
  const frag = document.createDocumentFragment();
  let changed = 0;
  for (const { left: l, right: r } of rows) {
    const kind = l === null ? "add" : r === null ? "del" : left[l] === right[r] ? "same" : "change";
    if (kind !== "same") changed++;
    const tr = el("tr", { class: kind },
      el("td", { class: "ln", text: l === null ? "" : String(l + 1) }),
      signCell(l !== null && kind !== "same", "−", "removed"),
      el("td", { class: "code in", "data-line": l === null ? undefined : String(l), text: l === null ? "" : left[l] }),
      el("td", { class: "ln", text: r === null ? "" : String(r + 1) }),
      signCell(r !== null && kind !== "same", "+", "added"),
      el("td", { class: "code out", "data-line": r === null ? undefined : String(r), text: r === null ? "" : right[r] }));
    if (l !== null) rowOfLeft[l] = tr;
    if (r !== null) rowOfRight[r] = tr;
    frag.append(tr);
  }
  body.append(frag);
  $("diff").dataset.changedRows = String(changed);
  state.view = { result, out, rowOfRight, rowOfLeft };
}

// The sign is for the eye; a screen reader hears the word.
const signCell = (marked, sign, word) =>
  el("td", { class: "sign" }, marked ? [el("span", { "aria-hidden": "true", text: sign }), el("span", { class: "sr", text: word })] : null);

function renderDiagnostics(result) {
  const list = $("diagnostics");
  list.replaceChildren();
  $("diagnostics-heading").textContent = `Diagnostics (${number.format(result.diagnostics.length)})`;
  if (result.error) return;
  if (result.diagnostics.length === 0) {
    list.append(el("li", { class: "empty", text: "Nothing to report: nothing was lost or worth a note." }));
    return;
  }
  result.diagnostics.forEach((d, i) => {
    list.append(
      el("li", {},
        el("button", { type: "button", class: "diagnostic", "aria-pressed": "false", "data-index": String(i), "data-pointer": d.pointer, onclick: () => selectDiagnostic(i) },
          el("span", { class: "row1" },
            el("code", { class: "code-id", text: d.code }),
            d.lossy ? el("span", { class: "badge lossy", text: "lossy" }) : el("span", { class: "badge", text: "note" }),
            d.tool ? el("span", { class: "tool", text: d.tool }) : null),
          el("code", { class: "pointer", text: d.pointer || "(root)" }),
          el("span", { class: "message", text: d.message }))),
    );
  });
}

function renderProblems(result) {
  const list = $("problems");
  list.replaceChildren();
  if (result.error) return;
  if (result.checked === 0) {
    list.append(el("li", { class: "empty", text: "Sent without strict: the strict checker does not apply." }));
  } else if (result.problems.length === 0) {
    list.append(el("li", { class: "empty ok", text: `No problem: the ${result.target} checker accepts what is sent.` }));
  }
  for (const p of result.problems) {
    list.append(el("li", { class: "bad" }, p.tool ? `${p.tool}: ` : "", el("code", { text: p.code }), " at ", el("code", { text: p.pointer || "(root)" }), `: ${p.message}`));
  }
}

function selectDiagnostic(i) {
  const view = state.view;
  if (view === undefined) return;
  const buttons = $("diagnostics").querySelectorAll("button.diagnostic");
  const already = buttons[i].getAttribute("aria-pressed") === "true";
  for (const b of buttons) b.setAttribute("aria-pressed", "false");
  for (const tr of $("diff").querySelectorAll("tr.hl, tr.hl-in")) tr.classList.remove("hl", "hl-first", "hl-in");
  const status = $("highlight-status");
  if (already) {
    status.textContent = "";
    return;
  }
  buttons[i].setAttribute("aria-pressed", "true");
  const d = view.result.diagnostics[i];
  const node = nearestNode(view.out.spans, d.pointer);
  const [first, last] = node.span;
  for (let line = first; line <= last; line++) view.rowOfRight[line].classList.add("hl");
  view.rowOfRight[first].classList.add("hl-first");
  const inNode = state.inputLines.spans.get(d.pointer);
  if (inNode !== undefined) for (let line = inNode[0]; line <= inNode[1]; line++) view.rowOfLeft[line].classList.add("hl-in");
  // Scrolls the diff alone (scrollIntoView would move the page too).
  const wrap = $("diff-wrap");
  const head = $("diff").tHead.getBoundingClientRect().height;
  wrap.scrollTop += view.rowOfRight[first].getBoundingClientRect().top - wrap.getBoundingClientRect().top - head - wrap.clientHeight / 4;
  const where = node.pointer || "the root";
  status.textContent = node.exact
    ? `Highlighted ${where} in the output (lines ${first + 1}–${last + 1}).`
    : `${d.pointer} is not in the output; its nearest node there, ${where}, is highlighted (lines ${first + 1}–${last + 1}).`;
}

start().catch((err) => showBanner(`The page failed to start: ${err?.message ?? err}`));
