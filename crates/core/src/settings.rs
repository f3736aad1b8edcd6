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

/// The kinds of finished work that bring a desktop notification (Settings, Preferences).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct NotifyKinds {
    /// A spec ready or failed.
    pub specs: bool,
    /// A browser batch finished.
    pub batches: bool,
    /// A video ready or failed.
    pub videos: bool,
}

impl Default for NotifyKinds {
    fn default() -> Self {
        NotifyKinds {
            specs: true,
            batches: true,
            videos: true,
        }
    }
}

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
    /// Desktop notifications at all, when the window is in the background.
    pub notifications: bool,
    /// Which kinds of finished work notify (each only while `notifications` is on).
    pub notify: NotifyKinds,
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
            notify: NotifyKinds::default(),
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
    /// The estimates of the connection's calls sent and not charged yet (streams, videos).
    pub under_way: f64,
    /// Today's cap (the daily cap plus today's raise).
    pub limit: f64,
    /// The call's estimated cost (0 when it is not known before sending).
    pub estimate: f64,
}

// Finite numbers of credits only.
impl Eq for SpendCapDetail {}

impl SpendToday {
    /// Refuses a call of `estimate` credits (0 when unknown) that would pass today's cap, with
    /// `under_way` credits (the estimates of calls sent and not charged yet) counted as spent. A
    /// call may bring the spending up to the cap exactly; once the cap is reached nothing more is
    /// sent (any call may cost something). `name` is the connection's name, for the message.
    pub fn check(&self, name: &str, under_way: f64, estimate: f64) -> Result<(), IpcError> {
        let Some(limit) = self.limit else {
            return Ok(());
        };
        // Nothing (NaN, below 0 or -0, which an empty sum of floats is) counts as 0.
        let positive = |x: f64| if x > 0.0 { round6(x) } else { 0.0 };
        let (estimate, under_way) = (positive(estimate), positive(under_way));
        let committed = round6(self.spent + under_way);
        let after = round6(committed + estimate);
        if committed < limit && after <= limit {
            return Ok(());
        }
        let mut e = IpcError::new(
            crate::ipc_error::IpcErrorKind::SpendCap,
            self.refusal(name, limit, under_way, estimate),
        );
        e.spend_cap = Some(SpendCapDetail {
            profile_id: self.profile_id.clone(),
            spent: self.spent,
            under_way,
            limit,
            estimate,
        });
        Err(e)
    }

    /// Why a call was not sent, in words.
    fn refusal(&self, name: &str, limit: f64, under_way: f64, estimate: f64) -> String {
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
        let spent = if under_way > 0.0 {
            format!(
                "{} spent today on {name} and about {} more on calls still running",
                credits_words(self.spent),
                credits_words(under_way)
            )
        } else {
            format!("{} spent today on {name}", credits_words(self.spent))
        };
        let wait = if under_way > 0.0 {
            "wait for the running calls to end, "
        } else {
            ""
        };
        if estimate > 0.0 {
            format!(
                "This call was not sent: {spent}, {cap}, and this call is estimated at {}, which would pass it. Raise today's cap to send it, {wait}or wait until tomorrow.",
                credits_words(estimate)
            )
        } else {
            format!(
                "This call was not sent: {spent} has reached the cap ({cap}), and the call's cost is only known once it runs. Raise today's cap to send it, {wait}or wait until tomorrow."
            )
        }
    }
}

/// A time zone: the local day a spend cap counts is a day of this computer's zone.
pub use jiff::tz::TimeZone;

/// The local day of `at` in `zone`: its date (`YYYY-MM-DD`) and the UTC instants it starts and
/// ends at (the start of the next day, so a day with a daylight-saving change lasts 23 or 25
/// hours), formatted like the ledger's `at` so they compare as strings.
pub fn local_day(at: time::OffsetDateTime, zone: &TimeZone) -> (String, String, String) {
    zoned_day(at, zone).unwrap_or_else(|| {
        // Only at the far edges of the representable range (years ±9999): the UTC day.
        let start = at
            .to_offset(time::UtcOffset::UTC)
            .date()
            .midnight()
            .assume_utc();
        (
            date_key(start.date()),
            ledger_at(start),
            ledger_at(start + time::Duration::days(1)),
        )
    })
}

fn zoned_day(at: time::OffsetDateTime, zone: &TimeZone) -> Option<(String, String, String)> {
    let now = jiff::Timestamp::from_nanosecond(at.unix_timestamp_nanos()).ok()?;
    let local = now.to_zoned(zone.clone());
    // The first instant of the day, which is not always midnight (some zones skip it).
    let start = local.start_of_day().ok()?;
    let end = local.tomorrow().ok()?.start_of_day().ok()?;
    let utc = |z: &jiff::Zoned| {
        time::OffsetDateTime::from_unix_timestamp_nanos(z.timestamp().as_nanosecond())
            .ok()
            .map(ledger_at)
    };
    let d = local.date();
    let date = time::Date::from_calendar_date(
        i32::from(d.year()),
        time::Month::try_from(u8::try_from(d.month()).ok()?).ok()?,
        u8::try_from(d.day()).ok()?,
    )
    .ok()?;
    Some((date_key(date), utc(&start)?, utc(&end)?))
}

