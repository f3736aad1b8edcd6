//! Finding a conversation by what was said in it: its title, its model, or the text of any of its
//! messages (text blocks, a tool call's input, a tool result), every word of the query, in any
//! case. Images' data is never searched.

use serde_json::Value;

use super::Library;
use super::chat::Conversation;
use crate::ipc_error::IpcError;

/// How many conversations of a connection are looked through at most.
const SEARCHED: u32 = 2000;

impl Library {
    /// Conversations of connection `profile_id` whose title, model or messages hold every word of
    /// `query`, the most recently active first, at most `limit`.
    pub fn search_conversations(
        &self,
        profile_id: &str,
        query: &str,
        limit: u32,
    ) -> Result<Vec<Conversation>, IpcError> {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let all = self.conversations(Some(profile_id), SEARCHED, 0)?;
        if words.is_empty() {
            return Ok(all.into_iter().take(limit as usize).collect());
        }
        let mut found = Vec::new();
        for c in all {
            let mut said =
                format!("{} {}", c.title, c.model.as_deref().unwrap_or("")).to_lowercase();
            if !words.iter().all(|w| said.contains(w.as_str())) {
                for m in self.messages(c.id)? {
                    said.push('\n');
                    said.push_str(&text_of(&m.content).to_lowercase());
                }
            }
            if words.iter().all(|w| said.contains(w.as_str())) {
                found.push(c);
                if found.len() >= limit as usize {
                    break;
                }
            }
        }
        Ok(found)
    }
}

/// The words of a message's content: a plain string, or its blocks' text, tool inputs and
/// tool results (never an image's data).
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .map(|b| match b.get("type").and_then(Value::as_str) {
                Some("text") => b
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
                Some("tool_use") => b.get("input").map(Value::to_string).unwrap_or_default(),
                Some("tool_result") => b.get("content").map(text_of).unwrap_or_default(),
                _ => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::library::Library;

    #[test]
    fn a_conversation_is_found_by_any_words_said_in_it_and_only_on_its_connection() {
        let dir = tempfile::tempdir().unwrap();
        let lib = Library::open(&dir.path().join("library.sqlite")).unwrap();
        let kettles = lib
            .create_conversation("work", "Shop names", Some("openai/gpt-5"))
            .unwrap();
        lib.add_message(
            kettles.id,
            "user",
            &json!("Pick a name for a Kettle shop"),
            None,
            None,
        )
        .unwrap();
        lib.add_message(
            kettles.id,
            "assistant",
            &json!([{"type": "text", "text": "How about Blue Spout?"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "ZEBRAzebra"}}]),
            Some("openai/gpt-5"),
            None,
        )
        .unwrap();
        let rota = lib.create_conversation("work", "Choir rota", None).unwrap();
        lib.add_message(rota.id, "user", &json!([{"type": "tool_result", "tool_use_id": "t1", "content": "Sopranos on Tuesday"}]), None, None).unwrap();
        let other = lib
            .create_conversation("home", "Kettle at home", None)
            .unwrap();

        let ids = |q: &str| {
            lib.search_conversations("work", q, 10)
                .unwrap()
                .into_iter()
                .map(|c| c.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids("kettle"), [kettles.id]);
        assert_eq!(ids("blue SPOUT"), [kettles.id]);
        assert_eq!(ids("sopranos tuesday"), [rota.id]);
        assert_eq!(ids("gpt-5 shop"), [kettles.id]);
        assert_eq!(ids("kettle tuesday"), Vec::<i64>::new());
        // An image's data is not text the user said.
        assert_eq!(ids("zebra"), Vec::<i64>::new());
        let mut all = ids("  ");
        all.sort();
        assert_eq!(all, [kettles.id, rota.id]);
        assert!(!ids("kettle").contains(&other.id));
    }
}
