//! Generated media: files saved in the app data folder, with how they were made.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{Library, now};
use crate::ipc_error::IpcError;

/// What a generated file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum MediaKind {
    Image,
    Video,
    Audio,
}

impl MediaKind {
    fn as_str(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Video => "video",
            MediaKind::Audio => "audio",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "video" => MediaKind::Video,
            "audio" => MediaKind::Audio,
            _ => MediaKind::Image,
        }
    }
}

/// A generated file to record: where it was saved in the app data folder, and how it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMedia<'a> {
    pub kind: MediaKind,
    pub path: &'a str,
    pub prompt: &'a str,
    pub model: &'a str,
    pub profile_id: &'a str,
    /// Credits charged for it (metering header).
    pub credits: Option<f64>,
    /// Raw cost in USD (`usage.cost`).
    pub cost: Option<f64>,
    /// The ledger job that made it (videos).
    pub job_id: Option<i64>,
}

/// A generated file of the library.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct MediaItem {
    pub id: i64,
    pub kind: MediaKind,
    /// Full path of the file.
    pub path: String,
    pub prompt: String,
    pub model: String,
    pub profile_id: String,
    pub credits: Option<f64>,
    pub cost: Option<f64>,
    pub job_id: Option<i64>,
    pub created_at: String,
}

impl Library {
    /// Records a generated file saved in the app data folder.
    pub fn add_media(&self, m: &NewMedia<'_>) -> Result<MediaItem, IpcError> {
        let at = now();
        let id = {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO media (kind, path, prompt, model, profile_id, credits, cost, job_id, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    m.kind.as_str(),
                    m.path,
                    m.prompt,
                    m.model,
                    m.profile_id,
                    m.credits,
                    m.cost,
                    m.job_id,
                    at
                ],
            )?;
            conn.last_insert_rowid()
        };
        Ok(MediaItem {
            id,
            kind: m.kind,
            path: m.path.to_owned(),
            prompt: m.prompt.to_owned(),
            model: m.model.to_owned(),
            profile_id: m.profile_id.to_owned(),
            credits: m.credits,
            cost: m.cost,
            job_id: m.job_id,
            created_at: at,
        })
    }

    /// Generated files, newest first: of connection `profile_id` when given (another
    /// connection's files are not shown), of one kind when `kind` is given.
    pub fn media(
        &self,
        profile_id: Option<&str>,
        kind: Option<MediaKind>,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<MediaItem>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, kind, path, prompt, model, profile_id, credits, cost, job_id, created_at
             FROM media WHERE (?1 IS NULL OR profile_id = ?1) AND (?2 IS NULL OR kind = ?2)
             ORDER BY id DESC LIMIT ?3 OFFSET ?4",
        )?;
        let rows = stmt.query_map(
            params![profile_id, kind.map(MediaKind::as_str), limit, offset],
            Self::row_to_media,
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One generated file.
    pub fn media_item(&self, id: i64) -> Result<MediaItem, IpcError> {
        self.conn()
            .query_row(
                "SELECT id, kind, path, prompt, model, profile_id, credits, cost, job_id, created_at
                 FROM media WHERE id = ?1",
                [id],
                Self::row_to_media,
            )
            .optional()?
            .ok_or_else(|| IpcError::not_found("That file is no longer in the library."))
    }

    fn row_to_media(r: &rusqlite::Row<'_>) -> rusqlite::Result<MediaItem> {
        let kind: String = r.get(1)?;
        Ok(MediaItem {
            id: r.get(0)?,
            kind: MediaKind::parse(&kind),
            path: r.get(2)?,
            prompt: r.get(3)?,
            model: r.get(4)?,
            profile_id: r.get(5)?,
            credits: r.get(6)?,
            cost: r.get(7)?,
            job_id: r.get(8)?,
            created_at: r.get(9)?,
        })
    }

    /// Forgets a generated file; returns its path so the caller can delete the file.
    pub fn delete_media(&self, id: i64) -> Result<String, IpcError> {
        let conn = self.conn();
        let path: Option<String> = conn
            .query_row("SELECT path FROM media WHERE id = ?1", [id], |r| r.get(0))
            .optional()?;
        let path =
            path.ok_or_else(|| IpcError::not_found("That file is no longer in the library."))?;
        conn.execute("DELETE FROM media WHERE id = ?1", [id])?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;

    #[test]
    fn generated_media_are_recorded_with_prompt_model_and_cost() {
        let lib = Library::in_memory().unwrap();
        let image = lib
            .add_media(&NewMedia {
                kind: MediaKind::Image,
                path: "/data/media/image-1.png",
                prompt: "A lighthouse",
                model: "openai/gpt-image-1",
                profile_id: "sandbox",
                credits: Some(0.4),
                cost: Some(0.04),
                job_id: None,
            })
            .unwrap();
        let video = lib
            .add_media(&NewMedia {
                kind: MediaKind::Video,
                path: "/data/media/video-v1.mp4",
                prompt: "Waves",
                model: "openai/sora-2",
                profile_id: "sandbox",
                credits: None,
                cost: None,
                job_id: Some(3),
            })
            .unwrap();
        assert_eq!(
            lib.media(None, None, 10, 0).unwrap(),
            vec![video.clone(), image.clone()]
        );
        assert_eq!(
            lib.media(None, Some(MediaKind::Image), 10, 0).unwrap(),
            vec![image.clone()]
        );
        // Each connection sees its own files.
        let other = lib
            .add_media(&NewMedia {
                kind: MediaKind::Image,
                path: "/data/media/image-2.png",
                prompt: "A harbour",
                model: "openai/gpt-image-1",
                profile_id: "p_work",
                credits: Some(0.4),
                cost: Some(0.04),
                job_id: None,
            })
            .unwrap();
        assert_eq!(
            lib.media(Some("sandbox"), None, 10, 0).unwrap(),
            vec![video.clone(), image.clone()]
        );
        assert_eq!(
            lib.media(Some("p_work"), None, 10, 0).unwrap(),
            vec![other.clone()]
        );
        assert_eq!(lib.media_item(other.id).unwrap(), other);
        lib.delete_media(other.id).unwrap();
        assert_eq!(
            serde_json::to_value(&image).unwrap(),
            serde_json::json!({"id": image.id, "kind": "image", "path": "/data/media/image-1.png",
                "prompt": "A lighthouse", "model": "openai/gpt-image-1", "profileId": "sandbox",
                "credits": 0.4, "cost": 0.04, "createdAt": image.created_at})
        );
        assert_eq!(
            lib.delete_media(image.id).unwrap(),
            "/data/media/image-1.png"
        );
        assert_eq!(
            lib.delete_media(image.id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
        assert_eq!(lib.media(None, None, 10, 0).unwrap(), vec![video]);
    }
}
