//! Wire-format tests of `specdesk-types` against JSON fixtures (`tests/fixtures/`).
//!
//! Every fixture is a body as the service documents it (`shared/spec/service-api.md`), with every
//! documented field. Each test decodes it into its type and re-encodes it, and the result must be the
//! fixture again: a field the type drops, renames, or writes where the service leaves it out (or the
//! reverse) fails the test. The only normalisation is of numbers: JSON does not tell `7` from `7.0`,
//! and a Rust `f64` writes `7.0` where the service writes `7`.

mod agents;
mod common;
mod errors;
mod gateway;
mod plans;
mod specs;
mod unknown;

/// Every fixture file is used by some test here (a fixture no test reads proves nothing).
#[test]
fn every_fixture_is_used() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut sources = String::new();
    for entry in std::fs::read_dir(dir.join("wire")).unwrap() {
        sources.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    let mut unused = Vec::new();
    for area in std::fs::read_dir(dir.join("fixtures")).unwrap() {
        let area = area.unwrap().path();
        for file in std::fs::read_dir(&area).unwrap() {
            let file = file.unwrap().path();
            let rel = format!(
                "{}/{}",
                area.file_name().unwrap().to_string_lossy(),
                file.file_name().unwrap().to_string_lossy()
            );
            if !sources.contains(&format!("\"{rel}\"")) {
                unused.push(rel);
            }
        }
    }
    assert!(unused.is_empty(), "fixtures no test reads: {unused:?}");
}

/// With the `ts` feature, closed sets that no exported struct names (the `x-svc-audio-format`
/// header, the task event `type`) are written to the bindings too, for the UI.
#[cfg(feature = "ts")]
#[test]
fn export_bindings_of_enums_no_struct_names() {
    use ts_rs::{Config, TS};
    let cfg = Config::from_env();
    specdesk_types::AudioFormat::export_all(&cfg).unwrap();
    specdesk_types::TaskEventType::export_all(&cfg).unwrap();
}
