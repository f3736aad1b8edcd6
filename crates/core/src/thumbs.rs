//! Thumbnails of generated images, made when an image is saved (and, at start, for the images
//! saved before there were any): a small JPEG (a PNG where the image has transparency) in the media
//! folder's `thumbs/`, so a gallery of thousands of images loads and decodes small files only.
//! The image's own size is read here too, so the gallery says it without loading the image.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use image::codecs::jpeg::JpegEncoder;
use image::{DynamicImage, ImageFormat, ImageReader};

use crate::ipc_error::IpcError;
use crate::library::{Library, MediaItem};

/// The longest side of a thumbnail, in pixels: a gallery card at twice its widest on a HiDPI
/// screen.
pub const THUMB_SIDE: u32 = 512;

/// The folder of the thumbnails, inside the media folder.
pub const THUMBS_DIR: &str = "thumbs";

/// A thumbnail made: its file's bytes and extension, and the size of the image it shows.
#[derive(Debug)]
pub struct Thumbnail {
    pub bytes: Vec<u8>,
    pub ext: &'static str,
    pub width: u32,
    pub height: u32,
}

/// The thumbnail of the image `bytes` (PNG, JPEG or WebP), or why there is none.
pub fn thumbnail(bytes: &[u8]) -> Result<Thumbnail, String> {
    let image = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?
        .decode()
        .map_err(|e| e.to_string())?;
    let (width, height) = (image.width(), image.height());
    let small = if width > THUMB_SIDE || height > THUMB_SIDE {
        image.thumbnail(THUMB_SIDE, THUMB_SIDE)
    } else {
        image
    };
    let mut out = Vec::new();
    let ext = if small.color().has_alpha() {
        small
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .map_err(|e| e.to_string())?;
        "png"
    } else {
        DynamicImage::ImageRgb8(small.to_rgb8())
            .write_with_encoder(JpegEncoder::new_with_quality(&mut out, 82))
            .map_err(|e| e.to_string())?;
        "jpg"
    };
    Ok(Thumbnail {
        bytes: out,
        ext,
        width,
        height,
    })
}

/// Where the thumbnail of media file `id` goes: `thumbs/<id>.<ext>` (its own, whatever the
/// image's file is called or wherever it is).
fn thumb_path(media_dir: &Path, id: i64, ext: &str) -> PathBuf {
    media_dir.join(THUMBS_DIR).join(format!("{id}.{ext}"))
}

/// Makes the thumbnail of media file `id` (the image `bytes`) and records it with the image's
/// size. Blocking: call it off the runtime.
pub fn make_for(
    library: &Library,
    media_dir: &Path,
    id: i64,
    bytes: &[u8],
) -> Result<(), IpcError> {
    record(library, media_dir, id, thumbnail(bytes))
}

/// `item` (an image just saved from `bytes`) with its thumbnail and size; as it is when no
/// thumbnail could be kept (the image is kept whatever happens to its thumbnail).
pub async fn with_thumbnail(
    library: &Library,
    media_dir: &Path,
    item: MediaItem,
    bytes: Vec<u8>,
) -> MediaItem {
    let made = tokio::task::spawn_blocking(move || thumbnail(&bytes))
        .await
        .unwrap_or_else(|e| Err(e.to_string()));
    let kept = record(library, media_dir, item.id, made).and_then(|()| library.media_item(item.id));
    kept.unwrap_or_else(|e| {
        tracing::warn!("an image's thumbnail could not be kept: {}", e.message);
        item
    })
}

/// Writes the thumbnail `made` of media file `id` and records it with the image's size. An image
/// that could not be read is recorded as having none (it is not tried again); the gallery then
/// shows the image itself.
pub fn record(
    library: &Library,
    media_dir: &Path,
    id: i64,
    made: Result<Thumbnail, String>,
) -> Result<(), IpcError> {
    let made = match made {
        Ok(made) => made,
        Err(e) => {
            tracing::info!("no thumbnail for a generated image: {e}");
            return library.set_media_thumb(id, "", None);
        }
    };
    let path = thumb_path(media_dir, id, made.ext);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(IpcError::storage)?;
    }
    crate::files::write_atomically(&path, &made.bytes).map_err(IpcError::storage)?;
    library.set_media_thumb(id, &path.to_string_lossy(), Some((made.width, made.height)))
}

