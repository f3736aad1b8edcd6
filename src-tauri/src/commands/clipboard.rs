//! Copying for the user, from Rust (tauri-plugin-clipboard-manager): WebKit drops a click's
//! permission to write the clipboard across an await, so a document fetched first could never be
//! copied from the web view. The markdown of a spec or plan never makes the round trip either.

use tauri::{AppHandle, Runtime, State};
use tauri_plugin_clipboard_manager::ClipboardExt;

use specdesk_core::plans as core_plans;
use specdesk_core::specs as core_specs;
use specdesk_core::{IpcError, PlanTarget, SpecDoc};

use super::Result;
use crate::state::AppState;

/// Puts `text` on the system clipboard, with a plain error naming the way out.
pub(crate) fn write<R: Runtime>(app: &AppHandle<R>, text: String, fallback: &str) -> Result<()> {
    app.clipboard().write_text(text).map_err(|e| {
        IpcError::internal(format!(
            "Specdesk could not reach the clipboard ({e}). {fallback}"
        ))
    })
}

/// Copies one of a spec's documents as Markdown.
#[tauri::command]
pub async fn copy_spec_markdown(
    app: AppHandle,
    state: State<'_, AppState>,
    spec_id: String,
    doc: SpecDoc,
) -> Result<()> {
    let (profile_id, client) = state.profiles.active_client().await?;
    let markdown =
        core_specs::spec_markdown(&client, &state.library, &profile_id, &spec_id, doc).await?;
    write(&app, markdown, "Use “Download .md” instead.")
}

/// Copies a project's plan as Markdown, for a coding agent.
#[tauri::command]
pub async fn copy_plan_markdown(
    app: AppHandle,
    state: State<'_, AppState>,
    target: PlanTarget,
) -> Result<()> {
    target.to_ref()?;
    let (_, client) = state.profiles.active_client().await?;
    let markdown = core_plans::plan_markdown(&client, &target).await?;
    write(&app, markdown, "Use “Download .md” instead.")
}

/// Copies a short text the screen already shows (a link).
#[tauri::command]
pub async fn copy_text(app: AppHandle, text: String) -> Result<()> {
    if text.len() > 1_000_000 {
        return Err(IpcError::invalid(
            "text",
            "That is too long to copy. Save it as a file instead.",
        ));
    }
    write(
        &app,
        text,
        "Select the text and copy it with the keyboard instead.",
    )
}
