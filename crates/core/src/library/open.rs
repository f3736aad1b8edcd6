//! Opening the library at start without ever stopping the app: wait for another program's lock
//! (the busy timeout is set before anything that needs a lock, the WAL switch included), check
//! the file (`PRAGMA quick_check`), and set a damaged one aside as
//! `library.damaged-<time>.sqlite` (never deleted) to start a fresh one. What cannot be mended
//! here (a lock that stays, a read-only folder, a full disk) comes back as a `LibraryError`
//! whose words the start-up recovery window shows.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode};
use serde::{Deserialize, Serialize};

use super::Library;
use crate::ipc_error::IpcError;

/// How long opening waits for another program to let go of the library.
pub const LIBRARY_BUSY_WAIT: Duration = Duration::from_secs(5);

/// The start of a set-aside library's file name (`library.damaged-<time>.sqlite`).
pub const DAMAGED_LIBRARY_PREFIX: &str = "library.damaged-";

/// Why the library could not be opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum LibraryTrouble {
    /// The file is not a database, or its pages do not check out.
    Damaged,
    /// Another connection kept it locked for longer than the wait.
    Locked,
    /// Its folder or file cannot be written.
    ReadOnly,
    /// The disk is full.
    DiskFull,
    /// Anything else SQLite or the file system said.
    Other,
}

/// The library could not be opened: why, in the user's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryError {
    pub trouble: LibraryTrouble,
    /// What SQLite or the file system said (for the log and the details line).
    pub detail: String,
}

impl LibraryError {
    /// A sentence for a non-technical reader that says what to do next.
    pub fn message(&self, path: &Path) -> String {
        let folder = path.parent().unwrap_or(path).display();
        match self.trouble {
            LibraryTrouble::Damaged => format!(
                "Your library ({}) is damaged and could not be set aside ({}). Start with a fresh library: the damaged file is kept beside it.",
                path.display(),
                self.detail
            ),
            LibraryTrouble::Locked => format!(
                "Your library is in use by another program: it stayed locked for {} seconds. Close any other copy of Specdesk, or any program that has {} open, then choose Try again.",
                LIBRARY_BUSY_WAIT.as_secs(),
                path.display()
            ),
            LibraryTrouble::ReadOnly => format!(
                "Specdesk cannot write to its data folder ({folder}). Make the folder writable, or move it off a read-only disk, then choose Try again."
            ),
            LibraryTrouble::DiskFull => format!(
                "The disk that holds Specdesk's data folder ({folder}) is full. Free some space, then choose Try again."
            ),
            LibraryTrouble::Other => format!(
                "Specdesk could not open its library ({}). Choose Try again, or start with a fresh library: the current one is kept aside, never deleted.",
                self.detail
            ),
        }
    }

    fn from_sqlite(e: &rusqlite::Error) -> Self {
        let trouble = match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => LibraryTrouble::Damaged,
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => LibraryTrouble::Locked,
            Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
                LibraryTrouble::ReadOnly
            }
            Some(ErrorCode::DiskFull) => LibraryTrouble::DiskFull,
            _ => LibraryTrouble::Other,
        };
        LibraryError {
            trouble,
            detail: e.to_string(),
        }
    }

    fn from_io(e: &std::io::Error) -> Self {
        use std::io::ErrorKind;
        // Windows refuses to rename a file another program has open (sharing and lock
        // violations): the library is in use, not read-only.
        if cfg!(windows) && matches!(e.raw_os_error(), Some(32 | 33)) {
            return LibraryError {
                trouble: LibraryTrouble::Locked,
                detail: e.to_string(),
            };
        }
        let trouble = match e.kind() {
            ErrorKind::ResourceBusy => LibraryTrouble::Locked,
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => LibraryTrouble::ReadOnly,
            ErrorKind::StorageFull | ErrorKind::QuotaExceeded => LibraryTrouble::DiskFull,
            _ => LibraryTrouble::Other,
        };
        LibraryError {
            trouble,
            detail: e.to_string(),
        }
    }
}

impl From<rusqlite::Error> for LibraryError {
    fn from(e: rusqlite::Error) -> Self {
        LibraryError::from_sqlite(&e)
    }
}

