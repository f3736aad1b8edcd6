//! Settings: a typed struct with defaults, checked before it is saved, kept by a `SettingsStore`
//! (tauri-plugin-store in the app; in memory or a JSON file here). Never a secret.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::ipc_error::IpcError;
use crate::profiles::{Profile, SANDBOX_PROFILE_ID};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum Theme {
    #[default]
    System,
    Light,
    Dark,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum SpecDepth {
    #[default]
    Fast,
    Deep,
}

/// Bounds of the spec polling interval (the service recommends 10-15 s).
pub const POLL_RANGE: std::ops::RangeInclusive<u32> = 10..=15;

/// What the user can change (DESIGN.md: settings only, no secrets).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct Settings {
    pub active_profile_id: String,
    pub theme: Theme,
    pub spec_poll_interval_secs: u32,
    pub default_spec_depth: SpecDepth,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub download_folder: Option<String>,
    pub notifications: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            active_profile_id: SANDBOX_PROFILE_ID.to_owned(),
            theme: Theme::System,
            spec_poll_interval_secs: 12,
            default_spec_depth: SpecDepth::Fast,
            download_folder: None,
            notifications: true,
        }
    }
}

impl Settings {
    /// Refuses values the app cannot use, with the field and a plain message.
    pub fn validate(&self) -> Result<(), IpcError> {
        if !POLL_RANGE.contains(&self.spec_poll_interval_secs) {
            return Err(IpcError::invalid(
                "specPollIntervalSecs",
                format!(
                    "Check for spec progress every 10 to 15 seconds (it was {}).",
                    self.spec_poll_interval_secs
                ),
            ));
        }
        if let Some(folder) = &self.download_folder
            && !Path::new(folder).is_absolute()
        {
            return Err(IpcError::invalid(
                "downloadFolder",
                "Choose the download folder with the folder picker (a full path).",
            ));
        }
        Ok(())
    }
}

/// Everything persisted besides keys: settings, the user's profiles, and whether the welcome was
/// seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Stored {
    pub settings: Settings,
    pub profiles: Vec<Profile>,
    pub welcome_done: bool,
}

/// Where `Stored` lives. `save` must be atomic: a crash leaves the old or the new state.
pub trait SettingsStore: Send + Sync + 'static {
    fn load(&self) -> Result<Stored, IpcError>;
    fn save(&self, stored: &Stored) -> Result<(), IpcError>;
}

/// In memory, for tests.
#[derive(Default, Clone, Debug)]
pub struct MemorySettings {
    inner: Arc<Mutex<Stored>>,
}

impl SettingsStore for MemorySettings {
    fn load(&self) -> Result<Stored, IpcError> {
        Ok(self.inner.lock().unwrap_or_else(|p| p.into_inner()).clone())
    }
    fn save(&self, stored: &Stored) -> Result<(), IpcError> {
        *self.inner.lock().unwrap_or_else(|p| p.into_inner()) = stored.clone();
        Ok(())
    }
}

/// A JSON file written atomically (temp file in the same folder, then rename).
#[derive(Debug, Clone)]
pub struct JsonFileSettings {
    path: PathBuf,
}

impl JsonFileSettings {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        JsonFileSettings { path: path.into() }
    }
}

impl SettingsStore for JsonFileSettings {
    fn load(&self) -> Result<Stored, IpcError> {
        match std::fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                IpcError::storage(format!(
                    "the settings file {} is damaged: {e}",
                    self.path.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Stored::default()),
            Err(e) => Err(IpcError::storage(e)),
        }
    }

    fn save(&self, stored: &Stored) -> Result<(), IpcError> {
        let bytes = serde_json::to_vec_pretty(stored).map_err(IpcError::storage)?;
        write_atomically(&self.path, &bytes).map_err(IpcError::storage)
    }
}

/// Writes `bytes` to `path` through a temp file and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_start_on_the_sandbox() {
        let s = Settings::default();
        assert_eq!(s.active_profile_id, "sandbox");
        assert!(s.validate().is_ok());
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"activeProfileId": "sandbox", "theme": "system",
                "specPollIntervalSecs": 12, "defaultSpecDepth": "fast", "notifications": true})
        );
    }

    #[test]
    fn out_of_range_values_are_refused_by_field() {
        let s = Settings {
            spec_poll_interval_secs: 9,
            ..Settings::default()
        };
        let e = s.validate().unwrap_err();
        assert_eq!(e.field.as_deref(), Some("specPollIntervalSecs"));
        assert_eq!(
            e.message,
            "Check for spec progress every 10 to 15 seconds (it was 9)."
        );
        let s = Settings {
            download_folder: Some("downloads".into()),
            ..Settings::default()
        };
        assert_eq!(
            s.validate().unwrap_err().field.as_deref(),
            Some("downloadFolder")
        );
    }

    #[test]
    fn the_json_file_round_trips_and_tolerates_missing_fields() {
        let dir = tempfile::tempdir().unwrap();
        let store = JsonFileSettings::new(dir.path().join("nested/settings.json"));
        assert_eq!(store.load().unwrap(), Stored::default());
        let mut stored = Stored::default();
        stored.settings.theme = Theme::Dark;
        stored.welcome_done = true;
        store.save(&stored).unwrap();
        assert_eq!(store.load().unwrap(), stored);
        std::fs::write(
            dir.path().join("nested/settings.json"),
            r#"{"settings":{"theme":"light"}}"#,
        )
        .unwrap();
        let loaded = store.load().unwrap();
        assert_eq!(loaded.settings.theme, Theme::Light);
        assert_eq!(loaded.settings.spec_poll_interval_secs, 12);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path().join("nested"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("settings.json")]);
    }
}
