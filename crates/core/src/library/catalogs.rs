//! Each connection's model catalogs as last read from the service (the public catalog with its
//! ETag, the priced lists), so the model pickers work offline. A copy is kept per connection and
//! list, with the address it came from: a connection moved to another service shows none of the
//! old one's models.

use rusqlite::{OptionalExtension, params};

use super::{Library, now};
use crate::ipc_error::IpcError;

/// A catalog as kept in the library.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCatalog {
    /// The ETag the service sent with it, for a conditional read.
    pub etag: Option<String>,
    /// The list as the service sent it (JSON).
    pub body_json: String,
    /// When the service last said this copy was current (RFC 3339 UTC).
    pub fetched_at: String,
}

impl Library {
    /// Keeps `body_json` (with its `etag`) as list `list` of connection `profile_id`, read from
    /// `base_url` just now, in place of the copy kept before. When it was kept.
    pub fn save_catalog(
        &self,
        profile_id: &str,
        list: &str,
        base_url: &str,
        etag: Option<&str>,
        body_json: &str,
    ) -> Result<String, IpcError> {
        let at = now();
        self.conn().execute(
            "INSERT INTO catalogs (profile_id, list, base_url, etag, body_json, fetched_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (profile_id, list) DO UPDATE SET
                base_url = excluded.base_url, etag = excluded.etag,
                body_json = excluded.body_json, fetched_at = excluded.fetched_at",
            params![profile_id, list, base_url, etag, body_json, at],
        )?;
        Ok(at)
    }

    /// List `list` of connection `profile_id` as kept, when it was read from `base_url`.
    pub fn catalog(
        &self,
        profile_id: &str,
        list: &str,
        base_url: &str,
    ) -> Result<Option<StoredCatalog>, IpcError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT etag, body_json, fetched_at FROM catalogs
                 WHERE profile_id = ?1 AND list = ?2 AND base_url = ?3",
                params![profile_id, list, base_url],
                |r| {
                    Ok(StoredCatalog {
                        etag: r.get(0)?,
                        body_json: r.get(1)?,
                        fetched_at: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// The service said the kept copy of list `list` of `profile_id` is current (a 304): marks it
    /// read now. When, or `None` when no copy is kept.
    pub fn touch_catalog(&self, profile_id: &str, list: &str) -> Result<Option<String>, IpcError> {
        let at = now();
        let changed = self.conn().execute(
            "UPDATE catalogs SET fetched_at = ?3 WHERE profile_id = ?1 AND list = ?2",
            params![profile_id, list, at],
        )?;
        Ok((changed > 0).then_some(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_kept_per_connection_list_and_address() {
        let lib = Library::in_memory().unwrap();
        let url = "https://svc.example/";
        assert_eq!(lib.catalog("a", "images", url).unwrap(), None);
        let at = lib
            .save_catalog("a", "images", url, Some("\"v1\""), r#"{"data":[]}"#)
            .unwrap();
        let kept = lib.catalog("a", "images", url).unwrap().unwrap();
        assert_eq!(kept.etag.as_deref(), Some("\"v1\""));
        assert_eq!(kept.body_json, r#"{"data":[]}"#);
        assert_eq!(kept.fetched_at, at);
        // Another connection, list or address has none.
        assert_eq!(lib.catalog("b", "images", url).unwrap(), None);
        assert_eq!(lib.catalog("a", "videos", url).unwrap(), None);
        assert_eq!(lib.catalog("a", "images", "https://other/").unwrap(), None);
        // A new copy replaces the old one.
        lib.save_catalog("a", "images", url, None, r#"{"data":[1]}"#)
            .unwrap();
        let kept = lib.catalog("a", "images", url).unwrap().unwrap();
        assert_eq!(
            (kept.etag, kept.body_json.as_str()),
            (None, r#"{"data":[1]}"#)
        );
        // A 304 only moves its time.
        assert_eq!(lib.touch_catalog("b", "images").unwrap(), None);
        let touched = lib.touch_catalog("a", "images").unwrap().unwrap();
        let kept = lib.catalog("a", "images", url).unwrap().unwrap();
        assert_eq!(
            (kept.fetched_at, kept.body_json.as_str()),
            (touched, r#"{"data":[1]}"#)
        );
    }
}
