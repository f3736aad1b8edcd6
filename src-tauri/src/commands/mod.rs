//! `#[tauri::command]` adapters: each one a few lines over `specdesk-core`. Every command
//! rejects with `IpcError`; none ever returns a key. This module holds the shell's own commands
//! (profiles, keys, settings, credits); each area has its own module. A command that takes the
//! `AppHandle` is generic over the `Runtime` where the IPC tests (`tests.rs`, on the mock runtime)
//! call it.

pub mod activity;
pub mod agents;
pub mod clipboard;
pub mod conversations;
pub mod gateway;
pub mod jobs;
pub mod media;
pub mod plans;
pub mod recording;
pub mod specs;
pub mod startup;
pub mod support;
#[cfg(test)]
mod tests;

use tauri::{AppHandle, Emitter, Manager, Runtime, State};
use tauri_plugin_opener::OpenerExt;

use specdesk_core::credits as core_credits;
use specdesk_core::{
    AppInfo, ConnectionTest, CreditEntry, CreditsView, IpcError, IpcErrorKind, KeyChange,
    KeyStatus, ProfileInput, ProfileView, Settings,
};

use crate::state::AppState;

pub(crate) type Result<T> = std::result::Result<T, IpcError>;

/// App events (broadcasts); streams use Channels.
pub mod events {
    pub const CREDITS_CHANGED: &str = "credits-changed";
    pub const SETTINGS_CHANGED: &str = "settings-changed";
    pub const PROFILES_CHANGED: &str = "profiles-changed";
    pub const JOB_CHANGED: &str = "job-changed";
    /// A gateway call or chat reply started, moved or ended (the list is read again: `activity`).
    pub const ACTIVITY_CHANGED: &str = "activity-changed";
}

pub(crate) fn emit<R: Runtime, S: serde::Serialize + Clone>(
    app: &AppHandle<R>,
    event: &str,
    payload: S,
) {
    if let Err(e) = app.emit(event, payload) {
        tracing::warn!("could not emit {event}: {e}");
    }
}

/// Something to tell the user once, found while starting (a damaged settings file or library set
/// aside).
#[derive(Default)]
pub struct StartNotice(pub std::sync::Mutex<Option<String>>);

#[tauri::command]
pub async fn app_info(app: AppHandle, notice: State<'_, StartNotice>) -> Result<AppInfo> {
    let version = env!("CARGO_PKG_VERSION").to_owned();
    let test_hooks = cfg!(feature = "e2e-hooks");
    // The app could not start: the UI shows the recovery window.
    let Some(state) = app.try_state::<AppState>() else {
        let problem = startup::problem(&app);
        return Ok(AppInfo {
            version,
            first_run: false,
            data_dir: problem
                .as_ref()
                .map(|p| p.data_dir.clone())
                .unwrap_or_default(),
            notice: None,
            test_hooks,
            start_problem: problem,
        });
    };
    Ok(AppInfo {
        version,
        first_run: state.profiles.first_run()?,
        data_dir: state.data_dir.display().to_string(),
        notice: notice.0.lock().unwrap_or_else(|p| p.into_inner()).take(),
        test_hooks,
        start_problem: None,
    })
}

#[tauri::command]
pub async fn finish_welcome(state: State<'_, AppState>) -> Result<()> {
    state.profiles.finish_welcome().await
}

#[tauri::command]
pub async fn list_profiles(state: State<'_, AppState>) -> Result<Vec<ProfileView>> {
    state.profiles.list().await
}

#[tauri::command]
pub async fn add_profile(
    app: AppHandle,
    state: State<'_, AppState>,
    input: ProfileInput,
    api_key: Option<String>,
) -> Result<ProfileView> {
    let view = state.profiles.add(&input, api_key.as_deref()).await?;
    emit(&app, events::PROFILES_CHANGED, ());
    Ok(view)
}

#[tauri::command]
pub async fn update_profile(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    input: ProfileInput,
) -> Result<ProfileView> {
    let view = state.profiles.update(&id, &input).await?;
    emit(&app, events::PROFILES_CHANGED, ());
    Ok(view)
}

