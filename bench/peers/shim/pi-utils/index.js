// Stand-in for the only four `@oh-my-pi/pi-utils` exports that pi-ai's
// src/utils/schema imports. The real package is Bun-only (it reads Bun.env
// and pulls native modules), and pi-ai's own install fails on a pinned
// dependency missing from the registry, so the harness supplies these.

// Same truthy table as upstream: only these exact strings turn a flag on.
const TRUTHY = new Set(["1", "y", "Y", "true", "TRUE", "yes", "YES", "on", "ON"]);

/** Boolean environment flag, read once by the caller at module load. */
export function $flag(name) {
	const value = process.env[name];
	return value !== undefined && TRUTHY.has(value);
}

// The schema code logs only when it takes a fail-open path (CCA's fallback schema, a
// validator warning), and that log line is the one exact signal of it: the fallback is an
// unexported constant. So log calls go to a sink the harness may install on globalThis
// (a global, not an export, because a TS loader may instantiate this module more than
// once); without a sink they are dropped to keep the output clean.
const SINK = Symbol.for("toolschema.peers.logSink");
const level = name => (message, ...rest) => globalThis[SINK]?.(name, message, ...rest);
export const logger = {
	debug: level("debug"),
	info: level("info"),
	warn: level("warn"),
	error: level("error"),
	trace: level("trace"),
	log: level("log"),
};

/** Deep copy restricted to JSON values, as upstream. */
export function structuredCloneJSON(value) {
	return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