/// `at` in UTC as the ledger writes its `at`.
fn ledger_at(at: time::OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC)
        .format(&time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
        ))
        .expect("a UTC date and time always formats")
}

fn date_key(date: time::Date) -> String {
    date.format(&time::macros::format_description!("[year]-[month]-[day]"))
        .expect("a date always formats")
}

/// This computer's time zone, as the system sets it (the `TZ` variable, else `/etc/localtime`
/// on Unix, or Windows' own setting), with its daylight-saving rules. Read through `jiff`, which
/// is safe from any thread (the `time` crate's `current_local_offset` refuses to answer in a
/// multi-threaded Unix process, which the app always is) and keeps the answer a few minutes, so
/// a change of zone is noticed. UTC when no zone can be found (and that is logged).
pub fn local_zone() -> TimeZone {
    static WARNED: std::sync::Once = std::sync::Once::new();
    TimeZone::try_system().unwrap_or_else(|e| {
        WARNED.call_once(|| {
            tracing::warn!("this computer's time zone could not be read ({e}); days are UTC days");
        });
        TimeZone::UTC
    })
}

/// The zone `offset` from UTC all year (no daylight saving), for a day at a known offset.
pub fn fixed_zone(offset: time::UtcOffset) -> TimeZone {
    jiff::tz::Offset::from_seconds(offset.whole_seconds()).map_or(TimeZone::UTC, TimeZone::fixed)
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
                "specPollIntervalSecs": 12, "defaultSpecDepth": "fast", "notifications": true,
                "notify": {"specs": true, "batches": true, "videos": true}})
        );
    }

    #[test]
    fn a_file_from_before_the_per_kind_switches_notifies_of_every_kind() {
        let old: Settings =
            serde_json::from_value(serde_json::json!({"notifications": false})).unwrap();
        assert!(!old.notifications);
        assert_eq!(old.notify, NotifyKinds::default());
        let some: Settings =
            serde_json::from_value(serde_json::json!({"notify": {"batches": false}})).unwrap();
        assert_eq!(
            some.notify,
            NotifyKinds {
                specs: true,
                batches: false,
                videos: true
            }
        );
    }

    #[test]
    fn credits_read_plainly() {
        assert_eq!(credits_words(1.0), "1 credit");
        assert_eq!(credits_words(2.5), "2.5 credits");
        assert_eq!(credits_words(0.1 + 0.2), "0.3 credits");
        assert_eq!(credits_words(12.0), "12 credits");
    }

    fn day_at(at: time::OffsetDateTime, zone: &TimeZone) -> (String, String, String) {
        local_day(at, zone)
    }

    fn owned(day: (&str, &str, &str)) -> (String, String, String) {
        (day.0.into(), day.1.into(), day.2.into())
    }

    #[test]
    fn the_day_key_is_the_date_at_the_given_offset() {
        use time::macros::{datetime, offset};
        let at = datetime!(2026-03-01 03:15 UTC);
        let cases = [
            (
                offset!(UTC),
                (
                    "2026-03-01",
                    "2026-03-01T00:00:00.000Z",
                    "2026-03-02T00:00:00.000Z",
                ),
            ),
            // Five and a half hours east: still the 1st, which began at 18:30 UTC the day before.
            (
                offset!(+5:30),
                (
                    "2026-03-01",
                    "2026-02-28T18:30:00.000Z",
                    "2026-03-01T18:30:00.000Z",
                ),
            ),
            // Eight hours west it is still the evening of the day before.
            (
                offset!(-8),
                (
                    "2026-02-28",
                    "2026-02-28T08:00:00.000Z",
                    "2026-03-01T08:00:00.000Z",
                ),
            ),
            (
                offset!(+14),
                (
                    "2026-03-01",
                    "2026-02-28T10:00:00.000Z",
                    "2026-03-01T10:00:00.000Z",
                ),
            ),
        ];
        for (offset, want) in cases {
            assert_eq!(day_at(at, &fixed_zone(offset)), owned(want), "{offset}");
        }
        // The last millisecond of a day and the first of the next.
        let east = fixed_zone(offset!(+2));
        assert_eq!(
            day_at(datetime!(2026-12-31 21:59:59.999 UTC), &east).0,
            "2026-12-31"
        );
        assert_eq!(
            day_at(datetime!(2026-12-31 22:00 UTC), &east).0,
            "2027-01-01"
        );
    }

    #[test]
    fn a_day_with_a_daylight_saving_change_has_its_own_length() {
        use time::macros::datetime;
        // Central Europe: clocks go from 02:00 to 03:00 on the last Sunday of March (the 29th in
        // 2026), and back from 03:00 to 02:00 on the last Sunday of October (the 25th).
        let cet = TimeZone::posix("CET-1CEST,M3.5.0,M10.5.0/3").unwrap();
        assert_eq!(
            day_at(datetime!(2026-03-29 12:00 UTC), &cet),
            owned((
                "2026-03-29",
                "2026-03-28T23:00:00.000Z",
                "2026-03-29T22:00:00.000Z"
            )),
            "23 hours"
        );
        assert_eq!(
            day_at(datetime!(2026-10-25 12:00 UTC), &cet),
            owned((
                "2026-10-25",
                "2026-10-24T22:00:00.000Z",
                "2026-10-25T23:00:00.000Z"
            )),
            "25 hours"
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
}
