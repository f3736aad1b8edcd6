//! Spec generation (fast/deep, JSON/multipart, sync/async), spec-status, list-specs,
//! find-specs, credits-balance, and the files a spec result links to.

use crate::auth;
use crate::content::{self, Generated, SpecInput};
use crate::errors::{self, Resp};
use crate::media;
use crate::state::{App, Data, DocPage, PlannedFeature, ProjectRec, SpecRec, Upload};
use crate::util::{self, iso};
use axum::body::Body;
use axum::extract::{FromRequest, Multipart, Path, RawQuery, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use serde_json::json;
use specdesk_types::{
    CreditsBalance, SpecAccepted, SpecEndpoint, SpecList, SpecRecord, SpecRequest, SpecResult,
    SpecStatus, SpecStatusResponse, ZippedDocs,
};
use std::collections::BTreeMap;
use std::time::Duration;

/// Nominal duration of a fast spec at time scale 1 (sandbox ms).
const FAST_MS: u64 = 4_000;
/// Nominal duration of a deep spec at time scale 1.
const DEEP_MS: u64 = 10_000;
/// `[sandbox:slow]` stays processing this long whatever the time scale.
const SLOW_MS: i64 = 3_000;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/fast-spec", post(fast_spec))
        .route("/deep-spec", post(deep_spec))
        .route("/spec-status/{id}", get(spec_status))
        .route("/api/spec-status/{id}", get(spec_status))
        .route("/list-specs", get(list_specs))
        .route("/find-specs", get(find_specs))
        .route("/credits-balance", get(credits_balance))
        .route("/files/specs/{id}/{file}", get(spec_file))
        .route("/files/specs/{id}/docs/{file}", get(doc_file))
        .route("/files/uploads/{id}/{name}", get(upload_file))
}

async fn fast_spec(State(app): State<App>, req: Request) -> Resp {
    submit(app, req, false).await
}

async fn deep_spec(State(app): State<App>, req: Request) -> Resp {
    submit(app, req, true).await
}

/// A parsed submission.
struct Form {
    input: String,
    context: Option<String>,
    doc_urls: Vec<String>,
    is_async: bool,
    file: Option<(String, String, Vec<u8>)>,
}

async fn parse_form(req: Request) -> Result<Form, Response> {
    let ctype = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ctype.starts_with("multipart/form-data") {
        let mut mp = Multipart::from_request(req, &())
            .await
            .map_err(|e| errors::invalid(&format!("Unreadable multipart body: {e}")))?;
        let mut form = Form {
            input: String::new(),
            context: None,
            doc_urls: Vec::new(),
            is_async: false,
            file: None,
        };
        while let Some(field) = mp
            .next_field()
            .await
            .map_err(|e| errors::invalid(&format!("Unreadable multipart body: {e}")))?
        {
            let name = field.name().unwrap_or("").to_owned();
            let file_name = field.file_name().map(str::to_owned);
            let fctype = field
                .content_type()
                .unwrap_or("application/octet-stream")
                .to_owned();
            let bytes = field
                .bytes()
                .await
                .map_err(|e| errors::invalid(&format!("Unreadable multipart field: {e}")))?;
            let text = || String::from_utf8_lossy(&bytes).into_owned();
            match name.as_str() {
                "file" => {
                    form.file = Some((
                        file_name.unwrap_or_else(|| "upload".into()),
                        fctype,
                        bytes.to_vec(),
                    ))
                }
                "input" => form.input = text(),
                "currentContext" => form.context = Some(text()).filter(|s| !s.trim().is_empty()),
                "docURLs" => {
                    let t = text();
                    if !t.trim().is_empty() {
                        form.doc_urls = serde_json::from_str(&t).map_err(|_| {
                            errors::invalid("`docURLs` must be a JSON-encoded array of URLs.")
                        })?;
                    }
                }
                "async" => match text().trim() {
                    "true" => form.is_async = true,
                    "false" | "" => form.is_async = false,
                    _ => return Err(errors::invalid("`async` must be `true` or `false`.")),
                },
                _ => {}
            }
        }
        Ok(form)
    } else {
        let bytes = axum::body::to_bytes(req.into_body(), 16 * 1024 * 1024)
            .await
            .map_err(|_| errors::invalid("Body too large or unreadable."))?;
        let body: SpecRequest = serde_json::from_slice(&bytes).map_err(|e| {
            errors::invalid(&format!(
                "Body must be JSON {{\"input\": string, \"currentContext\"?, \"docURLs\"?, \"async\"?}}: {e}"
            ))
        })?;
        Ok(Form {
            input: body.input,
            context: body.current_context.filter(|s| !s.trim().is_empty()),
            doc_urls: body.doc_urls.unwrap_or_default(),
            is_async: body.is_async.unwrap_or(false),
            file: None,
        })
    }
}

