//! An image the user dropped on the chat or chose, read for a message's image block: PNG, JPEG,
//! GIF or WebP, told apart by the file's first bytes (never by its name), at most
//! [`MAX_IMAGE_BYTES`], as base64. The caller checks first that the user chose or dropped the
//! file (`ChosenFiles::check`).

use std::io::Read;
use std::path::Path;

use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::ipc_error::IpcError;

/// The largest image read. The service's contract (shared/spec/service-api.md) says image
/// blocks are accepted but gives no size limit for them, so this is 5 MB, the usual limit of the
/// Messages API for one image (the UI's HTML5 drop and paste use the same one).
pub const MAX_IMAGE_BYTES: u64 = 5 * 1024 * 1024;

/// An image read from disk, ready for an image block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ImageFile {
    /// The file's name (no folder).
    pub name: String,
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: String,
    /// The file's bytes as standard base64 (no `data:` prefix).
    pub data: String,
}

/// The media type of an image by its magic bytes, when it is one of the four accepted.
pub fn image_type(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if head.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("image/jpeg")
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Reads the image at `path`; a file that is not a PNG, JPEG, GIF or WebP image, is larger than
/// [`MAX_IMAGE_BYTES`] or cannot be read is refused in plain words naming it (field `path`).
pub fn read_image(path: &Path) -> Result<ImageFile, IpcError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let unreadable = |e: std::io::Error| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "it is no longer there".to_owned(),
            std::io::ErrorKind::PermissionDenied => "it may not be read".to_owned(),
            _ => e.to_string(),
        };
        IpcError::invalid(
            "path",
            format!("{name} could not be read ({why}). Drop or choose it again."),
        )
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if meta.is_dir() {
        return Err(not_an_image(&name));
    }
    // Read one byte past the limit, so a file that grew after its size was taken is refused too.
    let mut bytes = Vec::new();
    file.take(MAX_IMAGE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    let Some(media_type) = image_type(&bytes) else {
        return Err(not_an_image(&name));
    };
    if meta.len() > MAX_IMAGE_BYTES || bytes.len() as u64 > MAX_IMAGE_BYTES {
        return Err(IpcError::invalid(
            "path",
            format!("{name} is larger than 5 MB. Attach a smaller image."),
        ));
    }
    Ok(ImageFile {
        name,
        media_type: media_type.to_owned(),
        data: base64::engine::general_purpose::STANDARD.encode(&bytes),
    })
}

/// The image on the clipboard (its pixels, RGBA, as the OS clipboard hands them over) as a PNG
/// named "Pasted image.png": WebKitGTK gives a paste event no file for a copied image, so the
/// chat reads it from Rust. Refused when the pixels do not make the size given or the PNG is
/// larger than [`MAX_IMAGE_BYTES`] (field `image`).
pub fn png_from_pixels(width: u32, height: u32, rgba: &[u8]) -> Result<ImageFile, IpcError> {
    const NAME: &str = "Pasted image.png";
    let expected = u64::from(width) * u64::from(height) * 4;
    if width == 0 || height == 0 || rgba.len() as u64 != expected {
        return Err(IpcError::invalid(
            "image",
            "The clipboard's image could not be read. Copy it again, or save it and drop the file.",
        ));
    }
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let failed = |e: png::EncodingError| {
            IpcError::internal(format!("The pasted image could not be encoded: {e}"))
        };
        let mut writer = encoder.write_header().map_err(failed)?;
        writer.write_image_data(rgba).map_err(failed)?;
    }
    if bytes.len() as u64 > MAX_IMAGE_BYTES {
        return Err(IpcError::invalid(
            "image",
            format!("{NAME} is larger than 5 MB. Attach a smaller image."),
        ));
    }
    Ok(ImageFile {
        name: NAME.to_owned(),
        media_type: "image/png".to_owned(),
        data: base64::engine::general_purpose::STANDARD.encode(&bytes),
    })
}

