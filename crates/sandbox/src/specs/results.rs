//! The shapes a spec is answered in: the synchronous result, a list record, and spec-status.

use super::settle::{ERROR_MESSAGE, generate, phase, settle};
use crate::auth;
use crate::errors::{self, Resp};
use crate::state::{App, SpecRec};
use crate::util::{self, iso};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use specdesk_types::{
    SpecEndpoint, SpecRecord, SpecResult, SpecStatus, SpecStatusResponse, ZippedDocs,
};

struct Links {
    human: String,
    agent: String,
    infographic: String,
    svc: Option<String>,
    tools: [String; 4],
}

fn links(app: &App, s: &SpecRec) -> Links {
    let human = app.url(&format!("/files/specs/{}/human.md", s.id));
    let prompt = format!(
        "Download the project spec from {human} and implement it milestone by milestone, checking every acceptance criterion."
    );
    let enc = util::url_encode(&prompt);
    Links {
        agent: app.url(&format!("/files/specs/{}/coding-agent.md", s.id)),
        infographic: app.url(&format!("/files/specs/{}/architecture.png", s.id)),
        svc: s
            .project_id
            .as_ref()
            .map(|p| app.url(&format!("/projects/{p}"))),
        tools: [
            format!("https://tool-a.example.com/new?prompt={enc}"),
            format!("https://tool-b.example.com/?prompt={enc}"),
            format!("https://tool-c.example.com/chat?q={enc}"),
            format!("https://tool-d.example.com/open?text={enc}"),
        ],
        human,
    }
}

fn zipped_docs(app: &App, s: &SpecRec) -> Vec<ZippedDocs> {
    let mut hosts: Vec<String> = s.docs.iter().map(|d| d.platform.clone()).collect();
    hosts.sort();
    hosts.dedup();
    hosts
        .into_iter()
        .map(|h| ZippedDocs {
            master_zip_short_url: app.url(&format!("/files/specs/{}/docs/{h}.zip", s.id)),
            master_markdown_short_url: Some(app.url(&format!("/files/specs/{}/docs/{h}.md", s.id))),
            platform: h,
        })
        .collect()
}

fn endpoint(s: &SpecRec) -> SpecEndpoint {
    if s.deep {
        SpecEndpoint::Deep
    } else {
        SpecEndpoint::Fast
    }
}

/// The synchronous result of a settled spec.
pub(super) fn spec_result(app: &App, s: &SpecRec) -> SpecResult {
    let (status, _, credits) = phase(s, i64::MAX);
    if status != SpecStatus::Completed {
        return SpecResult {
            endpoint: endpoint(s),
            input: s.input.clone(),
            status,
            success: false,
            human_spec_url: None,
            coding_agent_spec_url: None,
            human_spec_markdown: None,
            coding_agent_spec_markdown: None,
            human_spec_json: None,
            coding_agent_spec_json: None,
            total_human_hours: None,
            architecture_infographic_url: None,
            execution_time: None,
            svc_url: None,
            tool_a_url: None,
            tool_b_url: None,
            tool_c_url: None,
            tool_d_url: None,
            credits_used: Some(0.0),
            zipped_docs_urls: Vec::new(),
            user_flow_graph: None,
            architecture_graph: None,
            enriched_tech_stack: None,
            error_message: Some(ERROR_MESSAGE.to_owned()),
        };
    }
    let g = generate(s);
    let l = links(app, s);
    let [a, b, c, d] = l.tools;
    SpecResult {
        endpoint: endpoint(s),
        input: s.input.clone(),
        status,
        success: true,
        human_spec_url: Some(l.human),
        coding_agent_spec_url: Some(l.agent),
        human_spec_markdown: Some(g.human_md),
        coding_agent_spec_markdown: Some(g.agent_md),
        human_spec_json: Some(g.human),
        coding_agent_spec_json: Some(g.agent),
        total_human_hours: Some(g.total_hours),
        architecture_infographic_url: Some(l.infographic),
        execution_time: Some(s.execution_ms),
        svc_url: l.svc,
        tool_a_url: Some(a),
        tool_b_url: Some(b),
        tool_c_url: Some(c),
        tool_d_url: Some(d),
        credits_used: Some(credits),
        zipped_docs_urls: zipped_docs(app, s),
        user_flow_graph: Some(g.user_flow),
        architecture_graph: Some(g.architecture),
        enriched_tech_stack: Some(g.enriched),
        error_message: None,
    }
}

