//! The ~1 MB deep-spec-like markdown both `benches/markdown.rs` and
//! `examples/render_markdown.rs` (for `bench/spec-view.mjs`) use, kept in one place.

/// A deep spec: milestones, stories with acceptance criteria, subtask tables, code, links and
/// a little raw HTML, repeated to about 1 MB.
pub fn deep_spec() -> String {
    let mut s = String::from("# Scope of work\n\n## Executive summary\n\nA team task board.\n\n");
    let mut m = 0;
    while s.len() < 1_000_000 {
        m += 1;
        s.push_str(&format!("## Milestone {m}: Feature set {m}\n\n"));
        for story in 1..=6 {
            s.push_str(&format!(
                "### Story {m}.{story}: As a *member* I can manage **tasks** (`{story}h`)\n\n\
                 The member opens the [board](https://example.com/board/{m}) and sees every task; see \
                 [the glossary](#glossary) and <kbd>Ctrl</kbd>+<kbd>K</kbd>.\n\n\
                 **Acceptance criteria**\n\n\
                 - [x] A task shows its title, owner and due date\n\
                 - [ ] Overdue tasks are marked ~~red~~ amber\n\
                 - [ ] Changes sync within 2 seconds[^{m}x{story}]\n\n\
                 | Layer | Subtask | Complexity | Hours |\n|---|---|---|---|\n\
                 | DB | Tasks table with indexes | M | 4 |\n| API | CRUD endpoints | L | 8 |\n\
                 | FE | Board view | L | 10 |\n| QA | End-to-end tests | M | 5 |\n\n\
                 ```ts\nexport async function loadTasks(board: string) {{\n  return fetch(`/api/boards/${{board}}/tasks`);\n}}\n```\n\n\
                 [^{m}x{story}]: Measured on a 4G connection.\n\n"
            ));
        }
    }
    s.push_str(
        "## Glossary\n\n<details><summary>Terms</summary>\n\nBoard, task, owner.\n\n</details>\n",
    );
    s
}
