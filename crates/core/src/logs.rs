//! The log a user can send: a daily-rotated file in the app's log folder, written through a
//! redacting writer, so no API key, `Authorization` header or browser-task input value reaches it.
//!
//! Two nets: every secret the app handles (keys read from or written to the keychain, task input
//! values) is registered with [`redactor`] and replaced wherever it appears, and anything shaped
//! like a credential (`Authorization: …`, `Bearer …`, `x-api-key: …`, `sk_…`) is masked even if it
//! was never registered.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, OnceLock, RwLock};

use regex::Regex;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// What replaces a secret in the log.
pub const REDACTED: &str = "[redacted]";

/// Log files are `specdesk.YYYY-MM-DD.log`; this many days are kept.
const KEEP_DAYS: usize = 14;
const PREFIX: &str = "specdesk";
const SUFFIX: &str = "log";

/// Credential shapes masked even when the value was never registered.
static SHAPES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(authorization["']?\s*[:=]\s*["']?)[^"'\n,;}]+|(bearer\s+)[^\s"',;]+|(x-api-key["']?\s*[:=]\s*["']?)[^\s"',;}]+|\bsk_[A-Za-z0-9_\-]{3,}"#,
    )
    .expect("the credential pattern is valid")
});

/// The secrets to remove from every log line (and from a browser task's steps).
#[derive(Default)]
pub struct Redactor {
    secrets: RwLock<Secrets>,
}

/// The registered secrets, longest first, and one automaton finding any of them in one pass
/// (a busy batch's steps are scrubbed thousands of times a second, its values possibly many).
#[derive(Default)]
struct Secrets {
    list: Vec<String>,
    finder: Option<aho_corasick::AhoCorasick>,
}

impl Redactor {
    /// Registers a secret. Values of fewer than 4 characters are not registered (they would mask
    /// ordinary words); such values carry too little to leak.
    pub fn add(&self, secret: &str) {
        let secret = secret.trim();
        if secret.chars().count() < 4 {
            return;
        }
        let mut secrets = self.secrets.write().unwrap_or_else(|p| p.into_inner());
        if !secrets.list.iter().any(|s| s == secret) {
            secrets.list.push(secret.to_owned());
            // Longest first, so a secret containing another is removed whole.
            secrets.list.sort_by_key(|s| std::cmp::Reverse(s.len()));
            // Should it ever fail to build, the last finder stays (never none at all).
            if let Ok(finder) = aho_corasick::AhoCorasick::builder()
                .match_kind(aho_corasick::MatchKind::LeftmostLongest)
                .build(&secrets.list)
            {
                secrets.finder = Some(finder);
            }
        }
    }

    /// `text` with every registered secret replaced (not the credential shapes: for text that
    /// is not a log line, such as a browser task's step).
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let secrets = self.secrets.read().unwrap_or_else(|p| p.into_inner());
        match &secrets.finder {
            Some(finder) if finder.is_match(text) => {
                let mut out = String::with_capacity(text.len());
                finder.replace_all_with(text, &mut out, |_, _, dst| {
                    dst.push_str(REDACTED);
                    true
                });
                Cow::Owned(out)
            }
            _ => Cow::Borrowed(text),
        }
    }

    /// `text` with every registered secret and every credential shape replaced.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let mut out = self.scrub(text);
        if SHAPES.is_match(&out) {
            out = Cow::Owned(
                SHAPES
                    .replace_all(&out, |c: &regex::Captures<'_>| {
                        match (1..=3).find_map(|i| c.get(i)) {
                            Some(prefix) => format!("{}{REDACTED}", prefix.as_str()),
                            None => REDACTED.to_owned(),
                        }
                    })
                    .into_owned(),
            );
        }
        out
    }
}

/// The process's redactor.
pub fn redactor() -> &'static Redactor {
    static REDACTOR: OnceLock<Redactor> = OnceLock::new();
    REDACTOR.get_or_init(Redactor::default)
}

/// A writer that redacts what passes through it. The log formatter writes each event with one
/// `write_all`, so a secret is never split across two writes.
pub struct Redacting<W>(pub W);

impl<W: Write> Write for Redacting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        self.0.write_all(redactor().redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Makes [`Redacting`] writers over another writer maker (the rolling file).
pub struct RedactingMakeWriter<M>(pub M);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for RedactingMakeWriter<M> {
    type Writer = Redacting<M::Writer>;
    fn make_writer(&'a self) -> Self::Writer {
        Redacting(self.0.make_writer())
    }
}

/// The daily-rotated, redacting file writer of `dir`.
pub fn file_writer(
    dir: &Path,
) -> io::Result<RedactingMakeWriter<tracing_appender::rolling::RollingFileAppender>> {
    std::fs::create_dir_all(dir)?;
    let appender = tracing_appender::rolling::Builder::new()
        .rotation(tracing_appender::rolling::Rotation::DAILY)
        .filename_prefix(PREFIX)
        .filename_suffix(SUFFIX)
        .max_log_files(KEEP_DAYS)
        .build(dir)
        .map_err(io::Error::other)?;
    Ok(RedactingMakeWriter(appender))
}

/// What is logged: Specdesk's own crates at info, everything else at warn.
pub fn filter() -> tracing_subscriber::filter::Targets {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    Targets::new()
        .with_default(LevelFilter::WARN)
        .with_target("specdesk", LevelFilter::INFO)
        .with_target("specdesk_app", LevelFilter::INFO)
        .with_target("specdesk_core", LevelFilter::INFO)
        .with_target("specdesk_client", LevelFilter::INFO)
}

/// Installs the process's log: events of Specdesk's crates go to a daily file in `dir`, redacted.
/// Fails when the folder cannot be made or a log is installed already.
pub fn install(dir: &Path) -> io::Result<()> {
    use tracing_subscriber::Layer;
    let layer = tracing_subscriber::fmt::layer()
        .with_ansi(false)
        .with_writer(file_writer(dir)?)
        .with_filter(filter());
    tracing_subscriber::registry()
        .with(layer)
        .try_init()
        .map_err(io::Error::other)
}

/// The log files of `dir`, oldest first.
pub fn log_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(SUFFIX))
        })
        .collect();
    // The date in the name sorts them.
    files.sort();
    files
}

