//! The Tauri shell: commands as thin adapters over `specdesk-core`, the OS keychain, app events.
//! Keys never reach the web view: commands take a key in and only ever give `KeyStatus` back.

// `IpcError` is what every command rejects with and crosses IPC by value (as in specdesk-core);
// it is returned only on the failure path, so boxing it would only add noise.
#![allow(clippy::result_large_err)]

pub mod commands;
pub mod deep_links;
pub mod embedded_sandbox;
pub mod keychain;
pub mod microphone;
pub mod notify;
pub mod settings_store;
pub mod startup;
pub mod state;
pub mod streams;
pub mod window_state;

use tauri::Manager;

/// Where the log files go: `SPECDESK_DATA_DIR/logs` when that is set, else the OS's log folder
/// for the app.
fn log_dir(app: &tauri::App) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    if let Some(dir) = std::env::var_os("SPECDESK_DATA_DIR") {
        return Ok(std::path::PathBuf::from(dir).join("logs"));
    }
    Ok(app.path().app_log_dir()?)
}

/// Files dropped on the window count as chosen by the user (`AppState::chosen_files`).
fn remember_dropped_files(webview: &tauri::Webview, event: &tauri::WebviewEvent) {
    if let tauri::WebviewEvent::DragDrop(tauri::DragDropEvent::Drop { paths, .. }) = event
        && let Some(state) = webview.try_state::<state::AppState>()
    {
        for path in paths {
            state.chosen_files.allow(path);
        }
    }
}

/// Test builds only (`--features e2e-hooks`): WebDriver can drive neither a native file dialog
/// nor a drop from the OS, so the end-to-end tests emit the web view's own drop event
/// (`tauri://drag-drop`) from the page, and this counts its files as dropped. Release builds do
/// not have it: there, only a real drop or the dialog lets a file through.
#[cfg(feature = "e2e-hooks")]
fn accept_test_drops(app: &tauri::App) {
    use tauri::Listener;
    let handle = app.handle().clone();
    app.listen_any("tauri://drag-drop", move |event| {
        #[derive(serde::Deserialize)]
        struct Dropped {
            paths: Vec<std::path::PathBuf>,
        }
        if let (Ok(dropped), Some(state)) = (
            serde_json::from_str::<Dropped>(event.payload()),
            handle.try_state::<state::AppState>(),
        ) {
            for path in &dropped.paths {
                state.chosen_files.allow(path);
            }
        }
    });
}

/// A second launch (a second click on the icon, a file opened with the app) does not start a
/// second copy over the same library and sandbox state: it brings the running window forward and
/// exits.
pub(crate) fn focus_main_window(app: &tauri::AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    tracing::info!("the running window was brought forward");
}