/// Makes the thumbnails the library's images do not have yet (saved by an earlier version), one
/// at a time: the gallery shows each image itself until its thumbnail is there. Returns how many
/// were made.
pub fn backfill(library: &Library, media_dir: &Path) -> Result<usize, IpcError> {
    let mut made = 0;
    loop {
        let waiting = library.images_without_thumb(50)?;
        if waiting.is_empty() {
            return Ok(made);
        }
        for (id, path) in waiting {
            let path = PathBuf::from(path);
            match std::fs::read(&path) {
                Ok(bytes) => make_for(library, media_dir, id, &bytes)?,
                // A file that is gone or unreadable gets none (the gallery says it cannot show it).
                Err(_) => library.set_media_thumb(id, "", None)?,
            }
            made += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::{MediaKind, NewMedia};

    fn png(width: u32, height: u32, alpha: bool) -> Vec<u8> {
        let image = if alpha {
            DynamicImage::ImageRgba8(image::RgbaImage::from_pixel(
                width,
                height,
                image::Rgba([10, 120, 200, 128]),
            ))
        } else {
            DynamicImage::ImageRgb8(image::RgbImage::from_fn(width, height, |x, y| {
                image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
            }))
        };
        let mut out = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    fn size_of(bytes: &[u8]) -> (u32, u32) {
        let image = image::load_from_memory(bytes).unwrap();
        (image.width(), image.height())
    }

    #[test]
    fn a_large_image_gets_a_small_jpeg_with_its_own_size_kept() {
        let made = thumbnail(&png(1536, 1024, false)).unwrap();
        assert_eq!((made.ext, made.width, made.height), ("jpg", 1536, 1024));
        assert!(made.bytes.starts_with(&[0xff, 0xd8]));
        assert_eq!(size_of(&made.bytes), (512, 341));
    }

    #[test]
    fn transparency_stays_a_png_and_a_small_image_keeps_its_size() {
        let made = thumbnail(&png(300, 200, true)).unwrap();
        assert_eq!((made.ext, made.width, made.height), ("png", 300, 200));
        assert_eq!(size_of(&made.bytes), (300, 200));
    }

    #[test]
    fn bytes_that_are_no_image_have_no_thumbnail() {
        assert!(thumbnail(b"not an image at all").is_err());
        assert!(thumbnail(&png(64, 64, false)[..40]).is_err(), "cut short");
    }

    #[test]
    fn the_images_saved_before_get_theirs_at_start_once() {
        let dir = tempfile::tempdir().unwrap();
        let media = dir.path().join("media");
        std::fs::create_dir_all(&media).unwrap();
        let library = Library::in_memory().unwrap();
        let add = |name: &str, kind: MediaKind| {
            library
                .add_media(&NewMedia {
                    kind,
                    path: media.join(name).to_str().unwrap(),
                    prompt: "a lighthouse",
                    model: "image-model",
                    profile_id: "sandbox",
                    credits: None,
                    cost: None,
                    job_id: None,
                })
                .unwrap()
                .id
        };
        std::fs::write(media.join("image-1-0.png"), png(1024, 1024, false)).unwrap();
        std::fs::write(media.join("image-2-0.png"), b"broken").unwrap();
        let good = add("image-1-0.png", MediaKind::Image);
        let broken = add("image-2-0.png", MediaKind::Image);
        let gone = add("image-3-0.png", MediaKind::Image);
        let take = add("audio-1.wav", MediaKind::Audio);

        assert_eq!(backfill(&library, &media).unwrap(), 3);
        let item = library.media_item(good).unwrap();
        let thumb = media.join("thumbs").join(format!("{good}.jpg"));
        assert_eq!(
            (item.thumb_path.as_deref(), item.width, item.height),
            (thumb.to_str(), Some(1024), Some(1024))
        );
        assert_eq!(size_of(&std::fs::read(&thumb).unwrap()), (512, 512));
        for id in [broken, gone, take] {
            let item = library.media_item(id).unwrap();
            assert_eq!((item.thumb_path, item.width), (None, None));
        }
        assert_eq!(backfill(&library, &media).unwrap(), 0, "not tried again");
    }
}
