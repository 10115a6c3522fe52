// OpenAI's documented size limits for strict schemas (Structured Outputs guide, "Supported
// schemas"; ../shared/reference/providers.md §2 [O1]). A `strict: true` schema over any of
// them is rejected by the provider, so a normalizer that calls it strict is wrong there.
//
// Nesting counts data containers: every object- or array-typed node on a path from the
// root is one level; combiners (anyOf, ...) and $defs add none. $ref is not followed (a
// recursive $ref would make every schema infinitely deep; the provider accepts those).

export const OPENAI_STRICT_LIMITS = {
	nesting: 10,
	properties: 5000,
	enumValues: 1000,
	totalStringLength: 120_000,
	// A single string enum with more than 250 values must stay within 15,000 characters.
	largeEnumValues: 250,
	largeEnumLength: 15_000,
};

const SUBSCHEMA = ["items", "additionalProperties", "not", "contains"];
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const SUBSCHEMA_MAPS = ["properties", "$defs", "definitions", "patternProperties"];

function isContainer(node) {
	const types = Array.isArray(node.type) ? node.type : [node.type];
	return types.includes("object") || types.includes("array") || node.properties !== undefined || node.items !== undefined;
}

function refResolves(root, ref) {
	if (ref === "#") return true;
	const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
	if (!m) return false;
	const name = m[2].replace(/~1/g, "/").replace(/~0/g, "~");
	const defs = root[m[1]];
	return defs !== null && typeof defs === "object" && Object.hasOwn(defs, name);
}

function target(root, ref) {
	if (ref === "#") return root;
	const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
	return m ? root[m[1]]?.[m[2].replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
}

// A chain of nodes that are nothing but `$ref` (`a` -> `b` -> `a`) describes no value at
// all: following it never reaches a type, and a validator following it never stops.
function barrenLoop(root, ref) {
	const seen = new Set();
	for (let r = ref; typeof r === "string"; ) {
		if (seen.has(r)) return true;
		seen.add(r);
		const node = target(root, r);
		if (node === null || typeof node !== "object" || Object.keys(node).some((k) => k !== "$ref")) return false;
		r = node.$ref;
	}
	return false;
}

/** Returns the list of exceeded limits, e.g. ["nesting 41 > 10"]; empty when within all. */
export function openAiLimitViolations(schema) {
	const L = OPENAI_STRICT_LIMITS;
	let maxDepth = 0;
	let properties = 0;
	let enumValues = 0;
	let stringLength = 0;
	const out = [];
	const valueLength = v => (typeof v === "string" ? v.length : JSON.stringify(v)?.length ?? 0);
	// Iterative so a pathological depth cannot overflow the stack of the checker itself.
	const stack = [[schema, 0]];
	while (stack.length > 0) {
		const [node, depth0] = stack.pop();
		if (node === null || typeof node !== "object" || Array.isArray(node)) continue;
		const depth = depth0 + (isContainer(node) ? 1 : 0);
		if (depth > maxDepth) maxDepth = depth;
		if (Array.isArray(node.enum)) {
			enumValues += node.enum.length;
			const length = node.enum.reduce((n, v) => n + valueLength(v), 0);
			stringLength += length;
			if (node.enum.length > L.largeEnumValues && node.enum.every(v => typeof v === "string") && length > L.largeEnumLength) {
				out.push(`string enum of ${node.enum.length} values totals ${length} > ${L.largeEnumLength} chars`);
			}
		}
		if (node.const !== undefined) stringLength += valueLength(node.const);
		// A $ref OpenAI cannot resolve is rejected whatever its size; count it here so a
		// peer's "strict" output with a dangling ref is not credited.
		if (typeof node.$ref === "string" && !refResolves(schema, node.$ref)) out.push(`dangling $ref ${JSON.stringify(node.$ref)}`);
		else if (typeof node.$ref === "string" && barrenLoop(schema, node.$ref)) out.push(`$ref ${JSON.stringify(node.$ref)} loops through refs alone and never reaches a schema`);
		for (const key of SUBSCHEMA) if (node[key] !== undefined) stack.push([node[key], depth]);
		for (const key of SUBSCHEMA_LISTS) {
			if (Array.isArray(node[key])) for (const sub of node[key]) stack.push([sub, depth]);
		}
		for (const key of SUBSCHEMA_MAPS) {
			const map = node[key];
			if (map === null || typeof map !== "object" || Array.isArray(map)) continue;
			for (const [name, sub] of Object.entries(map)) {
				if (key === "properties") properties++;
				stringLength += name.length;
				// Definitions are not a nesting level of the data.
				stack.push([sub, key === "$defs" || key === "definitions" ? 0 : depth]);
			}
		}
	}
	if (maxDepth > L.nesting) out.push(`nesting ${maxDepth} > ${L.nesting}`);
	if (properties > L.properties) out.push(`${properties} properties > ${L.properties}`);
	if (enumValues > L.enumValues) out.push(`${enumValues} enum values > ${L.enumValues}`);
	if (stringLength > L.totalStringLength) out.push(`string length ${stringLength} > ${L.totalStringLength}`);
	return out;
}