/// Text read from an uploaded file: UTF-8 text and markdown as is, JSON as its string values
/// (one bullet each), PDF as the text of its content streams.
fn file_text(name: &str, ctype: &str, bytes: &[u8]) -> String {
    let lower = name.to_lowercase();
    if lower.ends_with(".pdf") || ctype.contains("pdf") || bytes.starts_with(b"%PDF") {
        return media::pdf_text(bytes).unwrap_or_default();
    }
    let text = String::from_utf8_lossy(bytes).into_owned();
    if (lower.ends_with(".json") || ctype.contains("json"))
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(&text)
    {
        let mut lines = Vec::new();
        fn walk(v: &serde_json::Value, key: Option<&str>, lines: &mut Vec<String>) {
            match v {
                serde_json::Value::String(s) => {
                    if matches!(key, Some("title") | Some("name")) && lines.is_empty() {
                        lines.push(s.clone());
                    } else {
                        lines.push(format!("- {s}"));
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, key, lines)),
                serde_json::Value::Object(o) => {
                    o.iter().for_each(|(k, x)| walk(x, Some(k.as_str()), lines))
                }
                _ => {}
            }
        }
        walk(&v, None, &mut lines);
        return lines.join("\n");
    }
    text
}

async fn fetch_docs(app: &App, urls: &[String]) -> Vec<DocPage> {
    let mut out = Vec::new();
    for u in urls {
        let Ok(parsed) = url::Url::parse(u) else {
            continue;
        };
        let Some(host) = parsed.host_str().map(str::to_owned) else {
            continue;
        };
        let resp = app
            .http
            .get(parsed.clone())
            .timeout(Duration::from_secs(10))
            .send()
            .await;
        let Ok(resp) = resp else { continue };
        if !resp.status().is_success() {
            continue;
        }
        let is_html = resp
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("html"));
        let Ok(body) = resp.text().await else {
            continue;
        };
        let (title, text) = if is_html || body.trim_start().starts_with('<') {
            (
                util::html_title(&body).unwrap_or_else(|| u.clone()),
                util::html_text(&body),
            )
        } else {
            (u.clone(), body)
        };
        out.push(DocPage {
            platform: host,
            url: u.clone(),
            title,
            text,
        });
    }
    out
}

