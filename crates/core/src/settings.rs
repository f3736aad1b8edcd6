//! Settings: a typed struct with defaults, checked before it is saved, kept by a `SettingsStore`
//! (tauri-plugin-store in the app; in memory in tests). Never a secret.

use std::path::Path;
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

/// Prefix of a settings file that did not parse, kept aside (`settings.damaged-<time>.json`).
pub const DAMAGED_PREFIX: &str = "settings.damaged-";

/// Before the settings file is opened: a file at `path` that exists but is not a readable
/// settings file is renamed to `settings.damaged-<time>.json` beside it (so the defaults used
/// instead never overwrite it), and the plain sentence to tell the user is returned. A missing
/// file is not damaged (the first run).
pub fn set_aside_if_damaged(path: &Path) -> std::io::Result<Option<String>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if serde_json::from_slice::<Stored>(&bytes).is_ok() {
        return Ok(None);
    }
    let stamp = time::OffsetDateTime::now_utc()
        .format(&time::macros::format_description!(
            "[year][month][day]T[hour][minute][second]Z"
        ))
        .map_err(std::io::Error::other)?;
    let aside = path.with_file_name(format!("{DAMAGED_PREFIX}{stamp}.json"));
    std::fs::rename(path, &aside)?;
    tracing::warn!(kept = %aside.display(), "the settings file did not parse; defaults are used");
    Ok(Some(format!(
        "Your settings file was damaged, so Specdesk started with its default settings. Your connections need to be added again (their keys are still in your keychain). The damaged file was kept as {}.",
        aside.display()
    )))
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
    fn a_damaged_file_is_kept_aside_and_a_good_or_missing_one_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        assert_eq!(set_aside_if_damaged(&path).unwrap(), None, "first run");
        std::fs::write(&path, r#"{"settings":{"theme":"light"}}"#).unwrap();
        assert_eq!(set_aside_if_damaged(&path).unwrap(), None);
        assert!(path.exists());

        std::fs::write(&path, br#"{"settings":{"theme":"li"#).unwrap();
        let notice = set_aside_if_damaged(&path).unwrap().unwrap();
        assert!(!path.exists(), "nothing can overwrite the damaged file now");
        let kept: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(kept.len(), 1);
        assert!(
            kept[0].starts_with(DAMAGED_PREFIX) && kept[0].ends_with(".json"),
            "{kept:?}"
        );
        assert_eq!(
            std::fs::read(dir.path().join(&kept[0])).unwrap(),
            br#"{"settings":{"theme":"li"#
        );
        assert!(
            notice.starts_with(
                "Your settings file was damaged, so Specdesk started with its default settings."
            ),
            "{notice}"
        );
        assert!(notice.contains(&kept[0]), "{notice}");
    }
}
