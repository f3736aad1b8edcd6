//! What the chat studio keeps with a conversation besides its linear thread (`chat.rs`): its
//! branches, as the UI's tree of turns, and the winners picked when models were compared. Both
//! are reached through the conversation's own connection only, and go with the conversation when
//! it is deleted (their rows cascade).

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{Library, now};
use crate::ipc_error::IpcError;

/// A winner picked when the same prompt went to several models.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ChatWinner {
    pub id: i64,
    pub conversation_id: i64,
    pub prompt: String,
    /// The models compared, in their lanes' order.
    pub models: Vec<String>,
    pub winner: String,
    pub at: String,
}

/// A winner to record.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct NewChatWinner {
    pub prompt: String,
    pub models: Vec<String>,
    pub winner: String,
    /// When it was picked (RFC 3339); now when absent. Records an earlier version kept in the web
    /// view's storage are brought in with their own time.
    pub at: Option<String>,
}

const GONE: &str = "That conversation is no longer in the library.";

/// Not found unless conversation `id` belongs to connection `profile_id`.
fn check_owner(conn: &Connection, profile_id: &str, id: i64) -> Result<(), IpcError> {
    conn.query_row(
        "SELECT 1 FROM conversations WHERE id = ?1 AND profile_id = ?2",
        params![id, profile_id],
        |_| Ok(()),
    )
    .optional()?
    .ok_or_else(|| IpcError::not_found(GONE))
}

impl Library {
    /// The branches kept for conversation `id` of connection `profile_id`: the JSON object the UI
    /// saved, or `None` when it saved none (or what is kept no longer reads as one).
    pub fn conversation_tree(
        &self,
        profile_id: &str,
        id: i64,
    ) -> Result<Option<serde_json::Value>, IpcError> {
        let conn = self.conn();
        check_owner(&conn, profile_id, id)?;
        let raw: Option<String> = conn
            .query_row(
                "SELECT tree_json FROM conversation_trees WHERE conversation_id = ?1",
                [id],
                |r| r.get(0),
            )
            .optional()?;
        // A row that does not parse is treated as no tree: the UI rebuilds the thread from the
        // messages rather than failing to open the conversation.
        Ok(raw
            .and_then(|s| serde_json::from_str::<serde_json::Value>(&s).ok())
            .filter(serde_json::Value::is_object))
    }

    /// Keeps `tree` (the UI's tree of turns, opaque here but a JSON object) as the branches of
    /// conversation `id` of connection `profile_id`, replacing what was kept. Not activity: the
    /// list keeps its order.
    pub fn save_conversation_tree(
        &self,
        profile_id: &str,
        id: i64,
        tree: &serde_json::Value,
    ) -> Result<(), IpcError> {
        if !tree.is_object() {
            return Err(IpcError::invalid(
                "tree",
                "The conversation's branches could not be kept: they are not a JSON object.",
            ));
        }
        let conn = self.conn();
        check_owner(&conn, profile_id, id)?;
        conn.execute(
            "INSERT INTO conversation_trees (conversation_id, tree_json, saved_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (conversation_id) DO UPDATE SET tree_json = ?2, saved_at = ?3",
            params![id, tree.to_string(), now()],
        )?;
        Ok(())
    }

    /// Records the winner of a compare on conversation `id` of connection `profile_id`.
    pub fn record_chat_winner(
        &self,
        profile_id: &str,
        id: i64,
        new: &NewChatWinner,
    ) -> Result<ChatWinner, IpcError> {
        if !new.models.contains(&new.winner) {
            return Err(IpcError::invalid(
                "winner",
                "The winner must be one of the models compared.",
            ));
        }
        let at = match &new.at {
            Some(at) if at.parse::<jiff::Timestamp>().is_err() => {
                return Err(IpcError::invalid(
                    "at",
                    "The time of the pick is not a date and time (RFC 3339).",
                ));
            }
            Some(at) => at.clone(),
            None => now(),
        };
        let models_json = serde_json::to_string(&new.models).map_err(IpcError::storage)?;
        let conn = self.conn();
        check_owner(&conn, profile_id, id)?;
        conn.execute(
            "INSERT INTO chat_winners (conversation_id, prompt, models_json, winner, at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, new.prompt, models_json, new.winner, at],
        )?;
        Ok(ChatWinner {
            id: conn.last_insert_rowid(),
            conversation_id: id,
            prompt: new.prompt.clone(),
            models: new.models.clone(),
            winner: new.winner.clone(),
            at,
        })
    }

