//! The chat library of the connection in use: its conversations (listed, searched, renamed,
//! deleted with an Undo), their messages, the branches the chat studio keeps and the winners of
//! its compares. The replies themselves stream in `gateway.rs` (`chat_stream`, `live_reply`).

use tauri::State;

use specdesk_core::{ChatWinner, Conversation, ConversationMessage, NewChatWinner};

use super::Result;
use crate::state::AppState;

#[tauri::command]
pub async fn list_conversations(
    state: State<'_, AppState>,
    limit: u32,
    offset: u32,
) -> Result<Vec<Conversation>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .conversations(Some(&profile_id), limit.clamp(1, 500), offset)
}

/// How many conversations the connection in use has (the list's "N of M").
#[tauri::command]
pub async fn count_conversations(state: State<'_, AppState>) -> Result<u32> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state.library.conversation_count(&profile_id)
}

/// Conversations of the connection in use whose title, model or messages hold every word of
/// `query`, the most recently active first.
#[tauri::command]
pub async fn search_conversations(
    state: State<'_, AppState>,
    query: String,
    limit: u32,
) -> Result<Vec<Conversation>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .search_conversations(&profile_id, &query, limit.clamp(1, 500))
}

#[tauri::command]
pub async fn conversation_messages(
    state: State<'_, AppState>,
    conversation_id: i64,
) -> Result<Vec<ConversationMessage>> {
    state.library.messages(conversation_id)
}

/// Deletes a conversation, restorable for a moment (its Undo) and removed for good after.
#[tauri::command]
pub async fn delete_conversation(state: State<'_, AppState>, id: i64) -> Result<()> {
    state.library.delete_conversation(id)
}

/// Brings back a conversation deleted moments ago (the Undo of its delete).
#[tauri::command]
pub async fn restore_conversation(state: State<'_, AppState>, id: i64) -> Result<Conversation> {
    state.library.restore_conversation(id)
}

// A conversation's title, branches and compare winners are reached through the connection in
// use only, like the list it is picked from.

#[tauri::command]
pub async fn rename_conversation(
    state: State<'_, AppState>,
    id: i64,
    title: String,
) -> Result<Conversation> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state.library.rename_conversation(&profile_id, id, &title)
}

/// The branches the chat studio kept for a conversation (its tree of turns), or null.
#[tauri::command]
pub async fn conversation_tree(
    state: State<'_, AppState>,
    conversation_id: i64,
) -> Result<Option<serde_json::Value>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .conversation_tree(&profile_id, conversation_id)
}

#[tauri::command]
pub async fn save_conversation_tree(
    state: State<'_, AppState>,
    conversation_id: i64,
    tree: serde_json::Value,
) -> Result<()> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .save_conversation_tree(&profile_id, conversation_id, &tree)
}

#[tauri::command]
pub async fn record_chat_winner(
    state: State<'_, AppState>,
    conversation_id: i64,
    winner: NewChatWinner,
) -> Result<ChatWinner> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .record_chat_winner(&profile_id, conversation_id, &winner)
}

#[tauri::command]
pub async fn chat_winners(
    state: State<'_, AppState>,
    conversation_id: i64,
) -> Result<Vec<ChatWinner>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state.library.chat_winners(&profile_id, conversation_id)
}
