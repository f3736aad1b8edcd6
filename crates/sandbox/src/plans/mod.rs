//! Project plans: `GET /get-plan`, the project page (`svcUrl`), and simulated coding runs
//! (`POST /_sandbox/projects/{id}/advance`).

mod compute;
mod markdown;

pub use compute::compute;

use markdown::markdown;

use crate::auth;
use crate::errors::{self, Resp};
use crate::state::{App, RunRec};
use crate::util;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use compute::tree_hash;
use specdesk_types::PlanResponse;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/get-plan", get(get_plan))
        .route("/projects/{id}", get(project_page))
}

async fn get_plan(State(app): State<App>, headers: HeaderMap, RawQuery(raw): RawQuery) -> Resp {
    let user = auth::plan_user(&app, &headers)?;
    let params: std::collections::BTreeMap<String, String> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let spec_id = params.get("specId").filter(|s| !s.is_empty());
    let project_id = params.get("projectId").filter(|s| !s.is_empty());
    let format = params.get("format").map(String::as_str).unwrap_or("json");
    if !matches!(format, "json" | "markdown") {
        return Err(errors::invalid("`format` must be `json` or `markdown`."));
    }
    let id = match (spec_id, project_id) {
        (Some(s), None) => s,
        (None, Some(p)) => p,
        _ => {
            return Err(errors::invalid(
                "Give exactly one of `specId` and `projectId`.",
            ));
        }
    };
    if !util::is_object_id(id) {
        return Err(errors::rest(
            StatusCode::BAD_REQUEST,
            "Invalid ID",
            "IDs are 24 hexadecimal characters.",
        ));
    }
    crate::specs::settle(&app);
    let d = app.data();
    let now = d.now();
    let project = if spec_id.is_some() {
        let Some(spec) = d
            .specs
            .iter()
            .find(|s| s.id == *id && user.can_read(&s.owner, s.owner_org.as_deref()))
        else {
            return Err(project_not_found());
        };
        match spec.project_id.as_ref().and_then(|p| d.projects.get(p)) {
            Some(p) => p.clone(),
            None => {
                return Err(errors::rest(
                    StatusCode::NOT_FOUND,
                    "No project yet",
                    "This spec has not created a project (yet): it is still generating, or it failed.",
                ));
            }
        }
    } else {
        match d.projects.get(id.as_str()) {
            Some(p) if user.can_read(&p.owner, p.owner_org.as_deref()) => p.clone(),
            _ => return Err(project_not_found()),
        }
    };
    drop(d);
    let plan = compute(&project, now);
    let md = markdown(&project, plan.as_ref());
    if format == "markdown" {
        return Ok(([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], md).into_response());
    }
    Ok(Json(PlanResponse {
        project_id: project.id.clone(),
        spec_id: Some(project.spec_id.clone()),
        plan,
        markdown: md,
    })
    .into_response())
}

fn project_not_found() -> Response {
    errors::rest(
        StatusCode::NOT_FOUND,
        "Project not found",
        "No project with this id belongs to this key.",
    )
}

/// `POST /_sandbox/projects/{id}/advance`: one simulated coding run.
pub fn advance(app: &App, id: &str) -> Resp {
    crate::specs::settle(app);
    let (project, now) = {
        let mut d = app.data();
        let now = d.now();
        let Some(p) = d.projects.get_mut(id) else {
            return Err(project_not_found());
        };
        let r = p.runs.len() + 1;
        let tree = tree_hash(p, r);
        p.runs.push(RunRec {
            run_id: format!("run_{r:03}_{}", &tree[..8]),
            ended: now,
            tree,
        });
        (p.clone(), now)
    };
    app.touch();
    let plan = compute(&project, now);
    let md = markdown(&project, plan.as_ref());
    Ok(Json(PlanResponse {
        project_id: project.id.clone(),
        spec_id: Some(project.spec_id.clone()),
        plan,
        markdown: md,
    })
    .into_response())
}

async fn project_page(State(app): State<App>, Path(id): Path<String>) -> Response {
    let Some(p) = app.data().projects.get(&id).cloned() else {
        return errors::rest(StatusCode::NOT_FOUND, "Not found", "No such project.");
    };
    let plan = compute(&p, app.now());
    let mut html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{0}</title></head><body><h1>{0}</h1><p>{1}</p><ul>",
        escape(&p.name),
        escape(&p.intent)
    );
    for f in plan.iter().flat_map(|p| &p.features) {
        html.push_str(&format!(
            "<li>{} — {}</li>",
            escape(&f.name),
            escape(&f.status_text)
        ));
    }
    html.push_str("</ul></body></html>");
    Html(html).into_response()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
