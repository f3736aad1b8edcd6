//! The two graphs of a spec: user flow and architecture.

use crate::util::slug;
use specdesk_types::{EnrichedTech, Graph, GraphEdge, GraphNode, ScopeOfWork};

/// The user flow (the stories in order) and the architecture (the stack plus one module per
/// story).
pub(super) fn graphs(human: &ScopeOfWork, tech: &[EnrichedTech]) -> (Graph, Graph) {
    let mut flow = Graph {
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    let mut prev: Option<String> = None;
    for m in &human.milestones {
        for s in &m.stories {
            let id = s.id.clone().unwrap_or_default();
            flow.nodes.push(GraphNode {
                id: id.clone(),
                label: Some(s.title.clone()),
                node_type: Some("story".to_owned()),
                description: s.description.clone(),
                level: Some(format!("milestone-{}", m.milestone_number)),
                hours: s.hours,
            });
            if let Some(p) = prev.replace(id.clone()) {
                flow.edges.push(GraphEdge {
                    source: p,
                    target: id,
                    description: Some("then".to_owned()),
                    edge_type: Some("flow".to_owned()),
                });
            }
        }
    }
    let mut arch = Graph {
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    for t in tech {
        arch.nodes.push(GraphNode {
            id: format!("tech-{}", slug(&t.name)),
            label: Some(t.name.clone()),
            node_type: Some("component".to_owned()),
            description: t.use_for.clone(),
            level: Some("platform".to_owned()),
            hours: Some(0.0),
        });
    }
    let front = tech
        .iter()
        .find(|t| t.use_for.as_deref() == Some("User interface"))
        .map(|t| format!("tech-{}", slug(&t.name)));
    let db = tech
        .iter()
        .find(|t| t.use_for.as_deref() == Some("Persistent storage"))
        .map(|t| format!("tech-{}", slug(&t.name)));
    for m in &human.milestones {
        for s in &m.stories {
            let id = format!("module-{}", s.id.clone().unwrap_or_default());
            arch.nodes.push(GraphNode {
                id: id.clone(),
                label: Some(s.title.clone()),
                node_type: Some("module".to_owned()),
                description: s.description.clone(),
                level: Some(format!("milestone-{}", m.milestone_number)),
                hours: s.hours,
            });
            if let Some(f) = &front {
                arch.edges.push(GraphEdge {
                    source: f.clone(),
                    target: id.clone(),
                    description: Some("calls".to_owned()),
                    edge_type: Some("http".to_owned()),
                });
            }
            if let Some(d) = &db {
                arch.edges.push(GraphEdge {
                    source: id,
                    target: d.clone(),
                    description: Some("reads and writes".to_owned()),
                    edge_type: Some("data".to_owned()),
                });
            }
        }
    }
    (flow, arch)
}
