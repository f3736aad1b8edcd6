//! list-specs and find-specs (with the shared `limit`/`skip` rules), and credits-balance.

use super::results::record;
use super::settle::{phase, settle};
use crate::auth;
use crate::errors::{self, Resp};
use crate::state::{App, SpecRec};
use axum::Json;
use axum::extract::{RawQuery, State};
use axum::response::{IntoResponse, Response};
use specdesk_types::{CreditsBalance, SpecList, SpecRecord};
use std::collections::BTreeMap;

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

pub(super) async fn list_specs(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
    RawQuery(q): RawQuery,
) -> Resp {
    filtered(&app, &headers, q, false)
}

pub(super) async fn find_specs(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
    RawQuery(q): RawQuery,
) -> Resp {
    filtered(&app, &headers, q, true)
}

pub(super) async fn credits_balance(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
) -> Resp {
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