async fn submit(app: App, req: Request, deep: bool) -> Resp {
    let user = auth::rest_user(&app, req.headers())?;
    if deep && !user.paid() {
        return Err(errors::rest_with(
            StatusCode::PAYMENT_REQUIRED,
            "Subscription required",
            "Deep specs need a paid subscription tier. Subscribe, or use a fast spec.",
            json!({"requiresSubscription": true, "actionUrl": errors::TOPUP_URL}),
        ));
    }
    let form = parse_form(req).await?;
    if form.input.trim().is_empty() && form.file.is_none() {
        return Err(errors::invalid(
            "Describe what to build in `input`, or upload a `file`.",
        ));
    }
    for u in &form.doc_urls {
        match url::Url::parse(u) {
            Ok(p) if matches!(p.scheme(), "http" | "https") => {}
            _ => {
                return Err(errors::invalid(&format!(
                    "`docURLs` must hold http(s) URLs; `{u}` is not one."
                )));
            }
        }
    }
    let ftext = form
        .file
        .as_ref()
        .map(|(n, c, b)| file_text(n, c, b))
        .filter(|t| !t.trim().is_empty());
    let full_text = combined_text(&form.input, ftext.as_deref());
    let cost = content::cost(&full_text, deep);
    if user.credits < cost {
        return Err(errors::rest_with(
            StatusCode::PAYMENT_REQUIRED,
            "Insufficient credits",
            &format!(
                "This spec needs {cost} credits and {} remain. Add credits to continue.",
                user.credits
            ),
            json!({"actionUrl": errors::TOPUP_URL}),
        ));
    }
    let docs = fetch_docs(&app, &form.doc_urls).await;

    let id = util::object_id();
    let slow = full_text.contains("[sandbox:slow]") || form.input.contains("[sandbox:slow]");
    let fail = full_text.contains("[sandbox:fail]") || form.input.contains("[sandbox:fail]");
    let (processing_from, due, now) = {
        let now = app.now();
        if slow {
            (now, now + SLOW_MS, now)
        } else {
            let d = app.sim(if deep { DEEP_MS } else { FAST_MS }).as_millis() as i64;
            (now + d / 10, now + d, now)
        }
    };
    let upload = form.file.as_ref().map(|(name, ctype, bytes)| {
        let uid = util::object_id();
        (
            uid,
            Upload {
                name: name.clone(),
                content_type: ctype.clone(),
                b64: base64::engine::general_purpose::STANDARD.encode(bytes),
            },
        )
    });
    let rec = SpecRec {
        id: id.clone(),
        owner: user.id.clone(),
        owner_org: user.org.clone(),
        created: now,
        deep,
        input: form.input.clone(),
        file_text: ftext,
        context: form.context.clone(),
        docs,
        upload: upload
            .as_ref()
            .map(|(uid, u)| (uid.clone(), u.name.clone())),
        due,
        processing_from,
        fail,
        cost,
        settled: None,
        project_id: None,
        execution_ms: (due - now) as f64,
    };
    {
        let mut d = app.data();
        if let Some((uid, u)) = upload {
            d.uploads.insert(uid, u);
        }
        d.specs.push(rec);
    }
    app.touch();

    if form.is_async {
        let body = SpecAccepted {
            spec_id: id,
            status: SpecStatus::Pending,
        };
        return Ok(Json(body).into_response());
    }
    let wait = (due - now).max(0) as u64;
    if wait > 0 {
        tokio::time::sleep(Duration::from_millis(wait)).await;
    }
    // The clock may have been advanced meanwhile; settle at `due` at the latest.
    settle_until(&app, due);
    let d = app.data();
    let Some(rec) = d.specs.iter().find(|s| s.id == id) else {
        return Err(errors::rest(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal error",
            "The sandbox was reset while the spec was generating.",
        ));
    };
    let result = spec_result(&app, rec);
    Ok(Json(result).into_response())
}

fn combined_text(input: &str, file: Option<&str>) -> String {
    match file {
        Some(f) if input.trim().is_empty() => f.to_owned(),
        Some(f) => format!("{input}\n{f}"),
        None => input.to_owned(),
    }
}

/// Settles every spec whose work has ended by now.
pub fn settle(app: &App) {
    let changed = {
        let mut d = app.data();
        let now = d.now();
        settle_data(&mut d, now)
    };
    if changed {
        app.touch();
    }
}

fn settle_until(app: &App, at: i64) {
    let changed = {
        let mut d = app.data();
        let now = d.now().max(at);
        settle_data(&mut d, now)
    };
    if changed {
        app.touch();
    }
}

fn settle_data(d: &mut Data, now: i64) -> bool {
    let mut changed = false;
    let mut new_projects = Vec::new();
    let mut charges: Vec<(String, f64)> = Vec::new();
    for s in d.specs.iter_mut() {
        if s.settled.is_some() || now < s.due {
            continue;
        }
        changed = true;
        if s.fail {
            s.settled = Some("failed".into());
            continue;
        }
        let g = generate(s);
        let pid = util::object_id();
        s.project_id = Some(pid.clone());
        s.settled = Some("completed".into());
        charges.push((s.owner.clone(), s.cost));
        new_projects.push(ProjectRec {
            id: pid,
            owner: s.owner.clone(),
            owner_org: s.owner_org.clone(),
            spec_id: s.id.clone(),
            name: g.title.clone(),
            intent: g.human.executive_summary.clone(),
            created: s.due,
            features: g
                .features
                .iter()
                .zip(g.feature_stories.iter())
                .map(|(n, c)| PlannedFeature {
                    name: n.clone(),
                    stories: *c,
                })
                .collect(),
            runs: Vec::new(),
        });
    }
    for (owner, cost) in charges {
        if let Some(u) = d.user_mut(&owner) {
            u.charge(cost);
        }
    }
    for p in new_projects {
        d.projects.insert(p.id.clone(), p);
    }
    changed
}

