//! A submission: validation, cost and credits, the documentation it links, and its record; then
//! the answer, at once (`async`) or when the simulated work is done.

use super::form::{Form, file_text, parse_form};
use super::results::spec_result;
use super::settle::settle_until;
use super::{DEEP_MS, FAST_MS, SLOW_MS};
use crate::auth;
use crate::content;
use crate::errors::{self, Resp};
use crate::state::{App, DocPage, SpecRec, Upload, User};
use crate::util;
use axum::Json;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde_json::json;
use specdesk_types::{SpecAccepted, SpecStatus};
use std::time::Duration;

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
            .http()
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

pub(super) async fn submit(app: App, req: Request, deep: bool) -> Resp {
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
    validate(&form)?;
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
    let is_async = form.is_async;
    let (id, due, now) = store(
        &app,
        &user,
        Submission {
            form,
            file_text: ftext,
            full_text,
            deep,
            cost,
        },
        docs,
    );

    if is_async {
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

/// The 400s of a parsed submission: nothing to build from, or a `docURLs` entry that is not an
/// http(s) URL.
fn validate(form: &Form) -> Result<(), Response> {
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
    Ok(())
}

/// A valid, paid-for submission.
struct Submission {
    form: Form,
    /// Text of the uploaded file, when it has any.
    file_text: Option<String>,
    /// The input and the file's text together.
    full_text: String,
    deep: bool,
    cost: f64,
}

/// Records the spec (and its upload) with its simulated schedule: (id, due, submitted at).
fn store(app: &App, user: &User, sub: Submission, docs: Vec<DocPage>) -> (String, i64, i64) {
    let Submission {
        form,
        file_text: ftext,
        full_text,
        deep,
        cost,
    } = sub;
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
    (id, due, now)
}

pub(super) fn combined_text(input: &str, file: Option<&str>) -> String {
    match file {
        Some(f) if input.trim().is_empty() => f.to_owned(),
        Some(f) => format!("{input}\n{f}"),
        None => input.to_owned(),
    }
}
