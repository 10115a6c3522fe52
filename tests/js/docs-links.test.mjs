// The repository's Markdown links to its own files (the README to docs/, the
// screenshot, the benchmark results) point at files that exist, and a link
// with a #fragment names a heading of its target. The README moved its
// evidence into docs/; a link left behind by a later move fails here.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { root } from "./helpers.mjs";

const FILES = ["README.md", "CONSTRAINTS.md", "examples/README.md", "examples/playground/README.md", "bench/README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
const slug = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");

/** The text outside fenced code blocks and inline code, where links are links. */
const prose = (markdown) => markdown.replace(/^(\s*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\2\s*$/gm, "").replace(/`[^`\n]*`/g, "");

test("the docs this change added exist", () => {
  for (const f of ["docs/verification.md", "docs/fuzzing.md", "docs/benchmarks.md", "docs/playground.png"]) assert.ok(existsSync(join(root, f)), f);
});

for (const file of FILES) {
  test(`${file}: every relative link resolves, and every #fragment names a heading`, () => {
    const text = prose(readFileSync(join(root, file), "utf8"));
    const links = [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map(([, href]) => href).filter((href) => !/^[a-z]+:/i.test(href));
    for (const href of links) {
      const [path, fragment] = href.split("#");
      const target = path === "" ? join(root, file) : join(root, dirname(file), decodeURIComponent(path));
      assert.ok(existsSync(target), `${file}: ${href} -> ${relative(root, target)} does not exist`);
      if (fragment !== undefined && statSync(target).isFile() && target.endsWith(".md")) {
        const headings = [...readFileSync(target, "utf8").matchAll(/^#{1,6} (.+)$/gm)].map(([, h]) => slug(h));
        assert.ok(headings.includes(fragment), `${file}: ${href}: no heading "#${fragment}" in ${relative(root, target)}`);
      }
    }
  });
}