/// Generates a spec's content from its stored inputs.
pub fn generate(s: &SpecRec) -> Generated {
    let text = combined_text(&s.input, s.file_text.as_deref());
    let mut platforms: Vec<String> = s.docs.iter().map(|d| d.platform.clone()).collect();
    platforms.dedup();
    content::generate(&SpecInput {
        text: &text,
        context: s.context.as_deref(),
        deep: s.deep,
        doc_platforms: platforms,
    })
}

/// Status, progress and live credits of a spec at `now`.
fn phase(s: &SpecRec, now: i64) -> (SpecStatus, Option<String>, f64) {
    match s.settled.as_deref() {
        Some("completed") => return (SpecStatus::Completed, None, s.cost),
        Some("failed") => return (SpecStatus::Failed, None, 0.0),
        _ => {}
    }
    if now < s.processing_from {
        return (SpecStatus::Pending, None, 0.0);
    }
    let span = (s.due - s.processing_from).max(1) as f64;
    let frac = ((now - s.processing_from) as f64 / span).clamp(0.0, 0.99);
    let progress = if frac < 0.3 {
        "Analyzing the input and extracting features"
    } else if frac < 0.7 {
        "Drafting milestones, stories and acceptance criteria"
    } else {
        "Estimating hours and writing the markdown"
    };
    (
        SpecStatus::Processing,
        Some(progress.to_owned()),
        util::round2(s.cost * frac),
    )
}

const ERROR_MESSAGE: &str =
    "Generation failed: the input asked the sandbox to fail ([sandbox:fail]).";

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
fn spec_result(app: &App, s: &SpecRec) -> SpecResult {
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

fn record(app: &App, s: &SpecRec, now: i64) -> SpecRecord {
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

async fn spec_status(
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

/// Parsed `limit`, `skip`, `endpoint`, `status` (and `query`).
pub struct ListQuery {
    pub limit: usize,
    pub skip: usize,
    pub params: BTreeMap<String, String>,
}

/// Reads `limit` (1-100, default 20) and `skip` (>= 0, default 0) with the 400 rules.
pub fn list_query(raw: Option<String>) -> Result<ListQuery, Response> {
    let params: BTreeMap<String, String> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let limit = match params.get("limit") {
        None => 20,
        Some(v) => match v.trim().parse::<i64>() {
            Ok(n) if (1..=100).contains(&n) => n as usize,
            _ => return Err(errors::invalid("`limit` must be an integer from 1 to 100.")),
        },
    };
    let skip = match params.get("skip") {
        None => 0,
        Some(v) => match v.trim().parse::<i64>() {
            Ok(n) if n >= 0 => n as usize,
            _ => return Err(errors::invalid("`skip` must be an integer >= 0.")),
        },
    };
    Ok(ListQuery {
        limit,
        skip,
        params,
    })
}

fn filtered(app: &App, headers: &axum::http::HeaderMap, raw: Option<String>, find: bool) -> Resp {
    let user = auth::rest_user(app, headers)?;
    let q = list_query(raw)?;
    let endpoint = match q.params.get("endpoint").map(String::as_str) {
        None => None,
        Some(e @ ("fast_spec" | "deep_spec")) => Some(e.to_owned()),
        Some(_) => {
            return Err(errors::invalid(
                "`endpoint` must be `fast_spec` or `deep_spec`.",
            ));
        }
    };
    let status = match q.params.get("status").map(String::as_str) {
        None => None,
        Some(s @ ("pending" | "processing" | "completed" | "failed")) => Some(s.to_owned()),
        Some(_) => {
            return Err(errors::invalid(
                "`status` must be `pending`, `processing`, `completed` or `failed`.",
            ));
        }
    };
    let re = if find {
        let Some(query) = q.params.get("query").filter(|s| !s.is_empty()) else {
            return Err(errors::invalid(
                "`query` (a regular expression) is required.",
            ));
        };
        match regex::RegexBuilder::new(query)
            .case_insensitive(true)
            .size_limit(1 << 20)
            .build()
        {
            Ok(r) => Some(r),
            Err(e) => {
                return Err(errors::invalid(&format!(
                    "`query` is not a valid regular expression: {e}"
                )));
            }
        }
    } else {
        None
    };
    settle(app);
    let d = app.data();
    let now = d.now();
    let mut matching: Vec<&SpecRec> = d
        .specs
        .iter()
        .filter(|s| user.can_read(&s.owner, s.owner_org.as_deref()))
        .filter(|s| endpoint.as_deref().is_none_or(|e| endpoint_str(s) == e))
        .filter(|s| {
            status
                .as_deref()
                .is_none_or(|st| phase(s, now).0.as_str() == st)
        })
        .filter(|s| re.as_ref().is_none_or(|r| r.is_match(&s.input)))
        .collect();
    matching.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
    let total = matching.len();
    let specs: Vec<SpecRecord> = matching
        .into_iter()
        .skip(q.skip)
        .take(q.limit)
        .map(|s| record(app, s, now))
        .collect();
    let has_more = q.skip + specs.len() < total;
    Ok(Json(SpecList {
        specs,
        total: total as u64,
        has_more,
    })
    .into_response())
}

fn endpoint_str(s: &SpecRec) -> &'static str {
    if s.deep { "deep_spec" } else { "fast_spec" }
}

async fn list_specs(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
    RawQuery(q): RawQuery,
) -> Resp {
    filtered(&app, &headers, q, false)
}

async fn find_specs(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
    RawQuery(q): RawQuery,
) -> Resp {
    filtered(&app, &headers, q, true)
}

async fn credits_balance(State(app): State<App>, headers: axum::http::HeaderMap) -> Resp {
    let user = auth::credits_user(&app, &headers)?;
    settle(&app);
    let credits = app
        .data()
        .users
        .get(&user.id)
        .map(|u| u.credits)
        .unwrap_or(0.0);
    Ok(Json(CreditsBalance {
        success: true,
        credits_remaining: credits,
    })
    .into_response())
}

fn not_found() -> Response {
    errors::rest(StatusCode::NOT_FOUND, "Not found", "No such file.")
}

fn completed_spec(app: &App, id: &str) -> Option<SpecRec> {
    settle(app);
    app.data()
        .specs
        .iter()
        .find(|s| s.id == id && s.settled.as_deref() == Some("completed"))
        .cloned()
}

fn bytes_response(ctype: &str, body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, ctype.to_owned())], Body::from(body)).into_response()
}

