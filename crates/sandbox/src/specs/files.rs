//! The files a spec result links to, served without a key once the spec is completed: the two
//! markdown specs, the architecture infographic, documentation (markdown and ZIP) and uploads.

use super::settle::{generate, settle};
use crate::errors::{self, Resp};
use crate::media;
use crate::state::{App, DocPage, SpecRec};
use crate::util;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;

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

pub(super) async fn spec_file(
    State(app): State<App>,
    Path((id, file)): Path<(String, String)>,
) -> Resp {
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

pub(super) async fn doc_file(
    State(app): State<App>,
    Path((id, file)): Path<(String, String)>,
) -> Resp {
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

pub(super) async fn upload_file(
    State(app): State<App>,
    Path((id, _name)): Path<(String, String)>,
) -> Resp {
    let u = app.data().uploads.get(&id).cloned().ok_or_else(not_found)?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(u.b64.as_bytes())
        .unwrap_or_default();
    Ok(bytes_response(&u.content_type, bytes))
}
