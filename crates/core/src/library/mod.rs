//! The local library (SQLite): the job ledger (written before a request is sent), the credit
//! ledger fed by metering headers, plan snapshots for progress over time, and cached specs for
//! offline reading. Migrations are numbered with `PRAGMA user_version`.
//!
//! One submodule per job: `jobs`, `credits`, `plans`, `projects`, `spec_cache`, `chat`,
//! `chat_state`, `media` and `catalogs`, each with its types and its part of `impl Library`; this
//! module opens the library and applies the migrations.

mod catalogs;
mod chat;
mod chat_search;
mod chat_state;
mod credits;
mod jobs;
mod media;
mod open;
mod plans;
mod projects;
mod spec_cache;

use std::sync::Mutex;

use rusqlite::Connection;

use crate::ipc_error::IpcError;

pub use catalogs::StoredCatalog;
pub use chat::{Conversation, ConversationMessage};
pub use chat_state::{ChatWinner, NewChatWinner};
pub use credits::{CreditEntry, PendingCharge};
pub use jobs::{Job, JobKind, JobStatus};
pub use media::{MediaItem, MediaKind, NewMedia};
pub use open::{
    DAMAGED_LIBRARY_PREFIX, LIBRARY_BUSY_WAIT, LibraryError, LibraryTrouble, Opened, set_aside,
};
pub use plans::PlanPoint;
pub use projects::RecentProject;
pub use spec_cache::{CachedSpec, CachedSpecState, SpecMarkdown};

