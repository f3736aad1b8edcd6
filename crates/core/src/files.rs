//! Files the user chose: what a file is chosen for (the dialog's title and filter), and the
//! paths the user picked in a dialog or dropped on the window. Commands that read a file the web
//! view names (a spec's input, a recording to transcribe) read it only when it is one of those,
//! so a web view that misbehaves cannot send any other file on this computer to the service.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::ipc_error::IpcError;

/// What a file is chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum FilePurpose {
    /// A document that describes what to build (a spec's input).
    SpecInput,
    /// A recording to transcribe.
    Recording,
    /// Plain-text documents to rank (one per block, or one per CSV row).
    Documents,
}

/// The text files [`FilePurpose::Documents`] accepts.
pub const TEXT_TYPES: &[(&str, &str)] = &[
    ("txt", "text/plain"),
    ("md", "text/markdown"),
    ("markdown", "text/markdown"),
    ("csv", "text/csv"),
];

/// The largest text file read for ranking.
pub const MAX_TEXT_BYTES: u64 = 2 * 1024 * 1024;

/// A chosen text file's contents (UTF-8, at most [`MAX_TEXT_BYTES`]).
pub fn read_text(path: &Path) -> Result<String, IpcError> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if !TEXT_TYPES.iter().any(|(e, _)| *e == ext) {
        return Err(IpcError::invalid(
            "path",
            "Choose a text file: .txt, .md or .csv.",
        ));
    }
    let size = std::fs::metadata(path).map_err(IpcError::storage)?.len();
    if size > MAX_TEXT_BYTES {
        return Err(IpcError::invalid(
            "path",
            format!(
                "This file is {:.1} MB; a file to rank can be at most 2 MB. Split it, or paste the part you need.",
                size as f64 / 1_048_576.0
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(IpcError::storage)?;
    String::from_utf8(bytes).map_err(|_| {
        IpcError::invalid(
            "path",
            "This file is not plain UTF-8 text. Save it as UTF-8 text, then choose it again.",
        )
    })
}

impl FilePurpose {
    /// The file dialog's title.
    pub fn title(self) -> &'static str {
        match self {
            FilePurpose::SpecInput => "Choose a file that describes what to build",
            FilePurpose::Recording => "Choose a recording to transcribe",
            FilePurpose::Documents => "Choose documents to rank",
        }
    }

    /// The name of the dialog's filter.
    pub fn filter_name(self) -> &'static str {
        match self {
            FilePurpose::SpecInput => "Markdown, text, PDF, JSON or CSV",
            FilePurpose::Recording => "Audio (WAV, MP3, M4A, OGG, WebM, FLAC)",
            FilePurpose::Documents => "Text, Markdown or CSV",
        }
    }

    /// The file name extensions the dialog offers: the types the command then accepts.
    pub fn extensions(self) -> Vec<&'static str> {
        match self {
            FilePurpose::SpecInput => crate::specs::SPEC_FILE_TYPES,
            FilePurpose::Recording => crate::studio::AUDIO_TYPES,
            FilePurpose::Documents => TEXT_TYPES,
        }
        .iter()
        .map(|(ext, _)| *ext)
        .collect()
    }
}

/// How many chosen paths are remembered (the oldest are forgotten first).
const KEPT: usize = 256;

/// The paths the user chose in a file dialog or dropped on the window, in this run of the app.
#[derive(Debug, Default)]
pub struct ChosenFiles {
    /// Each chosen path as given and, when it resolves, as its canonical path.
    paths: Mutex<VecDeque<PathBuf>>,
}

impl ChosenFiles {
    /// Records `path` as chosen by the user.
    pub fn allow(&self, path: &Path) {
        let mut paths = self.paths.lock().unwrap_or_else(|p| p.into_inner());
        let forms = std::iter::once(path.to_owned()).chain(path.canonicalize().ok());
        for form in forms {
            if !paths.contains(&form) {
                if paths.len() == KEPT {
                    paths.pop_front();
                }
                paths.push_back(form);
            }
        }
    }

    /// `path` back when the user chose it (as given, or another name of the same file);
    /// otherwise a plain error about field `field` that says how to choose it.
    pub fn check(&self, path: &str, field: &str) -> Result<PathBuf, IpcError> {
        let path = PathBuf::from(path);
        let paths = self.paths.lock().unwrap_or_else(|p| p.into_inner());
        let chosen = paths.contains(&path)
            || path
                .canonicalize()
                .is_ok_and(|canonical| paths.contains(&canonical));
        if chosen {
            Ok(path)
        } else {
            Err(IpcError::invalid(
                field,
                "Specdesk reads only a file you choose. Choose the file again, or drop it on the window.",
            ))
        }
    }
}