pub fn run() {
    tauri::Builder::default()
        // First, so a second copy exits before it opens anything.
        .plugin(tauri_plugin_single_instance::init(|app, args, _cwd| {
            focus_main_window(app);
            // A second launch with a link opens it here (that launch then exits).
            if let Some(link) = deep_links::link_in(&args) {
                deep_links::open(app, &link);
            }
        }))
        .plugin(tauri_plugin_deep_link::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_clipboard_manager::init())
        .plugin(tauri_plugin_store::Builder::default().build())
        // Size, place and maximized state kept across launches (saved at close; a place on a
        // monitor that is gone is not restored). Visibility is left to the app.
        .plugin(
            tauri_plugin_window_state::Builder::default()
                .with_state_flags(window_state::flags())
                .build(),
        )
        .on_window_event(window_state::on_window_event)
        .on_webview_event(remember_dropped_files)
        .on_permission_request(microphone::on_permission_request)
        .setup(|app| {
            #[cfg(target_os = "linux")]
            if let Some(window) = app.get_webview_window("main") {
                microphone::enable_media_streams(&window);
            }
            #[cfg(feature = "e2e-hooks")]
            accept_test_drops(app);
            deep_links::install(app);
            app.manage(startup::Startup::default());
            app.manage(commands::StartNotice::default());
            // A log that cannot be written costs the log only: the app starts, and says so.
            let log_problem = match log_dir(app) {
                Ok(logs) => {
                    let failed = specdesk_core::logs::install(&logs).err().map(|e| {
                        format!("Specdesk could not write its log in {} ({e}), so this session keeps no log file. Check that the folder is writable.", logs.display())
                    });
                    app.manage(commands::support::LogFolder(logs));
                    failed
                }
                Err(e) => Some(format!(
                    "Specdesk found no folder for its log ({e}), so this session keeps no log file."
                )),
            };
            if let Some(problem) = &log_problem {
                eprintln!("{problem}");
            }
            startup::tell_once(app.handle(), log_problem);
            // A start that fails opens the recovery window instead (the UI reads the problem
            // from app_info); nothing here ends the app.
            let _ = tauri::async_runtime::block_on(startup::start(app.handle(), false));
            Ok(())
        })
        // Exactly the paths of src-tauri/commands.list, the one list of commands (build.rs and the
        // capabilities are checked against it; so is this, by a test in commands/tests.rs).
        .invoke_handler(tauri::generate_handler![
            commands::app_info,
            commands::startup::retry_start,
            deep_links::take_deep_link,
            commands::startup::start_fresh_library,
            commands::startup::open_data_folder,
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
            commands::save_document,
            commands::choose_file,
            commands::support::open_log_folder,
            commands::support::copy_diagnostics,
            commands::support::first_usable,
            commands::clipboard::copy_spec_markdown,
            commands::clipboard::copy_plan_markdown,
            commands::clipboard::copy_text,
            commands::jobs::list_jobs,
            commands::activity::activity,
            commands::jobs::cancel_job,
            commands::jobs::follow_job,
            commands::specs::inspect_file,
            commands::specs::submit_spec,
            commands::specs::list_specs,
            commands::specs::search_cached_specs,
            commands::specs::cached_specs,
            commands::specs::get_spec,
            commands::specs::render_spec,
            commands::specs::spec_markdown,
            commands::plans::get_plan,
            commands::plans::plan_markdown,
            commands::plans::recent_projects,
            commands::plans::forget_project,
            commands::agents::check_tasks,
            commands::agents::submit_batch,
            commands::agents::settle_unconfirmed_batch,
            commands::agents::unconfirmed_batches,
            commands::agents::watch_batch,
            commands::agents::list_batches,
            commands::agents::get_batch,
            commands::agents::batch_job,
            commands::agents::check_task_data,
            commands::agents::keep_draft_values,
            commands::agents::draft_values,
            commands::agents::agent_capacity,
            commands::gateway::public_catalog,
            commands::gateway::gateway_models,
            commands::gateway::image_models,
            commands::gateway::video_models,
            commands::gateway::rerank,
            commands::gateway::speech,
            commands::gateway::transcribe,
            commands::gateway::transcribe_media,
            commands::recording::save_recording,
            commands::gateway::read_text_file,
            commands::gateway::read_image_file,
            commands::gateway::paste_image,
            commands::media::save_media_copy,
            commands::gateway::chat_stream,
            commands::gateway::live_reply,
            commands::gateway::render_markdown,
            commands::gateway::generate_images,
            commands::gateway::submit_video,
            commands::gateway::raise_spend_cap_today,
            commands::media::list_media,
            commands::media::delete_media,
            commands::media::restore_media,
            commands::media::count_media,
            commands::media::reveal_media,
            commands::media::set_media_settings,
            commands::media::set_media_preferred,
            commands::conversations::list_conversations,
            commands::conversations::count_conversations,
            commands::conversations::search_conversations,
            commands::conversations::conversation_messages,
            commands::conversations::delete_conversation,
            commands::conversations::restore_conversation,
            commands::conversations::rename_conversation,
            commands::conversations::conversation_tree,
            commands::conversations::save_conversation_tree,
            commands::conversations::record_chat_winner,
            commands::conversations::chat_winners,
        ])
        .run(tauri::generate_context!())
        .unwrap_or_else(|e| {
            // Only Tauri itself failing (no display, no web view) ends here: say so plainly.
            eprintln!("Specdesk could not open its window: {e}");
            tracing::error!("Specdesk could not open its window: {e}");
            std::process::exit(1);
        });
}
