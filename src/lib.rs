//! toolschema: normalize tool JSON Schemas for model providers.
pub mod api;
#[cfg(target_arch = "wasm32")]
mod wasm;
