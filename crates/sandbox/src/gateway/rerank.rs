//! `POST /v1/rerank`: BM25 relevance of each document to the query, most relevant first.

use super::{Gate, begin, credits_for, invalid};
use crate::errors::Resp;
use crate::state::App;
use crate::util;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::IntoResponse;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};
use specdesk_types::{RerankHit, RerankResult, RerankUsage};
use std::collections::HashMap;

/// Rerank models accepted (absent from the catalogs).
pub const RERANK_MODELS: &[&str] = &[
    "cohere/rerank-v3.5",
    "cohere/rerank-4-fast",
    "cohere/rerank-4-pro",
    "voyage/rerank-2.5",
    "voyage/rerank-2.5-lite",
    "qwen/qwen3-reranker-8b",
];

/// USD per search (one query over up to 100 documents).
const USD_PER_SEARCH: f64 = 0.002;

pub fn routes() -> Router<App> {
    Router::new().route("/v1/rerank", post(rerank))
}

/// BM25 (k1 = 1.2, b = 0.75) of every document, mapped to 0..1 by `s / (s + 1)`.
pub fn bm25(query: &str, docs: &[String]) -> Vec<f64> {
    let q = util::words(query);
    let toks: Vec<Vec<String>> = docs.iter().map(|d| util::words(d)).collect();
    let n = toks.len() as f64;
    let avg = (toks.iter().map(Vec::len).sum::<usize>() as f64 / n.max(1.0)).max(1.0);
    let mut df: HashMap<&str, f64> = HashMap::new();
    for t in &toks {
        let mut seen: Vec<&str> = t.iter().map(String::as_str).collect();
        seen.sort_unstable();
        seen.dedup();
        for w in seen {
            *df.entry(w).or_default() += 1.0;
        }
    }
    let (k1, b) = (1.2, 0.75);
    toks.iter()
        .map(|t| {
            let len = t.len() as f64;
            let mut s = 0.0;
            for w in &q {
                let f = t.iter().filter(|x| *x == w).count() as f64;
                if f == 0.0 {
                    continue;
                }
                let d = df.get(w.as_str()).copied().unwrap_or(0.0);
                let idf = (1.0 + (n - d + 0.5) / (d + 0.5)).ln();
                s += idf * f * (k1 + 1.0) / (f + k1 * (1.0 - b + b * len / avg));
            }
            util::round6(s / (s + 1.0))
        })
        .collect()
}

async fn rerank(State(app): State<App>, headers: HeaderMap, body: axum::body::Bytes) -> Resp {
    let meter = begin(&app, &headers, Gate::Full, USD_PER_SEARCH * 10.0)?;
    let fail = |r| Err(meter.fail(&app, r));
    let Ok(v) = serde_json::from_slice::<Value>(&body) else {
        return fail(invalid(
            "Body must be JSON {model, query, documents, top_n?}.",
        ));
    };
    let model = v.get("model").and_then(Value::as_str).unwrap_or("");
    if !RERANK_MODELS.contains(&model) {
        return fail(super::unknown_model(model));
    }
    let Some(query) = v.get("query").and_then(Value::as_str) else {
        return fail(invalid("`query` must be a string."));
    };
    let docs: Option<Vec<String>> = v.get("documents").and_then(Value::as_array).map(|a| {
        a.iter()
            .map(|d| match d {
                Value::String(s) => s.clone(),
                other => other
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned(),
            })
            .collect()
    });
    let Some(docs) = docs.filter(|d| !d.is_empty()) else {
        return fail(invalid(
            "`documents` must be an array of at least one string.",
        ));
    };
    let top_n = match v.get("top_n") {
        None | Some(Value::Null) => None,
        Some(t) => match t.as_u64() {
            Some(n) if n >= 1 => Some(n as usize),
            _ => return fail(invalid("`top_n` must be an integer >= 1.")),
        },
    };
    let scores = bm25(query, &docs);
    let mut hits: Vec<RerankHit> = scores
        .iter()
        .enumerate()
        .map(|(i, s)| RerankHit {
            index: i as u32,
            relevance_score: *s,
        })
        .collect();
    hits.sort_by(|a, b| {
        b.relevance_score
            .total_cmp(&a.relevance_score)
            .then(a.index.cmp(&b.index))
    });
    if let Some(n) = top_n {
        hits.truncate(n);
    }
    let total_tokens = util::tokens(query) + docs.iter().map(|d| util::tokens(d)).sum::<u64>();
    let searches = docs.len().div_ceil(100).max(1) as f64;
    let cost = util::round6(USD_PER_SEARCH * searches);
    let body = RerankResult {
        model: model.to_owned(),
        results: hits,
        usage: Some(RerankUsage { total_tokens }),
    };
    let mut value = serde_json::to_value(&body).unwrap_or_default();
    value["usage"]["cost"] = json!(cost);
    Ok(meter.done(&app, Json(value).into_response(), credits_for(cost)))
}