/// Each entry is one migration, applied in order once.
const MIGRATIONS: &[&str] = &[
    // 1: job ledger, credit ledger, plan snapshots, spec cache.
    "CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        idempotency_key TEXT,
        request_json TEXT NOT NULL,
        remote_id TEXT,
        status TEXT NOT NULL,
        progress TEXT,
        result_json TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX jobs_unfinished ON jobs(status) WHERE status IN ('queued', 'submitted', 'running');
    CREATE TABLE credit_ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        request_id TEXT,
        credits_charged REAL,
        credits_remaining REAL
    );
    CREATE TABLE plan_snapshots (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id TEXT NOT NULL,
        computed_at TEXT NOT NULL,
        percent INTEGER NOT NULL,
        built INTEGER NOT NULL,
        proven_working INTEGER NOT NULL,
        total INTEGER NOT NULL,
        statuses_json TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        recorded_at TEXT NOT NULL
    );
    CREATE INDEX plan_snapshots_project ON plan_snapshots(project_id, id);
    CREATE TABLE spec_cache (
        spec_id TEXT PRIMARY KEY,
        profile_id TEXT NOT NULL,
        json TEXT NOT NULL,
        cached_at TEXT NOT NULL
    );",
    // 2: the spec cache keeps its markdown apart (a deep spec's is about 1 MB) with the columns a
    // list needs; conversations and their messages; generated media; jobs found by remote id.
    "ALTER TABLE spec_cache ADD COLUMN input TEXT;
    ALTER TABLE spec_cache ADD COLUMN status TEXT;
    ALTER TABLE spec_cache ADD COLUMN endpoint TEXT;
    ALTER TABLE spec_cache ADD COLUMN created TEXT;
    ALTER TABLE spec_cache ADD COLUMN total_human_hours REAL;
    ALTER TABLE spec_cache ADD COLUMN credits_used REAL;
    ALTER TABLE spec_cache ADD COLUMN human_markdown TEXT;
    ALTER TABLE spec_cache ADD COLUMN agent_markdown TEXT;
    UPDATE spec_cache SET
        input = json_extract(json, '$.input'),
        status = json_extract(json, '$.status'),
        endpoint = json_extract(json, '$.endpoint'),
        created = json_extract(json, '$.created'),
        total_human_hours = json_extract(json, '$.totalHumanHours'),
        credits_used = json_extract(json, '$.creditsUsed'),
        human_markdown = json_extract(json, '$.humanSpecMarkdown'),
        agent_markdown = json_extract(json, '$.codingAgentSpecMarkdown'),
        json = json_remove(json, '$.humanSpecMarkdown', '$.codingAgentSpecMarkdown');
    CREATE INDEX spec_cache_recent ON spec_cache(profile_id, cached_at);
    CREATE INDEX jobs_remote ON jobs(kind, remote_id);
    CREATE TABLE conversations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        profile_id TEXT NOT NULL,
        title TEXT NOT NULL,
        model TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        -- Grows with every change: orders conversations by activity without clock ties.
        activity INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        content_json TEXT NOT NULL,
        model TEXT,
        request_id TEXT,
        credits_charged REAL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX messages_conversation ON messages(conversation_id, id);
    CREATE TABLE media (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        prompt TEXT NOT NULL,
        model TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        credits REAL,
        cost REAL,
        job_id INTEGER,
        created_at TEXT NOT NULL
    );
    CREATE INDEX media_recent ON media(kind, id);",
    // 3: the projects whose plan was opened, per connection, for the Plans screen's list.
    "CREATE TABLE projects (
        project_id TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        name TEXT,
        spec_id TEXT,
        percent INTEGER,
        built INTEGER,
        total INTEGER,
        computed_at TEXT,
        opened_at TEXT NOT NULL,
        -- Grows with every opening: orders the list without clock ties.
        opened_seq INTEGER NOT NULL,
        PRIMARY KEY (profile_id, project_id)
    );
    CREATE INDEX projects_recent ON projects(profile_id, opened_seq);",
    // 4: a streamed call is recorded when it opens and stays pending until its charge is known
    // (its final usage, or estimated from the next balance read when it was cut).
    "ALTER TABLE credit_ledger ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE credit_ledger ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX credit_ledger_pending ON credit_ledger(profile_id) WHERE pending = 1;",
    // 5: browser-task input values written by earlier versions are scrubbed from batch jobs
    // (in Rust: `jobs::scrub_task_values`, run when this version is reached).
    "SELECT 1;",
    // 6: a chat reply cut off (its stream broke, was stopped, or the app closed) is kept, marked.
    "ALTER TABLE messages ADD COLUMN cut INTEGER NOT NULL DEFAULT 0;",
    // 7: each connection's model catalogs as last read (with the address they came from and the
    // public catalog's ETag), so the pickers work offline.
    "CREATE TABLE catalogs (
        profile_id TEXT NOT NULL,
        list TEXT NOT NULL,
        base_url TEXT NOT NULL,
        etag TEXT,
        body_json TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, list)
    );",
    // 8: what the chat studio made of a conversation besides its thread, kept with it (they were
    // in the web view's storage): its branches, as the UI's tree of turns (JSON), and the
    // winners picked when models were compared. Both go when the conversation is deleted.
    "CREATE TABLE conversation_trees (
        conversation_id INTEGER PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
        tree_json TEXT NOT NULL,
        saved_at TEXT NOT NULL
    );
    CREATE TABLE chat_winners (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        prompt TEXT NOT NULL,
        models_json TEXT NOT NULL,
        winner TEXT NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX chat_winners_conversation ON chat_winners(conversation_id, id);",
    // 9: what the studios knew of a generated file besides its prompt and model (they were in the
    // web view's storage): the settings it was made with, and the take preferred in an A/B.
    "ALTER TABLE media ADD COLUMN settings_json TEXT;
    ALTER TABLE media ADD COLUMN preferred INTEGER NOT NULL DEFAULT 0;",
    // 10: the model a gateway call used, with its charge (spend by model counts every call).
    "ALTER TABLE credit_ledger ADD COLUMN model TEXT;",
    // 11: a deleted conversation is kept, hidden, while its Undo is offered (`chat.rs`).
    "ALTER TABLE conversations ADD COLUMN deleted_at TEXT;",
    // 12: what a streamed call was estimated at before it was sent: a stream cut before its
    // charge counts at it against the spend cap until a balance reading settles it.
    "ALTER TABLE credit_ledger ADD COLUMN estimate REAL;",
    // 13: a deleted file is kept, hidden, while its Undo is offered; its file goes at the next
    // start (`core::media::purge_deleted`).
    "ALTER TABLE media ADD COLUMN deleted_at TEXT;",
    // 14: an image's thumbnail (`core::thumbs`; '' when it has none) and its size in pixels.
    "ALTER TABLE media ADD COLUMN thumb_path TEXT;
    ALTER TABLE media ADD COLUMN width INTEGER;
    ALTER TABLE media ADD COLUMN height INTEGER;",
];

/// The version from which batch jobs hold no task input values.
const NO_TASK_VALUES: i64 = 5;

/// The local library.
pub struct Library {
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library").finish_non_exhaustive()
    }
}

/// Now, as RFC 3339 UTC with milliseconds.
pub fn now() -> String {
    format_at(time::OffsetDateTime::now_utc())
}

