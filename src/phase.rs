//! Phase marks: where a schema call's wasm operators go.
//!
//! In the build `bench/build-boundary.sh phases` makes (`--cfg
//! toolschema_phases`), each mark calls the host, which reads the fuel left
//! and counts what was spent since the mark before toward the phase marked
//! (`bench/fuel.py --phases`). In every other build a mark is nothing. A mark
//! ends its phase; the marks are placed along `api::normalize_schema_json` (in
//! api.rs) and the pipeline it runs (pipeline.rs).

/// A phase of a schema call, ended by its mark.
#[derive(Clone, Copy)]
#[repr(u32)]
pub(crate) enum Phase {
    /// Crossing in: nothing before it is counted.
    Start = 0,
    /// The options' text read and the target found.
    Setup = 1,
    /// The schema's text parsed (with its depth checked).
    Parse = 2,
    /// The run's context made.
    Context = 3,
    /// The draft upgrade's walk, with the never-prune.
    Upgrade = 4,
    /// `$ref` resolution, or the resolution keywords stripped.
    Refs = 5,
    /// The target's rules, node by node.
    Rules = 6,
    /// Unreached definitions dropped, and the check that the refs settled.
    Settle = 7,
    /// The target's checker (strict targets, and reports).
    Check = 8,
    /// The answer written.
    Answer = 9,
}

#[cfg(all(target_arch = "wasm32", toolschema_phases))]
#[link(wasm_import_module = "toolschema_phases")]
extern "C" {
    fn phase_end(phase: u32);
}

/// Ends `phase` (see the module's comment).
#[inline(always)]
pub(crate) fn mark(_phase: Phase) {
    #[cfg(all(target_arch = "wasm32", toolschema_phases))]
    // SAFETY: the host's function takes a number and returns nothing.
    unsafe {
        phase_end(_phase as u32)
    }
}