#[tauri::command]
pub async fn delete_profile(app: AppHandle, state: State<'_, AppState>, id: String) -> Result<()> {
    state.profiles.delete(&id).await?;
    emit(&app, events::PROFILES_CHANGED, ());
    Ok(())
}

#[tauri::command]
pub async fn set_active_profile(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
) -> Result<ProfileView> {
    let view = state.profiles.set_active(&id).await?;
    emit(&app, events::PROFILES_CHANGED, ());
    Ok(view)
}

#[tauri::command]
pub async fn set_api_key<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    profile_id: String,
    api_key: String,
) -> Result<KeyChange> {
    let change = state.profiles.set_key(&profile_id, &api_key).await?;
    emit(&app, events::PROFILES_CHANGED, ());
    // Jobs held for want of a key (or by a locked keychain) can go on now.
    if let Err(e) = state.jobs.resume_all().await {
        tracing::warn!("could not resume jobs: {}", e.message);
    }
    Ok(change)
}

#[tauri::command]
pub async fn delete_api_key(
    app: AppHandle,
    state: State<'_, AppState>,
    profile_id: String,
) -> Result<KeyStatus> {
    let status = state.profiles.delete_key(&profile_id).await?;
    emit(&app, events::PROFILES_CHANGED, ());
    Ok(status)
}

#[tauri::command]
pub async fn test_connection(
    app: AppHandle,
    state: State<'_, AppState>,
    profile_id: String,
) -> Result<ConnectionTest> {
    let credits_remaining = state.profiles.test_connection(&profile_id).await?;
    let view = core_credits::record_balance(&state.library, &profile_id, credits_remaining)?;
    emit(&app, events::CREDITS_CHANGED, view);
    Ok(ConnectionTest {
        profile_id,
        credits_remaining,
    })
}

#[tauri::command]
pub async fn get_settings(state: State<'_, AppState>) -> Result<Settings> {
    state.profiles.settings()
}

#[tauri::command]
pub async fn save_settings(
    app: AppHandle,
    state: State<'_, AppState>,
    settings: Settings,
) -> Result<Settings> {
    let saved = state.profiles.save_settings(&settings).await?;
    state
        .jobs
        .set_spec_poll_interval(std::time::Duration::from_secs(
            saved.spec_poll_interval_secs.into(),
        ));
    emit(&app, events::SETTINGS_CHANGED, saved.clone());
    Ok(saved)
}

#[tauri::command]
pub async fn credits_balance(app: AppHandle, state: State<'_, AppState>) -> Result<CreditsView> {
    let (profile_id, client) = state.profiles.active_client().await?;
    let view = core_credits::read_balance(&client, &state.library, &profile_id).await?;
    emit(&app, events::CREDITS_CHANGED, view.clone());
    Ok(view)
}

/// Tells the UI the newest balance the ledger knows for `profile_id` (after a metered call).
pub(crate) fn emit_latest_credits(app: &AppHandle, state: &AppState, profile_id: &str) {
    match core_credits::latest_balance(&state.library, profile_id) {
        Ok(Some(view)) => emit(app, events::CREDITS_CHANGED, view),
        Ok(None) => {}
        Err(e) => tracing::warn!("could not read the latest balance: {}", e.message),
    }
}

#[tauri::command]
pub async fn credit_ledger(
    state: State<'_, AppState>,
    limit: u32,
    profile_id: Option<String>,
    since: Option<String>,
) -> Result<Vec<CreditEntry>> {
    match (profile_id, since) {
        // A connection's window (the Spending section): every line of it, up to a bound no
        // month of use comes near.
        (Some(profile), Some(since)) => {
            state
                .library
                .credit_ledger_of(&profile, &since, limit.clamp(1, 100_000))
        }
        _ => state.library.credit_ledger(limit.clamp(1, 1000)),
    }
}

/// Only http(s) pages open, in the system browser.
#[tauri::command]
pub async fn open_external<R: Runtime>(app: AppHandle<R>, url: String) -> Result<()> {
    let parsed = url::Url::parse(url.trim())
        .map_err(|_| IpcError::invalid("url", "That link is not a web address."))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(IpcError::invalid(
            "url",
            "Only web links (http or https) can be opened.",
        ));
    }
    app.opener()
        .open_url(parsed.as_str(), None::<&str>)
        .map_err(|e| {
            IpcError::new(
                IpcErrorKind::Internal,
                format!("Your web browser could not be opened ({e}). Copy the link instead."),
            )
        })
}

