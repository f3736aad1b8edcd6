//! What stopped the app from starting, for the recovery window: which step failed, in the
//! user's words, with what they can do (Try again, Open data folder, and for the library, Start
//! with a fresh library). No start-up step ends in a panic or in no window at all.

use serde::{Deserialize, Serialize};

use crate::library::LibraryTrouble;

/// The step of the start that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum StartStep {
    /// The data folder could not be made.
    DataFolder,
    /// The settings store could not be opened.
    Settings,
    /// The library could not be opened.
    Library,
    /// The folder for generated media could not be made.
    MediaFolder,
    /// The built-in Sandbox could not start.
    Sandbox,
}

/// Why the app could not start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct StartProblem {
    pub step: StartStep,
    /// What failed and what to do, for a non-technical reader.
    pub message: String,
    /// What the system said (shown under "Details").
    pub detail: String,
    /// The folder "Open data folder" opens.
    pub data_dir: String,
    /// When the library failed: why. Offers "Start with a fresh library".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library: Option<LibraryTrouble>,
}

impl StartProblem {
    /// A folder the app needs could not be made or written.
    pub fn folder(
        step: StartStep,
        folder: &std::path::Path,
        e: &std::io::Error,
        data_dir: &std::path::Path,
    ) -> Self {
        let message = match e.kind() {
            std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded => format!(
                "The disk that holds {} is full. Free some space, then choose Try again.",
                folder.display()
            ),
            _ => format!(
                "Specdesk could not make or write its folder {}. Check that it is writable and on a disk that is connected, then choose Try again.",
                folder.display()
            ),
        };
        StartProblem {
            step,
            message,
            detail: e.to_string(),
            data_dir: data_dir.display().to_string(),
            library: None,
        }
    }

    /// The settings store could not be opened.
    pub fn settings(
        detail: impl std::fmt::Display,
        path: &std::path::Path,
        data_dir: &std::path::Path,
    ) -> Self {
        StartProblem {
            step: StartStep::Settings,
            message: format!(
                "Specdesk could not open its settings file ({}). Check that the data folder is writable, then choose Try again.",
                path.display()
            ),
            detail: detail.to_string(),
            data_dir: data_dir.display().to_string(),
            library: None,
        }
    }

    /// The library could not be opened.
    pub fn library(
        e: &crate::library::LibraryError,
        path: &std::path::Path,
        data_dir: &std::path::Path,
    ) -> Self {
        StartProblem {
            step: StartStep::Library,
            message: e.message(path),
            detail: e.detail.clone(),
            data_dir: data_dir.display().to_string(),
            library: Some(e.trouble),
        }
    }

    /// The built-in Sandbox could not start.
    pub fn sandbox(detail: impl std::fmt::Display, data_dir: &std::path::Path) -> Self {
        StartProblem {
            step: StartStep::Sandbox,
            message: "The built-in Sandbox could not start. Choose Try again; if it fails again, restart your computer.".into(),
            detail: detail.to_string(),
            data_dir: data_dir.display().to_string(),
            library: None,
        }
    }
}
