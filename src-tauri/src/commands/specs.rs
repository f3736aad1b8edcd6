//! Specs: the composer's file check and submission (through the job ledger), the library, one
//! spec and its two documents.

use tauri::{AppHandle, State};

use specdesk_core::specs as core_specs;
use specdesk_core::{
    CachedSpec, FileInfo, Job, Rendered, SpecDoc, SpecDraft, SpecPage, SpecQuery, SpecView,
};

use super::Result;
use crate::state::AppState;

/// Checks a file the user chose or dropped (any other path is refused) for a spec's input.
#[tauri::command]
pub async fn inspect_file(state: State<'_, AppState>, path: String) -> Result<FileInfo> {
    let path = state.chosen_files.check(&path, "file")?;
    tauri::async_runtime::spawn_blocking(move || core_specs::inspect_file(&path))
        .await
        .map_err(specdesk_core::IpcError::storage)?
}

/// Checks the draft, writes the job to the ledger, sends it (async) and follows it.
#[tauri::command]
pub async fn submit_spec(
    app: AppHandle,
    state: State<'_, AppState>,
    draft: SpecDraft,
) -> Result<Job> {
    if let Some(path) = draft.file_path.as_deref().filter(|p| !p.trim().is_empty()) {
        state.chosen_files.check(path, "file")?;
    }
    let submission = tauri::async_runtime::spawn_blocking(move || draft.to_submission())
        .await
        .map_err(specdesk_core::IpcError::storage)??;
    let profile_id = state.profiles.settings()?.active_profile_id;
    let job = state.jobs.start_spec(&profile_id, &submission).await;
    super::emit_latest_credits(&app, &state, &profile_id);
    job
}

#[tauri::command]
pub async fn list_specs(state: State<'_, AppState>, query: SpecQuery) -> Result<SpecPage> {
    let (profile_id, client) = state.profiles.active_client().await?;
    core_specs::list_specs(&client, &state.library, &profile_id, &query).await
}

/// A page of the specs kept on this computer, filtered as `list_specs` filters; never asks the
/// service (the library's answer to each keystroke, before the service's). Read off the async
/// runtime's threads: it reads SQLite and runs the search pattern.
#[tauri::command]
pub async fn search_cached_specs(state: State<'_, AppState>, query: SpecQuery) -> Result<SpecPage> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    let library = state.library.clone();
    tauri::async_runtime::spawn_blocking(move || {
        core_specs::cached_page(&library, &profile_id, &query)
    })
    .await
    .map_err(specdesk_core::IpcError::storage)?
}

#[tauri::command]
pub async fn cached_specs(
    state: State<'_, AppState>,
    limit: u32,
    offset: u32,
) -> Result<Vec<CachedSpec>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .cached_specs(Some(&profile_id), limit.clamp(1, 500), offset)
}

#[tauri::command]
pub async fn get_spec(state: State<'_, AppState>, spec_id: String) -> Result<SpecView> {
    let (profile_id, client) = state.profiles.active_client().await?;
    core_specs::get_spec(&client, &state.library, &profile_id, &spec_id).await
}

#[tauri::command]
pub async fn render_spec(
    state: State<'_, AppState>,
    spec_id: String,
    doc: SpecDoc,
) -> Result<Rendered> {
    let (profile_id, client) = state.profiles.active_client().await?;
    core_specs::render_spec(&client, &state.library, &profile_id, &spec_id, doc).await
}

#[tauri::command]
pub async fn spec_markdown(
    state: State<'_, AppState>,
    spec_id: String,
    doc: SpecDoc,
) -> Result<String> {
    let (profile_id, client) = state.profiles.active_client().await?;
    core_specs::spec_markdown(&client, &state.library, &profile_id, &spec_id, doc).await
}
