//! Specdesk's use cases, with no Tauri in them: profiles and keys, settings, the local library
//! (job ledger and the runner that follows long jobs, credit ledger, plan snapshots, spec cache,
//! conversations, generated media), markdown to safe HTML, and the IPC error shape. The app crate
//! (src-tauri) adapts these to commands; tests use in-memory fakes and temporary files.

// `IpcError` is what every command rejects with and crosses IPC by value; it is returned only on
// the failure path, so its size does not matter and boxing it would only add noise.
#![allow(clippy::result_large_err)]

pub mod activity;
pub mod agents;
pub mod catalogs;
pub mod charged;
pub mod chat_frames;
pub mod chat_render;
pub mod credits;
pub mod events;
pub mod file_names;
pub mod files;
pub mod image_file;
pub mod ipc_error;
pub mod job_changes;
pub mod jobs;
pub mod ledger;
pub mod library;
pub mod live_replies;
pub mod logs;
pub mod markdown;
pub mod media;
pub mod plans;
pub mod profiles;
pub mod recording;
pub mod secret_parts;
pub mod secrets;
pub mod settings;
pub mod settings_file;
pub mod specs;
pub mod spend;
pub mod startup;
pub mod studio;
pub mod task_inputs;
pub mod thumbs;
pub mod views;

pub use charged::{CallCharge, Charged, ChatReply};
pub use events::{BatchEvent, ChatEvent, JobEvent};
pub use files::{ChosenFiles, FilePurpose};
pub use ipc_error::{ErrorAction, IpcError, IpcErrorKind};
pub use jobs::{
    BatchJobRequest, BatchRunMode, ClientFactory, JobRunner, JobRunnerConfig, Notifier, RerunOf,
    SilentNotifier, SpecJobRequest,
};
pub use library::{
    CachedSpec, ChatWinner, Conversation, ConversationMessage, CreditEntry, Job, JobKind,
    JobStatus, Library, LibraryError, LibraryTrouble, MediaItem, MediaKind, NewChatWinner,
    NewMedia, PlanPoint, RecentProject, SpecMarkdown,
};
pub use markdown::{Rendered, TocEntry, render as render_markdown};
pub use plans::{PlanTarget, PlanView};
pub use profiles::{
    KeyChange, KeyKind, Profile, ProfileInput, ProfileView, Profiles, SANDBOX_KEY,
    SANDBOX_PROFILE_ID,
};
pub use secrets::{KeyStatus, Keys, MemorySecretStore, SecretError, SecretStore, masked_tail};
pub use settings::{
    MemorySettings, NotifyKinds, Settings, SettingsStore, SpecDepth, Stored, Theme,
};
pub use specs::{FileInfo, SpecDoc, SpecDraft, SpecPage, SpecQuery, SpecView};
pub use startup::{StartProblem, StartStep};
pub use studio::Studio;
pub use views::{AppInfo, ConnectionTest, CreditsView};
