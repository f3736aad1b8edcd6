//! Spec generation, list/find, spec-status and credits.

use crate::common::{assert_covers, assert_keys, assert_keys_across, json, roundtrip};
use specdesk_types::*;

const RESULT_FIELDS: &[&str] = &[
    "endpoint",
    "input",
    "status",
    "success",
    "humanSpecUrl",
    "codingAgentSpecUrl",
    "humanSpecMarkdown",
    "codingAgentSpecMarkdown",
    "humanSpecJson",
    "codingAgentSpecJson",
    "totalHumanHours",
    "architectureInfographicUrl",
    "executionTime",
    "svcUrl",
    "toolAUrl",
    "toolBUrl",
    "toolCUrl",
    "toolDUrl",
    "creditsUsed",
    "zippedDocsUrls",
    "userFlowGraph",
    "architectureGraph",
    "enrichedTechStack",
];

#[test]
fn spec_request() {
    let req: SpecRequest = roundtrip("specs/spec-request.json");
    assert_keys(
        &json("specs/spec-request.json"),
        "",
        &["input", "currentContext", "docURLs", "async"],
    );
    assert_eq!(req.is_async, Some(true));
    assert_eq!(req.doc_urls.as_deref().map(<[_]>::len), Some(2));
}

#[test]
fn spec_accepted() {
    let a: SpecAccepted = roundtrip("specs/spec-accepted.json");
    assert_eq!(a.status, SpecStatus::Pending);
    assert_eq!(a.spec_id, "6650f1c2a9b3e4d5f6a7b8c9");
}

#[test]
fn credits_balance() {
    let c: CreditsBalance = roundtrip("specs/credits-balance.json");
    assert!(c.success);
    assert_eq!(c.credits_remaining, 987.5);
}

#[test]
fn deep_spec_result_with_every_field() {
    let r: SpecResult = roundtrip("specs/spec-result-deep.json");
    let v = json("specs/spec-result-deep.json");
    assert_keys(&v, "", RESULT_FIELDS);
    assert_keys_across(
        &v,
        "/zippedDocsUrls",
        &["platform", "masterZipShortUrl", "masterMarkdownShortUrl"],
    );
    for graph in ["/userFlowGraph", "/architectureGraph"] {
        assert_keys_across(
            &v,
            &format!("{graph}/nodes"),
            &["id", "label", "type", "description", "level", "hours"],
        );
        assert_keys_across(
            &v,
            &format!("{graph}/edges"),
            &["source", "target", "description", "edgeType"],
        );
    }
    assert_keys(
        &v,
        "/enrichedTechStack/0",
        &[
            "name",
            "useFor",
            "reason",
            "description",
            "link",
            "helpfulLinks",
            "alternatives",
        ],
    );
    assert_keys(
        &v,
        "/enrichedTechStack/0/helpfulLinks/0",
        &["url", "description"],
    );
    assert_keys(
        &v,
        "/enrichedTechStack/0/alternatives/0",
        &["name", "link", "description"],
    );

    assert_eq!(r.endpoint, SpecEndpoint::Deep);
    assert_eq!(r.status, SpecStatus::Completed);
    assert_eq!(r.zipped_docs_urls.len(), 2);
    assert_eq!(r.zipped_docs_urls[1].master_markdown_short_url, None);
    let flow = r.user_flow_graph.as_ref().unwrap();
    assert_eq!(flow.nodes[1].node_type.as_deref(), Some("action"));
    assert_eq!(flow.nodes[1].hours, Some(12.5));
    assert_eq!(flow.edges[0].edge_type.as_deref(), Some("navigation"));
    let tech = &r.enriched_tech_stack.as_ref().unwrap()[0];
    assert_eq!(tech.alternatives[0].name, "Remix");
}