/// Now as a compact UTC stamp for a file name (`20261128T150102123Z`): no `:`, so valid on every
/// system; set-aside files are named with it.
pub fn file_stamp() -> std::io::Result<String> {
    time::OffsetDateTime::now_utc()
        .format(&time::macros::format_description!(
            "[year][month][day]T[hour][minute][second][subsecond digits:3]Z"
        ))
        .map_err(std::io::Error::other)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, synced, then
/// renamed over `path` (`tempfile`'s `persist`), so a crash leaves the old file or the new one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;

    #[test]
    fn only_a_chosen_file_is_let_through_under_any_of_its_names() {
        let dir = tempfile::tempdir().unwrap();
        let chosen = dir.path().join("idea.md");
        let other = dir.path().join("other.md");
        std::fs::write(&chosen, "# Idea").unwrap();
        std::fs::write(&other, "# Other").unwrap();
        let files = ChosenFiles::default();
        let refused = files.check(chosen.to_str().unwrap(), "file").unwrap_err();
        assert_eq!(refused.kind, IpcErrorKind::InvalidInput);
        assert_eq!(refused.field.as_deref(), Some("file"));
        assert_eq!(
            refused.message,
            "Specdesk reads only a file you choose. Choose the file again, or drop it on the window."
        );

        files.allow(&chosen);
        assert_eq!(
            files.check(chosen.to_str().unwrap(), "file").unwrap(),
            chosen
        );
        let roundabout = dir.path().join(".").join("idea.md");
        assert_eq!(
            files.check(roundabout.to_str().unwrap(), "file").unwrap(),
            roundabout
        );
        assert!(files.check(other.to_str().unwrap(), "file").is_err());
        let beside = dir.path().join("sub").join("..").join("other.md");
        assert!(files.check(beside.to_str().unwrap(), "file").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_chosen_file_is_the_same_file_and_a_chosen_link_is_not_any_file() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.md");
        let other = dir.path().join("other.md");
        std::fs::write(&real, "# Real").unwrap();
        std::fs::write(&other, "# Other").unwrap();
        let link = dir.path().join("link.md");
        std::os::unix::fs::symlink(&real, &link).unwrap();

        let files = ChosenFiles::default();
        files.allow(&real);
        assert!(files.check(link.to_str().unwrap(), "file").is_ok());

        // The link is re-pointed after it was chosen: it now names another file.
        let files = ChosenFiles::default();
        files.allow(&link);
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&other, &link).unwrap();
        assert!(files.check(other.to_str().unwrap(), "file").is_err());
    }

    #[test]
    fn a_chosen_file_that_has_gone_still_passes_so_its_reader_says_it_is_gone() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone.md");
        std::fs::write(&gone, "x").unwrap();
        let files = ChosenFiles::default();
        files.allow(&gone);
        std::fs::remove_file(&gone).unwrap();
        assert!(files.check(gone.to_str().unwrap(), "file").is_ok());
    }

    #[test]
    fn the_oldest_choices_are_forgotten_first() {
        let files = ChosenFiles::default();
        for i in 0..=KEPT {
            files.allow(Path::new(&format!("/nowhere/{i}.md")));
        }
        assert!(files.check("/nowhere/0.md", "file").is_err());
        assert!(files.check("/nowhere/1.md", "file").is_ok());
        assert!(files.check(&format!("/nowhere/{KEPT}.md"), "file").is_ok());
    }

    #[test]
    fn each_purpose_offers_the_types_its_command_reads() {
        assert_eq!(
            FilePurpose::SpecInput.extensions(),
            ["md", "markdown", "txt", "text", "pdf", "json", "csv"]
        );
        assert!(FilePurpose::Recording.extensions().contains(&"wav"));
        assert_eq!(
            serde_json::to_string(&FilePurpose::SpecInput).unwrap(),
            r#""specInput""#
        );
    }

    #[test]
    fn a_text_file_is_read_when_it_is_text_small_enough_and_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("Notes.MD");
        std::fs::write(&notes, "# Kettles\n\nBlue, 1.7 l.\n").unwrap();
        assert_eq!(read_text(&notes).unwrap(), "# Kettles\n\nBlue, 1.7 l.\n");
        let pdf = dir.path().join("notes.pdf");
        std::fs::write(&pdf, "%PDF").unwrap();
        assert_eq!(
            read_text(&pdf).unwrap_err().message,
            "Choose a text file: .txt, .md or .csv."
        );
        let latin1 = dir.path().join("old.txt");
        std::fs::write(&latin1, [0x63, 0x61, 0x66, 0xe9]).unwrap();
        assert_eq!(
            read_text(&latin1).unwrap_err().message,
            "This file is not plain UTF-8 text. Save it as UTF-8 text, then choose it again."
        );
        let big = dir.path().join("big.csv");
        std::fs::write(&big, vec![b'a'; (MAX_TEXT_BYTES + 1) as usize]).unwrap();
        assert_eq!(
            read_text(&big).unwrap_err().message,
            "This file is 2.0 MB; a file to rank can be at most 2 MB. Split it, or paste the part you need."
        );
    }
}
