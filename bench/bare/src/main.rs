// The bare Tauri 2 app of `create-tauri-app`, minus its example command: one window showing the
// static page in dist/. The baseline of scripts/bench.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    tauri::Builder::default()
        .run(tauri::generate_context!())
        .expect("error while running the bare Tauri app");
}