/// The last `n` lines of the log (across files), redacted once more.
pub fn last_lines(dir: &Path, n: usize) -> Vec<String> {
    let mut lines = std::collections::VecDeque::with_capacity(n);
    for file in log_files(dir) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for line in text.lines() {
            if lines.len() == n {
                lines.pop_front();
            }
            lines.push_back(redactor().redact(line).into_owned());
        }
    }
    lines.into()
}

/// Lines of the log included in the diagnostics.
pub const DIAGNOSTIC_LINES: usize = 200;

/// What "Copy diagnostics" puts on the clipboard for a support message: the version, the OS, the
/// kinds of connections (no names, addresses or keys) and the log's last lines, redacted.
pub fn diagnostics(version: &str, connections: &[crate::ProfileView], log_dir: &Path) -> String {
    let kinds: Vec<String> = connections
        .iter()
        .map(|c| {
            let kind = if c.built_in {
                "Sandbox (built in)"
            } else {
                match c.key_kind {
                    crate::KeyKind::Personal => "personal",
                    crate::KeyKind::Organization => "organization",
                }
            };
            let key = if c.key.has_key { "key set" } else { "no key" };
            let active = if c.active { ", in use" } else { "" };
            format!("{kind} ({key}{active})")
        })
        .collect();
    let lines = last_lines(log_dir, DIAGNOSTIC_LINES);
    let mut out = format!(
        "Specdesk {version}\nOS: {} {}\nConnections: {}\n\nLast {} log lines:\n",
        std::env::consts::OS,
        std::env::consts::ARCH,
        kinds.join("; "),
        lines.len()
    );
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_secrets_and_credential_shapes_are_removed() {
        let r = Redactor::default();
        r.add("hunter2-password");
        r.add("abc"); // too short to register
        assert_eq!(
            r.redact("filled hunter2-password into #pw, abc stays"),
            "filled [redacted] into #pw, abc stays"
        );
        assert_eq!(
            r.redact("authorization: Bearer live_9f8e7d6c"),
            "authorization: [redacted]"
        );
        assert_eq!(
            r.redact("sent with bearer live_9f8e7d6c, then"),
            "sent with bearer [redacted], then"
        );
        assert_eq!(
            r.redact(r#"headers {"Authorization": "Basic dXNlcjpwYXNz"}"#),
            r#"headers {"Authorization": "[redacted]"}"#
        );
        assert_eq!(
            r.redact("x-api-key=k_123456 sent"),
            "x-api-key=[redacted] sent"
        );
        assert_eq!(
            r.redact("key sk_sandbox_pro was refused"),
            "key [redacted] was refused"
        );
        assert!(matches!(r.redact("nothing to hide"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_secret_inside_another_is_removed_whole() {
        let r = Redactor::default();
        r.add("token-1234");
        r.add("token-1234-extended");
        assert_eq!(r.redact("use token-1234-extended"), "use [redacted]");
    }

    #[test]
    fn diagnostics_name_kinds_of_connections_and_carry_the_redacted_tail() {
        let dir = tempfile::tempdir().unwrap();
        redactor().add("diag-secret-42");
        std::fs::write(
            dir.path().join("specdesk.2026-11-25.log"),
            "one\nsent diag-secret-42\n",
        )
        .unwrap();
        let view = |built_in: bool, key_kind, has_key: bool, active: bool| crate::ProfileView {
            id: "p".into(),
            name: "Acme secret project".into(),
            base_url: "https://api.acme.example".into(),
            key_kind,
            project_id: None,
            built_in,
            active,
            key: crate::KeyStatus::of(has_key.then_some("sk_live_abcd")),
            trial: None,
        };
        let text = diagnostics(
            "1.2.3",
            &[
                view(true, crate::KeyKind::Organization, true, false),
                view(false, crate::KeyKind::Personal, true, true),
                view(false, crate::KeyKind::Organization, false, false),
            ],
            dir.path(),
        );
        let expected = format!(
            "Specdesk 1.2.3\nOS: {} {}\nConnections: Sandbox (built in) (key set); personal (key set, in use); organization (no key)\n\nLast 2 log lines:\none\nsent [redacted]\n",
            std::env::consts::OS,
            std::env::consts::ARCH
        );
        assert_eq!(text, expected);
    }

    #[test]
    fn the_last_lines_come_from_the_newest_files_in_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("specdesk.2026-11-24.log"), "a\nb\n").unwrap();
        std::fs::write(dir.path().join("specdesk.2026-11-25.log"), "c\nd\n").unwrap();
        std::fs::write(dir.path().join("other.txt"), "x\n").unwrap();
        assert_eq!(last_lines(dir.path(), 3), ["b", "c", "d"]);
        assert_eq!(last_lines(dir.path(), 10), ["a", "b", "c", "d"]);
    }
}
