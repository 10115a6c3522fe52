//! MCP `inputSchema` ingestion (seed 000 `normalizeSchemaForMCP`; MCP 2025-11-25
//! "JSON Schema Usage": 2020-12 by default, root `type: "object"`).
use crate::passes::{pass, shapes, Pass};
use crate::profile::{OnViolation, BASE};
use super::Target;
use crate::keywords::Names;

pub static MCP: Target = Target {
    id: "mcp",
    description: "MCP tool inputSchema: draft 2020-12, refs inlined, object root",
    source: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools",
    caps: crate::profile::Caps { strip: Names::new(&["$schema", "nullable"]), root_object: true, root_assertions: true, ..BASE },
    passes: PASSES,
    on_violation: OnViolation::Report,
    relaxed: None,
};

static PASSES: &[Pass] = &[
    pass("strip-unsupported", crate::passes::spill::strip_unsupported),
    pass("root-object", shapes::root_object),
];
