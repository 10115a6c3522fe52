// Smoke run of every peer entry point the harness calls, on one schema that exercises
// each dispatcher's main rewrite. Run by scripts/setup-peers.sh after every set-up so a
// broken cache fails there, with the dispatcher's name, instead of as a corpus diff.
import { loadPeers } from "./load.mjs";

const probe = () => ({
	$schema: "http://json-schema.org/draft-07/schema#",
	type: "object",
	properties: {
		name: { type: "string", description: "who", minLength: 1 },
		mode: { anyOf: [{ const: "a" }, { const: "b" }] },
		count: { type: ["integer", "null"], default: 5, description: "n" },
		tags: { type: "array", items: { $ref: "#/definitions/Tag" } },
		id: { oneOf: [{ type: "string" }, { type: "integer" }] },
	},
	required: ["name"],
	definitions: { Tag: { type: "string", pattern: "^[a-z]+$" } },
});

const { piAi, openclaw } = await loadPeers();
const S = piAi.module;
const calls: Array<[string, () => unknown]> = [
	["normalizeSchemaForGoogle", () => S.normalizeSchemaForGoogle(probe())],
	["normalizeSchemaForCCA", () => S.normalizeSchemaForCCA(probe())],
	["normalizeSchemaForMCP", () => S.normalizeSchemaForMCP(probe())],
	["sanitizeSchemaForOpenAIResponses", () => S.sanitizeSchemaForOpenAIResponses(probe())],
	["tryEnforceStrictSchema", () => S.tryEnforceStrictSchema(probe())],
	["adaptSchemaForStrict(s, true)", () => S.adaptSchemaForStrict(probe(), true)],
	...Object.entries(openclaw.targets).map(
		([target, fn]) => [`@openclaw/ai ${target}`, () => fn(probe())] as [string, () => unknown],
	),
];

let failed = 0;
for (const [name, call] of calls) {
	try {
		const out = call() as Record<string, unknown> | undefined;
		const schema = out && "schema" in out && "strict" in out ? out.schema : out;
		if (schema === null || typeof schema !== "object") throw new Error(`returned ${JSON.stringify(out)}`);
		// Every dispatcher must turn the probe into something different from a pass-through
		// of the draft-07 input; an identical result means the module did not really load.
		if (JSON.stringify(schema) === JSON.stringify(probe())) throw new Error("returned its input unchanged");
		if (name.startsWith("tryEnforce") || name.startsWith("adapt")) {
			if ((out as { strict?: unknown }).strict !== true) throw new Error("probe was not made strict");
		}
	} catch (error) {
		failed++;
		console.error(`check-peers: ${name}: ${error instanceof Error ? error.message : error}`);
	}
}
console.error(
	`check-peers: pi-ai ${piAi.version}, @openclaw/ai ${openclaw.version}: ` +
		`${calls.length - failed}/${calls.length} entry points ran`,
);
process.exit(failed ? 1 : 0);
