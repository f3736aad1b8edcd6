//! `#[tauri::command]` adapters: each one a few lines over `specdesk-core`. Every command
//! rejects with `IpcError`; none ever returns a key.

use tauri::{AppHandle, Emitter, State};
use tauri_plugin_opener::OpenerExt;

use specdesk_core::{
    AppInfo, ConnectionTest, CreditEntry, CreditsView, IpcError, KeyChange, KeyStatus,
    ProfileInput, ProfileView, Settings,
};

use crate::state::AppState;

type Result<T> = std::result::Result<T, IpcError>;

/// App events (broadcasts); streams use Channels.
pub mod events {
    pub const CREDITS_CHANGED: &str = "credits-changed";
    pub const SETTINGS_CHANGED: &str = "settings-changed";
    pub const PROFILES_CHANGED: &str = "profiles-changed";
}

fn emit<S: serde::Serialize + Clone>(app: &AppHandle, event: &str, payload: S) {
    if let Err(e) = app.emit(event, payload) {
        tracing::warn!("could not emit {event}: {e}");
    }
}

#[tauri::command]
pub async fn app_info(state: State<'_, AppState>) -> Result<AppInfo> {
    Ok(AppInfo {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        first_run: state.profiles.first_run()?,
        data_dir: state.data_dir.display().to_string(),
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
pub async fn set_api_key(
    app: AppHandle,
    state: State<'_, AppState>,
    profile_id: String,
    api_key: String,
) -> Result<KeyChange> {
    let change = state.profiles.set_key(&profile_id, &api_key).await?;
    emit(&app, events::PROFILES_CHANGED, ());
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
    let entry = state
        .library
        .record_balance(&profile_id, credits_remaining)?;
    emit(
        &app,
        events::CREDITS_CHANGED,
        CreditsView {
            profile_id: profile_id.clone(),
            credits_remaining,
            at: entry.at,
        },
    );
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
    emit(&app, events::SETTINGS_CHANGED, saved.clone());
    Ok(saved)
}

#[tauri::command]
pub async fn credits_balance(app: AppHandle, state: State<'_, AppState>) -> Result<CreditsView> {
    let (profile_id, client) = state.profiles.active_client().await?;
    let balance = client.account().credits_balance().await?;
    let entry = state
        .library
        .record_balance(&profile_id, balance.credits_remaining)?;
    let view = CreditsView {
        profile_id,
        credits_remaining: balance.credits_remaining,
        at: entry.at,
    };
    emit(&app, events::CREDITS_CHANGED, view.clone());
    Ok(view)
}

#[tauri::command]
pub async fn credit_ledger(state: State<'_, AppState>, limit: u32) -> Result<Vec<CreditEntry>> {
    state.library.credit_ledger(limit.clamp(1, 1000))
}

/// Only http(s) pages open, in the system browser.
#[tauri::command]
pub async fn open_external(app: AppHandle, url: String) -> Result<()> {
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
                "internal",
                format!("Your web browser could not be opened ({e}). Copy the link instead."),
            )
        })
}

#[tauri::command]
pub async fn cancel_stream(state: State<'_, AppState>, stream_id: String) -> Result<()> {
    state.streams.cancel(&stream_id);
    Ok(())
}
