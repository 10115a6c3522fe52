// Runs the pi-ai normalizer over every corpus schema and every target, writing one record
// per (schema, target) in the format toolschema's own corpus example writes, so that
// tests/peers/compare.mjs can set the two side by side. Then prints per-call times for
// nested-object schemas of depth 10..40 per dispatcher.
//
//   bench/node_modules/.bin/tsx bench/peers/pi-ai-corpus.ts OUT.json [--corpus DIR]
//
// Record: {id: "<file stem>/<index>", name, target, schema, strict? (openai-strict),
//          fallback? (cca: the peer replaced the tool by its fail-open schema),
//          error? (the peer threw or timed out)}
//
// Every call runs in a child process under a watchdog: pi-ai's CCA path takes time
// exponential in nesting depth (about 2x per level; the corpus has a 40-level schema), so
// an unguarded run would never finish. A call over the cap is killed and recorded as an
// error; the child is restarted for the next call.
//
// Env: PEERS_CALL_TIMEOUT_MS (default 5000) caps one corpus call;
//      PEERS_DEPTH_TIMEOUT_MS (default 5000) caps one depth measurement.

import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { loadPiAiModule, piAiTargets, PI_AI_VERSION, REPO_ROOT, TARGETS } from "./load.mjs";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Target = (typeof TARGETS)[number];

interface RunJob {
	op: "run";
	target: Target;
	schema: Json;
}
interface TimeJob {
	op: "time";
	target: Target;
	depth: number;
}
type Job = RunJob | TimeJob;
type Dispatch = Record<Target, (schema: unknown) => { schema: unknown; strict?: boolean }>;
type Reply =
	| { ok: true; schema?: Json; strict?: boolean; fellBack?: boolean; ms?: number; iterations?: number }
	| { ok: false; error: string };

const SELF = fileURLToPath(import.meta.url);
const CALL_TIMEOUT_MS = Number(process.env.PEERS_CALL_TIMEOUT_MS ?? 5000);
const DEPTH_TIMEOUT_MS = Number(process.env.PEERS_DEPTH_TIMEOUT_MS ?? 5000);
const DEPTHS = [10, 20, 30, 40];
/** Where bench/peers/shim/pi-utils sends pi-ai's log calls. */
const LOG_SINK = Symbol.for("toolschema.peers.logSink");

/** `depth` levels of `{type:object, properties:{child: ...}, required:[child]}` over a string leaf. */
function nestedObject(depth: number): Json {
	let schema: Json = { type: "string", description: "leaf" };
	for (let level = depth; level > 0; level--) {
		schema = {
			type: "object",
			description: `level ${level}`,
			properties: { child: schema },
			required: ["child"],
		};
	}
	return schema;
}

// ---------------------------------------------------------------------------------------
// Child: reads one job per stdin line, answers one reply per stdout line.

async function child(): Promise<void> {
	const dispatch = piAiTargets(await loadPiAiModule()) as Dispatch;
	const reply = (r: Reply) => process.stdout.write(`${JSON.stringify(r)}\n`);
	for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
		if (!line) continue;
		const job = JSON.parse(line) as Job;
		try {
			reply(job.op === "run" ? runJob(dispatch, job) : timeJob(dispatch, job));
		} catch (error) {
			reply({ ok: false, error: errorText(error) });
		}
	}
}

function runJob(dispatch: Dispatch, job: RunJob): Reply {
	// The job line was just parsed, so job.schema is a fresh object nobody else holds:
	// pi-ai's per-object memo tables cannot serve a result from an earlier call.
	let out: { schema: unknown; strict?: boolean };
	// The fallback schema is an unexported constant, so the exact signal that CCA gave up on
	// a tool is the debug line it logs on that path (the shim forwards it here).
	let fellBack = false;
	const sink = (_level: string, message: unknown) => {
		if (typeof message === "string" && message.includes("using fallback")) fellBack = true;
	};
	(globalThis as Record<symbol, unknown>)[LOG_SINK] = sink;
	try {
		out = dispatch[job.target](job.schema);
	} catch (error) {
		return { ok: false, error: errorText(error) };
	} finally {
		delete (globalThis as Record<symbol, unknown>)[LOG_SINK];
	}
	if (out.schema === undefined) return { ok: false, error: "returned undefined" };
	try {
		JSON.stringify(out.schema); // the reply line must serialize; report why if it cannot
	} catch (error) {
		return { ok: false, error: `output is not JSON: ${errorText(error)}` };
	}
	const reply: Reply = { ok: true, schema: out.schema as Json };
	if (job.target === "openai-strict") reply.strict = out.strict === true;
	if (job.target === "cca") reply.fellBack = fellBack;
	return reply;
}

