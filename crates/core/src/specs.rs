//! Spec use cases: a draft checked and read into a submission (its file read from disk here, never
//! sent through the web view), the service's specs listed with the local cache as the offline
//! fallback, one spec read and cached, and its two markdown documents rendered to safe HTML.

use std::path::Path;

use serde::{Deserialize, Serialize};
use specdesk_client::{Client, FileUpload, SpecListQuery, SpecSubmission};
use specdesk_types::{SpecEndpoint, SpecRecord, SpecStatus, SpecStatusResponse};

use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::Library;
use crate::markdown::{Rendered, render};
use crate::settings::SpecDepth;

/// Largest file Specdesk sends with a spec (the service states no limit; larger files are almost
/// always the wrong file).
pub const MAX_SPEC_FILE_BYTES: u64 = 20 * 1024 * 1024;

/// File types the service parses as a spec's input, with the media type each is sent as.
pub(crate) const SPEC_FILE_TYPES: &[(&str, &str)] = &[
    ("md", "text/markdown"),
    ("markdown", "text/markdown"),
    ("txt", "text/plain"),
    ("text", "text/plain"),
    ("pdf", "application/pdf"),
    ("json", "application/json"),
    ("csv", "text/csv"),
];

/// What the composer sends: the draft as the user wrote it.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct SpecDraft {
    pub depth: SpecDepth,
    pub input: String,
    /// Existing project context: the spec becomes a feature addition to that project.
    pub current_context: Option<String>,
    #[serde(default)]
    pub doc_urls: Vec<String>,
    /// A file picked or dropped in the UI; read here.
    pub file_path: Option<String>,
}

/// A file picked for a spec, as the composer shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct FileInfo {
    pub path: String,
    pub name: String,
    pub size: u64,
    pub mime: String,
}

/// Which of a spec's two documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum SpecDoc {
    Human,
    CodingAgent,
}

impl SpecDoc {
    fn label(self) -> &'static str {
        match self {
            SpecDoc::Human => "human spec",
            SpecDoc::CodingAgent => "coding-agent spec",
        }
    }
}

/// Filters and page of the spec library. `search` (a regular expression on the input text)
/// switches to find-specs.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct SpecQuery {
    pub limit: Option<i64>,
    pub skip: Option<i64>,
    pub endpoint: Option<SpecEndpoint>,
    pub status: Option<SpecStatus>,
    pub search: Option<String>,
}

/// A page of the spec library.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct SpecPage {
    pub specs: Vec<SpecRecord>,
    pub total: u64,
    pub has_more: bool,
    /// The service could not be reached: `specs` come from the specs kept on this computer.
    pub offline: bool,
}

/// One spec as the spec view shows it. `spec` never carries the two markdown documents (they
/// can be 1 MB each): `render_spec` and `spec_markdown` read them.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct SpecView {
    pub spec: SpecStatusResponse,
    /// Read from the library because the service could not be reached.
    pub offline: bool,
    pub has_human_markdown: bool,
    pub has_agent_markdown: bool,
    /// When it was last kept on this computer.
    pub cached_at: Option<String>,
}

/// Name, size and media type of a file for a spec; refuses what the service cannot parse.
pub fn inspect_file(path: &Path) -> Result<FileInfo, IpcError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let meta = std::fs::metadata(path).map_err(|_| {
        IpcError::invalid(
            "file",
            format!("Specdesk could not read \"{name}\". Check that it still exists, or choose it again."),
        )
    })?;
    if !meta.is_file() {
        return Err(IpcError::invalid(
            "file",
            format!("\"{name}\" is a folder. Choose a file."),
        ));
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let Some((_, mime)) = SPEC_FILE_TYPES.iter().find(|(e, _)| *e == ext) else {
        return Err(IpcError::invalid(
            "file",
            format!(
                "\"{name}\" is not a type the service can read. Use a Markdown, text, PDF, JSON or CSV file."
            ),
        ));
    };
    if meta.len() == 0 {
        return Err(IpcError::invalid(
            "file",
            format!("\"{name}\" is empty. Choose another file."),
        ));
    }
    if meta.len() > MAX_SPEC_FILE_BYTES {
        return Err(IpcError::invalid(
            "file",
            format!(
                "\"{name}\" is {:.1} MB; Specdesk sends files up to 20 MB. Shorten it or send its key parts as text.",
                meta.len() as f64 / 1_048_576.0
            ),
        ));
    }
    Ok(FileInfo {
        path: path.display().to_string(),
        name,
        size: meta.len(),
        mime: (*mime).to_owned(),
    })
}

