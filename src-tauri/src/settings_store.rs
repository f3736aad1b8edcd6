//! Settings and connections in one `tauri-plugin-store` store (`settings.json`), written from
//! Rust only (the web view has no `store:` permission; settings go through commands).
//!
//! The store holds `Stored`'s three keys (`settings`, `profiles`, `welcomeDone`), typed here
//! with their defaults, and is saved explicitly after each change (no auto-save). Its `save()`
//! is a plain write, so a file that does not parse is set aside before the store opens it
//! (`specdesk_core::settings_file::recover`, which puts its last good copy in its place when that
//! reads): the store would otherwise start empty and overwrite it. Each save keeps the file as it
//! was as that last good copy first.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use specdesk_core::{IpcError, SettingsStore, Stored};
use tauri::{AppHandle, Runtime};
use tauri_plugin_store::{Store, StoreBuilder};

/// The app's settings store.
pub struct PluginSettings<R: Runtime> {
    store: Arc<Store<R>>,
    /// The store's file (its last good copy is kept beside it).
    path: std::path::PathBuf,
}

impl<R: Runtime> PluginSettings<R> {
    /// Opens the store at `path` (an absolute path), after setting a damaged file aside.
    /// Returns the notice to show the user once when that happened.
    pub fn open(app: &AppHandle<R>, path: &Path) -> Result<(Self, Option<String>), IpcError> {
        let notice = specdesk_core::settings_file::recover(path).map_err(IpcError::storage)?;
        let store = StoreBuilder::new(app, path)
            .disable_auto_save()
            .build()
            .map_err(IpcError::storage)?;
        Ok((
            PluginSettings {
                store,
                path: path.to_owned(),
            },
            notice,
        ))
    }
}

impl<R: Runtime> SettingsStore for PluginSettings<R> {
    fn load(&self) -> Result<Stored, IpcError> {
        let entries: serde_json::Map<String, Value> = self.store.entries().into_iter().collect();
        serde_json::from_value(Value::Object(entries))
            .map_err(|e| IpcError::storage(format!("the settings could not be read: {e}")))
    }

    fn save(&self, stored: &Stored) -> Result<(), IpcError> {
        let Value::Object(entries) = serde_json::to_value(stored).map_err(IpcError::storage)?
        else {
            return Err(IpcError::storage("the settings are not an object"));
        };
        // The file as it is now becomes the last good copy first: the store's save is a plain
        // write, which a power cut can leave half done.
        specdesk_core::settings_file::keep_last_good(&self.path).map_err(IpcError::storage)?;
        self.store.clear();
        for (key, value) in entries {
            self.store.set(key, value);
        }
        self.store.save().map_err(IpcError::storage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use specdesk_core::Theme;

    fn mock_app() -> tauri::App<tauri::test::MockRuntime> {
        tauri::test::mock_builder()
            .plugin(tauri_plugin_store::Builder::default().build())
            .build(tauri::test::mock_context(tauri::test::noop_assets()))
            .unwrap()
    }

    #[test]
    fn settings_round_trip_through_the_store_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let app = mock_app();
        let (store, notice) = PluginSettings::open(app.handle(), &path).unwrap();
        assert_eq!(notice, None);
        assert_eq!(store.load().unwrap(), Stored::default());
        let mut stored = Stored::default();
        stored.settings.theme = Theme::Dark;
        stored.welcome_done = true;
        store.save(&stored).unwrap();
        let on_disk: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(on_disk["settings"]["theme"], "dark");
        assert_eq!(on_disk["welcomeDone"], true);
        drop(store);

        // A file written by an earlier version (same shape) with fields missing loads with defaults.
        std::fs::write(
            &path,
            r#"{"settings":{"theme":"light"},"welcomeDone":true}"#,
        )
        .unwrap();
        let other = tempfile::tempdir().unwrap();
        let copy = other.path().join("settings.json");
        std::fs::copy(&path, &copy).unwrap();
        let (store, _) = PluginSettings::open(mock_app().handle(), &copy).unwrap();
        let loaded = store.load().unwrap();
        assert_eq!(loaded.settings.theme, Theme::Light);
        assert_eq!(loaded.settings.spec_poll_interval_secs, 12);
        assert!(loaded.welcome_done);
    }

    #[test]
    fn a_damaged_file_is_kept_aside_and_the_defaults_are_used() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(&path, b"{\"settings\": {\"theme\": ").unwrap();
        let (store, notice) = PluginSettings::open(mock_app().handle(), &path).unwrap();
        assert!(
            notice
                .unwrap()
                .starts_with("Your settings file was damaged")
        );
        assert_eq!(store.load().unwrap(), Stored::default());
        store.save(&Stored::default()).unwrap();
        let names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        let damaged = names
            .iter()
            .find(|n| n.starts_with("settings.damaged-"))
            .unwrap();
        assert_eq!(
            std::fs::read(dir.path().join(damaged)).unwrap(),
            b"{\"settings\": {\"theme\": "
        );
    }

    #[test]
    fn a_save_cut_short_is_restored_from_the_last_good_copy() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let (store, _) = PluginSettings::open(mock_app().handle(), &path).unwrap();
        let mut stored = Stored::default();
        stored.settings.theme = Theme::Dark;
        stored.welcome_done = true;
        store.save(&stored).unwrap();
        // The next save keeps this one as the last good copy, then a power cut truncates it.
        let mut next = stored.clone();
        next.settings.theme = Theme::Light;
        store.save(&next).unwrap();
        drop(store);
        std::fs::write(&path, br#"{"settings":{"theme":"li"#).unwrap();

        let (store, notice) = PluginSettings::open(mock_app().handle(), &path).unwrap();
        assert!(
            notice
                .unwrap()
                .starts_with("Your settings file was damaged (the computer may have stopped while it was saved), so Specdesk restored")
        );
        assert_eq!(store.load().unwrap(), stored, "the save before the cut");
    }
}