    /// The winners recorded on conversation `id` of connection `profile_id`, oldest first.
    pub fn chat_winners(&self, profile_id: &str, id: i64) -> Result<Vec<ChatWinner>, IpcError> {
        let conn = self.conn();
        check_owner(&conn, profile_id, id)?;
        let mut stmt = conn.prepare(
            "SELECT id, conversation_id, prompt, models_json, winner, at
             FROM chat_winners WHERE conversation_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([id], |r| {
            let models: String = r.get(3)?;
            Ok(ChatWinner {
                id: r.get(0)?,
                conversation_id: r.get(1)?,
                prompt: r.get(2)?,
                models: serde_json::from_str(&models).unwrap_or_default(),
                winner: r.get(4)?,
                at: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;
    use serde_json::json;

    fn pick(winner: &str, at: Option<&str>) -> NewChatWinner {
        NewChatWinner {
            prompt: "Pick a name".into(),
            models: vec![
                "anthropic/claude-sonnet-4.5".into(),
                "openai/gpt-5-mini".into(),
            ],
            winner: winner.into(),
            at: at.map(str::to_owned),
        }
    }

    fn rows(lib: &Library, table: &str) -> i64 {
        lib.conn()
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_rename_keeps_the_order_and_refuses_a_blank_title() {
        let lib = Library::in_memory().unwrap();
        let older = lib
            .create_conversation("sandbox", "Naming ideas", None)
            .unwrap();
        let newer = lib
            .create_conversation("sandbox", "Launch plan", None)
            .unwrap();
        let renamed = lib
            .rename_conversation("sandbox", older.id, "  Habit app names ")
            .unwrap();
        assert_eq!(renamed.title, "Habit app names");
        assert_eq!(
            renamed.updated_at, older.updated_at,
            "a rename is no activity"
        );
        let ids: Vec<i64> = lib
            .conversations(Some("sandbox"), 10, 0)
            .unwrap()
            .iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, [newer.id, older.id]);
        let blank = lib
            .rename_conversation("sandbox", older.id, "  ")
            .unwrap_err();
        assert_eq!(
            (blank.kind, blank.field.as_deref()),
            (IpcErrorKind::InvalidInput, Some("title"))
        );
    }

    #[test]
    fn the_branches_are_kept_replaced_and_refused_unless_an_object() {
        let lib = Library::in_memory().unwrap();
        let c = lib.create_conversation("sandbox", "Chat", None).unwrap();
        assert_eq!(lib.conversation_tree("sandbox", c.id).unwrap(), None);
        let first = json!({"turns": {"t1": {"status": "streaming"}}, "children": {"": ["t1"]}, "selected": {"": 0}});
        lib.save_conversation_tree("sandbox", c.id, &first).unwrap();
        assert_eq!(lib.conversation_tree("sandbox", c.id).unwrap(), Some(first));
        let second = json!({"turns": {}, "children": {}, "selected": {}});
        lib.save_conversation_tree("sandbox", c.id, &second)
            .unwrap();
        assert_eq!(
            lib.conversation_tree("sandbox", c.id).unwrap(),
            Some(second)
        );
        assert_eq!(
            rows(&lib, "conversation_trees"),
            1,
            "one tree a conversation"
        );
        let refused = lib
            .save_conversation_tree("sandbox", c.id, &json!([1, 2]))
            .unwrap_err();
        assert_eq!(refused.field.as_deref(), Some("tree"));
        // What no longer reads as an object is no tree: the thread comes from the messages.
        lib.conn()
            .execute("UPDATE conversation_trees SET tree_json = '{broken'", [])
            .unwrap();
        assert_eq!(lib.conversation_tree("sandbox", c.id).unwrap(), None);
    }

    #[test]
    fn winners_are_listed_in_order_with_their_time() {
        let lib = Library::in_memory().unwrap();
        let c = lib.create_conversation("sandbox", "Chat", None).unwrap();
        let old = lib
            .record_chat_winner(
                "sandbox",
                c.id,
                &pick("openai/gpt-5-mini", Some("2026-11-01T10:00:00.000Z")),
            )
            .unwrap();
        assert_eq!(old.at, "2026-11-01T10:00:00.000Z");
        let new = lib
            .record_chat_winner("sandbox", c.id, &pick("anthropic/claude-sonnet-4.5", None))
            .unwrap();
        assert_eq!(lib.chat_winners("sandbox", c.id).unwrap(), [old, new]);
        let stranger = lib
            .record_chat_winner("sandbox", c.id, &pick("x/unknown", None))
            .unwrap_err();
        assert_eq!(stranger.field.as_deref(), Some("winner"));
        let bad_time = lib
            .record_chat_winner(
                "sandbox",
                c.id,
                &pick("openai/gpt-5-mini", Some("yesterday")),
            )
            .unwrap_err();
        assert_eq!(bad_time.field.as_deref(), Some("at"));
    }

    #[test]
    fn another_connection_reaches_nothing_and_a_delete_takes_everything() {
        let lib = Library::in_memory().unwrap();
        let c = lib.create_conversation("sandbox", "Mine", None).unwrap();
        lib.save_conversation_tree("sandbox", c.id, &json!({"turns": {}}))
            .unwrap();
        lib.record_chat_winner("sandbox", c.id, &pick("openai/gpt-5-mini", None))
            .unwrap();
        let not_found = |e: IpcError| assert_eq!(e.kind, IpcErrorKind::NotFound, "{e:?}");
        not_found(
            lib.rename_conversation("p_work", c.id, "Mine now")
                .unwrap_err(),
        );
        not_found(lib.conversation_tree("p_work", c.id).unwrap_err());
        not_found(
            lib.save_conversation_tree("p_work", c.id, &json!({}))
                .unwrap_err(),
        );
        not_found(
            lib.record_chat_winner("p_work", c.id, &pick("openai/gpt-5-mini", None))
                .unwrap_err(),
        );
        not_found(lib.chat_winners("p_work", c.id).unwrap_err());
        assert_eq!(lib.conversation(c.id).unwrap().title, "Mine", "unchanged");

        lib.delete_conversation(c.id).unwrap();
        // Kept while its Undo is offered, then removed with everything it had.
        assert_eq!(
            (rows(&lib, "conversation_trees"), rows(&lib, "chat_winners")),
            (1, 1)
        );
        Library::purge_deleted_conversations(&lib.conn()).unwrap();
        assert_eq!(
            (rows(&lib, "conversation_trees"), rows(&lib, "chat_winners")),
            (0, 0)
        );
        not_found(lib.conversation_tree("sandbox", c.id).unwrap_err());
        not_found(lib.chat_winners("sandbox", c.id).unwrap_err());
    }
}
