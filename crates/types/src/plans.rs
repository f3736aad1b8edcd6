//! Project plans (`GET /get-plan`).

use serde_json::Value;

string_enum! {
    /// What `progress` counts.
    pub enum ProgressBasis {
        Features = "features",
        Stories = "stories",
        None = "none",
    }
}

string_enum! {
    /// Status of a feature in a plan.
    pub enum FeatureStatus {
        Works = "works",
        BuiltNotChecked = "built_not_checked",
        ChangedSinceCheck = "changed_since_check",
        NeedsALook = "needs_a_look",
        NotWorking = "not_working",
        InProgress = "in_progress",
        Planned = "planned",
        OutOfScope = "out_of_scope",
        Removed = "removed",
    }
}

impl FeatureStatus {
    /// Code exists for the feature.
    pub fn is_built(&self) -> bool {
        matches!(
            self,
            Self::Works
                | Self::BuiltNotChecked
                | Self::ChangedSinceCheck
                | Self::NeedsALook
                | Self::NotWorking
        )
    }
}

string_enum! {
    /// Scope of a feature (`confirmed`; suggested ones are `proposed`).
    pub enum FeatureScope {
        Confirmed = "confirmed",
        Proposed = "proposed",
    }
}

string_enum! {
    /// State of a launch item.
    pub enum LaunchState {
        Ok = "ok",
        NeedsFix = "needs_fix",
    }
}

wire! {
    /// `GET /get-plan` with `format=json`.
    #[serde(rename_all = "camelCase")]
    pub struct PlanResponse {
        pub project_id: String,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub spec_id: Option<String>,
        /// `null` while the project has nothing planned or built.
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub plan: Option<Plan>,
        #[serde(default)]
        pub markdown: String,
    }

    /// A project's verified plan.
    #[serde(rename_all = "camelCase")]
    pub struct Plan {
        pub project_id: String,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub name: Option<String>,
        pub computed_at: String,
        pub code_version: CodeVersion,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub intent: Option<Intent>,
        pub progress: Progress,
        #[serde(default)]
        pub features: Vec<Feature>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub ready_to_launch: Option<ReadyToLaunch>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub app_map: Option<AppMap>,
        pub last_run: Option<LastRun>,
    }

    /// Version of the code (`null`s before any code exists).
    pub struct CodeVersion {
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub tree: Option<String>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub short: Option<String>,
    }

    /// What the app is for.
    #[serde(rename_all = "camelCase")]
    pub struct Intent {
        pub text: String,
        pub proposed_by_svc: bool,
        #[serde(default)]
        pub removed_since: Vec<String>,
    }

    /// Progress of the plan.
    #[serde(rename_all = "camelCase")]
    pub struct Progress {
        pub basis: ProgressBasis,
        pub built: u32,
        pub proven_working: u32,
        pub total: u32,
        pub left: u32,
        pub percent: u32,
        pub proposed: u32,
    }

    /// Stories done of a feature.
    pub struct StoryCount {
        pub done: u32,
        pub total: u32,
    }

    /// A feature of the plan.
    #[serde(rename_all = "camelCase")]
    pub struct Feature {
        pub id: String,
        pub name: String,
        pub status: FeatureStatus,
        pub status_text: String,
        pub scope: FeatureScope,
        pub added_by_agent: bool,
        pub stories: StoryCount,
        pub counted: bool,
        #[serde(default)]
        pub removed_parts: Vec<Value>,
        /// Name of the built feature this item extends; `null` on a feature itself.
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub part_of: Option<String>,
    }

    /// Launch readiness.
    pub struct ReadyToLaunch {
        pub ready: bool,
        #[serde(default)]
        pub items: Vec<LaunchItem>,
    }

    /// A fix for a launch item.
    pub struct LaunchFix {
        pub action: String,
        pub how: String,
    }

    /// An item of the launch checklist.
    pub struct LaunchItem {
        pub id: String,
        pub label: String,
        pub state: LaunchState,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub detail: Option<String>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub fix: Option<LaunchFix>,
    }

    /// A screen found in the code.
    pub struct ScreenItem {
        pub name: String,
        /// File and optional line.
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub anchor: Option<String>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub path: Option<String>,
    }

    /// An API route found in the code.
    pub struct EndpointItem {
        pub name: String,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub anchor: Option<String>,
        /// The route changes stored data.
        pub writes: bool,
    }

    /// A place data is stored.
    pub struct StorageItem {
        pub name: String,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub anchor: Option<String>,
        pub kind: String,
        #[serde(rename = "where")]
        #[cfg_attr(feature = "ts", ts(rename = "where"))]
        pub location: String,
    }

    /// One list of the app map: `count` is the full number, `items` at most 25.
    pub struct AppMapList<T> {
        pub count: u32,
        #[serde(default = "Vec::new")]
        pub items: Vec<T>,
    }

    /// Screens, API routes and stored data in the code.
    #[serde(rename_all = "camelCase")]
    pub struct AppMap {
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub code_version: Option<String>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub mapped_at: Option<String>,
        pub screens: AppMapList<ScreenItem>,
        pub endpoints: AppMapList<EndpointItem>,
        pub storage: AppMapList<StorageItem>,
    }

    /// Code version before and after a run.
    pub struct CodeVersionChange {
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub before: Option<String>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub after: Option<String>,
    }

    /// Files a run changed.
    pub struct FilesChanged {
        pub count: u32,
        #[serde(default)]
        pub paths: Vec<String>,
    }

    /// An entry of an app-map diff.
    pub struct AppMapDiffEntry {
        pub kind: String,
        pub name: String,
    }

    /// What a run added, removed and changed in the app map.
    pub struct AppMapDiff {
        #[serde(default)]
        pub added: Vec<AppMapDiffEntry>,
        #[serde(default)]
        pub removed: Vec<AppMapDiffEntry>,
        #[serde(default)]
        pub changed: Vec<AppMapDiffEntry>,
    }

    /// The last run that changed the code.
    #[serde(rename_all = "camelCase")]
    pub struct LastRun {
        pub run_id: String,
        pub kind: String,
        pub ended_at: String,
        pub code_version: CodeVersionChange,
        pub files_changed: FilesChanged,
        pub app_map: AppMapDiff,
    }
}
