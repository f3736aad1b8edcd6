fn main() {
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .capabilities_path_pattern("./src-tauri/capabilities/**/*")
            .app_manifest(tauri_build::AppManifest::new().commands(specdesk_commands())),
    )
    .expect("failed to run tauri-build");
}

/// Every command the web view may call; capabilities grant each one explicitly.
fn specdesk_commands() -> &'static [&'static str] {
    &[
        "app_info",
        "finish_welcome",
        "list_profiles",
        "add_profile",
        "update_profile",
        "delete_profile",
        "set_active_profile",
        "set_api_key",
        "delete_api_key",
        "test_connection",
        "get_settings",
        "save_settings",
        "credits_balance",
        "credit_ledger",
        "open_external",
        "cancel_stream",
    ]
}
