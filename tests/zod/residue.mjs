// What JSON.stringify makes of Zod 4 schema instances: the inputs of the
// fixtures zod4-serialized-instance-root and zod4-serialized-instances-in-
// properties, generated from the zod in package.json. An SDK or server that
// passes the instance where JSON Schema belongs sends exactly this.
//
//   node tests/zod/residue.mjs          prints both residues
//   node tests/zod/residue.mjs --write  rewrites the fixtures' input.json
// tests/js/zod-residue.test.mjs regenerates them and compares, so the
// checked-in inputs stay what the installed zod really produces.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as z from "zod";

/** A string whose derived fields were read, as SDKs do: Zod caches them as own fields. */
function readString(schema) {
  void schema.format;
  void schema.minLength;
  void schema.maxLength;
  return schema;
}

/** A TypeScript numeric enum as compiled: `enum Level { LOW = 1, HIGH = 2 }`. */
const Level = { LOW: 1, HIGH: 2, 1: "LOW", 2: "HIGH" };

/** A shape whose member names are also JavaScript's special names and JSON Schema keywords. */
function awkwardNames() {
  const shape = {};
  // An object literal's `__proto__:` would set the prototype, not a member.
  Object.defineProperty(shape, "__proto__", { value: z.string(), enumerable: true, writable: true, configurable: true });
  shape.constructor = z.number();
  shape.default = z.boolean();
  shape.const = z.literal("c").optional();
  return z.object(shape);
}

export function instances() {
  return {
    mode: z.enum(["fast", "slow"]),
    level: z.nativeEnum(Level),
    count: z.nativeEnum({ ONE: 1, TWO: 2 }),
    kind: z.literal("file"),
    side: z.union([z.literal("left"), z.literal("right")]),
    path: readString(z.string()),
    email: z.string().email(),
    limit: z.number().int(),
    tags: z.array(z.string()),
    anything: z.any(),
    options: z.object({
      recursive: z.boolean().optional(),
      note: z.string().nullable(),
      depth: z.number().default(1),
    }),
    names: awkwardNames(),
    later: z.lazy(() => z.string()).optional(),
  };
}

/** The whole parameter object passed as an instance. */
export function rootResidue() {
  return JSON.parse(JSON.stringify(z.object(instances())));
}

/** A JSON Schema whose properties are instances (an SDK that converted only the top level). */
export function propertiesResidue() {
  const { mode, count, side, path } = instances();
  const properties = JSON.parse(JSON.stringify({ mode, count, side, path }));
  return { type: "object", properties, required: ["mode", "count", "side", "path"] };
}

export const FIXTURES = {
  "zod4-serialized-instance-root": rootResidue,
  "zod4-serialized-instances-in-properties": propertiesResidue,
};

const fixtureDir = (name) => fileURLToPath(new URL(`../fixtures/${name}/`, import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, make] of Object.entries(FIXTURES)) {
    const text = JSON.stringify(make(), null, 2) + "\n";
    if (process.argv.includes("--write")) writeFileSync(`${fixtureDir(name)}input.json`, text);
    else process.stdout.write(`${name}:\n${text}`);
  }
}