impl SpecDraft {
    /// The submission this draft makes, its file read from disk; every check the service would
    /// make is made here first, each naming its field.
    pub fn to_submission(&self) -> Result<SpecSubmission, IpcError> {
        let file = match self.file_path.as_deref().filter(|p| !p.trim().is_empty()) {
            None => None,
            Some(path) => {
                let info = inspect_file(Path::new(path))?;
                let bytes = std::fs::read(path).map_err(|_| {
                    IpcError::invalid(
                        "file",
                        format!(
                            "Specdesk could not read \"{}\". Check that it still exists, or choose it again.",
                            info.name
                        ),
                    )
                })?;
                Some(FileUpload {
                    file_name: info.name,
                    mime: info.mime,
                    bytes: bytes.into(),
                })
            }
        };
        let doc_urls: Vec<String> = self
            .doc_urls
            .iter()
            .map(|u| u.trim().to_owned())
            .filter(|u| !u.is_empty())
            .collect();
        for (i, url) in doc_urls.iter().enumerate() {
            let ok = url::Url::parse(url)
                .ok()
                .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
            if ok.is_none() {
                return Err(IpcError::invalid(
                    "docUrls",
                    format!(
                        "Documentation link {} (\"{url}\") is not a full web address. Write it like https://docs.example.com.",
                        i + 1
                    ),
                ));
            }
        }
        let submission = SpecSubmission {
            depth: match self.depth {
                SpecDepth::Fast => specdesk_client::SpecDepth::Fast,
                SpecDepth::Deep => specdesk_client::SpecDepth::Deep,
            },
            input: self.input.clone(),
            current_context: self
                .current_context
                .clone()
                .filter(|c| !c.trim().is_empty()),
            doc_urls,
            file,
        };
        submission.validate()?;
        Ok(submission)
    }
}

/// Whether an error means the service could not be reached (so the library answers instead).
pub(crate) fn unreachable(e: &specdesk_client::Error) -> bool {
    matches!(
        IpcError::from(e).kind,
        IpcErrorKind::Network | IpcErrorKind::Server | IpcErrorKind::Stream
    )
}

fn to_query(q: &SpecQuery) -> SpecListQuery {
    SpecListQuery {
        limit: q.limit,
        skip: q.skip,
        endpoint: q.endpoint.clone(),
        status: q.status.clone(),
        search: q.search.clone().filter(|s| !s.is_empty()),
    }
}

/// A page of the service's specs, each kept in the library; when the service cannot be reached,
/// the page of the specs kept on this computer (filtered alike).
pub async fn list_specs(
    client: &Client,
    library: &Library,
    profile_id: &str,
    query: &SpecQuery,
) -> Result<SpecPage, IpcError> {
    let q = to_query(query);
    match client.specs().list(&q).await {
        Ok(list) => {
            for spec in &list.specs {
                library.cache_spec(&spec.id, profile_id, &to_json(spec)?)?;
            }
            Ok(SpecPage {
                specs: list.specs,
                total: list.total,
                has_more: list.has_more,
                offline: false,
            })
        }
        Err(e) if unreachable(&e) => cached_page(library, profile_id, query),
        Err(e) => Err(IpcError::from(&e)),
    }
}

/// A page of the specs kept on this computer for `profile_id`, filtered as the service filters
/// (depth, status, `search` as a case-insensitive regular expression on the description), newest
/// first; never touches the network. `offline` is true: the rows are the ones kept here. The
/// library answers each keystroke with it before the service's answer (and `list_specs` falls back
/// to it). A pattern Rust's regex cannot use is refused with the field `search`.
pub fn cached_page(
    library: &Library,
    profile_id: &str,
    query: &SpecQuery,
) -> Result<SpecPage, IpcError> {
    let pattern = match query.search.as_deref().filter(|s| !s.is_empty()) {
        None => None,
        Some(p) => Some(
            regex::RegexBuilder::new(p)
                .case_insensitive(true)
                .size_limit(1 << 22)
                .build()
                .map_err(|_| {
                    IpcError::invalid(
                        "search",
                        "That search pattern cannot be used on the specs kept on this computer. Search for plain words instead.",
                    )
                })?,
        ),
    };
    let endpoint = query.endpoint.as_ref().map(|e| e.as_str().to_owned());
    let status = query.status.as_ref().map(|s| s.as_str().to_owned());
    // The filters read the listing's columns; only the page's own rows are read in full.
    let matching: Vec<String> = library
        .cached_specs(Some(profile_id), u32::MAX, 0)?
        .into_iter()
        .filter(|c| endpoint.is_none() || c.endpoint == endpoint)
        .filter(|c| status.is_none() || c.status == status)
        .filter(|c| {
            pattern
                .as_ref()
                .is_none_or(|p| p.is_match(c.input.as_deref().unwrap_or("")))
        })
        .map(|c| c.spec_id)
        .collect();
    let skip = query.skip.unwrap_or(0).max(0) as usize;
    let limit = query.limit.unwrap_or(20).clamp(1, 100) as usize;
    let total = matching.len();
    let specs = matching
        .iter()
        .skip(skip)
        .filter_map(|id| {
            library
                .cached_spec(id)
                .ok()
                .flatten()
                .and_then(|json| record_of(id, json))
        })
        .take(limit)
        .collect();
    Ok(SpecPage {
        specs,
        total: total as u64,
        has_more: skip + limit < total,
        offline: true,
    })
}

