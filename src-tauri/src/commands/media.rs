//! The media library's commands: generated files listed and counted, shown in the file manager,
//! copied out, deleted with an Undo, and what the studios keep with them (settings, a preferred
//! take). Always the connection in use's files.

use tauri::{AppHandle, State};

use specdesk_core::{MediaItem, MediaKind};

use super::Result;
use crate::state::AppState;

#[tauri::command]
pub async fn list_media(
    state: State<'_, AppState>,
    kind: Option<MediaKind>,
    limit: u32,
    offset: u32,
) -> Result<Vec<MediaItem>> {
    // The connection in use's files only, like its jobs.
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .media(Some(&profile_id), kind, limit.clamp(1, 500), offset)
}

/// How many files of `kind` the connection in use has (the M of a list's "N of M").
#[tauri::command]
pub async fn count_media(state: State<'_, AppState>, kind: Option<MediaKind>) -> Result<u32> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state.library.media_count(Some(&profile_id), kind)
}

/// Shows a generated file in the system's file manager.
#[tauri::command]
pub async fn reveal_media(app: AppHandle, state: State<'_, AppState>, id: i64) -> Result<()> {
    use tauri_plugin_opener::OpenerExt;
    let path = specdesk_core::media::media_path(&state.library, &state.media_dir, id)?;
    app.opener().reveal_item_in_dir(&path).map_err(|e| {
        specdesk_core::IpcError::internal(format!(
            "The file manager could not be opened ({e}). The file is {}.",
            path.display()
        ))
    })
}

/// Deletes a generated file of the connection in use: out of every list at once, its file kept
/// until the next start so that its Undo (`restore_media`) brings it back.
#[tauri::command]
pub async fn delete_media(state: State<'_, AppState>, id: i64) -> Result<()> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    specdesk_core::media::delete_media(&state.library, &profile_id, id)
}

/// The Undo of a delete: the file back in its lists.
#[tauri::command]
pub async fn restore_media(state: State<'_, AppState>, id: i64) -> Result<MediaItem> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state.library.restore_media(&profile_id, id)
}

/// Keeps the settings files `ids` (the connection in use's) were made with.
#[tauri::command]
pub async fn set_media_settings(
    state: State<'_, AppState>,
    ids: Vec<i64>,
    settings: serde_json::Value,
) -> Result<()> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .set_media_settings(&profile_id, &ids, &settings)
}

/// Marks a take preferred (over the other take of its A/B pair) or no longer preferred.
#[tauri::command]
pub async fn set_media_preferred(
    state: State<'_, AppState>,
    id: i64,
    preferred: bool,
    over: Option<i64>,
) -> Result<()> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .set_media_preferred(&profile_id, id, preferred, over)
}

/// Saves a copy of generated file `id`: into the download folder (the OS's Downloads folder when
/// none is set), or where the user picks when `choose`. The path written, or `None` when the
/// dialog was cancelled.
#[tauri::command]
pub async fn save_media_copy(
    app: AppHandle,
    state: State<'_, AppState>,
    id: i64,
    choose: bool,
) -> Result<Option<String>> {
    use tauri_plugin_dialog::DialogExt;

    let source = specdesk_core::media::media_path(&state.library, &state.media_dir, id)?;
    let to = if choose {
        let name = source
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let dialog = app.dialog().file().set_file_name(&name);
        let Some(picked) = super::run_dialog(dialog, |d| d.blocking_save_file()).await? else {
            return Ok(None);
        };
        Some(super::local_path(
            picked,
            "path",
            "That place cannot be written to. Choose a folder on this computer.",
        )?)
    } else {
        None
    };
    let folder = super::download_folder(&app, &state)?;
    let copy = tauri::async_runtime::spawn_blocking(move || {
        specdesk_core::media::save_copy(&source, &folder, to)
    })
    .await
    .map_err(specdesk_core::IpcError::storage)??;
    Ok(Some(copy.display().to_string()))
}
