//! Plan use cases: a project's plan read from the service (by spec or project id, checked here
//! first), a snapshot kept in the library each time it changes, and the progress over time.

use serde::{Deserialize, Serialize};
use specdesk_client::{Client, PlanRef};
use specdesk_types::PlanResponse;

use crate::ipc_error::IpcError;
use crate::library::{Library, PlanPoint};

/// Which plan: exactly one of the two ids (24 hex characters each).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct PlanTarget {
    pub spec_id: Option<String>,
    pub project_id: Option<String>,
}

/// A plan as the plan view shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PlanView {
    pub response: PlanResponse,
    /// The project's progress over time, oldest first (one point per change seen).
    pub history: Vec<PlanPoint>,
    /// This read stored a new snapshot (the plan moved since the last read).
    pub changed: bool,
}

impl PlanTarget {
    /// The checked reference (a malformed id is refused before anything is sent).
    pub fn to_ref(&self) -> Result<PlanRef, IpcError> {
        let clean = |s: &Option<String>| {
            s.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        Ok(PlanRef::from_ids(
            clean(&self.spec_id).as_deref(),
            clean(&self.project_id).as_deref(),
        )?)
    }
}

/// Reads the plan, keeps a snapshot when it changed, remembers the project among the ones
/// opened on `profile_id`, and returns it with its history.
pub async fn get_plan(
    client: &Client,
    library: &Library,
    profile_id: &str,
    target: &PlanTarget,
) -> Result<PlanView, IpcError> {
    let plan_ref = target.to_ref()?;
    let response = client.plans().get(&plan_ref).await?;
    let changed = match &response.plan {
        Some(plan) => library.record_plan(plan)?,
        None => false,
    };
    library.remember_project(profile_id, &response)?;
    let history = library.plan_history(&response.project_id)?;
    Ok(PlanView {
        response,
        history,
        changed,
    })
}

/// The plan as Markdown for a coding agent.
pub async fn plan_markdown(client: &Client, target: &PlanTarget) -> Result<String, IpcError> {
    Ok(client.plans().markdown(&target.to_ref()?).await?)
}
