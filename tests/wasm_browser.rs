//! The cases of tests/wasm_node.rs, run in headless Chromium through
//! chromedriver: the browser's engine, its call-stack limit and its wasm
//! memory, with the same fixtures and the same expectations.
//!
//! Without `run_in_browser` wasm-bindgen-test-runner skips every test in
//! browser mode and still exits 0, hence the configure line; `make test-wasm`
//! also fails a run that reports 0 passed.
//!
//! Run: `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
//! CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test wasm_browser`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// Checked by `runs_in_the_host_the_suite_names`.
const HOST: &str = "browser";

#[path = "wasm_node.rs"]
mod cases;