/// A library opened at start, and the damaged file it replaced, if any.
#[derive(Debug)]
pub struct Opened {
    pub library: Library,
    /// Where a damaged library was set aside (a fresh one was made in its place).
    pub set_aside: Option<PathBuf>,
}

impl Opened {
    /// What to tell the user once when a damaged library was set aside.
    pub fn notice(&self) -> Option<String> {
        self.set_aside.as_ref().map(|aside| {
            format!(
                "Your library could not be read, so Specdesk set it aside as {} and started a fresh one. Your specs, plans and batches are listed again from the service; conversations and media records kept only on this computer are in the set-aside file.",
                aside.display()
            )
        })
    }
}

impl Library {
    /// Opens (creating when missing) the library at `path` and applies pending migrations,
    /// waiting up to `LIBRARY_BUSY_WAIT` for another program's lock.
    pub fn open(path: &Path) -> Result<Self, IpcError> {
        Self::open_checked(path, LIBRARY_BUSY_WAIT).map_err(|e| IpcError::storage(e.detail))
    }

    /// Opens the library at `path`, checking it first; says why when it cannot.
    pub fn open_checked(path: &Path, busy_wait: Duration) -> Result<Self, LibraryError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| LibraryError::from_io(&e))?;
        }
        let conn = Connection::open(path)?;
        // Before any statement that takes a lock (the WAL switch takes one), so a lock held by
        // another program is waited for, not failed on at once.
        conn.busy_timeout(busy_wait)?;
        let check: String = conn.pragma_query_value(None, "quick_check", |r| r.get(0))?;
        if check != "ok" {
            return Err(LibraryError {
                trouble: LibraryTrouble::Damaged,
                detail: format!("the integrity check found: {check}"),
            });
        }
        Self::with_connection(conn)
    }

    /// Opens the library at start: a damaged one is set aside and a fresh one made in its place.
    pub fn open_at_start(path: &Path, busy_wait: Duration) -> Result<Opened, LibraryError> {
        match Self::open_checked(path, busy_wait) {
            Ok(library) => Ok(Opened {
                library,
                set_aside: None,
            }),
            Err(e) if e.trouble == LibraryTrouble::Damaged => {
                tracing::warn!(detail = %e.detail, "the library is damaged; it is set aside");
                Self::start_fresh(path, busy_wait)
            }
            Err(e) => Err(e),
        }
    }

    /// Sets whatever is at `path` aside (when there is anything) and opens a fresh library:
    /// the user's "Start with a fresh library".
    pub fn start_fresh(path: &Path, busy_wait: Duration) -> Result<Opened, LibraryError> {
        let set_aside = set_aside(path).map_err(|e| LibraryError {
            trouble: LibraryError::from_io(&e).trouble,
            detail: format!("it could not be set aside: {e}"),
        })?;
        let library = Self::open_checked(path, busy_wait)?;
        Ok(Opened { library, set_aside })
    }
}

