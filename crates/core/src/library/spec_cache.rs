//! Cached specs for offline reading, their two markdown documents kept apart.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{Library, now};
use crate::ipc_error::IpcError;

/// What the spec view needs to know of a cached spec besides its JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedSpecState {
    pub has_human_markdown: bool,
    pub has_agent_markdown: bool,
    pub cached_at: String,
}

/// A cached spec, as a list shows it (its markdown is read apart).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct CachedSpec {
    pub spec_id: String,
    pub profile_id: String,
    pub input: Option<String>,
    /// `pending`, `processing`, `completed` or `failed`, as last read.
    pub status: Option<String>,
    /// `fast_spec` or `deep_spec`.
    pub endpoint: Option<String>,
    /// When the service created it.
    pub created: Option<String>,
    pub total_human_hours: Option<f64>,
    pub credits_used: Option<f64>,
    /// Whether its markdown can be read offline.
    pub has_markdown: bool,
    /// When it was last cached here.
    pub cached_at: String,
}

/// The two markdown documents of a cached spec.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct SpecMarkdown {
    pub human: Option<String>,
    pub coding_agent: Option<String>,
}

impl Library {
    /// Keeps a spec (a status read, a result or a list record, as JSON) for offline reading. Its
    /// two markdown documents are kept apart; a later read without them keeps the earlier ones.
    pub fn cache_spec(
        &self,
        spec_id: &str,
        profile_id: &str,
        json: &serde_json::Value,
    ) -> Result<(), IpcError> {
        let mut json = json.clone();
        let (human, agent) = match json.as_object_mut() {
            Some(o) => (
                o.remove("humanSpecMarkdown")
                    .and_then(|v| v.as_str().map(str::to_owned)),
                o.remove("codingAgentSpecMarkdown")
                    .and_then(|v| v.as_str().map(str::to_owned)),
            ),
            None => (None, None),
        };
        let text = |k: &str| json.get(k).and_then(|v| v.as_str()).map(str::to_owned);
        let number = |k: &str| json.get(k).and_then(|v| v.as_f64());
        self.conn().execute(
            "INSERT INTO spec_cache (spec_id, profile_id, json, cached_at, input, status, endpoint,
                 created, total_human_hours, credits_used, human_markdown, agent_markdown)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
             ON CONFLICT(spec_id) DO UPDATE SET
                 -- Merged: a list record (a few fields) never drops what a full read kept
                 -- (scope, graphs, tech stack, plan) for offline reading.
                 json = json_patch(spec_cache.json, excluded.json),
                 cached_at = excluded.cached_at,
                 input = COALESCE(excluded.input, input),
                 status = COALESCE(excluded.status, status),
                 endpoint = COALESCE(excluded.endpoint, endpoint),
                 created = COALESCE(excluded.created, created),
                 total_human_hours = COALESCE(excluded.total_human_hours, total_human_hours),
                 credits_used = COALESCE(excluded.credits_used, credits_used),
                 human_markdown = COALESCE(excluded.human_markdown, human_markdown),
                 agent_markdown = COALESCE(excluded.agent_markdown, agent_markdown)",
            params![
                spec_id,
                profile_id,
                json.to_string(),
                now(),
                text("input"),
                text("status"),
                text("endpoint"),
                text("created"),
                number("totalHumanHours"),
                number("creditsUsed"),
                human,
                agent
            ],
        )?;
        Ok(())
    }

    /// A cached spec as JSON, its markdown included.
    pub fn cached_spec(&self, spec_id: &str) -> Result<Option<serde_json::Value>, IpcError> {
        let row: Option<(String, Option<String>, Option<String>)> = self
            .conn()
            .query_row(
                "SELECT json, human_markdown, agent_markdown FROM spec_cache WHERE spec_id = ?1",
                [spec_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        Ok(row.and_then(|(json, human, agent)| {
            let mut v: serde_json::Value = serde_json::from_str(&json).ok()?;
            if let Some(o) = v.as_object_mut() {
                if let Some(h) = human {
                    o.insert("humanSpecMarkdown".into(), h.into());
                }
                if let Some(a) = agent {
                    o.insert("codingAgentSpecMarkdown".into(), a.into());
                }
            }
            Some(v)
        }))
    }

    /// Whether a cached spec has each of its two documents, and when it was cached, without
    /// reading the documents (a deep spec's are about 1 MB each).
    pub fn cached_spec_state(&self, spec_id: &str) -> Result<Option<CachedSpecState>, IpcError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT human_markdown IS NOT NULL, agent_markdown IS NOT NULL, cached_at
                 FROM spec_cache WHERE spec_id = ?1",
                [spec_id],
                |r| {
                    Ok(CachedSpecState {
                        has_human_markdown: r.get(0)?,
                        has_agent_markdown: r.get(1)?,
                        cached_at: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// Only the markdown of a cached spec (what the spec view renders).
    pub fn cached_spec_markdown(&self, spec_id: &str) -> Result<Option<SpecMarkdown>, IpcError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT human_markdown, agent_markdown FROM spec_cache WHERE spec_id = ?1",
                [spec_id],
                |r| {
                    Ok(SpecMarkdown {
                        human: r.get(0)?,
                        coding_agent: r.get(1)?,
                    })
                },
            )
            .optional()?)
    }

    /// Cached specs, newest first (by the service's creation time); of one profile when
    /// `profile_id` is given.
    pub fn cached_specs(
        &self,
        profile_id: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<CachedSpec>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT spec_id, profile_id, input, status, endpoint, created, total_human_hours,
                 credits_used, human_markdown IS NOT NULL OR agent_markdown IS NOT NULL, cached_at
             FROM spec_cache WHERE ?1 IS NULL OR profile_id = ?1
             ORDER BY COALESCE(created, cached_at) DESC, rowid DESC LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt.query_map(params![profile_id, limit, offset], |r| {
            Ok(CachedSpec {
                spec_id: r.get(0)?,
                profile_id: r.get(1)?,
                input: r.get(2)?,
                status: r.get(3)?,
                endpoint: r.get(4)?,
                created: r.get(5)?,
                total_human_hours: r.get(6)?,
                credits_used: r.get(7)?,
                has_markdown: r.get(8)?,
                cached_at: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_record_never_drops_what_a_full_read_kept() {
        let lib = Library::in_memory().unwrap();
        let full = serde_json::json!({
            "_id": "s", "status": "completed", "input": "A recipe app",
            "humanSpecJson": {"executiveSummary": "Recipes"}, "userFlowGraph": {"nodes": [], "edges": []},
            "humanSpecMarkdown": "# Recipes"
        });
        lib.cache_spec("s", "sandbox", &full).unwrap();
        let record = serde_json::json!({
            "_id": "s", "status": "completed", "input": "A recipe app", "endpoint": "fast_spec",
            "totalHumanHours": 40.0
        });
        lib.cache_spec("s", "sandbox", &record).unwrap();
        assert_eq!(
            lib.cached_spec("s").unwrap(),
            Some(serde_json::json!({
                "_id": "s", "status": "completed", "input": "A recipe app", "endpoint": "fast_spec",
                "totalHumanHours": 40.0,
                "humanSpecJson": {"executiveSummary": "Recipes"}, "userFlowGraph": {"nodes": [], "edges": []},
                "humanSpecMarkdown": "# Recipes"
            }))
        );
        assert_eq!(
            lib.cached_spec_markdown("s")
                .unwrap()
                .unwrap()
                .human
                .as_deref(),
            Some("# Recipes")
        );
    }

    #[test]
    fn a_cached_specs_state_says_which_documents_it_has() {
        let lib = Library::in_memory().unwrap();
        assert_eq!(lib.cached_spec_state("s").unwrap(), None);
        lib.cache_spec(
            "s",
            "sandbox",
            &serde_json::json!({"status": "completed", "humanSpecMarkdown": "# H"}),
        )
        .unwrap();
        let state = lib.cached_spec_state("s").unwrap().unwrap();
        assert_eq!(
            (state.has_human_markdown, state.has_agent_markdown),
            (true, false)
        );
        assert!(state.cached_at.ends_with('Z'), "{}", state.cached_at);
    }

    #[test]
    fn specs_are_cached_for_offline_reading() {
        let lib = Library::in_memory().unwrap();
        assert_eq!(lib.cached_spec("s").unwrap(), None);
        assert_eq!(lib.cached_spec_markdown("s").unwrap(), None);
        lib.cache_spec("s", "sandbox", &serde_json::json!({"v": 1}))
            .unwrap();
        lib.cache_spec("s", "sandbox", &serde_json::json!({"v": 2}))
            .unwrap();
        assert_eq!(
            lib.cached_spec("s").unwrap(),
            Some(serde_json::json!({"v": 2}))
        );
    }

    #[test]
    fn a_cached_spec_keeps_its_markdown_apart_and_lists_without_it() {
        let lib = Library::in_memory().unwrap();
        let done = serde_json::json!({
            "specId": "a1", "input": "A todo app", "status": "completed", "endpoint": "fast_spec",
            "created": "2026-11-22T10:00:00.000Z", "totalHumanHours": 42.5, "creditsUsed": 7.0,
            "humanSpecMarkdown": "# Todo\n", "codingAgentSpecMarkdown": "# Todo (agent)\n"
        });
        lib.cache_spec("a1", "sandbox", &done).unwrap();
        lib.cache_spec(
            "b2",
            "p_work",
            &serde_json::json!({"input": "A chat app", "status": "processing", "created": "2026-11-22T11:00:00.000Z"}),
        )
        .unwrap();
        // A later read without markdown (a list record) keeps the markdown already cached.
        lib.cache_spec(
            "a1",
            "sandbox",
            &serde_json::json!({"input": "A todo app", "status": "completed", "svcUrl": "https://x.example/p"}),
        )
        .unwrap();
        assert_eq!(
            lib.cached_spec_markdown("a1").unwrap(),
            Some(SpecMarkdown {
                human: Some("# Todo\n".into()),
                coding_agent: Some("# Todo (agent)\n".into())
            })
        );
        let full = lib.cached_spec("a1").unwrap().unwrap();
        assert_eq!(full["humanSpecMarkdown"], "# Todo\n");
        assert_eq!(full["svcUrl"], "https://x.example/p");

        let all = lib.cached_specs(None, 10, 0).unwrap();
        let ids: Vec<&str> = all.iter().map(|c| c.spec_id.as_str()).collect();
        assert_eq!(ids, ["b2", "a1"], "newest first");
        let a1 = &all[1];
        assert_eq!(
            (
                a1.input.as_deref(),
                a1.status.as_deref(),
                a1.endpoint.as_deref(),
                a1.created.as_deref(),
                a1.total_human_hours,
                a1.credits_used,
                a1.has_markdown
            ),
            (
                Some("A todo app"),
                Some("completed"),
                Some("fast_spec"),
                Some("2026-11-22T10:00:00.000Z"),
                Some(42.5),
                Some(7.0),
                true
            )
        );
        assert!(!all[0].has_markdown);
        let work = lib.cached_specs(Some("p_work"), 10, 0).unwrap();
        assert_eq!(work.len(), 1);
        assert_eq!(work[0].spec_id, "b2");
        assert_eq!(lib.cached_specs(None, 10, 1).unwrap().len(), 1);
    }
}