/// A cached spec (a list record, a status read) as a list record.
fn record_of(spec_id: &str, mut json: serde_json::Value) -> Option<SpecRecord> {
    let o = json.as_object_mut()?;
    o.remove("humanSpecMarkdown");
    o.remove("codingAgentSpecMarkdown");
    o.entry("_id").or_insert_with(|| spec_id.into());
    let completed = o.get("status").and_then(|s| s.as_str()) == Some("completed");
    o.entry("success").or_insert_with(|| completed.into());
    o.entry("input").or_insert_with(|| "".into());
    o.entry("created").or_insert_with(|| "".into());
    o.entry("endpoint").or_insert_with(|| "fast_spec".into());
    serde_json::from_value(json).ok()
}

/// One spec: read from the service and kept in the library (with its markdown, for offline
/// reading), or read from the library when the service cannot be reached.
pub async fn get_spec(
    client: &Client,
    library: &Library,
    profile_id: &str,
    spec_id: &str,
) -> Result<SpecView, IpcError> {
    match client.specs().status(spec_id).await {
        Ok(mut status) => {
            library.cache_spec(spec_id, profile_id, &to_json(&status)?)?;
            if let Some(plan) = &status.plan {
                library.record_plan(plan)?;
            }
            status.human_spec_markdown = None;
            status.coding_agent_spec_markdown = None;
            view_of(library, spec_id, status, false)
        }
        Err(e) if unreachable(&e) => {
            let Some(json) = library.cached_spec(spec_id)? else {
                return Err(IpcError::from(&e));
            };
            let mut status: SpecStatusResponse = serde_json::from_value(json).map_err(|_| {
                IpcError::storage("a spec kept on this computer could not be read back")
            })?;
            status.human_spec_markdown = None;
            status.coding_agent_spec_markdown = None;
            view_of(library, spec_id, status, true)
        }
        Err(e) => Err(IpcError::from(&e)),
    }
}

fn view_of(
    library: &Library,
    spec_id: &str,
    spec: SpecStatusResponse,
    offline: bool,
) -> Result<SpecView, IpcError> {
    let state = library.cached_spec_state(spec_id)?;
    Ok(SpecView {
        spec,
        offline,
        has_human_markdown: state.as_ref().is_some_and(|s| s.has_human_markdown),
        has_agent_markdown: state.as_ref().is_some_and(|s| s.has_agent_markdown),
        cached_at: state.map(|s| s.cached_at),
    })
}

/// One of a spec's markdown documents: from the library, else read from the service (and kept).
pub async fn spec_markdown(
    client: &Client,
    library: &Library,
    profile_id: &str,
    spec_id: &str,
    doc: SpecDoc,
) -> Result<String, IpcError> {
    let pick = |library: &Library| -> Result<Option<String>, IpcError> {
        let m = library.cached_spec_markdown(spec_id)?.unwrap_or_default();
        Ok(match doc {
            SpecDoc::Human => m.human,
            SpecDoc::CodingAgent => m.coding_agent,
        })
    };
    if let Some(md) = pick(library)? {
        return Ok(md);
    }
    get_spec(client, library, profile_id, spec_id).await?;
    pick(library)?.ok_or_else(|| {
        IpcError::not_found(format!(
            "This spec has no {} yet. It appears when the spec is completed.",
            doc.label()
        ))
    })
}

/// One of a spec's documents as safe HTML with its table of contents.
pub async fn render_spec(
    client: &Client,
    library: &Library,
    profile_id: &str,
    spec_id: &str,
    doc: SpecDoc,
) -> Result<Rendered, IpcError> {
    let md = spec_markdown(client, library, profile_id, spec_id, doc).await?;
    Ok(render(&md))
}