#[test]
fn human_spec_json_has_hours_personas_and_roles() {
    let r: SpecResult = roundtrip("specs/spec-result-deep.json");
    let v = json("specs/spec-result-deep.json");
    let h = "/humanSpecJson";
    assert_keys(
        &v,
        h,
        &[
            "title",
            "executiveSummary",
            "coreFunctionalities",
            "techStack",
            "techStackGrouped",
            "milestones",
            "personas",
            "roles",
            "totalHours",
        ],
    );
    assert_keys(
        &v,
        &format!("{h}/coreFunctionalities/0"),
        &["name", "description", "priority"],
    );
    assert_keys(&v, &format!("{h}/techStack/0"), &["name", "category"]);
    assert_keys(
        &v,
        &format!("{h}/milestones/0"),
        &["milestoneNumber", "description", "hours", "stories"],
    );
    assert_keys(
        &v,
        &format!("{h}/milestones/0/stories/0"),
        &[
            "id",
            "title",
            "description",
            "acceptanceCriteria",
            "complexity",
            "hours",
            "subTasks",
        ],
    );
    assert_keys(
        &v,
        &format!("{h}/milestones/0/stories/0/subTasks/0"),
        &["id", "description", "complexity", "hours", "roles"],
    );
    assert_keys(
        &v,
        &format!("{h}/personas/0"),
        &[
            "title",
            "description",
            "primaryGoals",
            "painPoints",
            "keyTasks",
        ],
    );
    assert_keys(&v, &format!("{h}/roles/0"), &["name", "shortHand"]);

    let human = r.human_spec_json.unwrap();
    assert_eq!(human.total_hours, Some(40.5));
    assert_eq!(human.roles.as_ref().unwrap()[1].short_hand, "DO");
    assert_eq!(
        human.personas.as_ref().unwrap()[0]
            .key_tasks
            .as_ref()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(
        human.tech_stack_grouped["CI/CD"],
        vec!["GitHub Actions".to_owned()]
    );
    let m2 = &human.milestones[1];
    assert_eq!(m2.milestone_number, 2.0);
    assert_eq!(m2.hours, Some(16.5));
    let sub = &m2.stories[0].sub_tasks[1];
    assert_eq!(sub.complexity, Some(Complexity::Xl));
    assert_eq!(sub.hours, Some(10.0));
    assert_eq!(sub.roles.as_deref(), Some(&["DO".to_owned()][..]));
    // Subtask complexities span S..XL and priorities span the three levels.
    let complexities: Vec<String> = human
        .milestones
        .iter()
        .flat_map(|m| &m.stories)
        .flat_map(|s| &s.sub_tasks)
        .filter_map(|t| t.complexity.as_ref().map(|c| c.to_string()))
        .collect();
    assert_covers("subtask complexity", &["S", "M", "L", "XL"], &complexities);
    let priorities: Vec<String> = human
        .core_functionalities
        .iter()
        .filter_map(|c| c.priority.as_ref().map(|p| p.to_string()))
        .collect();
    assert_covers("priority", Priority::KNOWN, &priorities);
}

#[test]
fn coding_agent_spec_json_has_no_hours_personas_or_roles() {
    let r: SpecResult = roundtrip("specs/spec-result-deep.json");
    let agent = r.coding_agent_spec_json.unwrap();
    assert_eq!(agent.personas, None);
    assert_eq!(agent.roles, None);
    assert_eq!(agent.total_hours, None);
    let m = &agent.milestones[0];
    assert_eq!(m.hours, None);
    assert!(m.stories.iter().all(|s| s.hours.is_none()));
    let story = &m.stories[0];
    assert!(
        story
            .sub_tasks
            .iter()
            .all(|t| t.hours.is_none() && t.roles.is_none())
    );
    // Optional story and subtask fields may be absent.
    assert_eq!(story.sub_tasks[1].id, None);
    assert_eq!(m.stories[1].id, None);
    assert_eq!(m.stories[1].description, None);
    assert_eq!(agent.core_functionalities[1].priority, None);
}

#[test]
fn fast_spec_result() {
    let r: SpecResult = roundtrip("specs/spec-result-fast.json");
    assert_keys(&json("specs/spec-result-fast.json"), "", RESULT_FIELDS);
    assert_eq!(r.endpoint, SpecEndpoint::Fast);
    assert!(r.zipped_docs_urls.is_empty(), "no docURLs: empty array");
    let stories = &r.human_spec_json.as_ref().unwrap().milestones[0].stories;
    let sizes: Vec<String> = stories
        .iter()
        .filter_map(|s| s.complexity.as_ref().map(ToString::to_string))
        .collect();
    assert_eq!(sizes, ["XS", "S", "M"]);
    assert!(stories.iter().all(|s| s.sub_tasks.is_empty()));
}

#[test]
fn spec_list_records_cover_every_field_and_status() {
    let list: SpecList = roundtrip("specs/spec-list.json");
    let v = json("specs/spec-list.json");
    assert_keys(&v, "", &["specs", "total", "hasMore"]);
    assert_keys_across(
        &v,
        "/specs",
        &[
            "_id",
            "created",
            "endpoint",
            "input",
            "status",
            "success",
            "uploadedFileShortUrl",
            "uploadedFileName",
            "humanSpecUrl",
            "totalHumanHours",
            "codingAgentSpecUrl",
            "executionTime",
            "svcUrl",
            "toolAUrl",
            "toolBUrl",
            "toolCUrl",
            "toolDUrl",
            "errorMessage",
            "progress",
        ],
    );
    assert_eq!(list.total, 57);
    assert!(list.has_more);
    let statuses: Vec<String> = list.specs.iter().map(|s| s.status.to_string()).collect();
    assert_covers("spec status", SpecStatus::KNOWN, &statuses);
    let endpoints: Vec<String> = list.specs.iter().map(|s| s.endpoint.to_string()).collect();
    assert_covers("spec endpoint", SpecEndpoint::KNOWN, &endpoints);
    let done = &list.specs[0];
    assert_eq!(done.id, "6650f1c2a9b3e4d5f6a7b8c9");
    assert_eq!(
        done.uploaded_file_name.as_deref(),
        Some("recipes-brief.pdf")
    );
    assert_eq!(done.execution_time, Some(148230.0));
    assert_eq!(
        list.specs[1].progress.as_deref(),
        Some("Drafting milestones (2 of 5)")
    );
    assert!(list.specs[3].error_message.is_some());
}

#[test]
fn find_specs_response() {
    let list: SpecList = roundtrip("specs/find-specs.json");
    assert_eq!(list.specs.len(), 1);
    assert_eq!(list.total, 1);
    assert!(!list.has_more);
}

#[test]
fn spec_status_in_every_state() {
    let pending: SpecStatusResponse = roundtrip("specs/spec-status-pending.json");
    assert_eq!(pending.status, SpecStatus::Pending);
    assert!(!pending.status.is_terminal());

    let processing: SpecStatusResponse = roundtrip("specs/spec-status-processing.json");
    assert_eq!(processing.status, SpecStatus::Processing);
    assert_eq!(
        processing.progress.as_deref(),
        Some("Drafting milestones (2 of 5)")
    );
    assert_eq!(processing.credits_used, Some(2.75));

    let failed: SpecStatusResponse = roundtrip("specs/spec-status-failed.json");
    assert!(failed.status.is_terminal());
    assert!(failed.error_message.is_some());

    let done: SpecStatusResponse = roundtrip("specs/spec-status-completed.json");
    let v = json("specs/spec-status-completed.json");
    assert_keys(&v, "", RESULT_FIELDS);
    assert_keys(
        &v,
        "",
        &[
            "_id",
            "specId",
            "created",
            "uploadedFileShortUrl",
            "uploadedFileName",
            "plan",
            "projectId",
        ],
    );
    assert!(done.status.is_terminal());
    assert!(done.coding_agent_spec_url.is_some());
    let plan = done.plan.unwrap();
    assert_eq!(plan.project_id, "6650f1c2a9b3e4d5f6a7b8d3");
    assert!(
        plan.features
            .iter()
            .all(|f| f.status == FeatureStatus::Planned)
    );
}
