//! Settings: a typed struct with defaults, checked before it is saved, kept by a `SettingsStore`
//! (tauri-plugin-store in the app; in memory in tests). Never a secret.

use std::collections::BTreeMap;
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// Daily spend cap in credits per connection id (no entry: no cap). A gateway call that
    /// would pass it is refused before it is sent (`spendCap`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[cfg_attr(feature = "ts", ts(as = "Option<BTreeMap<String, f64>>"))]
    pub spend_caps: BTreeMap<String, f64>,
}

// Caps are finite numbers (checked before saving), so equality is total.
impl Eq for Settings {}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            active_profile_id: SANDBOX_PROFILE_ID.to_owned(),
            theme: Theme::System,
            spec_poll_interval_secs: 12,
            default_spec_depth: SpecDepth::Fast,
            download_folder: None,
            notifications: true,
            spend_caps: BTreeMap::new(),
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
        if let Some(bad) = self
            .spend_caps
            .values()
            .find(|c| !c.is_finite() || **c <= 0.0 || **c > MAX_CAP)
        {
            return Err(IpcError::invalid(
                "spendCaps",
                format!(
                    "A daily cap is a number of credits above 0 and up to 1,000,000 (it was {bad}). Leave it empty for no cap."
                ),
            ));
        }
        Ok(())
    }
}

/// Everything persisted besides keys: settings, the user's profiles, and whether the welcome was
/// seen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Stored {
    pub settings: Settings,
    pub profiles: Vec<Profile>,
    pub welcome_done: bool,
    /// Today's raises of a connection's spend cap, by connection id (each kept with its day and
    /// ignored on any other).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cap_raises: BTreeMap<String, CapRaise>,
}

impl Eq for Stored {}

/// The largest daily cap or raise, in credits.
pub const MAX_CAP: f64 = 1_000_000.0;

/// Credits more than a connection's daily cap allowed on one day (its local date).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CapRaise {
    /// `YYYY-MM-DD`, the local day it was raised on.
    pub date: String,
    pub credits: f64,
}

/// A connection's spending today against its cap.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct SpendToday {
    pub profile_id: String,
    /// `YYYY-MM-DD`, the local day.
    pub date: String,
    /// Credits charged today (every area: specs, agents, gateway).
    pub spent: f64,
    /// The daily cap (none: no cap).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily_cap: Option<f64>,
    /// Raised for today only.
    pub raised: f64,
    /// The cap today: the daily cap plus today's raise (none: no cap).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<f64>,
}

/// Rounds to a millionth of a credit, so sums of charges compare exactly.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// A number of credits in plain words ("1 credit", "2.5 credits").
pub fn credits_words(x: f64) -> String {
    let x = round6(x);
    let n = if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    };
    if n == "1" {
        "1 credit".to_owned()
    } else {
        format!("{n} credits")
    }
}

/// Today's spending of `profile_id` against its cap: `daily_cap` from the settings, `raise` the
/// stored raise (counted only when it is of `date`), `spent` what the ledger has today.
pub fn spend_today(
    profile_id: &str,
    date: &str,
    spent: f64,
    daily_cap: Option<f64>,
    raise: Option<&CapRaise>,
) -> SpendToday {
    let raised = raise
        .filter(|r| r.date == date)
        .map_or(0.0, |r| round6(r.credits));
    SpendToday {
        profile_id: profile_id.to_owned(),
        date: date.to_owned(),
        spent: round6(spent),
        daily_cap,
        raised,
        limit: daily_cap.map(|c| round6(c + raised)),
    }
}

/// Why a call may not be sent: what was spent, the cap and the estimate, plus which connection,
/// for the UI's "Raise today's cap".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct SpendCapDetail {
    pub profile_id: String,
    /// Credits charged today.
    pub spent: f64,
    /// Today's cap (the daily cap plus today's raise).
    pub limit: f64,
    /// The call's estimated cost (0 when it is not known before sending).
    pub estimate: f64,
}

// Finite numbers of credits only.
impl Eq for SpendCapDetail {}