fn to_json<T: Serialize>(value: &T) -> Result<serde_json::Value, IpcError> {
    serde_json::to_value(value).map_err(|e| IpcError::new(IpcErrorKind::Internal, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four specs kept for "sandbox" (newest first: shopping, habits, C++, a failed one) and one
    /// for another connection.
    fn kept() -> Library {
        let lib = Library::in_memory().unwrap();
        let specs = [
            (
                "a1",
                "sandbox",
                "A C++ build dashboard for game studios",
                "deep_spec",
                "completed",
                "2026-11-19T09:30:00.000Z",
            ),
            (
                "a2",
                "sandbox",
                "A shared shopping list (beta) for roommates",
                "fast_spec",
                "completed",
                "2026-11-21T07:15:00.000Z",
            ),
            (
                "a3",
                "sandbox",
                "A habit tracker with streaks",
                "fast_spec",
                "completed",
                "2026-11-20T08:00:00.000Z",
            ),
            (
                "a4",
                "sandbox",
                "A marketplace for used lab equipment",
                "fast_spec",
                "failed",
                "2026-11-18T08:00:00.000Z",
            ),
            (
                "b1",
                "p_work",
                "A C++ chat server",
                "fast_spec",
                "completed",
                "2026-11-22T08:00:00.000Z",
            ),
        ];
        for (id, profile, input, endpoint, status, created) in specs {
            let record = serde_json::json!({
                "_id": id, "input": input, "endpoint": endpoint, "status": status,
                "created": created, "humanSpecMarkdown": "# Kept"
            });
            lib.cache_spec(id, profile, &record).unwrap();
        }
        lib
    }

    fn search(search: &str) -> SpecQuery {
        SpecQuery {
            search: Some(search.into()),
            ..SpecQuery::default()
        }
    }

    fn inputs(page: &SpecPage) -> Vec<&str> {
        page.specs.iter().map(|s| s.input.as_str()).collect()
    }

    #[test]
    fn cached_specs_are_searched_as_plain_text_and_as_a_pattern() {
        let lib = kept();
        // Plain text, escaped by the UI: only this connection's specs, ignoring case.
        let plain = cached_page(&lib, "sandbox", &search(r"c\+\+\s+BUILD")).unwrap();
        assert_eq!(inputs(&plain), ["A C++ build dashboard for game studios"]);
        assert_eq!(
            (plain.total, plain.has_more, plain.offline),
            (1, false, true)
        );

        let pattern = cached_page(&lib, "sandbox", &search("shopping|habit")).unwrap();
        assert_eq!(
            inputs(&pattern),
            [
                "A shared shopping list (beta) for roommates",
                "A habit tracker with streaks"
            ],
            "newest first"
        );
        let filtered = SpecQuery {
            endpoint: Some(SpecEndpoint::Fast),
            status: Some(SpecStatus::Failed),
            ..search("^a ")
        };
        let failed = cached_page(&lib, "sandbox", &filtered).unwrap();
        assert_eq!(inputs(&failed), ["A marketplace for used lab equipment"]);
        let none = cached_page(&lib, "sandbox", &search("chat server")).unwrap();
        assert_eq!((none.specs.len(), none.total, none.has_more), (0, 0, false));
        // An empty search lists them all.
        assert_eq!(cached_page(&lib, "sandbox", &search("")).unwrap().total, 4);
    }

    #[test]
    fn cached_specs_are_searched_a_page_at_a_time() {
        let lib = kept();
        let page = |skip, limit| {
            let q = SpecQuery {
                skip: Some(skip),
                limit: Some(limit),
                ..search("a")
            };
            cached_page(&lib, "sandbox", &q).unwrap()
        };
        let first = page(0, 3);
        assert_eq!(
            (first.specs.len(), first.total, first.has_more),
            (3, 4, true)
        );
        let last = page(3, 3);
        assert_eq!(inputs(&last), ["A marketplace for used lab equipment"]);
        assert_eq!((last.total, last.has_more), (4, false));
        assert_eq!(page(8, 3).specs.len(), 0);
    }

    #[test]
    fn a_cached_specs_search_refuses_a_bad_pattern_with_its_field() {
        let err = cached_page(&kept(), "sandbox", &search("(recipe")).unwrap_err();
        assert_eq!(
            (err.kind, err.field.as_deref()),
            (IpcErrorKind::InvalidInput, Some("search"))
        );
    }
}
