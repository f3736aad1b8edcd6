//! The Tauri shell: commands as thin adapters over `specdesk-core`, the OS keychain, app events.
//! Keys never reach the web view: commands take a key in and only ever give `KeyStatus` back.

pub mod commands;
pub mod keychain;
pub mod state;
pub mod streams;

use std::sync::Arc;

use tauri::Manager;

/// Where the app keeps its data: `SPECDESK_DATA_DIR` when set (tests, portable use), else the
/// OS's app data folder.
fn data_dir(app: &tauri::App) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    if let Some(dir) = std::env::var_os("SPECDESK_DATA_DIR") {
        return Ok(dir.into());
    }
    Ok(app.path().app_data_dir()?)
}

pub fn run() {
    tauri::Builder::default()
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .setup(|app| {
            let dir = data_dir(app)?;
            let secrets = Arc::new(keychain::OsKeychain::default());
            let state = tauri::async_runtime::block_on(state::AppState::open(&dir, secrets))
                .map_err(|e| e.message)?;
            app.manage(state);
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::app_info,
            commands::finish_welcome,
            commands::list_profiles,
            commands::add_profile,
            commands::update_profile,
            commands::delete_profile,
            commands::set_active_profile,
            commands::set_api_key,
            commands::delete_api_key,
            commands::test_connection,
            commands::get_settings,
            commands::save_settings,
            commands::credits_balance,
            commands::credit_ledger,
            commands::open_external,
            commands::cancel_stream,
        ])
        .run(tauri::generate_context!())
        .expect("error while running Specdesk");
}