/// Renames the library at `path` and its WAL and shared-memory files to
/// `library.damaged-<time>.sqlite` (`-wal`, `-shm`) beside it. `None` when there was no library.
/// The time has no `:`, so the name is valid on every system.
pub fn set_aside(path: &Path) -> std::io::Result<Option<PathBuf>> {
    if !path.exists() {
        return Ok(None);
    }
    let stamp = crate::files::file_stamp()?;
    let aside = path.with_file_name(format!("{DAMAGED_LIBRARY_PREFIX}{stamp}.sqlite"));
    std::fs::rename(path, &aside)?;
    for suffix in ["-wal", "-shm"] {
        let mut from = path.as_os_str().to_owned();
        from.push(suffix);
        let mut to = aside.as_os_str().to_owned();
        to.push(suffix);
        match std::fs::rename(&from, &to) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Some(aside))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHORT_WAIT: Duration = Duration::from_millis(200);

    /// A library with a conversation in it, closed (its WAL checkpointed into the file).
    fn library_with_a_conversation(dir: &Path) -> PathBuf {
        let path = dir.join("library.sqlite");
        let lib = Library::open(&path).unwrap();
        for i in 0..40 {
            lib.create_conversation(
                "sandbox",
                &format!("Conversation {i} {}", "x".repeat(200)),
                None,
            )
            .unwrap();
        }
        drop(lib);
        path
    }

    fn damaged_files(dir: &Path) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                name.starts_with(DAMAGED_LIBRARY_PREFIX) && name.ends_with(".sqlite")
            })
            .collect();
        found.sort();
        found
    }

    /// Opening at start set the damaged file aside (kept byte for byte) and made a fresh library.
    fn assert_set_aside_and_fresh(dir: &Path, path: &Path, damaged: &[u8]) {
        let opened = Library::open_at_start(path, SHORT_WAIT).unwrap();
        let aside = opened
            .set_aside
            .clone()
            .expect("the damaged library is set aside");
        assert_eq!(damaged_files(dir), vec![aside.clone()]);
        assert_eq!(std::fs::read(&aside).unwrap(), damaged, "kept as it was");
        let name = aside.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            !name.contains([':', '*', '?', '"', '<', '>', '|']),
            "valid on every system: {name}"
        );
        let notice = opened.notice().unwrap();
        assert!(notice.contains(&aside.display().to_string()), "{notice}");
        assert!(notice.contains("listed again from the service"), "{notice}");
        assert_eq!(
            opened.library.schema_version().unwrap(),
            super::super::MIGRATIONS.len() as i64
        );
        assert!(
            opened
                .library
                .conversations(Some("sandbox"), 10, 0)
                .unwrap()
                .is_empty()
        );
        drop(opened);
        // The next start finds a sound library and sets nothing else aside.
        let again = Library::open_at_start(path, SHORT_WAIT).unwrap();
        assert_eq!(again.set_aside, None);
        assert_eq!(damaged_files(dir).len(), 1);
    }

    #[test]
    fn a_truncated_library_is_set_aside_and_a_fresh_one_made() {
        let dir = tempfile::tempdir().unwrap();
        let path = library_with_a_conversation(dir.path());
        let whole = std::fs::read(&path).unwrap();
        assert!(whole.len() > 16 * 1024, "several pages: {}", whole.len());
        let truncated = &whole[..whole.len() / 2];
        std::fs::write(&path, truncated).unwrap();
        let err = Library::open_checked(&path, SHORT_WAIT).unwrap_err();
        assert_eq!(err.trouble, LibraryTrouble::Damaged, "{err:?}");
        assert_set_aside_and_fresh(dir.path(), &path, truncated);
    }

    #[test]
    fn a_file_of_random_bytes_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        // Bytes from a fixed-seed generator: the same "random" file on every run.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let bytes: Vec<u8> = (0..20_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        std::fs::write(&path, &bytes).unwrap();
        let err = Library::open_checked(&path, SHORT_WAIT).unwrap_err();
        assert_eq!(err.trouble, LibraryTrouble::Damaged, "{err:?}");
        assert_set_aside_and_fresh(dir.path(), &path, &bytes);
    }

    #[test]
    fn a_library_is_set_aside_with_its_wal_and_shared_memory_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        assert_eq!(set_aside(&path).unwrap(), None, "nothing to set aside");
        std::fs::write(&path, b"main").unwrap();
        std::fs::write(dir.path().join("library.sqlite-wal"), b"wal").unwrap();
        std::fs::write(dir.path().join("library.sqlite-shm"), b"shm").unwrap();
        let aside = set_aside(&path).unwrap().unwrap();
        let with = |suffix: &str| {
            let mut p = aside.clone().into_os_string();
            p.push(suffix);
            std::fs::read(p).unwrap()
        };
        assert_eq!(
            (with(""), with("-wal"), with("-shm")),
            (b"main".to_vec(), b"wal".to_vec(), b"shm".to_vec())
        );
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 3, "only the set-aside files: {left:?}");
    }

    /// Another program holding the library under an exclusive lock.
    fn lock(path: &Path) -> Connection {
        let other = Connection::open(path).unwrap();
        other
            .pragma_update(None, "locking_mode", "EXCLUSIVE")
            .unwrap();
        other.execute_batch("BEGIN EXCLUSIVE;").unwrap();
        other
            .execute("UPDATE conversations SET title = title", [])
            .unwrap();
        other
    }

    #[test]
    fn a_library_locked_by_another_program_is_said_plainly_and_never_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = library_with_a_conversation(dir.path());
        let other = lock(&path);
        let err = Library::open_at_start(&path, SHORT_WAIT).unwrap_err();
        assert_eq!(err.trouble, LibraryTrouble::Locked, "{err:?}");
        assert_eq!(
            err.message(&path),
            format!(
                "Your library is in use by another program: it stayed locked for 5 seconds. Close any other copy of Specdesk, or any program that has {} open, then choose Try again.",
                path.display()
            )
        );
        assert!(damaged_files(dir.path()).is_empty(), "a lock is no damage");
        drop(other);
        let lib = Library::open_at_start(&path, SHORT_WAIT).unwrap().library;
        assert_eq!(
            lib.conversations(Some("sandbox"), 100, 0).unwrap().len(),
            40
        );
    }

    #[test]
    fn a_lock_let_go_within_the_wait_is_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = library_with_a_conversation(dir.path());
        let other = lock(&path);
        let (opening_tx, opening_rx) = std::sync::mpsc::channel();
        let release = std::thread::spawn(move || {
            // Let go only once the opening has started (it then has to wait for the lock).
            opening_rx.recv().unwrap();
            std::thread::sleep(Duration::from_millis(300));
            other.execute_batch("COMMIT;").unwrap();
            drop(other);
        });
        opening_tx.send(()).unwrap();
        let lib = Library::open_at_start(&path, LIBRARY_BUSY_WAIT).unwrap();
        release.join().unwrap();
        assert_eq!(lib.set_aside, None);
        assert_eq!(
            lib.library
                .conversations(Some("sandbox"), 100, 0)
                .unwrap()
                .len(),
            40
        );
    }

    #[test]
    fn starting_fresh_keeps_the_old_library_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = library_with_a_conversation(dir.path());
        let old = std::fs::read(&path).unwrap();
        let opened = Library::start_fresh(&path, SHORT_WAIT).unwrap();
        assert!(
            opened
                .library
                .conversations(Some("sandbox"), 10, 0)
                .unwrap()
                .is_empty()
        );
        let aside = opened.set_aside.clone().unwrap();
        assert_eq!(std::fs::read(&aside).unwrap(), old);
        drop(opened);
        // The kept file is a library that still opens with everything in it.
        let kept = Library::open_checked(&aside, SHORT_WAIT).unwrap();
        assert_eq!(
            kept.conversations(Some("sandbox"), 100, 0).unwrap().len(),
            40
        );
    }

    /// The child half of the read-only test: run as an unprivileged user when the tests run as
    /// root (root writes anywhere), named by `SPECDESK_READ_ONLY_LIBRARY`.
    #[test]
    #[ignore = "run by a_read_only_data_folder_is_said_plainly"]
    fn read_only_child() {
        // Only as the child of that test, which names the library.
        if let Some(path) = std::env::var_os("SPECDESK_READ_ONLY_LIBRARY") {
            assert_read_only(Path::new(&path));
        }
    }

    fn assert_read_only(path: &Path) {
        let err = Library::open_at_start(path, SHORT_WAIT).unwrap_err();
        assert_eq!(err.trouble, LibraryTrouble::ReadOnly, "{err:?}");
        assert_eq!(
            err.message(path),
            format!(
                "Specdesk cannot write to its data folder ({}). Make the folder writable, or move it off a read-only disk, then choose Try again.",
                path.parent().unwrap().display()
            )
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_data_folder_is_said_plainly() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        use std::os::unix::process::CommandExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        let path = library_with_a_conversation(&data);
        let mode = |p: &Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap()
        };
        mode(dir.path(), 0o755);
        mode(&path, 0o444);
        mode(&data, 0o555);
        if std::fs::metadata("/proc/self")
            .map(|m| m.uid())
            .unwrap_or(1)
            != 0
        {
            assert_read_only(&path);
        } else {
            // Root ignores permissions: the check runs in a copy of this test binary as `nobody`.
            let exe = dir.path().join("tests-as-nobody");
            std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
            mode(&exe, 0o755);
            let out = std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "library::open::tests::read_only_child",
                    "--ignored",
                ])
                .env("SPECDESK_READ_ONLY_LIBRARY", &path)
                .uid(65534)
                .gid(65534)
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "{said}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(said.contains("1 passed"), "{said}");
        }
        mode(&data, 0o755);
        assert!(damaged_files(&data).is_empty(), "nothing set aside");
    }
}