#[tauri::command]
pub async fn cancel_stream(state: State<'_, AppState>, stream_id: String) -> Result<()> {
    state.streams.cancel(&stream_id);
    Ok(())
}

/// Opens the file dialog for `purpose` (its title and types) and remembers the file picked, the
/// only kind of path, with a dropped one, that the commands reading files accept. The path, or
/// `None` when the dialog was cancelled.
#[tauri::command]
pub async fn choose_file(
    window: tauri::Window,
    state: State<'_, AppState>,
    purpose: specdesk_core::FilePurpose,
) -> Result<Option<String>> {
    use tauri_plugin_dialog::DialogExt;

    let dialog = window
        .dialog()
        .file()
        .set_parent(&window)
        .set_title(purpose.title())
        .add_filter(purpose.filter_name(), &purpose.extensions());
    let Some(picked) = run_dialog(dialog, |d| d.blocking_pick_file()).await? else {
        return Ok(None);
    };
    let path = local_path(
        picked,
        "file",
        "That file is not on this computer. Copy it to a folder here and choose it again.",
    )?;
    state.chosen_files.allow(&path);
    Ok(Some(path.display().to_string()))
}

/// Shows a native file dialog off the async runtime (it blocks until the user answers). `None`
/// when the user cancelled.
pub(crate) async fn run_dialog(
    dialog: tauri_plugin_dialog::FileDialogBuilder<tauri::Wry>,
    show: fn(
        tauri_plugin_dialog::FileDialogBuilder<tauri::Wry>,
    ) -> Option<tauri_plugin_dialog::FilePath>,
) -> Result<Option<tauri_plugin_dialog::FilePath>> {
    tauri::async_runtime::spawn_blocking(move || show(dialog))
        .await
        .map_err(IpcError::storage)
}

/// The path on this computer a dialog answered, or `refused` (about `field`) for anything else
/// (a URL some platforms answer with).
pub(crate) fn local_path(
    picked: tauri_plugin_dialog::FilePath,
    field: &str,
    refused: &str,
) -> Result<std::path::PathBuf> {
    picked
        .into_path()
        .map_err(|_| IpcError::invalid(field, refused))
}

/// The settings' download folder, else the OS's Downloads folder.
pub(crate) fn download_folder(app: &AppHandle, state: &AppState) -> Result<std::path::PathBuf> {
    use tauri::Manager;
    Ok(match state.profiles.settings()?.download_folder {
        Some(folder) => std::path::PathBuf::from(folder),
        None => app
            .path()
            .download_dir()
            .unwrap_or_else(|_| state.data_dir.join("downloads")),
    })
}

/// Saves text as a file: into the settings' download folder (the OS's Downloads folder when none
/// is set), or where the user picks in a save dialog when `choose`. The path written, or `None`
/// when the dialog was cancelled.
#[tauri::command]
pub async fn save_document(
    app: AppHandle,
    state: State<'_, AppState>,
    file_name: String,
    contents: String,
    choose: bool,
) -> Result<Option<String>> {
    use tauri_plugin_dialog::DialogExt;

    if choose {
        // The name offered is one every system takes, whatever the title it came from.
        let suggested = specdesk_core::file_names::portable_file_name(&file_name)
            .unwrap_or_else(|| "Untitled.md".into());
        let dialog = app.dialog().file().set_file_name(&suggested);
        let Some(picked) = run_dialog(dialog, |d| d.blocking_save_file()).await? else {
            return Ok(None);
        };
        let path = local_path(
            picked,
            "path",
            "That place cannot be written to. Choose a folder on this computer.",
        )?;
        specdesk_core::studio::write_document(&path, &contents)?;
        return Ok(Some(path.display().to_string()));
    }
    let folder = download_folder(&app, &state)?;
    let path = tauri::async_runtime::spawn_blocking(move || {
        specdesk_core::studio::save_document(&folder, &file_name, &contents)
    })
    .await
    .map_err(IpcError::storage)??;
    Ok(Some(path.display().to_string()))
}
