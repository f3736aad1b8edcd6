//! Plan snapshots, for a project's progress over time.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{Library, now};
use crate::ipc_error::IpcError;

/// A point of a project's progress over time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PlanPoint {
    pub computed_at: String,
    pub percent: u32,
    pub built: u32,
    pub proven_working: u32,
    pub total: u32,
    /// Feature count by status.
    pub statuses: std::collections::BTreeMap<String, u32>,
}

impl Library {
    /// Stores a snapshot of `plan` when it differs from the last one of its project. True when
    /// stored.
    pub fn record_plan(&self, plan: &specdesk_types::Plan) -> Result<bool, IpcError> {
        let mut statuses = std::collections::BTreeMap::<String, u32>::new();
        for f in &plan.features {
            *statuses.entry(f.status.as_str().to_owned()).or_default() += 1;
        }
        let statuses_json = serde_json::to_string(&statuses).map_err(IpcError::storage)?;
        let p = &plan.progress;
        let fingerprint = format!(
            "{}|{}|{}|{}|{}|{}",
            plan.code_version.tree.as_deref().unwrap_or(""),
            p.percent,
            p.built,
            p.proven_working,
            p.total,
            statuses_json
        );
        let conn = self.conn();
        let last: Option<String> = conn
            .query_row(
                "SELECT fingerprint FROM plan_snapshots WHERE project_id = ?1 ORDER BY id DESC LIMIT 1",
                [&plan.project_id],
                |r| r.get(0),
            )
            .optional()?;
        if last.as_deref() == Some(fingerprint.as_str()) {
            return Ok(false);
        }
        conn.execute(
            "INSERT INTO plan_snapshots (project_id, computed_at, percent, built, proven_working, total, statuses_json, fingerprint, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                plan.project_id,
                plan.computed_at,
                p.percent,
                p.built,
                p.proven_working,
                p.total,
                statuses_json,
                fingerprint,
                now()
            ],
        )?;
        Ok(true)
    }

    /// A project's progress over time, oldest first.
    pub fn plan_history(&self, project_id: &str) -> Result<Vec<PlanPoint>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT computed_at, percent, built, proven_working, total, statuses_json
             FROM plan_snapshots WHERE project_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([project_id], |r| {
            let statuses: String = r.get(5)?;
            Ok(PlanPoint {
                computed_at: r.get(0)?,
                percent: r.get(1)?,
                built: r.get(2)?,
                proven_working: r.get(3)?,
                total: r.get(4)?,
                statuses: serde_json::from_str(&statuses).unwrap_or_default(),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_snapshots_are_kept_only_when_the_plan_changed() {
        let lib = Library::in_memory().unwrap();
        let plan_json = |percent: u32, built: u32, status: &str| {
            serde_json::json!({
                "projectId": "0123456789abcdef01234567", "name": "P", "computedAt": "2026-11-22T10:00:00Z",
                "codeVersion": {"tree": null, "short": null}, "intent": null,
                "progress": {"basis": "features", "built": built, "provenWorking": 0, "total": 2, "left": 2 - built, "percent": percent, "proposed": 0},
                "features": [
                    {"id": "f1", "name": "A", "status": status, "statusText": "", "scope": "confirmed", "addedByAgent": false, "stories": {"done": 0, "total": 1}, "counted": true, "removedParts": [], "partOf": null},
                    {"id": "f2", "name": "B", "status": "planned", "statusText": "", "scope": "confirmed", "addedByAgent": false, "stories": {"done": 0, "total": 1}, "counted": true, "removedParts": [], "partOf": null}
                ],
                "readyToLaunch": null, "appMap": null
            })
        };
        let plan =
            |p, b, s| serde_json::from_value::<specdesk_types::Plan>(plan_json(p, b, s)).unwrap();
        assert!(lib.record_plan(&plan(0, 0, "planned")).unwrap());
        assert!(
            !lib.record_plan(&plan(0, 0, "planned")).unwrap(),
            "unchanged"
        );
        assert!(lib.record_plan(&plan(50, 1, "built_not_checked")).unwrap());
        let history = lib.plan_history("0123456789abcdef01234567").unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!(history[1].percent, 50);
        assert_eq!(history[1].statuses.get("built_not_checked"), Some(&1));
        assert_eq!(history[1].statuses.get("planned"), Some(&1));
    }
}
