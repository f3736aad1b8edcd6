//! Renders markdown exactly as the app does (`specdesk_core::markdown::render`) and writes the
//! result to stdout as JSON: the `Rendered` fields (`html`, `toc`) plus the `markdown` they came
//! from. Used by `bench/spec-view.mjs` to give the UI's mock the HTML Rust really produces.
//!
//! ```sh
//! cargo run -q -p specdesk-core --example render_markdown -- path/to/spec.md > rendered.json
//! cargo run -q -p specdesk-core --example render_markdown -- --deep-spec > spec-1mb.json
//! ```
//!
//! `--deep-spec` renders the ~1 MB deep spec of `benches/markdown.rs` (the same generator,
//! `benches/support/deep_spec.rs`).

use std::io::Write;

#[path = "../benches/support/deep_spec.rs"]
mod deep_spec_source;
use deep_spec_source::deep_spec;

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    let markdown = match arg.as_str() {
        "" | "-h" | "--help" => {
            eprintln!("usage: render_markdown <file.md> | --deep-spec");
            std::process::exit(2);
        }
        "--deep-spec" => deep_spec(),
        path => std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("render_markdown: cannot read {path}: {e}");
            std::process::exit(1);
        }),
    };
    let rendered = specdesk_core::markdown::render(&markdown);
    let out = serde_json::json!({
        "markdown": markdown,
        "html": rendered.html,
        "toc": rendered.toc,
    });
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, &out).expect("write the JSON to stdout");
    stdout.write_all(b"\n").expect("write to stdout");
}