function timeJob(dispatch: Dispatch, job: TimeJob): Reply {
	const call = dispatch[job.target];
	const template = JSON.stringify(nestedObject(job.depth));
	const fresh = () => JSON.parse(template);
	// One cold call first: when it alone is slow, repeating would only burn the cap.
	let start = performance.now();
	call(fresh());
	const first = performance.now() - start;
	if (first > 100) return { ok: true, ms: first, iterations: 1 };
	for (let i = 0; i < 20; i++) call(fresh()); // warm the JIT
	// Batches of pre-built inputs keep JSON.parse out of the timed region.
	let elapsed = 0;
	let iterations = 0;
	while (elapsed < 200 && iterations < 20_000) {
		const batch = Array.from({ length: 50 }, fresh);
		start = performance.now();
		for (const schema of batch) call(schema);
		elapsed += performance.now() - start;
		iterations += batch.length;
	}
	return { ok: true, ms: elapsed / iterations, iterations };
}

function errorText(error: unknown): string {
	if (error instanceof Error) return `${error.name}: ${error.message}`;
	return String(error);
}

// ---------------------------------------------------------------------------------------
// Parent: owns the corpus, the watchdog and the output.

class Runner {
	private proc: ChildProcessByStdio<Writable, Readable, null> | undefined;
	private lines: AsyncIterator<string> | undefined;
	restarts = 0;

	private start(): void {
		// Same interpreter and loader flags (tsx registers itself through execArgv).
		const proc = spawn(process.execPath, [...process.execArgv, SELF, "--child"], {
			stdio: ["pipe", "pipe", "inherit"],
		});
		this.proc = proc;
		this.lines = createInterface({ input: proc.stdout, crlfDelay: Infinity })[Symbol.asyncIterator]();
	}

	async call(job: Job, timeoutMs: number): Promise<Reply> {
		if (!this.proc) this.start();
		const proc = this.proc!;
		proc.stdin.write(`${JSON.stringify(job)}\n`);
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<"timeout">(res => {
			timer = setTimeout(() => res("timeout"), timeoutMs);
		});
		const next = this.lines!.next();
		const result = await Promise.race([next, timeout]);
		clearTimeout(timer);
		if (result === "timeout") {
			this.kill();
			this.restarts++;
			return { ok: false, error: `timeout: no result within ${timeoutMs} ms` };
		}
		if (result.done) {
			this.kill();
			this.restarts++;
			return { ok: false, error: `child exited (code ${proc.exitCode}, signal ${proc.signalCode})` };
		}
		return JSON.parse(result.value) as Reply;
	}

	kill(): void {
		if (!this.proc) return;
		this.proc.stdin.destroy();
		this.proc.kill("SIGKILL");
		this.proc = undefined;
		this.lines = undefined;
	}

	close(): void {
		if (!this.proc) return;
		this.proc.stdin.end();
		this.proc = undefined;
		this.lines = undefined;
	}
}

interface CorpusEntry {
	name: string;
	source?: string;
	schema: Json;
	kind?: string;
	note?: string;
}

interface PeerRecord {
	id: string;
	name: string;
	target: Target;
	schema?: Json;
	strict?: boolean;
	fallback?: boolean;
	error?: string;
}

/** Exactly `{type:"object", properties:{}}` (any key order): the shape of CCA's fallback. */
function isEmptyObjectSchema(value: Json | undefined): boolean {
	if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
	const keys = Object.keys(value);
	const props = value.properties;
	return (
		keys.length === 2 &&
		value.type === "object" &&
		props !== null &&
		typeof props === "object" &&
		!Array.isArray(props) &&
		Object.keys(props).length === 0
	);
}

function readCorpus(dir: string): Array<{ id: string; entry: CorpusEntry }> {
	const files = readdirSync(dir)
		.filter(f => f.endsWith(".json"))
		.sort();
	if (files.length === 0) throw new Error(`no corpus files in ${dir}`);
	const out: Array<{ id: string; entry: CorpusEntry }> = [];
	for (const file of files) {
		const entries = JSON.parse(readFileSync(join(dir, file), "utf8")) as CorpusEntry[];
		if (!Array.isArray(entries)) throw new Error(`${file}: expected a JSON array`);
		const stem = basename(file, ".json");
		entries.forEach((entry, index) => out.push({ id: `${stem}/${index}`, entry }));
	}
	return out;
}

