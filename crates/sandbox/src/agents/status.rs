//! Reading batches: one batch, the list, and the capacity snapshot.

use super::{MAX_SANDBOXES, PER_USER_CAP, not_found, view};
use crate::auth;
use crate::errors::{self, Resp};
use crate::state::{App, BatchRec};
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use specdesk_types::{
    Batch, BatchList, CapacitySnapshot, CapacityUser, CapacityWorker, TaskStatus,
};
use std::collections::BTreeMap;

pub(super) async fn get_batch(
    State(app): State<App>,
    headers: HeaderMap,
    Path(id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Resp {
    let user = auth::rest_user(&app, &headers)?;
    let params: BTreeMap<String, String> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let include = params.get("includeEvents").is_some_and(|v| v == "true");
    let d = app.data();
    let b = d
        .batches
        .iter()
        .find(|b| b.id == id && user.can_read(&b.owner, b.owner_org.as_deref()))
        .ok_or_else(not_found)?;
    Ok(Json(view(b, include)).into_response())
}

pub(super) async fn list(
    State(app): State<App>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> Resp {
    let user = auth::rest_user(&app, &headers)?;
    let q = crate::specs::list_query(raw)?;
    let status = match q.params.get("status").map(String::as_str) {
        None => None,
        Some(s @ ("processing" | "completed" | "failed")) => Some(s.to_owned()),
        Some(_) => {
            return Err(errors::invalid(
                "`status` must be `processing` or `completed`.",
            ));
        }
    };
    let d = app.data();
    let mut mine: Vec<&BatchRec> = d
        .batches
        .iter()
        .filter(|b| user.can_read(&b.owner, b.owner_org.as_deref()))
        .filter(|b| status.as_deref().is_none_or(|s| b.status == s))
        .collect();
    mine.reverse();
    let total = mine.len();
    let batches: Vec<Batch> = mine
        .into_iter()
        .skip(q.skip)
        .take(q.limit)
        .map(|b| view(b, false))
        .collect();
    let has_more = q.skip + batches.len() < total;
    Ok(Json(BatchList {
        batches,
        total: total as u64,
        has_more,
    })
    .into_response())
}

pub(super) async fn capacity(State(app): State<App>, headers: HeaderMap) -> Resp {
    auth::rest_user(&app, &headers)?;
    let d = app.data();
    let now = d.now();
    let mut running = 0u32;
    let mut pending = 0u32;
    let mut failed = 0u32;
    let mut oldest: Option<i64> = None;
    let mut users: BTreeMap<String, u32> = BTreeMap::new();
    for b in &d.batches {
        failed += b
            .results
            .iter()
            .flatten()
            .filter(|r| r.status == TaskStatus::Error)
            .count() as u32;
        let inflight = b.inflight() as u32;
        if inflight == 0 {
            continue;
        }
        let conc = b.request.concurrency.unwrap_or(5).clamp(1, 20);
        running += inflight.min(conc);
        let queued = inflight.saturating_sub(conc);
        pending += queued;
        if queued > 0 {
            oldest = Some(oldest.map_or(b.created, |o| o.min(b.created)));
        }
        *users.entry(b.owner.clone()).or_default() += inflight;
    }
    let mut top: Vec<CapacityUser> = users
        .into_iter()
        .map(|(user_id, inflight)| CapacityUser { user_id, inflight })
        .collect();
    top.sort_by_key(|u| std::cmp::Reverse(u.inflight));
    top.truncate(10);
    Ok(Json(CapacitySnapshot {
        total_active: running + pending,
        max_sandboxes: MAX_SANDBOXES,
        per_user_cap: PER_USER_CAP as u32,
        pending,
        running,
        claimed: running,
        failed,
        utilization: (running as f64 / MAX_SANDBOXES as f64).min(1.0),
        oldest_queued_age_ms: oldest.map_or(0.0, |o| (now - o).max(0) as f64),
        top_users: top,
        workers: vec![CapacityWorker {
            worker_id: "sandbox-worker-1".into(),
            inflight: running,
        }],
    })
    .into_response())
}
