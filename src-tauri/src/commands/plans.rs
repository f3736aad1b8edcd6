//! Plans: read (a snapshot kept when it changed, with the progress over time) and export.

use tauri::State;

use specdesk_core::plans as core_plans;
use specdesk_core::{PlanTarget, PlanView};

use super::Result;
use crate::state::AppState;

#[tauri::command]
pub async fn get_plan(state: State<'_, AppState>, target: PlanTarget) -> Result<PlanView> {
    target.to_ref()?;
    let (_, client) = state.profiles.active_client().await?;
    core_plans::get_plan(&client, &state.library, &target).await
}

#[tauri::command]
pub async fn plan_markdown(state: State<'_, AppState>, target: PlanTarget) -> Result<String> {
    target.to_ref()?;
    let (_, client) = state.profiles.active_client().await?;
    core_plans::plan_markdown(&client, &target).await
}
