//! Errors: input that cannot be handled. Lossy rewrites are not errors (see `report`).
use crate::pointer::Pointer;
use std::fmt;

/// Every error has a stable kebab-case `code`, the JSON pointer of the place
/// it concerns, and a message a person can act on.
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The input text is not JSON.
    InvalidJson { message: String },
    /// The root (or a value in a schema position) is not a schema.
    NotASchema { pointer: Pointer, message: String },
    /// The target id is not known; `known` lists the ids there are
    /// (`targets::unknown` fills it in).
    UnknownTarget { target: String, known: Vec<&'static str> },
    /// The options object has an unknown key or a bad value.
    InvalidOptions { message: String },
    /// Nesting deeper than `maxDepth`.
    TooDeep { pointer: Pointer, limit: usize },
    /// Nesting within `maxDepth` (raised) that the WebAssembly build's stack
    /// cannot hold; the same code as `TooDeep`.
    StackExhausted { pointer: Pointer, depth: usize },
    /// Output would exceed a size budget.
    TooLarge { pointer: Pointer, message: String },
    /// A `$ref` could not be resolved and `strictUnresolvedRefs` is set.
    UnresolvedRef { pointer: Pointer, reference: String },
    /// OpenAI strict mode cannot represent the schema (`enforceStrictSchema`).
    StrictUnrepresentable { pointer: Pointer, message: String },
}

impl Error {
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidJson { .. } => "invalid-json",
            Error::NotASchema { .. } => "not-a-schema",
            Error::UnknownTarget { .. } => "unknown-target",
            Error::InvalidOptions { .. } => "invalid-options",
            Error::TooDeep { .. } | Error::StackExhausted { .. } => "too-deep",
            Error::TooLarge { .. } => "too-large",
            Error::UnresolvedRef { .. } => "unresolved-ref",
            Error::StrictUnrepresentable { .. } => "strict-unrepresentable",
        }
    }

    pub fn pointer(&self) -> String {
        match self {
            Error::NotASchema { pointer, .. }
            | Error::TooDeep { pointer, .. }
            | Error::StackExhausted { pointer, .. }
            | Error::TooLarge { pointer, .. }
            | Error::UnresolvedRef { pointer, .. }
            | Error::StrictUnrepresentable { pointer, .. } => pointer.to_string(),
            _ => String::new(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidJson { message } => write!(f, "input is not valid JSON: {message}"),
            Error::NotASchema { message, .. } => f.write_str(message),
            Error::UnknownTarget { target, known } => {
                write!(f, "unknown target {target:?}; the known targets are: {}", known.join(", "))
            }
            Error::InvalidOptions { message } => write!(f, "invalid options: {message}"),
            Error::TooDeep { limit, .. } => write!(
                f,
                "schema nests deeper than {limit} levels; raise the maxDepth option if this is intended"
            ),
            Error::StackExhausted { depth, .. } => write!(
                f,
                "schema nests {depth} levels here, deeper than this WebAssembly build's stack can follow; lower the maxDepth option so such input fails early"
            ),
            Error::TooLarge { message, .. } => f.write_str(message),
            Error::UnresolvedRef { reference, .. } => write!(
                f,
                "$ref {reference:?} does not resolve inside this document (strictUnresolvedRefs is set)"
            ),
            Error::StrictUnrepresentable { message, .. } => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