async fn spec_file(State(app): State<App>, Path((id, file)): Path<(String, String)>) -> Resp {
    let s = completed_spec(&app, &id).ok_or_else(not_found)?;
    let g = generate(&s);
    match file.as_str() {
        "human.md" => Ok(bytes_response(
            "text/markdown; charset=utf-8",
            g.human_md.into_bytes(),
        )),
        "coding-agent.md" => Ok(bytes_response(
            "text/markdown; charset=utf-8",
            g.agent_md.into_bytes(),
        )),
        "architecture.png" => Ok(bytes_response(
            "image/png",
            media::architecture_png(&g.architecture),
        )),
        _ => Err(not_found()),
    }
}

fn docs_markdown(host: &str, pages: &[&DocPage]) -> String {
    let mut md = format!("# Documentation: {host}\n\n");
    for p in pages {
        md.push_str(&format!(
            "## {}\n\nSource: {}\n\n{}\n\n",
            p.title, p.url, p.text
        ));
    }
    md
}

async fn doc_file(State(app): State<App>, Path((id, file)): Path<(String, String)>) -> Resp {
    let s = completed_spec(&app, &id).ok_or_else(not_found)?;
    let (host, ext) = if let Some(h) = file.strip_suffix(".zip") {
        (h, "zip")
    } else if let Some(h) = file.strip_suffix(".md") {
        (h, "md")
    } else {
        return Err(not_found());
    };
    let pages: Vec<&DocPage> = s.docs.iter().filter(|d| d.platform == host).collect();
    if pages.is_empty() {
        return Err(not_found());
    }
    let md = docs_markdown(host, &pages);
    if ext == "md" {
        return Ok(bytes_response(
            "text/markdown; charset=utf-8",
            md.into_bytes(),
        ));
    }
    let mut files = vec![("index.md".to_owned(), md)];
    for (i, p) in pages.iter().enumerate() {
        files.push((
            format!("pages/{:02}-{}.md", i + 1, util::slug(&p.title)),
            format!("# {}\n\nSource: {}\n\n{}\n", p.title, p.url, p.text),
        ));
    }
    Ok(bytes_response("application/zip", media::zip(&files)))
}

async fn upload_file(State(app): State<App>, Path((id, _name)): Path<(String, String)>) -> Resp {
    let u = app.data().uploads.get(&id).cloned().ok_or_else(not_found)?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(u.b64.as_bytes())
        .unwrap_or_default();
    Ok(bytes_response(&u.content_type, bytes))
}
