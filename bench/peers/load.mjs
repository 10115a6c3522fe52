// Loads the peer normalizers in the current process, so a benchmark can time them next to
// toolschema from one run (ratios are only meaningful within one process and one JIT).
//
// Works under plain `node` as well as under tsx: pi-ai ships TypeScript only, so it is
// imported through tsx's programmatic loader, scoped to that import, which leaves the rest
// of the process (and toolschema's own package) on Node's normal loader.
//
// Needs scripts/setup-peers.sh to have run (it fills bench/node_modules and .cache/peers).
//
// Every dispatcher in `targets` takes a JSON schema and returns `{ schema, strict? }`.
// pi-ai and @openclaw/ai memoize per input object, so callers must pass a fresh object on
// every call (clone outside the timed region).

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const PI_AI_VERSION = "18.2.11";
export const PI_AI_SCHEMA_INDEX = fileURLToPath(
	new URL("../../.cache/peers/pi-ai/src/utils/schema/index.ts", import.meta.url),
);

/** Target ids shared with toolschema's own records (tests/peers/compare.mjs). */
export const TARGETS = ["google", "cca", "mcp", "openai-responses", "openai-strict"];

/** pi-ai's schema module namespace (every export of src/utils/schema/index.ts). */
export async function loadPiAiModule() {
	if (!existsSync(PI_AI_SCHEMA_INDEX)) {
		throw new Error(`pi-ai peer not set up (${PI_AI_SCHEMA_INDEX} missing): run scripts/setup-peers.sh`);
	}
	// tsImport registers tsx for this import graph only, in plain node and under tsx alike.
	const { tsImport } = await import("tsx/esm/api");
	return tsImport(pathToFileURL(PI_AI_SCHEMA_INDEX).href, import.meta.url);
}

/** pi-ai dispatchers keyed by target id. */
export function piAiTargets(S) {
	return {
		google: s => ({ schema: S.normalizeSchemaForGoogle(s) }),
		cca: s => ({ schema: S.normalizeSchemaForCCA(s) }),
		mcp: s => ({ schema: S.normalizeSchemaForMCP(s) }),
		"openai-responses": s => ({ schema: S.sanitizeSchemaForOpenAIResponses(s) }),
		// Fail-open: { schema, strict }; strict:false when the schema cannot be made strict.
		"openai-strict": s => S.tryEnforceStrictSchema(s),
	};
}

/** Installed @openclaw/ai version (its exports map hides package.json from require). */
export function openClawVersion() {
	const manifest = new URL("../node_modules/@openclaw/ai/package.json", import.meta.url);
	return JSON.parse(readFileSync(manifest, "utf8")).version;
}

/** @openclaw/ai tool-schema functions (its own names). */
export async function loadOpenClawModule() {
	return import("@openclaw/ai/internal/tool-schema");
}

/**
 * @openclaw/ai mapped onto the targets it has a counterpart for (no CCA or MCP profile).
 * Google goes through the same entry openclaw's agent runtime uses for Gemini models;
 * strict is its strict projection plus its own compatibility verdict.
 */
export function openClawTargets(O) {
	return {
		google: s => ({ schema: O.normalizeToolParameterSchema(s, { modelProvider: "google" }) }),
		"openai-responses": s => ({ schema: O.normalizeToolParameterSchema(s, { modelProvider: "openai" }) }),
		"openai-strict": s => {
			const schema = O.normalizeOpenAIStrictToolParameters(s, true);
			return { schema, strict: O.isStrictOpenAIJsonSchemaCompatible(schema) };
		},
	};
}

/**
 * Both peers, ready to call:
 *   { piAi: { version, module, targets }, openclaw: { version, module, targets } }
 */
export async function loadPeers() {
	const [S, O] = await Promise.all([loadPiAiModule(), loadOpenClawModule()]);
	return {
		piAi: { version: PI_AI_VERSION, module: S, targets: piAiTargets(S) },
		openclaw: { version: openClawVersion(), module: O, targets: openClawTargets(O) },
	};
}
