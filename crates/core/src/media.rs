//! Generated media: where a file of the media library is, forgetting it, and deleting it from the
//! media folder.

use std::path::{Path, PathBuf};

use crate::ipc_error::IpcError;
use crate::library::Library;

/// Deletes generated file `id` of connection `profile_id` as the user sees it: out of every list
/// at once, its file kept until the next start so that Undo (`restore_media`) brings it back
/// whole.
pub fn delete_media(library: &Library, profile_id: &str, id: i64) -> Result<(), IpcError> {
    library.hide_media(profile_id, id)
}

/// Removes for good the files deleted before this start (at start, when no Undo is offered any
/// more): each is forgotten, and its file deleted when it is inside `media_dir` (a path outside
/// the media folder is only forgotten). A file that cannot be removed is kept listed as deleted,
/// to try again at the next start. Returns how many were removed.
pub fn purge_deleted(library: &Library, media_dir: &Path) -> Result<usize, IpcError> {
    let mut removed = 0;
    for (id, path, thumb) in library.deleted_media()? {
        if let Some(thumb) = thumb.filter(|t| Path::new(t).starts_with(media_dir)) {
            let _ = std::fs::remove_file(thumb);
        }
        if Path::new(&path).starts_with(media_dir)
            && let Err(e) = std::fs::remove_file(&path)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!("a deleted file could not be removed: {e}");
            continue;
        }
        library.delete_media(id)?;
        removed += 1;
    }
    Ok(removed)
}

/// Where generated file `id` is on disk, when it is still there and inside `media_dir` (the only
/// folder the app shows or reveals files of).
pub fn media_path(library: &Library, media_dir: &Path, id: i64) -> Result<PathBuf, IpcError> {
    let path = PathBuf::from(library.media_item(id)?.path);
    if !path.starts_with(media_dir) || !path.is_file() {
        return Err(IpcError::not_found(
            "That file is no longer in the media folder.",
        ));
    }
    Ok(path)
}

/// Copies generated file `source` into `folder` under its own name (`name (2).png` when that is
/// taken), or to `to` when the user chose a place. Returns where the copy is.
pub fn save_copy(source: &Path, folder: &Path, to: Option<PathBuf>) -> Result<PathBuf, IpcError> {
    let target = match to {
        Some(path) => path,
        None => {
            std::fs::create_dir_all(folder).map_err(IpcError::storage)?;
            let name = source
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "media".to_owned());
            let (stem, ext) = match name.rsplit_once('.') {
                Some((s, e)) if !s.is_empty() => (s.to_owned(), format!(".{e}")),
                _ => (name.clone(), String::new()),
            };
            let mut path = folder.join(&name);
            let mut n = 2;
            while path.exists() {
                path = folder.join(format!("{stem} ({n}){ext}"));
                n += 1;
            }
            path
        }
    };
    std::fs::copy(source, &target).map_err(IpcError::storage)?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;
    use crate::library::{MediaKind, NewMedia};

    fn add(library: &Library, path: &Path) -> i64 {
        library
            .add_media(&NewMedia {
                kind: MediaKind::Image,
                path: path.to_str().unwrap(),
                prompt: "a lighthouse at dawn",
                model: "image-model",
                profile_id: "work",
                credits: Some(1.0),
                cost: None,
                job_id: None,
            })
            .unwrap()
            .id
    }

    #[test]
    fn a_deleted_file_leaves_the_lists_at_once_comes_back_with_undo_and_goes_at_the_next_start() {
        let dir = tempfile::tempdir().unwrap();
        let media = dir.path().join("media");
        std::fs::create_dir_all(&media).unwrap();
        let file = media.join("one.png");
        std::fs::write(&file, b"png").unwrap();
        let library = Library::in_memory().unwrap();
        let id = add(&library, &file);
        let item = library.media_item(id).unwrap();

        // Another connection's file is not this one's to delete.
        assert_eq!(
            delete_media(&library, "home", id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
        delete_media(&library, "work", id).unwrap();
        assert_eq!(library.media(None, None, 10, 0).unwrap(), []);
        assert_eq!(library.media_count(Some("work"), None).unwrap(), 0);
        assert_eq!(
            library.media_item(id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
        assert!(file.exists(), "kept while its Undo is offered");
        let again = delete_media(&library, "work", id).unwrap_err();
        assert_eq!(
            (again.kind, again.message.as_str()),
            (
                IpcErrorKind::NotFound,
                "That file is no longer in the library."
            )
        );

        assert_eq!(library.restore_media("work", id).unwrap(), item);
        assert_eq!(library.media(None, None, 10, 0).unwrap(), vec![item]);
        assert_eq!(purge_deleted(&library, &media).unwrap(), 0);
        assert!(file.exists());

        delete_media(&library, "work", id).unwrap();
        assert_eq!(purge_deleted(&library, &media).unwrap(), 1);
        assert!(!file.exists());
        assert_eq!(library.deleted_media().unwrap(), []);
        assert_eq!(
            library.restore_media("work", id).unwrap_err().message,
            "That file can no longer be restored: it was deleted for good."
        );
    }

    #[test]
    fn a_file_outside_the_media_folder_is_only_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let media = dir.path().join("media");
        std::fs::create_dir_all(&media).unwrap();
        let outside = dir.path().join("kept.png");
        std::fs::write(&outside, b"png").unwrap();
        let library = Library::in_memory().unwrap();
        let id = add(&library, &outside);
        let gone = add(&library, &media.join("gone.png"));

        delete_media(&library, "work", id).unwrap();
        delete_media(&library, "work", gone).unwrap();
        assert_eq!(purge_deleted(&library, &media).unwrap(), 2);
        assert!(outside.exists());
        assert_eq!(library.deleted_media().unwrap(), []);
    }

    #[test]
    fn only_a_file_still_in_the_media_folder_has_a_path() {
        let dir = tempfile::tempdir().unwrap();
        let media = dir.path().join("media");
        std::fs::create_dir_all(&media).unwrap();
        let library = Library::in_memory().unwrap();
        let inside = media.join("a.png");
        std::fs::write(&inside, b"png").unwrap();
        let outside = dir.path().join("settings.json");
        std::fs::write(&outside, b"{}").unwrap();
        let a = add(&library, &inside);
        let b = add(&library, &outside);
        let gone = add(&library, &media.join("gone.png"));
        assert_eq!(media_path(&library, &media, a).unwrap(), inside);
        for id in [b, gone, 999] {
            assert_eq!(
                media_path(&library, &media, id).unwrap_err().kind,
                IpcErrorKind::NotFound
            );
        }
    }

    #[test]
    fn a_copy_never_overwrites_a_file_of_the_same_name() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("media").join("take-1.wav");
        std::fs::create_dir_all(source.parent().unwrap()).unwrap();
        std::fs::write(&source, b"RIFF").unwrap();
        let downloads = dir.path().join("Downloads");
        let first = save_copy(&source, &downloads, None).unwrap();
        let second = save_copy(&source, &downloads, None).unwrap();
        assert_eq!(first, downloads.join("take-1.wav"));
        assert_eq!(second, downloads.join("take-1 (2).wav"));
        assert_eq!(std::fs::read(&second).unwrap(), b"RIFF");
        let chosen = dir.path().join("mine.wav");
        assert_eq!(
            save_copy(&source, &downloads, Some(chosen.clone())).unwrap(),
            chosen
        );
    }
}
