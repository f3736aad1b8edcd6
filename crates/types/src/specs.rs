//! Spec generation, listing and search, and the credits balance.

use crate::plans::Plan;

string_enum! {
    /// Which generator made a spec.
    pub enum SpecEndpoint {
        Fast = "fast_spec",
        Deep = "deep_spec",
    }
}

string_enum! {
    /// Lifecycle of a spec.
    pub enum SpecStatus {
        Pending = "pending",
        Processing = "processing",
        Completed = "completed",
        Failed = "failed",
    }
}

impl SpecStatus {
    /// `completed` or `failed`: nothing more will change.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed)
    }
}

string_enum! {
    /// Priority of a core functionality.
    pub enum Priority {
        High = "High",
        Medium = "Medium",
        Low = "Low",
    }
}

string_enum! {
    /// T-shirt size of a story (`XS`..`XL`) or subtask (`S`..`XL`).
    pub enum Complexity {
        Xs = "XS",
        S = "S",
        M = "M",
        L = "L",
        Xl = "XL",
    }
}

wire! {
    /// Body of `POST /fast-spec` and `POST /deep-spec` as JSON.
    #[serde(rename_all = "camelCase")]
    pub struct SpecRequest {
        /// What to build.
        pub input: String,
        /// Existing project context: makes the result an incremental feature-addition spec.
        pub current_context: Option<String>,
        /// Documentation sites to reference.
        #[serde(rename = "docURLs")]
        #[cfg_attr(feature = "ts", ts(rename = "docURLs"))]
        pub doc_urls: Option<Vec<String>>,
        /// `true` answers at once with a `specId`.
        #[serde(rename = "async")]
        #[cfg_attr(feature = "ts", ts(rename = "async"))]
        pub is_async: Option<bool>,
    }

    /// Answer of an asynchronous spec submission.
    #[serde(rename_all = "camelCase")]
    pub struct SpecAccepted {
        pub spec_id: String,
        pub status: SpecStatus,
    }

    /// One scraped documentation site.
    #[serde(rename_all = "camelCase")]
    pub struct ZippedDocs {
        /// Hostname of the doc URL.
        pub platform: String,
        pub master_zip_short_url: String,
        pub master_markdown_short_url: Option<String>,
    }

    /// A node of `userFlowGraph` or `architectureGraph`.
    #[serde(rename_all = "camelCase")]
    pub struct GraphNode {
        pub id: String,
        pub label: Option<String>,
        #[serde(rename = "type")]
        #[cfg_attr(feature = "ts", ts(rename = "type"))]
        pub node_type: Option<String>,
        pub description: Option<String>,
        pub level: Option<String>,
        pub hours: Option<f64>,
    }

    /// An edge of a graph.
    #[serde(rename_all = "camelCase")]
    pub struct GraphEdge {
        pub source: String,
        pub target: String,
        pub description: Option<String>,
        pub edge_type: Option<String>,
    }

    /// `userFlowGraph` / `architectureGraph`.
    pub struct Graph {
        #[serde(default)]
        pub nodes: Vec<GraphNode>,
        #[serde(default)]
        pub edges: Vec<GraphEdge>,
    }

    /// A helpful link of an enriched tech-stack item.
    pub struct HelpfulLink {
        pub url: String,
        pub description: Option<String>,
    }

    /// An alternative to an enriched tech-stack item.
    pub struct TechAlternative {
        pub name: String,
        pub link: Option<String>,
        pub description: Option<String>,
    }

    /// An item of `enrichedTechStack`.
    #[serde(rename_all = "camelCase")]
    pub struct EnrichedTech {
        pub name: String,
        pub use_for: Option<String>,
        pub reason: Option<String>,
        pub description: Option<String>,
        pub link: Option<String>,
        #[serde(default)]
        pub helpful_links: Vec<HelpfulLink>,
        #[serde(default)]
        pub alternatives: Vec<TechAlternative>,
    }

    /// A core functionality of a scope of work.
    pub struct CoreFunctionality {
        pub name: String,
        pub description: String,
        pub priority: Option<Priority>,
    }

    /// An item of `techStack`.
    pub struct TechStackItem {
        pub name: String,
        pub category: String,
    }

    /// A subtask of a story (deep specs). `hours` and `roles` appear in the human spec only.
    #[serde(rename_all = "camelCase")]
    pub struct SubTask {
        pub id: Option<String>,
        pub description: String,
        pub complexity: Option<Complexity>,
        pub hours: Option<f64>,
        pub roles: Option<Vec<String>>,
    }

    /// A story of a milestone. `hours` appears in the human spec only.
    #[serde(rename_all = "camelCase")]
    pub struct Story {
        pub id: Option<String>,
        pub title: String,
        pub description: Option<String>,
        pub acceptance_criteria: Option<Vec<String>>,
        pub complexity: Option<Complexity>,
        pub hours: Option<f64>,
        #[serde(default)]
        pub sub_tasks: Vec<SubTask>,
    }

    /// A milestone of a scope of work. `hours` appears in the human spec only.
    #[serde(rename_all = "camelCase")]
    pub struct Milestone {
        pub milestone_number: f64,
        pub description: String,
        pub hours: Option<f64>,
        #[serde(default)]
        pub stories: Vec<Story>,
    }

    /// A persona of the human spec.
    #[serde(rename_all = "camelCase")]
    pub struct Persona {
        pub title: String,
        pub description: String,
        pub primary_goals: Option<Vec<String>>,
        pub pain_points: Option<Vec<String>>,
        pub key_tasks: Option<Vec<String>>,
    }

    /// A role of the human spec.
    #[serde(rename_all = "camelCase")]
    pub struct Role {
        pub name: String,
        pub short_hand: String,
    }

    /// `codingAgentSpecJson` and `humanSpecJson`: the structured scope of work. The human spec adds
    /// `personas`, `roles`, `totalHours` and hours at every level.
    #[serde(rename_all = "camelCase")]
    pub struct ScopeOfWork {
        pub title: Option<String>,
        pub executive_summary: String,
        #[serde(default)]
        pub core_functionalities: Vec<CoreFunctionality>,
        #[serde(default)]
        pub tech_stack: Vec<TechStackItem>,
        #[serde(default)]
        pub tech_stack_grouped: std::collections::BTreeMap<String, Vec<String>>,
        #[serde(default)]
        pub milestones: Vec<Milestone>,
        pub personas: Option<Vec<Persona>>,
        pub roles: Option<Vec<Role>>,
        pub total_hours: Option<f64>,
    }

    /// Synchronous answer of fast-spec / deep-spec, and the result fields of spec-status.
    #[serde(rename_all = "camelCase")]
    pub struct SpecResult {
        pub endpoint: SpecEndpoint,
        pub input: String,
        pub status: SpecStatus,
        pub success: bool,
        pub human_spec_url: Option<String>,
        pub coding_agent_spec_url: Option<String>,
        pub human_spec_markdown: Option<String>,
        pub coding_agent_spec_markdown: Option<String>,
        pub human_spec_json: Option<ScopeOfWork>,
        pub coding_agent_spec_json: Option<ScopeOfWork>,
        pub total_human_hours: Option<f64>,
        pub architecture_infographic_url: Option<String>,
        pub execution_time: Option<f64>,
        pub svc_url: Option<String>,
        pub tool_a_url: Option<String>,
        pub tool_b_url: Option<String>,
        pub tool_c_url: Option<String>,
        pub tool_d_url: Option<String>,
        pub credits_used: Option<f64>,
        #[serde(default)]
        pub zipped_docs_urls: Vec<ZippedDocs>,
        pub user_flow_graph: Option<Graph>,
        pub architecture_graph: Option<Graph>,
        pub enriched_tech_stack: Option<Vec<EnrichedTech>>,
        pub error_message: Option<String>,
    }

    /// `GET /spec-status/{specId}`: the spec's state, and the result fields once completed.
    /// Its full shape is not in the spec, so everything but `status` is optional.
    #[serde(rename_all = "camelCase")]
    pub struct SpecStatusResponse {
        #[serde(rename = "_id")]
        #[cfg_attr(feature = "ts", ts(rename = "_id"))]
        pub id: Option<String>,
        pub spec_id: Option<String>,
        pub endpoint: Option<SpecEndpoint>,
        pub input: Option<String>,
        pub status: SpecStatus,
        pub success: Option<bool>,
        pub progress: Option<String>,
        pub error_message: Option<String>,
        pub credits_used: Option<f64>,
        pub created: Option<String>,
        pub human_spec_url: Option<String>,
        pub coding_agent_spec_url: Option<String>,
        pub human_spec_markdown: Option<String>,
        pub coding_agent_spec_markdown: Option<String>,
        pub human_spec_json: Option<ScopeOfWork>,
        pub coding_agent_spec_json: Option<ScopeOfWork>,
        pub total_human_hours: Option<f64>,
        pub architecture_infographic_url: Option<String>,
        pub execution_time: Option<f64>,
        pub svc_url: Option<String>,
        pub tool_a_url: Option<String>,
        pub tool_b_url: Option<String>,
        pub tool_c_url: Option<String>,
        pub tool_d_url: Option<String>,
        pub zipped_docs_urls: Option<Vec<ZippedDocs>>,
        pub user_flow_graph: Option<Graph>,
        pub architecture_graph: Option<Graph>,
        pub enriched_tech_stack: Option<Vec<EnrichedTech>>,
        pub uploaded_file_short_url: Option<String>,
        pub uploaded_file_name: Option<String>,
        /// The project's plan once the spec is completed (see get-plan).
        pub plan: Option<Plan>,
        /// The project created by a completed spec, when the service names it.
        pub project_id: Option<String>,
    }

    /// An item of list-specs and find-specs.
    #[serde(rename_all = "camelCase")]
    pub struct SpecRecord {
        #[serde(rename = "_id")]
        #[cfg_attr(feature = "ts", ts(rename = "_id"))]
        pub id: String,
        pub created: String,
        pub endpoint: SpecEndpoint,
        pub input: String,
        pub status: SpecStatus,
        pub success: bool,
        pub uploaded_file_short_url: Option<String>,
        pub uploaded_file_name: Option<String>,
        pub human_spec_url: Option<String>,
        pub total_human_hours: Option<f64>,
        pub coding_agent_spec_url: Option<String>,
        pub execution_time: Option<f64>,
        pub svc_url: Option<String>,
        pub tool_a_url: Option<String>,
        pub tool_b_url: Option<String>,
        pub tool_c_url: Option<String>,
        pub tool_d_url: Option<String>,
        pub error_message: Option<String>,
        pub progress: Option<String>,
        pub credits_used: Option<f64>,
    }

    /// Answer of list-specs and find-specs.
    #[serde(rename_all = "camelCase")]
    pub struct SpecList {
        pub specs: Vec<SpecRecord>,
        pub total: u64,
        pub has_more: bool,
    }

    /// `GET /credits-balance`.
    #[serde(rename_all = "camelCase")]
    pub struct CreditsBalance {
        pub success: bool,
        pub credits_remaining: f64,
    }
}
