//! `GET /get-plan`.

use specdesk_types::PlanResponse;

use crate::error::{Error, Result};
use crate::http::{Call, Family, Shared};
use crate::validate;

/// Which plan to read: by the spec that created the project, or by the project itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanRef {
    Spec(String),
    Project(String),
}

impl PlanRef {
    /// Builds a reference from the two optional ids a form may hold: exactly one must be set.
    pub fn from_ids(spec_id: Option<&str>, project_id: Option<&str>) -> Result<Self> {
        let spec_id = spec_id.map(str::trim).filter(|s| !s.is_empty());
        let project_id = project_id.map(str::trim).filter(|s| !s.is_empty());
        match (spec_id, project_id) {
            (Some(s), None) => Ok(PlanRef::Spec(s.to_owned())),
            (None, Some(p)) => Ok(PlanRef::Project(p.to_owned())),
            (Some(_), Some(_)) => Err(Error::invalid(
                "projectId",
                "Give either a spec id or a project id, not both.",
            )),
            (None, None) => Err(Error::invalid(
                "projectId",
                "Give a spec id or a project id to open its plan.",
            )),
        }
    }

    fn call(&self, format: &str) -> Result<Call> {
        let (name, id) = match self {
            PlanRef::Spec(id) => ("specId", id),
            PlanRef::Project(id) => ("projectId", id),
        };
        validate::hex_id(name, id)?;
        Ok(Call::get("get-plan", Family::Rest)
            .query(name, id)
            .query("format", format))
    }
}

/// Project plans.
pub struct Plans<'c> {
    inner: &'c Shared,
}

impl<'c> Plans<'c> {
    pub(crate) fn new(inner: &'c Shared) -> Self {
        Plans { inner }
    }

    /// The plan as JSON (`plan` is `None` while nothing is planned or built).
    pub async fn get(&self, plan: &PlanRef) -> Result<PlanResponse> {
        let call = plan.call("json")?;
        Ok(self.inner.json(&call).await?.0)
    }

    /// The plan as Markdown for a coding agent (`text/markdown`).
    pub async fn markdown(&self, plan: &PlanRef) -> Result<String> {
        let call = plan.call("markdown")?;
        let (body, _) = self.inner.bytes(&call).await?;
        String::from_utf8(body.to_vec()).map_err(|e| Error::Decode {
            status: 200,
            reason: format!("the plan is not UTF-8 text: {e}"),
            body: String::new(),
        })
    }
}
