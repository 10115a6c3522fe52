// Compiled by tests/js/integration-types.test.mjs with tsc --strict against
// the built package and the real `ai` 5, 6 and 7 (devDependencies `ai5`,
// `ai6`, `ai`): the middleware goes into each version's wrapLanguageModel
// without a cast, shaped by the model it wraps.
import { wrapLanguageModel as wrap7, type LanguageModelMiddleware as Middleware7 } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { wrapLanguageModel as wrap6, type LanguageModelMiddleware as Middleware6 } from "ai6";
import { MockLanguageModelV3 } from "ai6/test";
import { wrapLanguageModel as wrap5, type LanguageModelMiddleware as Middleware5 } from "ai5";
import { MockLanguageModelV2 } from "ai5/test";
import type { TargetId } from "toolschema";
import { targetForModel, toolschemaMiddleware, type AiSdkReport, type ToolschemaMiddlewareV2, type ToolschemaMiddlewareV3, type ToolschemaMiddlewareV4 } from "toolschema/ai-sdk";

const v4 = new MockLanguageModelV4({ provider: "openai.responses", modelId: "gpt-5" });
const v3 = new MockLanguageModelV3({ provider: "anthropic.messages", modelId: "claude-sonnet-4-5" });
const v2 = new MockLanguageModelV2({ provider: "google.generative-ai", modelId: "gemini-2.5-flash" });

// ai 7: LanguageModelV4 (and the default with no model).
const m4: ToolschemaMiddlewareV4 = toolschemaMiddleware({ model: v4 });
const wrapped7 = wrap7({ model: v4, middleware: toolschemaMiddleware({ model: v4 }) });
const asMiddleware7: Middleware7 = toolschemaMiddleware();
wrap7({ model: v4, middleware: [toolschemaMiddleware({ specificationVersion: "v4" }), asMiddleware7] });

// ai 6: LanguageModelV3; its middleware type requires specificationVersion "v3".
const m3: ToolschemaMiddlewareV3 = toolschemaMiddleware({ model: v3 });
const wrapped6 = wrap6({ model: v3, middleware: toolschemaMiddleware({ model: v3 }) });
const asMiddleware6: Middleware6 = toolschemaMiddleware({ specificationVersion: "v3" });
// @ts-expect-error ai 6 refuses a v4 middleware
const wrong6: Middleware6 = toolschemaMiddleware({ model: v4 });

// ai 5: LanguageModelV2.
const m2: ToolschemaMiddlewareV2 = toolschemaMiddleware({ model: v2 });
const wrapped5 = wrap5({ model: v2, middleware: toolschemaMiddleware({ model: v2, target: "google" }) });
const asMiddleware5: Middleware5 = toolschemaMiddleware({ specificationVersion: "v2" });

// Options.
toolschemaMiddleware({
  model: v4,
  target: (model, strict) => (strict ? "openai-strict" : targetForModel(model)),
  normalize: { spill: "paren" },
  arguments: { emptyStrings: true },
  onReport: (report: AiSdkReport) => {
    if (report.type === "tool-call" && !report.prepared.ok) console.log(report.prepared.message);
    if (report.type === "tools") console.log(report.telemetry.toolsModified);
  },
});
const target: TargetId = targetForModel(v4, true);
// @ts-expect-error a misspelt target id
toolschemaMiddleware({ target: "openai-strcit" });
// @ts-expect-error no such specification version
toolschemaMiddleware({ specificationVersion: "v9" });

void [m4, m3, m2, wrapped7, wrapped6, wrapped5, asMiddleware6, asMiddleware5, wrong6, target];