function parseArgs(argv: string[]): { out: string; corpus: string } {
	let out: string | undefined;
	let corpus = resolve(REPO_ROOT, "../shared/corpus");
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === "--corpus") corpus = resolve(argv[++i] ?? "");
		else if (!out) out = resolve(argv[i]);
		else throw new Error(`unexpected argument ${argv[i]}`);
	}
	if (!out) throw new Error("usage: pi-ai-corpus.ts OUT.json [--corpus DIR]");
	return { out, corpus };
}

function fmtMs(ms: number): string {
	if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
	if (ms >= 1) return `${ms.toFixed(2)} ms`;
	return `${(ms * 1000).toFixed(1)} µs`;
}

async function parent(): Promise<void> {
	const { out, corpus } = parseArgs(process.argv.slice(2));
	const schemas = readCorpus(corpus);
	const runner = new Runner();
	const records: PeerRecord[] = [];
	// CCA outputs equal to the fallback shape that did not come from the fallback path
	// (parameterless tools, or a lossy collapse to an empty object): listed apart so they
	// are not read as give-ups.
	const emptyWithoutFallback: string[] = [];
	const started = performance.now();

	for (const { id, entry } of schemas) {
		for (const target of TARGETS as Target[]) {
			const reply = await runner.call({ op: "run", target, schema: entry.schema }, CALL_TIMEOUT_MS);
			const record: PeerRecord = { id, name: entry.name, target };
			if (reply.ok) {
				record.schema = reply.schema;
				if (target === "openai-strict") record.strict = reply.strict === true;
				if (target === "cca") {
					record.fallback = reply.fellBack === true;
					if (!record.fallback && isEmptyObjectSchema(reply.schema) && !isEmptyObjectSchema(entry.schema)) {
						emptyWithoutFallback.push(id);
					}
				}
			} else {
				record.error = reply.error;
			}
			records.push(record);
		}
	}
	mkdirSync(dirname(out), { recursive: true });
	writeFileSync(out, `${JSON.stringify(records, null, 1)}\n`);
	const corpusSeconds = (performance.now() - started) / 1000;

	console.log(
		`pi-ai ${PI_AI_VERSION}: ${schemas.length} corpus schemas x ${TARGETS.length} targets -> ${out} ` +
			`(${corpusSeconds.toFixed(1)} s, call cap ${CALL_TIMEOUT_MS} ms)`,
	);
	console.log("target            records  errors  timeouts  strict  fallbacks");
	for (const target of TARGETS) {
		const rows = records.filter(r => r.target === target);
		const errors = rows.filter(r => r.error !== undefined);
		const timeouts = errors.filter(r => r.error!.startsWith("timeout:"));
		const strict = target === "openai-strict" ? String(rows.filter(r => r.strict).length) : "-";
		const fallbacks = target === "cca" ? String(rows.filter(r => r.fallback).length) : "-";
		console.log(
			`${target.padEnd(16)}  ${String(rows.length).padStart(7)}  ${String(errors.length).padStart(6)}  ` +
				`${String(timeouts.length).padStart(8)}  ${strict.padStart(6)}  ${fallbacks.padStart(9)}`,
		);
	}
	for (const r of records.filter(r => r.error !== undefined)) {
		console.log(`  ${r.target} ${r.id} (${r.name}): ${r.error}`);
	}
	if (emptyWithoutFallback.length > 0) {
		console.log(
			`  cca: ${emptyWithoutFallback.length} more outputs are {type:"object",properties:{}} without the ` +
				"fallback path (the tool itself normalized to an empty object); not counted as fallbacks",
		);
	}

	// Depth sweep: information only, never asserted (tests do not time).
	console.log(`\nper-call time, nested object schema (cap ${DEPTH_TIMEOUT_MS} ms per measurement):`);
	console.log(`target            ${DEPTHS.map(d => `depth ${d}`.padStart(12)).join("")}`);
	for (const target of TARGETS as Target[]) {
		const cells: string[] = [];
		let capped = false;
		for (const depth of DEPTHS) {
			if (capped) {
				cells.push("not run");
				continue;
			}
			const reply = await runner.call({ op: "time", target, depth }, DEPTH_TIMEOUT_MS);
			if (reply.ok) cells.push(fmtMs(reply.ms!));
			else if (reply.error.startsWith("timeout:")) {
				// Deeper only gets slower: the next depths are not worth another cap each.
				cells.push(`>${DEPTH_TIMEOUT_MS / 1000} s`);
				capped = true;
			} else cells.push("error");
		}
		console.log(`${target.padEnd(16)}  ${cells.map(c => c.padStart(12)).join("")}`);
	}
	runner.close();
}

if (process.argv.includes("--child")) {
	await child();
} else {
	await parent();
}