fn not_an_image(name: &str) -> IpcError {
    IpcError::invalid(
        "path",
        format!("{name} is not a PNG, JPEG, GIF or WebP image."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn clipboard_pixels_become_a_png_that_decodes_to_the_same_pixels() {
        let rgba: Vec<u8> = (0..2 * 3 * 4).map(|i| i as u8 * 10).collect();
        let image = png_from_pixels(2, 3, &rgba).unwrap();
        assert_eq!(
            (image.name.as_str(), image.media_type.as_str()),
            ("Pasted image.png", "image/png")
        );
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&image.data)
            .unwrap();
        assert_eq!(image_type(&bytes), Some("image/png"));
        let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .unwrap();
        let mut out = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut out).unwrap();
        assert_eq!((info.width, info.height), (2, 3));
        assert_eq!(&out[..info.buffer_size()], &rgba[..]);
        let bad = png_from_pixels(2, 3, &rgba[..20]).unwrap_err();
        assert_eq!(
            (bad.kind, bad.field.as_deref()),
            (IpcErrorKind::InvalidInput, Some("image"))
        );
        assert!(png_from_pixels(0, 0, &[]).is_err());
    }

    #[test]
    fn the_four_image_types_are_told_by_their_first_bytes() {
        assert_eq!(image_type(PNG), Some("image/png"));
        assert_eq!(
            image_type(&[0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
            Some("image/jpeg")
        );
        assert_eq!(image_type(b"GIF89a\x01\0"), Some("image/gif"));
        assert_eq!(image_type(b"GIF87a\x01\0"), Some("image/gif"));
        assert_eq!(image_type(b"RIFF\x24\0\0\0WEBPVP8 "), Some("image/webp"));
        assert_eq!(image_type(b"RIFF\x24\0\0\0WAVEfmt "), None);
        assert_eq!(image_type(b"<svg xmlns="), None);
        assert_eq!(image_type(b"%PDF-1.7"), None);
        assert_eq!(image_type(b""), None);
    }

    #[test]
    fn an_image_is_read_as_base64_whatever_its_name_says() {
        let dir = tempfile::tempdir().unwrap();
        // A PNG named .jpg is a PNG.
        let path = dir.path().join("photo.jpg");
        std::fs::write(&path, PNG).unwrap();
        let image = read_image(&path).unwrap();
        assert_eq!(
            image,
            ImageFile {
                name: "photo.jpg".into(),
                media_type: "image/png".into(),
                data: "iVBORw0KGgoAAAANSUhEUg==".into(),
            }
        );
        assert_eq!(
            serde_json::to_value(&image).unwrap(),
            serde_json::json!({"name": "photo.jpg", "mediaType": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg=="})
        );
    }

    #[test]
    fn anything_else_is_refused_in_plain_words_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("notes.png");
        std::fs::write(&fake, "just text").unwrap();
        let e = read_image(&fake).unwrap_err();
        assert_eq!(e.kind, IpcErrorKind::InvalidInput);
        assert_eq!(e.field.as_deref(), Some("path"));
        assert_eq!(
            e.message,
            "notes.png is not a PNG, JPEG, GIF or WebP image."
        );

        let empty = dir.path().join("empty.gif");
        std::fs::write(&empty, "").unwrap();
        assert_eq!(
            read_image(&empty).unwrap_err().message,
            "empty.gif is not a PNG, JPEG, GIF or WebP image."
        );

        assert_eq!(
            read_image(dir.path()).unwrap_err().message,
            format!(
                "{} is not a PNG, JPEG, GIF or WebP image.",
                dir.path().file_name().unwrap().to_string_lossy()
            )
        );

        let gone = dir.path().join("gone.webp");
        assert_eq!(
            read_image(&gone).unwrap_err().message,
            "gone.webp could not be read (it is no longer there). Drop or choose it again."
        );
    }

    #[test]
    fn an_image_of_5_mb_is_read_and_a_byte_more_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = PNG.to_vec();
        bytes.resize(MAX_IMAGE_BYTES as usize, 0);
        let fits = dir.path().join("fits.png");
        std::fs::write(&fits, &bytes).unwrap();
        assert_eq!(read_image(&fits).unwrap().media_type, "image/png");

        bytes.push(0);
        let big = dir.path().join("big.png");
        std::fs::write(&big, &bytes).unwrap();
        assert_eq!(
            read_image(&big).unwrap_err().message,
            "big.png is larger than 5 MB. Attach a smaller image."
        );
    }
}