pub(super) fn record(app: &App, s: &SpecRec, now: i64) -> SpecRecord {
    let (status, progress, credits) = phase(s, now);
    let completed = status == SpecStatus::Completed;
    let l = links(app, s);
    let [a, b, c, d] = l.tools;
    let g = completed.then(|| generate(s));
    SpecRecord {
        id: s.id.clone(),
        created: iso(s.created),
        endpoint: endpoint(s),
        input: s.input.clone(),
        success: status != SpecStatus::Failed,
        uploaded_file_short_url: s.upload.as_ref().map(|(uid, name)| {
            app.url(&format!("/files/uploads/{uid}/{}", util::url_encode(name)))
        }),
        uploaded_file_name: s.upload.as_ref().map(|(_, n)| n.clone()),
        human_spec_url: completed.then_some(l.human),
        total_human_hours: g.as_ref().map(|g| g.total_hours),
        coding_agent_spec_url: completed.then_some(l.agent),
        execution_time: completed.then_some(s.execution_ms),
        svc_url: if completed { l.svc } else { None },
        tool_a_url: completed.then_some(a),
        tool_b_url: completed.then_some(b),
        tool_c_url: completed.then_some(c),
        tool_d_url: completed.then_some(d),
        error_message: (status == SpecStatus::Failed).then(|| ERROR_MESSAGE.to_owned()),
        progress,
        credits_used: Some(credits),
        status,
    }
}

pub(super) async fn spec_status(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
    Path(id): Path<String>,
) -> Resp {
    let user = auth::rest_user(&app, &headers)?;
    settle(&app);
    let (s, now, project) = {
        let d = app.data();
        let Some(s) = d
            .specs
            .iter()
            .find(|s| s.id == id && user.can_read(&s.owner, s.owner_org.as_deref()))
        else {
            return Err(errors::rest(
                StatusCode::NOT_FOUND,
                "Spec not found",
                "No spec with this id belongs to this key.",
            ));
        };
        let project = s
            .project_id
            .as_ref()
            .and_then(|p| d.projects.get(p))
            .cloned();
        (s.clone(), d.now(), project)
    };
    let (status, progress, credits) = phase(&s, now);
    let rec = record(&app, &s, now);
    let mut resp = SpecStatusResponse {
        id: Some(s.id.clone()),
        spec_id: Some(s.id.clone()),
        endpoint: Some(endpoint(&s)),
        input: Some(s.input.clone()),
        status: status.clone(),
        success: Some(rec.success),
        progress,
        error_message: rec.error_message.clone(),
        credits_used: Some(credits),
        created: Some(rec.created.clone()),
        human_spec_url: None,
        coding_agent_spec_url: None,
        human_spec_markdown: None,
        coding_agent_spec_markdown: None,
        human_spec_json: None,
        coding_agent_spec_json: None,
        total_human_hours: None,
        architecture_infographic_url: None,
        execution_time: None,
        svc_url: None,
        tool_a_url: None,
        tool_b_url: None,
        tool_c_url: None,
        tool_d_url: None,
        zipped_docs_urls: None,
        user_flow_graph: None,
        architecture_graph: None,
        enriched_tech_stack: None,
        uploaded_file_short_url: rec.uploaded_file_short_url.clone(),
        uploaded_file_name: rec.uploaded_file_name.clone(),
        plan: None,
        project_id: None,
    };
    if status == SpecStatus::Completed {
        let r = spec_result(&app, &s);
        resp.human_spec_url = r.human_spec_url;
        resp.coding_agent_spec_url = r.coding_agent_spec_url;
        resp.human_spec_markdown = r.human_spec_markdown;
        resp.coding_agent_spec_markdown = r.coding_agent_spec_markdown;
        resp.human_spec_json = r.human_spec_json;
        resp.coding_agent_spec_json = r.coding_agent_spec_json;
        resp.total_human_hours = r.total_human_hours;
        resp.architecture_infographic_url = r.architecture_infographic_url;
        resp.execution_time = r.execution_time;
        resp.svc_url = r.svc_url;
        resp.tool_a_url = r.tool_a_url;
        resp.tool_b_url = r.tool_b_url;
        resp.tool_c_url = r.tool_c_url;
        resp.tool_d_url = r.tool_d_url;
        resp.zipped_docs_urls = Some(r.zipped_docs_urls);
        resp.user_flow_graph = r.user_flow_graph;
        resp.architecture_graph = r.architecture_graph;
        resp.enriched_tech_stack = r.enriched_tech_stack;
        if let Some(p) = project {
            resp.project_id = Some(p.id.clone());
            if user.paid() {
                resp.plan = crate::plans::compute(&p, now);
            }
        }
    }
    Ok(Json(resp).into_response())
}
