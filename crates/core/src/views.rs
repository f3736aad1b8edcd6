//! Small values the shell returns to the UI besides profiles and settings.

use serde::{Deserialize, Serialize};

/// `app_info`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct AppInfo {
    pub version: String,
    /// True until the welcome screen was dismissed once.
    pub first_run: bool,
    /// Where the app keeps its library and media.
    pub data_dir: String,
    /// Something to tell the user once about this start (a damaged settings file set aside);
    /// given by the first `app_info` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// True only in the end-to-end tests' build (`--features e2e-hooks`): the UI then accepts
    /// their test-only events (a screen made to fail, to prove its error boundary). Release
    /// builds answer false, and the UI does not listen for those events at all.
    #[serde(default)]
    pub test_hooks: bool,
    /// Set when the app could not start: the UI shows the recovery window instead of the app.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_problem: Option<crate::startup::StartProblem>,
}

/// `test_connection`: the address and key work, and this is the balance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ConnectionTest {
    pub profile_id: String,
    pub credits_remaining: f64,
}

/// A balance reading of a profile (`credits_balance`, and the `credits-changed` event).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct CreditsView {
    pub profile_id: String,
    pub credits_remaining: f64,
    /// When it was read (RFC 3339).
    pub at: String,
}
