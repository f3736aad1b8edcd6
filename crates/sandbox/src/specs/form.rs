//! Reading a submission: a JSON or multipart body, and the text of an uploaded file.

use crate::errors;
use crate::media;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header;
use axum::response::Response;
use specdesk_types::SpecRequest;

/// A parsed submission.
pub(super) struct Form {
    pub input: String,
    pub context: Option<String>,
    pub doc_urls: Vec<String>,
    pub is_async: bool,
    /// (name, content type, bytes).
    pub file: Option<(String, String, Vec<u8>)>,
}

pub(super) async fn parse_form(req: Request) -> Result<Form, Response> {
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
pub(super) fn file_text(name: &str, ctype: &str, bytes: &[u8]) -> String {
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
