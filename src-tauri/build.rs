//! Builds the app's Tauri context. The commands the web view may call come from one list,
//! `commands.list`; the build stops, saying what differs, unless `capabilities/default.json`
//! grants exactly those commands.

use std::collections::BTreeSet;

/// Every command the web view may call, one path a line (the file's header says more).
const COMMANDS_LIST: &str = include_str!("commands.list");
/// The capability that grants the app's own commands to the main window.
const CAPABILITY: &str = "src-tauri/capabilities/default.json";

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/commands.list");
    println!("cargo:rerun-if-changed={CAPABILITY}");
    let commands = command_names(COMMANDS_LIST);
    check_capability(CAPABILITY, &commands);
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .capabilities_path_pattern("./src-tauri/capabilities/**/*")
            .app_manifest(tauri_build::AppManifest::new().commands(commands.leak())),
    )
    .expect("failed to run tauri-build");
}

/// The command names of `list`: the last part of each path (`commands::jobs::list_jobs` is
/// `list_jobs`). Stops the build on a line that is not a path or on a name given twice.
fn command_names(list: &'static str) -> Vec<&'static str> {
    let mut names = Vec::new();
    for (i, line) in list.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let is_ident = |s: &str| {
            s.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        };
        if !line.split("::").all(is_ident) {
            panic!(
                "src-tauri/commands.list, line {}: `{line}` is not a command's path (such as `commands::jobs::list_jobs`).",
                i + 1
            );
        }
        let name = line.rsplit("::").next().unwrap_or(line);
        if names.contains(&name) {
            panic!(
                "src-tauri/commands.list, line {}: the command `{name}` is listed twice.",
                i + 1
            );
        }
        names.push(name);
    }
    names
}

/// Stops the build unless the capability at `path` grants exactly `allow-<name-with-dashes>`
/// for each of `commands` among its own (unprefixed) permissions. Plugin permissions
/// (`dialog:allow-open`) are not checked here.
fn check_capability(path: &str, commands: &[&str]) {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path} could not be read: {e}"));
    let capability: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"));
    let permissions = capability["permissions"]
        .as_array()
        .unwrap_or_else(|| panic!("{path} has no \"permissions\" list"));
    let granted: BTreeSet<String> = permissions
        .iter()
        .filter_map(|p| p.as_str().or_else(|| p["identifier"].as_str()))
        .filter(|id| !id.contains(':'))
        .map(str::to_owned)
        .collect();
    let wanted: BTreeSet<String> = commands
        .iter()
        .map(|name| format!("allow-{}", name.replace('_', "-")))
        .collect();
    let missing: Vec<&String> = wanted.difference(&granted).collect();
    let extra: Vec<&String> = granted.difference(&wanted).collect();
    if !missing.is_empty() || !extra.is_empty() {
        panic!(
            "{path} must grant exactly the commands of src-tauri/commands.list.\n  \
             Missing (add them, or take the command out of the list): {missing:?}\n  \
             Not in the list (remove them, or add the command to the list): {extra:?}"
        );
    }
}
