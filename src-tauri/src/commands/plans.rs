//! Plans: read (a snapshot kept when it changed, with the progress over time) and export.

use tauri::State;

use specdesk_core::plans as core_plans;
use specdesk_core::{PlanTarget, PlanView, RecentProject};

use super::Result;
use crate::state::AppState;

#[tauri::command]
pub async fn get_plan(state: State<'_, AppState>, target: PlanTarget) -> Result<PlanView> {
    target.to_ref()?;
    let (profile_id, client) = state.profiles.active_client().await?;
    core_plans::get_plan(&client, &state.library, &profile_id, &target).await
}

/// The projects whose plan was opened on the active connection, most recent first.
#[tauri::command]
pub async fn recent_projects(state: State<'_, AppState>, limit: u32) -> Result<Vec<RecentProject>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .library
        .recent_projects(&profile_id, limit.clamp(1, 200))
}

/// Takes a project off the Plans screen's list.
#[tauri::command]
pub async fn forget_project(state: State<'_, AppState>, project_id: String) -> Result<()> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state.library.forget_project(&profile_id, &project_id)
}

#[tauri::command]
pub async fn plan_markdown(state: State<'_, AppState>, target: PlanTarget) -> Result<String> {
    target.to_ref()?;
    let (_, client) = state.profiles.active_client().await?;
    core_plans::plan_markdown(&client, &target).await
}
