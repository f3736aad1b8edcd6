//! The projects whose plan was opened, per connection, for the Plans screen's list.

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::{Library, now};
use crate::ipc_error::IpcError;

/// A project whose plan was opened on a connection, as the Plans screen lists it.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct RecentProject {
    pub project_id: String,
    pub profile_id: String,
    pub name: Option<String>,
    /// The spec that created it, when the service said.
    pub spec_id: Option<String>,
    /// Progress as last read (absent while the project had no plan).
    pub percent: Option<u32>,
    pub built: Option<u32>,
    pub total: Option<u32>,
    /// When the service computed the plan last read.
    pub computed_at: Option<String>,
    /// When its plan was last opened here.
    pub opened_at: String,
}

impl Library {
    /// Remembers that the plan of `response.project_id` was opened on `profile_id` (most
    /// recent first in `recent_projects`), with its name and progress as read.
    pub fn remember_project(
        &self,
        profile_id: &str,
        response: &specdesk_types::PlanResponse,
    ) -> Result<(), IpcError> {
        let plan = response.plan.as_ref();
        self.conn().execute(
            "INSERT INTO projects (project_id, profile_id, name, spec_id, percent, built, total, computed_at, opened_at, opened_seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, (SELECT COALESCE(MAX(opened_seq), 0) + 1 FROM projects))
             ON CONFLICT (profile_id, project_id) DO UPDATE SET
                opened_seq = excluded.opened_seq,
                name = COALESCE(excluded.name, projects.name),
                spec_id = COALESCE(excluded.spec_id, projects.spec_id),
                percent = excluded.percent,
                built = excluded.built,
                total = excluded.total,
                computed_at = excluded.computed_at,
                opened_at = excluded.opened_at",
            params![
                response.project_id,
                profile_id,
                plan.and_then(|p| p.name.clone()),
                response.spec_id,
                plan.map(|p| p.progress.percent),
                plan.map(|p| p.progress.built),
                plan.map(|p| p.progress.total),
                plan.map(|p| p.computed_at.clone()),
                now()
            ],
        )?;
        Ok(())
    }

    /// The projects whose plan was opened on `profile_id`, the most recently opened first.
    pub fn recent_projects(
        &self,
        profile_id: &str,
        limit: u32,
    ) -> Result<Vec<RecentProject>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT project_id, profile_id, name, spec_id, percent, built, total, computed_at, opened_at
             FROM projects WHERE profile_id = ?1 ORDER BY opened_seq DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![profile_id, limit], |r| {
            Ok(RecentProject {
                project_id: r.get(0)?,
                profile_id: r.get(1)?,
                name: r.get(2)?,
                spec_id: r.get(3)?,
                percent: r.get(4)?,
                built: r.get(5)?,
                total: r.get(6)?,
                computed_at: r.get(7)?,
                opened_at: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Forgets a project of the Plans screen's list (its snapshots stay for its chart).
    pub fn forget_project(&self, profile_id: &str, project_id: &str) -> Result<(), IpcError> {
        self.conn().execute(
            "DELETE FROM projects WHERE profile_id = ?1 AND project_id = ?2",
            params![profile_id, project_id],
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opened_projects_are_listed_per_connection_most_recent_first() {
        let lib = Library::in_memory().unwrap();
        let response = |id: &str, name: Option<&str>, plan: bool| {
            let plan = plan.then(|| {
                serde_json::json!({
                    "projectId": id, "name": name, "computedAt": "2026-11-22T10:00:00Z",
                    "codeVersion": {"tree": null, "short": null}, "intent": null,
                    "progress": {"basis": "features", "built": 1, "provenWorking": 0, "total": 4, "left": 3, "percent": 25, "proposed": 0},
                    "features": [], "readyToLaunch": null, "appMap": null
                })
            });
            serde_json::from_value::<specdesk_types::PlanResponse>(serde_json::json!({
                "projectId": id, "specId": "5f0000000000000000000001", "plan": plan, "markdown": ""
            }))
            .unwrap()
        };
        let a = "0123456789abcdef01234567";
        let b = "76543210fedcba9876543210";
        lib.remember_project("sandbox", &response(a, Some("Recipes"), true))
            .unwrap();
        lib.remember_project("sandbox", &response(b, None, false))
            .unwrap();
        lib.remember_project("work", &response(a, Some("Recipes"), true))
            .unwrap();
        let listed = lib.recent_projects("sandbox", 10).unwrap();
        assert_eq!(
            listed
                .iter()
                .map(|p| p.project_id.as_str())
                .collect::<Vec<_>>(),
            [b, a]
        );
        assert_eq!(
            (
                listed[0].name.as_deref(),
                listed[0].percent,
                listed[0].total
            ),
            (None, None, None),
            "no plan yet: no progress"
        );
        assert_eq!(
            (
                listed[1].name.as_deref(),
                listed[1].percent,
                listed[1].built,
                listed[1].total
            ),
            (Some("Recipes"), Some(25), Some(1), Some(4))
        );
        // Opened again, without a name this time: it comes first and keeps the name it had.
        lib.remember_project("sandbox", &response(a, None, true))
            .unwrap();
        let listed = lib.recent_projects("sandbox", 1).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].project_id.as_str(), listed[0].name.as_deref()),
            (a, Some("Recipes"))
        );
        lib.forget_project("sandbox", a).unwrap();
        assert_eq!(
            lib.recent_projects("sandbox", 10)
                .unwrap()
                .iter()
                .map(|p| p.project_id.as_str())
                .collect::<Vec<_>>(),
            [b]
        );
        assert_eq!(lib.recent_projects("work", 10).unwrap().len(), 1);
    }
}