/// `at` (UTC) as the library writes it.
fn format_at(at: time::OffsetDateTime) -> String {
    // RFC 3339 in UTC with milliseconds. Always three digits of them
    // (`2026-11-22T10:00:00.000Z`, unlike the well-known `Rfc3339` format, which trims them):
    // rows are ordered by these strings, so they all keep one width.
    at.to_offset(time::UtcOffset::UTC)
        .format(&time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
        ))
        .expect("a UTC date and time always formats")
}

impl Library {
    /// A library in memory (tests).
    pub fn in_memory() -> Result<Self, IpcError> {
        Self::with_connection(Connection::open_in_memory()?)
            .map_err(|e| IpcError::storage(e.detail))
    }

    /// Applies the pragmas and pending migrations, then the start-of-run clean-ups. The
    /// connection's busy timeout is already set (`open_checked`).
    fn with_connection(mut conn: Connection) -> Result<Self, LibraryError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
            let tx = conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        // The first writes of a run: a full disk or a read-only file shows here, said as such.
        if version < NO_TASK_VALUES && Self::scrub_task_values(&conn)? > 0 {
            // Rewrite the file, so the old values are not left in free pages either.
            conn.execute_batch("VACUUM;")?;
        }
        Self::cut_open_charges(&conn)?;
        // The Undo of a delete ends with the app that offered it.
        Self::purge_deleted_conversations(&conn)?;
        Ok(Library {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The schema version (number of migrations applied).
    pub fn schema_version(&self) -> Result<i64, IpcError> {
        Ok(self
            .conn()
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::params;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        let t = now();
        assert_eq!(t.len(), 24, "{t}");
        assert!(t.ends_with('Z') && t.as_bytes()[10] == b'T', "{t}");
    }

    #[test]
    fn a_version_6_library_gains_the_kept_catalogs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            for sql in &MIGRATIONS[..6] {
                conn.execute_batch(sql).unwrap();
            }
            conn.pragma_update(None, "user_version", 6).unwrap();
        }
        let lib = Library::open(&path).unwrap();
        assert_eq!(lib.schema_version().unwrap(), MIGRATIONS.len() as i64);
        lib.save_catalog("sandbox", "images", "http://x/", None, "{}")
            .unwrap();
        assert!(
            lib.catalog("sandbox", "images", "http://x/")
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn a_version_7_library_keeps_its_conversations_and_gains_their_branches() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        let id = {
            let conn = Connection::open(&path).unwrap();
            for sql in &MIGRATIONS[..7] {
                conn.execute_batch(sql).unwrap();
            }
            conn.pragma_update(None, "user_version", 7).unwrap();
            conn.execute(
                "INSERT INTO conversations (profile_id, title, created_at, updated_at)
                 VALUES ('sandbox', 'Old chat', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')",
                [],
            )
            .unwrap();
            conn.last_insert_rowid()
        };
        let lib = Library::open(&path).unwrap();
        assert_eq!(lib.schema_version().unwrap(), MIGRATIONS.len() as i64);
        assert_eq!(lib.conversation_tree("sandbox", id).unwrap(), None);
        let tree = serde_json::json!({"turns": {}, "children": {}, "selected": {}});
        lib.save_conversation_tree("sandbox", id, &tree).unwrap();
        assert_eq!(lib.conversation_tree("sandbox", id).unwrap(), Some(tree));
    }

    #[test]
    fn a_version_1_library_is_migrated_with_its_cached_specs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO spec_cache (spec_id, profile_id, json, cached_at) VALUES (?1, ?2, ?3, ?4)",
                params![
                    "old",
                    "sandbox",
                    r##"{"input":"Old spec","status":"completed","humanSpecMarkdown":"# Old"}"##,
                    "2026-11-01T00:00:00.000Z"
                ],
            )
            .unwrap();
        }
        let lib = Library::open(&path).unwrap();
        assert_eq!(lib.schema_version().unwrap(), MIGRATIONS.len() as i64);
        assert_eq!(
            lib.cached_spec_markdown("old").unwrap(),
            Some(SpecMarkdown {
                human: Some("# Old".into()),
                coding_agent: None
            })
        );
        let raw: String = lib
            .conn()
            .query_row(
                "SELECT json FROM spec_cache WHERE spec_id = 'old'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(raw, r#"{"input":"Old spec","status":"completed"}"#);
        let listed = lib.cached_specs(None, 10, 0).unwrap();
        assert_eq!(listed[0].input.as_deref(), Some("Old spec"));
        drop(lib);
        // Opening again applies nothing twice.
        assert_eq!(
            Library::open(&path).unwrap().schema_version().unwrap(),
            MIGRATIONS.len() as i64
        );
    }
}
