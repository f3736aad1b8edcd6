//! Generated media: where a file of the media library is, forgetting it, and deleting it from the
//! media folder.

use std::path::{Path, PathBuf};

use crate::ipc_error::IpcError;
use crate::library::Library;

/// Forgets generated file `id` and deletes it, when it is inside `media_dir` (a path outside the
/// media folder is only forgotten, never deleted). A file already gone is not an error.
pub fn delete_media(library: &Library, media_dir: &Path, id: i64) -> Result<(), IpcError> {
    let path = library.delete_media(id)?;
    if Path::new(&path).starts_with(media_dir)
        && let Err(e) = std::fs::remove_file(&path)
        && e.kind() != std::io::ErrorKind::NotFound
    {
        return Err(IpcError::storage(e));
    }
    Ok(())
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
    fn a_file_in_the_media_folder_is_forgotten_and_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let media = dir.path().join("media");
        std::fs::create_dir_all(&media).unwrap();
        let file = media.join("one.png");
        std::fs::write(&file, b"png").unwrap();
        let library = Library::in_memory().unwrap();
        let id = add(&library, &file);

        delete_media(&library, &media, id).unwrap();
        assert!(!file.exists());
        assert_eq!(library.media(None, None, 10, 0).unwrap(), []);

        let again = delete_media(&library, &media, id).unwrap_err();
        assert_eq!(
            (again.kind, again.message.as_str()),
            (
                IpcErrorKind::NotFound,
                "That file is no longer in the library."
            )
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

        delete_media(&library, &media, id).unwrap();
        assert!(outside.exists());
        assert_eq!(library.media(None, None, 10, 0).unwrap(), []);
    }

    #[test]
    fn a_file_already_gone_is_only_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let media = dir.path().join("media");
        let library = Library::in_memory().unwrap();
        let id = add(&library, &media.join("gone.png"));

        delete_media(&library, &media, id).unwrap();
        assert_eq!(library.media(None, None, 10, 0).unwrap(), []);
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
