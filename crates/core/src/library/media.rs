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
    /// The settings it was made with that its prompt and model do not say (an image's size, a
    /// take's voice, format and instructions), as the studio gave them.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, string | number>", optional))]
    pub settings: Option<serde_json::Map<String, serde_json::Value>>,
    /// The take preferred over the other one of an A/B listening.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[cfg_attr(feature = "ts", ts(as = "Option<bool>", optional))]
    pub preferred: bool,
    /// An image's thumbnail, once made (`core::thumbs`): what a gallery shows.
    pub thumb_path: Option<String>,
    /// An image's size in pixels, read when its thumbnail was made.
    pub width: Option<u32>,
    pub height: Option<u32>,
}

const GONE: &str = "That file is no longer in the library.";

/// The settings a studio may keep with a file: an object of short texts and numbers.
fn checked_settings(
    settings: &serde_json::Value,
) -> Result<&serde_json::Map<String, serde_json::Value>, IpcError> {
    settings
        .as_object()
        .filter(|m| m.values().all(|v| v.is_string() || v.is_number()))
        .ok_or_else(|| {
            IpcError::invalid(
                "settings",
                "A file's settings are names with a text or a number each.",
            )
        })
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
            settings: None,
            preferred: false,
            thumb_path: None,
            width: None,
            height: None,
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
            "SELECT id, kind, path, prompt, model, profile_id, credits, cost, job_id, created_at, settings_json, preferred, thumb_path, width, height
             FROM media WHERE (?1 IS NULL OR profile_id = ?1) AND (?2 IS NULL OR kind = ?2)
               AND deleted_at IS NULL
             ORDER BY id DESC LIMIT ?3 OFFSET ?4",
        )?;
        let rows = stmt.query_map(
            params![profile_id, kind.map(MediaKind::as_str), limit, offset],
            Self::row_to_media,
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many generated files there are (as `media` filters them): the M of "N of M".
    pub fn media_count(
        &self,
        profile_id: Option<&str>,
        kind: Option<MediaKind>,
    ) -> Result<u32, IpcError> {
        Ok(self.conn().query_row(
            "SELECT COUNT(*) FROM media WHERE (?1 IS NULL OR profile_id = ?1)
               AND (?2 IS NULL OR kind = ?2) AND deleted_at IS NULL",
            params![profile_id, kind.map(MediaKind::as_str)],
            |r| r.get(0),
        )?)
    }

    /// One generated file.
    pub fn media_item(&self, id: i64) -> Result<MediaItem, IpcError> {
        self.conn()
            .query_row(
                "SELECT id, kind, path, prompt, model, profile_id, credits, cost, job_id, created_at, settings_json, preferred, thumb_path, width, height
                 FROM media WHERE id = ?1 AND deleted_at IS NULL",
                [id],
                Self::row_to_media,
            )
            .optional()?
            .ok_or_else(|| IpcError::not_found(GONE))
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
            // Settings that no longer read as an object are left out rather than failing the list.
            settings: r
                .get::<_, Option<String>>(10)?
                .and_then(|s| serde_json::from_str(&s).ok()),
            preferred: r.get(11)?,
            thumb_path: r.get::<_, Option<String>>(12)?.filter(|p| !p.is_empty()),
            width: r.get(13)?,
            height: r.get(14)?,
        })
    }

    /// Keeps `settings` as what files `ids` of connection `profile_id` were made with. Files of
    /// another connection, or gone, are left alone; not found when none of `ids` is there.
    pub fn set_media_settings(
        &self,
        profile_id: &str,
        ids: &[i64],
        settings: &serde_json::Value,
    ) -> Result<(), IpcError> {
        let json = serde_json::Value::Object(checked_settings(settings)?.clone()).to_string();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let mut n = 0;
        for id in ids {
            n += tx.execute(
                "UPDATE media SET settings_json = ?3 WHERE id = ?1 AND profile_id = ?2",
                params![id, profile_id, json],
            )?;
        }
        tx.commit()?;
        if n == 0 && !ids.is_empty() {
            return Err(IpcError::not_found(GONE));
        }
        Ok(())
    }

    /// Marks take `id` of connection `profile_id` preferred (over take `over`, whose mark goes)
    /// or no longer preferred.
    pub fn set_media_preferred(
        &self,
        profile_id: &str,
        id: i64,
        preferred: bool,
        over: Option<i64>,
    ) -> Result<(), IpcError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let n = tx.execute(
            "UPDATE media SET preferred = ?3 WHERE id = ?1 AND profile_id = ?2",
            params![id, profile_id, preferred],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(GONE));
        }
        if let Some(other) = over.filter(|o| preferred && *o != id) {
            tx.execute(
                "UPDATE media SET preferred = 0 WHERE id = ?1 AND profile_id = ?2",
                params![other, profile_id],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Hides generated file `id` of connection `profile_id` as deleted: out of every list, its
    /// file kept while its Undo is offered (`restore_media`).
    pub fn hide_media(&self, profile_id: &str, id: i64) -> Result<(), IpcError> {
        let n = self.conn().execute(
            "UPDATE media SET deleted_at = ?3 WHERE id = ?1 AND profile_id = ?2 AND deleted_at IS NULL",
            params![id, profile_id, now()],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(GONE));
        }
        Ok(())
    }

    /// Brings back file `id` of connection `profile_id`, deleted moments ago (its Undo).
    pub fn restore_media(&self, profile_id: &str, id: i64) -> Result<MediaItem, IpcError> {
        let n = self.conn().execute(
            "UPDATE media SET deleted_at = NULL WHERE id = ?1 AND profile_id = ?2 AND deleted_at IS NOT NULL",
            params![id, profile_id],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That file can no longer be restored: it was deleted for good.",
            ));
        }
        self.media_item(id)
    }

    /// The files deleted and not restored (id, path and thumbnail), to remove for good.
    pub fn deleted_media(&self) -> Result<Vec<(i64, String, Option<String>)>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, path, thumb_path FROM media WHERE deleted_at IS NOT NULL ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get::<_, Option<String>>(2)?.filter(|p| !p.is_empty()),
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records image `id`'s thumbnail (`""`: it has none, not to be tried again) and its size.
    pub fn set_media_thumb(
        &self,
        id: i64,
        thumb_path: &str,
        size: Option<(u32, u32)>,
    ) -> Result<(), IpcError> {
        self.conn().execute(
            "UPDATE media SET thumb_path = ?2, width = ?3, height = ?4 WHERE id = ?1",
            params![id, thumb_path, size.map(|s| s.0), size.map(|s| s.1)],
        )?;
        Ok(())
    }

    /// Up to `limit` images with no thumbnail tried yet (id and path), the newest first.
    pub fn images_without_thumb(&self, limit: u32) -> Result<Vec<(i64, String)>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, path FROM media WHERE kind = 'image' AND thumb_path IS NULL
               AND deleted_at IS NULL ORDER BY id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Forgets a generated file; returns its path so the caller can delete the file.
    pub fn delete_media(&self, id: i64) -> Result<String, IpcError> {
        let conn = self.conn();
        let path: Option<String> = conn
            .query_row("SELECT path FROM media WHERE id = ?1", [id], |r| r.get(0))
            .optional()?;
        let path = path.ok_or_else(|| IpcError::not_found(GONE))?;
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

    fn take(lib: &Library, profile_id: &str) -> MediaItem {
        lib.add_media(&NewMedia {
            kind: MediaKind::Audio,
            path: "/data/media/take.wav",
            prompt: "Hello there",
            model: "openai/gpt-4o-audio-mini",
            profile_id,
            credits: None,
            cost: None,
            job_id: None,
        })
        .unwrap()
    }

    #[test]
    fn a_files_settings_are_kept_with_it_for_its_connection_only() {
        let lib = Library::in_memory().unwrap();
        let (a, b) = (take(&lib, "sandbox"), take(&lib, "sandbox"));
        let elsewhere = take(&lib, "p_work");
        let settings = serde_json::json!({"voice": "coral", "format": "wav", "speed": 1.25});
        lib.set_media_settings("sandbox", &[a.id, b.id, elsewhere.id], &settings)
            .unwrap();
        let kept = lib.media_item(a.id).unwrap();
        assert_eq!(kept.settings.as_ref(), settings.as_object());
        assert_eq!(
            serde_json::to_value(&kept).unwrap()["settings"],
            settings,
            "sent to the UI as kept"
        );
        assert_eq!(lib.media_item(b.id).unwrap().settings, kept.settings);
        assert_eq!(lib.media_item(elsewhere.id).unwrap().settings, None);
        let gone = lib
            .set_media_settings("sandbox", &[elsewhere.id], &settings)
            .unwrap_err();
        assert_eq!(gone.kind, IpcErrorKind::NotFound);
        for refused in [
            serde_json::json!(["wav"]),
            serde_json::json!({"voice": {"x": 1}}),
        ] {
            let e = lib
                .set_media_settings("sandbox", &[a.id], &refused)
                .unwrap_err();
            assert_eq!(e.field.as_deref(), Some("settings"), "{refused}");
        }
    }

    #[test]
    fn the_preferred_take_of_a_pair_is_kept_and_moves_between_them() {
        let lib = Library::in_memory().unwrap();
        let (a, b) = (take(&lib, "sandbox"), take(&lib, "sandbox"));
        let preferred = |id| lib.media_item(id).unwrap().preferred;
        lib.set_media_preferred("sandbox", a.id, true, Some(b.id))
            .unwrap();
        assert_eq!((preferred(a.id), preferred(b.id)), (true, false));
        lib.set_media_preferred("sandbox", b.id, true, Some(a.id))
            .unwrap();
        assert_eq!((preferred(a.id), preferred(b.id)), (false, true));
        assert_eq!(
            serde_json::to_value(lib.media_item(b.id).unwrap()).unwrap()["preferred"],
            true
        );
        lib.set_media_preferred("sandbox", b.id, false, None)
            .unwrap();
        assert!(!preferred(b.id));
        let e = lib
            .set_media_preferred("p_work", a.id, true, None)
            .unwrap_err();
        assert_eq!(e.kind, IpcErrorKind::NotFound);
        assert!(
            !preferred(a.id),
            "another connection's mark changes nothing"
        );
    }
}