impl SpendToday {
    /// Refuses a call of `estimate` credits (0 when unknown) that would pass today's cap. A call
    /// may bring the spending up to the cap exactly; once the cap is reached nothing more is sent
    /// (any call may cost something). `name` is the connection's name, for the message.
    pub fn check(&self, name: &str, estimate: f64) -> Result<(), IpcError> {
        let Some(limit) = self.limit else {
            return Ok(());
        };
        let estimate = round6(estimate.max(0.0));
        let after = round6(self.spent + estimate);
        if self.spent < limit && after <= limit {
            return Ok(());
        }
        let cap = if self.raised > 0.0 {
            format!(
                "its cap for today is {} ({} a day, raised by {} today)",
                credits_words(limit),
                credits_words(self.daily_cap.unwrap_or(limit)),
                credits_words(self.raised)
            )
        } else {
            format!("its daily cap is {}", credits_words(limit))
        };
        let spent = credits_words(self.spent);
        let message = if estimate > 0.0 {
            format!(
                "This call was not sent: {spent} spent today on {name}, {cap}, and this call is estimated at {}, which would pass it. Raise today's cap to send it, or wait until tomorrow.",
                credits_words(estimate)
            )
        } else {
            format!(
                "This call was not sent: {spent} spent today on {name} has reached the cap ({cap}), and the call's cost is only known once it runs. Raise today's cap to send it, or wait until tomorrow."
            )
        };
        let mut e = IpcError::new(crate::ipc_error::IpcErrorKind::SpendCap, message);
        e.spend_cap = Some(SpendCapDetail {
            profile_id: self.profile_id.clone(),
            spent: self.spent,
            limit,
            estimate,
        });
        Err(e)
    }
}

/// The local day of `at` (UTC) at `offset`: its date (`YYYY-MM-DD`) and the UTC instants it
/// starts and ends at, formatted like the ledger's `at` so they compare as strings.
pub fn local_day(at: time::OffsetDateTime, offset: time::UtcOffset) -> (String, String, String) {
    let local = at.to_offset(offset);
    let date = local.date();
    let start = date.midnight().assume_offset(offset);
    let end = start + time::Duration::days(1);
    let fmt = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    );
    let utc = |t: time::OffsetDateTime| {
        t.to_offset(time::UtcOffset::UTC)
            .format(&fmt)
            .expect("a UTC date and time always formats")
    };
    let day = date
        .format(&time::macros::format_description!("[year]-[month]-[day]"))
        .expect("a date always formats");
    (day, utc(start), utc(end))
}

/// This computer's offset from UTC now (kept a minute; UTC when it cannot be read). The `time`
/// crate reads it only in a single-threaded process, so it is asked of the system's `date`.
pub fn local_offset() -> time::UtcOffset {
    static CACHE: Mutex<Option<(std::time::Instant, time::UtcOffset)>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((when, offset)) = *cache
        && when.elapsed() < std::time::Duration::from_secs(60)
    {
        return offset;
    }
    let offset = read_local_offset().unwrap_or(time::UtcOffset::UTC);
    *cache = Some((std::time::Instant::now(), offset));
    offset
}

fn read_local_offset() -> Option<time::UtcOffset> {
    if cfg!(windows) {
        return None;
    }
    let out = std::process::Command::new("date")
        .arg("+%z")
        .output()
        .ok()?;
    parse_offset(std::str::from_utf8(&out.stdout).ok()?.trim())
}

/// `+0130` / `-0500` as an offset.
fn parse_offset(s: &str) -> Option<time::UtcOffset> {
    let (sign, digits) = match s.as_bytes().first()? {
        b'+' => (1, &s[1..]),
        b'-' => (-1, &s[1..]),
        _ => return None,
    };
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let h: i8 = digits[..2].parse().ok()?;
    let m: i8 = digits[2..].parse().ok()?;
    time::UtcOffset::from_hms(sign * h, sign * m, 0).ok()
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
    fn offsets_and_credits_read_plainly() {
        assert_eq!(
            parse_offset("+0530"),
            time::UtcOffset::from_hms(5, 30, 0).ok()
        );
        assert_eq!(
            parse_offset("-0800"),
            time::UtcOffset::from_hms(-8, 0, 0).ok()
        );
        assert_eq!(parse_offset("CET"), None);
        assert_eq!(credits_words(1.0), "1 credit");
        assert_eq!(credits_words(2.5), "2.5 credits");
        assert_eq!(credits_words(0.1 + 0.2), "0.3 credits");
        assert_eq!(credits_words(12.0), "12 credits");
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
