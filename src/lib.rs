//! toolschema: one normalizer from any tool JSON Schema (MCP, Zod, Pydantic,
//! TypeBox, WordPress) to what each model provider accepts on the wire.
//!
//! ```
//! use toolschema::json;
//! let schema = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"], "minimum": 1}}});
//! let out = toolschema::normalize(&schema, toolschema::targets::get("google").unwrap(), &Default::default()).unwrap();
//! assert_eq!(out.schema["properties"]["n"], json!({"type": "integer", "nullable": true, "minimum": 1}));
//! ```
pub mod api;
pub mod args;
pub mod check;
pub mod compact;
pub mod context;
pub mod doc;
pub mod draft;
pub mod error;
pub mod hash;
pub mod intersect;
pub mod json;
pub mod keywords;
pub mod lookup;
pub mod options;
pub mod passes;
pub mod path;
pub mod pipeline;
pub mod pointer;
pub mod profile;
pub mod refs;
pub mod report;
pub mod route;
mod settings;
pub mod sort;
pub mod targets;
pub mod untouched;
pub mod tools;
pub mod values;
pub mod walk;
pub mod wordpress;
mod zod;
// The wasm module's allocator; natively only its unit tests.
#[cfg(any(target_arch = "wasm32", test))]
mod arena;
// The wasm module's `memcmp`; natively only its unit tests.
#[cfg(any(target_arch = "wasm32", test))]
mod mem;
#[cfg(target_arch = "wasm32")]
mod wasm;
mod phase;
// Boundary experiments, only in the builds bench/build-boundary.sh makes.
#[cfg(all(target_arch = "wasm32", toolschema_bench))]
mod wasm_bench;

pub use check::{check, Violation};
pub use doc::{Map, Value};
pub use error::{Error, Result};
pub use options::Options;
pub use report::{Diagnostic, Report};
pub use targets::Target;
pub use tools::{normalize_tools, ToolsOutcome};
pub use pipeline::{cca_fallback, normalize, Normalized};
