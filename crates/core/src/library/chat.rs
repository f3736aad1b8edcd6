//! Conversations and their messages.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};
use specdesk_client::Metering;

use super::{Library, now};
use crate::ipc_error::IpcError;

/// A chat kept in the library.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct Conversation {
    pub id: i64,
    pub profile_id: String,
    pub title: String,
    pub model: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A message of a conversation. `content` is the Messages API content (a string or blocks).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct ConversationMessage {
    pub id: i64,
    pub conversation_id: i64,
    /// `user` or `assistant`.
    pub role: String,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub content: serde_json::Value,
    pub model: Option<String>,
    pub request_id: Option<String>,
    pub credits_charged: Option<f64>,
    pub created_at: String,
    /// A reply cut off before its end (a broken or stopped stream, a closed app).
    pub cut: bool,
}

impl Library {
    /// Starts a conversation.
    pub fn create_conversation(
        &self,
        profile_id: &str,
        title: &str,
        model: Option<&str>,
    ) -> Result<Conversation, IpcError> {
        let at = now();
        let id = {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO conversations (profile_id, title, model, created_at, updated_at, activity)
                 VALUES (?1, ?2, ?3, ?4, ?4, (SELECT COALESCE(MAX(activity), 0) + 1 FROM conversations))",
                params![profile_id, title, model, at],
            )?;
            conn.last_insert_rowid()
        };
        self.conversation(id)
    }

    fn row_to_conversation(r: &rusqlite::Row<'_>) -> rusqlite::Result<Conversation> {
        Ok(Conversation {
            id: r.get("id")?,
            profile_id: r.get("profile_id")?,
            title: r.get("title")?,
            model: r.get("model")?,
            created_at: r.get("created_at")?,
            updated_at: r.get("updated_at")?,
        })
    }

    /// One conversation.
    pub fn conversation(&self, id: i64) -> Result<Conversation, IpcError> {
        self.conn()
            .query_row(
                "SELECT * FROM conversations WHERE id = ?1",
                [id],
                Self::row_to_conversation,
            )
            .optional()?
            .ok_or_else(|| IpcError::not_found("That conversation is no longer in the library."))
    }

    /// Conversations of connection `profile_id` (all of them with `None`), the most recently
    /// active first.
    pub fn conversations(
        &self,
        profile_id: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<Conversation>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT * FROM conversations WHERE (?1 IS NULL OR profile_id = ?1) AND deleted_at IS NULL
             ORDER BY activity DESC LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt.query_map(
            params![profile_id, limit, offset],
            Self::row_to_conversation,
        )?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// How many conversations connection `profile_id` has (deleted ones left out): the M of the
    /// list's "N of M".
    pub fn conversation_count(&self, profile_id: &str) -> Result<u32, IpcError> {
        Ok(self.conn().query_row(
            "SELECT COUNT(*) FROM conversations WHERE profile_id = ?1 AND deleted_at IS NULL",
            [profile_id],
            |r| r.get(0),
        )?)
    }

    /// Renames conversation `id` of connection `profile_id` (a conversation of another connection
    /// is not found). A rename is no activity: the list keeps its order and dates.
    pub fn rename_conversation(
        &self,
        profile_id: &str,
        id: i64,
        title: &str,
    ) -> Result<Conversation, IpcError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(IpcError::invalid("title", "Give the conversation a title."));
        }
        let n = self.conn().execute(
            "UPDATE conversations SET title = ?3 WHERE id = ?1 AND profile_id = ?2",
            params![id, profile_id, title],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That conversation is no longer in the library.",
            ));
        }
        self.conversation(id)
    }

    /// Deletes a conversation: it leaves every list at once and can be restored
    /// ([`Self::restore_conversation`], the Undo) for as long as the app runs (its Undo notice
    /// has no fixed end: it waits while hovered or focused); the next start removes it with its
    /// messages, branches and winners.
    pub fn delete_conversation(&self, id: i64) -> Result<(), IpcError> {
        let n = self.conn().execute(
            "UPDATE conversations SET deleted_at = ?2 WHERE id = ?1 AND deleted_at IS NULL",
            params![id, now()],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That conversation is no longer in the library.",
            ));
        }
        Ok(())
    }

    /// Brings back conversation `id`, deleted moments ago (its Undo).
    pub fn restore_conversation(&self, id: i64) -> Result<Conversation, IpcError> {
        let n = self.conn().execute(
            "UPDATE conversations SET deleted_at = NULL WHERE id = ?1 AND deleted_at IS NOT NULL",
            [id],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That conversation can no longer be restored: it was deleted for good.",
            ));
        }
        self.conversation(id)
    }

    /// Removes for good every deleted conversation, with its messages, branches and winners
    /// (when the library opens: the Undo of a delete ends with the app that offered it).
    pub(super) fn purge_deleted_conversations(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
        conn.execute("DELETE FROM conversations WHERE deleted_at IS NOT NULL", [])?;
        Ok(())
    }

    /// Appends a message to a conversation (and marks the conversation active).
    pub fn add_message(
        &self,
        conversation_id: i64,
        role: &str,
        content: &serde_json::Value,
        model: Option<&str>,
        metering: Option<&Metering>,
    ) -> Result<ConversationMessage, IpcError> {
        self.insert_message(conversation_id, role, content, model, metering, false)
    }

    fn insert_message(
        &self,
        conversation_id: i64,
        role: &str,
        content: &serde_json::Value,
        model: Option<&str>,
        metering: Option<&Metering>,
        cut: bool,
    ) -> Result<ConversationMessage, IpcError> {
        let at = now();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let n = tx.execute(
            "UPDATE conversations SET updated_at = ?2,
                 activity = (SELECT MAX(activity) + 1 FROM conversations) WHERE id = ?1",
            params![conversation_id, at],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That conversation is no longer in the library.",
            ));
        }
        tx.execute(
            "INSERT INTO messages (conversation_id, role, content_json, model, request_id, credits_charged, created_at, cut)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                conversation_id,
                role,
                content.to_string(),
                model,
                metering.and_then(|m| m.request_id.as_deref()),
                metering.and_then(|m| m.credits_charged),
                at,
                cut
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(ConversationMessage {
            id,
            conversation_id,
            role: role.to_owned(),
            content: content.clone(),
            model: model.map(str::to_owned),
            request_id: metering.and_then(|m| m.request_id.clone()),
            credits_charged: metering.and_then(|m| m.credits_charged),
            created_at: at,
            cut,
        })
    }

    /// Replaces the text of cut-off reply `id` (a reply still streaming, saved as it goes).
    pub fn update_cut_reply(&self, id: i64, text: &str) -> Result<(), IpcError> {
        let content = serde_json::json!([{"type": "text", "text": text}]);
        self.conn().execute(
            "UPDATE messages SET content_json = ?2 WHERE id = ?1 AND cut = 1",
            params![id, content.to_string()],
        )?;
        Ok(())
    }

    /// Removes cut-off reply `id` (its reply ended after all, and is kept whole).
    pub fn delete_cut_reply(&self, id: i64) -> Result<(), IpcError> {
        self.conn()
            .execute("DELETE FROM messages WHERE id = ?1 AND cut = 1", [id])?;
        Ok(())
    }

    /// Appends what a reply said before it was cut off, marked as cut.
    pub fn add_cut_reply(
        &self,
        conversation_id: i64,
        text: &str,
        model: Option<&str>,
    ) -> Result<ConversationMessage, IpcError> {
        let content = serde_json::json!([{"type": "text", "text": text}]);
        self.insert_message(conversation_id, "assistant", &content, model, None, true)
    }

    /// The messages of a conversation, in order.
    pub fn messages(&self, conversation_id: i64) -> Result<Vec<ConversationMessage>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, conversation_id, role, content_json, model, request_id, credits_charged, created_at, cut
             FROM messages WHERE conversation_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([conversation_id], |r| {
            let content: String = r.get(3)?;
            Ok(ConversationMessage {
                id: r.get(0)?,
                conversation_id: r.get(1)?,
                role: r.get(2)?,
                content: serde_json::from_str(&content).unwrap_or(serde_json::Value::Null),
                model: r.get(4)?,
                request_id: r.get(5)?,
                credits_charged: r.get(6)?,
                created_at: r.get(7)?,
                cut: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;

    #[test]
    fn conversations_keep_their_messages_in_order() {
        let lib = Library::in_memory().unwrap();
        let first = lib
            .create_conversation("sandbox", "Naming ideas", Some("openai/gpt-5"))
            .unwrap();
        let second = lib.create_conversation("sandbox", "Other", None).unwrap();
        let user = lib
            .add_message(
                first.id,
                "user",
                &serde_json::json!("Name my app"),
                None,
                None,
            )
            .unwrap();
        let metering = Metering {
            request_id: Some("req_7".into()),
            credits_charged: Some(0.02),
            credits_remaining: Some(99.98),
        };
        lib.add_message(
            first.id,
            "assistant",
            &serde_json::json!([{"type": "text", "text": "Specdesk"}]),
            Some("openai/gpt-5"),
            Some(&metering),
        )
        .unwrap();
        let messages = lib.messages(first.id).unwrap();
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[0], user);
        assert_eq!(
            (
                messages[1].role.as_str(),
                &messages[1].content,
                messages[1].request_id.as_deref(),
                messages[1].credits_charged
            ),
            (
                "assistant",
                &serde_json::json!([{"type": "text", "text": "Specdesk"}]),
                Some("req_7"),
                Some(0.02)
            )
        );
        let ids: Vec<i64> = lib
            .conversations(None, 10, 0)
            .unwrap()
            .iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, [first.id, second.id], "the active one first");
        let elsewhere = lib
            .create_conversation("p_work", "Work chat", None)
            .unwrap();
        let of = |p| {
            lib.conversations(Some(p), 10, 0)
                .unwrap()
                .iter()
                .map(|c| c.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(of("p_work"), [elsewhere.id]);
        assert_eq!(
            of("sandbox"),
            [first.id, second.id],
            "each connection its own"
        );
        lib.delete_conversation(elsewhere.id).unwrap();
        assert_eq!(
            lib.rename_conversation("sandbox", second.id, " Renamed ")
                .unwrap()
                .title,
            "Renamed"
        );
        lib.delete_conversation(first.id).unwrap();
        assert_eq!(
            of("sandbox"),
            [second.id],
            "deleted: out of the list at once"
        );
        assert_eq!(lib.conversation_count("sandbox").unwrap(), 1);
        assert_eq!(
            lib.delete_conversation(first.id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
        // Undo: back in its place, with its messages.
        assert_eq!(lib.restore_conversation(first.id).unwrap().id, first.id);
        assert_eq!(of("sandbox"), [first.id, second.id]);
        assert_eq!(lib.conversation_count("sandbox").unwrap(), 2);
        assert_eq!(lib.messages(first.id).unwrap().len(), 2);
        assert_eq!(
            lib.restore_conversation(first.id).unwrap_err().message,
            "That conversation can no longer be restored: it was deleted for good."
        );
        // Deleted again, then the Undo's time is over (the library opened again): gone for good.
        lib.delete_conversation(first.id).unwrap();
        Library::purge_deleted_conversations(&lib.conn()).unwrap();
        assert!(lib.messages(first.id).unwrap().is_empty(), "cascade");
        assert_eq!(
            lib.restore_conversation(first.id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
        assert_eq!(
            lib.add_message(first.id, "user", &serde_json::json!("x"), None, None)
                .unwrap_err()
                .kind,
            IpcErrorKind::NotFound
        );
        assert_eq!(
            lib.delete_conversation(first.id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
    }

    #[test]
    fn a_deleted_conversation_stays_restorable_while_the_app_runs_and_is_removed_at_the_next_start()
    {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite3");
        let lib = Library::open(&path).unwrap();
        let [old, kept, recent] =
            ["Old", "Kept", "Recent"].map(|t| lib.create_conversation("sandbox", t, None).unwrap());
        lib.delete_conversation(old.id).unwrap();
        // Deleted long ago (its Undo notice hovered all along): deleting another keeps it.
        lib.conn()
            .execute(
                "UPDATE conversations SET deleted_at = '2000-01-01T00:00:00.000Z' WHERE id = ?1",
                [old.id],
            )
            .unwrap();
        lib.delete_conversation(recent.id).unwrap();
        lib.restore_conversation(old.id).unwrap();
        lib.delete_conversation(old.id).unwrap();
        drop(lib);

        // The app quit before Undo: opened again, the deleted conversations are gone.
        let lib = Library::open(&path).unwrap();
        let ids: Vec<i64> = (lib.conversations(None, 10, 0).unwrap().iter())
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, [kept.id]);
        for gone in [old.id, recent.id] {
            assert_eq!(
                lib.restore_conversation(gone).unwrap_err().kind,
                IpcErrorKind::NotFound
            );
        }
    }
}
