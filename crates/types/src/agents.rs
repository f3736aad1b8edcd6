//! Browser agents: tasks, batches, results, the per-task timeline and the stream frames.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

string_enum! {
    /// Status of a batch.
    pub enum BatchStatus {
        Processing = "processing",
        Completed = "completed",
        Failed = "failed",
    }
}

impl BatchStatus {
    /// `completed` or `failed`.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed)
    }
}

string_enum! {
    /// Outcome of one task. A `completed` batch can hold tasks of any status.
    pub enum TaskStatus {
        Success = "SUCCESS",
        Error = "ERROR",
        Timeout = "TIMEOUT",
        Blocked = "BLOCKED",
        CaptchaFailed = "CAPTCHA_FAILED",
        Loop = "LOOP",
        NoTarget = "NO_TARGET",
    }
}

string_enum! {
    /// Kind of a task event.
    pub enum TaskEventType {
        Sandbox = "sandbox",
        Navigation = "navigation",
        Screenshot = "screenshot",
        Plan = "plan",
        Action = "action",
        Waiting = "waiting",
        Validation = "validation",
        Done = "done",
        Error = "error",
    }
}

wire! {
    /// One task of a submission.
    #[serde(rename_all = "camelCase")]
    pub struct BrowserTask {
        /// Starting page (absolute http(s) URL).
        pub url: String,
        pub instruction: Option<String>,
        /// Form values, credentials, queries.
        pub input: Option<BTreeMap<String, String>>,
        /// JSON Schema the extracted `data` must match.
        pub output: Option<Value>,
        pub success_condition: Option<String>,
        pub timeout_ms: Option<u64>,
        pub max_steps: Option<u32>,
        pub max_duration_seconds: Option<u64>,
        pub mode: Option<String>,
    }

    /// Body of `POST /api/v1/browser-agents`.
    #[serde(rename_all = "camelCase")]
    pub struct BatchRequest {
        pub tasks: Vec<BrowserTask>,
        pub concurrency: Option<u32>,
        #[serde(rename = "async")]
        #[cfg_attr(feature = "ts", ts(rename = "async"))]
        pub is_async: Option<bool>,
        pub stream: Option<bool>,
        pub idempotency_key: Option<String>,
    }

    /// Result of one task.
    #[serde(rename_all = "camelCase")]
    pub struct TaskResult {
        pub url: String,
        pub instruction: Option<String>,
        pub input: Option<BTreeMap<String, String>>,
        pub status: TaskStatus,
        /// Extracted data, validated against `output`; null or partial while pending.
        pub data: Option<Value>,
        /// Raw USD.
        pub cost: f64,
        /// 1 credit = 0.10 USD, at least 0.1 per task.
        pub credits_used: f64,
        pub duration_ms: f64,
        pub error: Option<String>,
        /// The task's timeline, with `includeEvents=true`.
        pub events: Option<Vec<TaskEvent>>,
    }

    /// A batch of tasks.
    #[serde(rename_all = "camelCase")]
    pub struct Batch {
        pub id: String,
        pub total: u32,
        pub completed: u32,
        #[serde(default)]
        pub results: Vec<TaskResult>,
        pub total_cost: f64,
        pub total_credits_used: f64,
        pub status: BatchStatus,
        pub created_at: String,
        pub completed_at: Option<String>,
    }

    /// `GET /api/v1/browser-agents`.
    #[serde(rename_all = "camelCase")]
    pub struct BatchList {
        pub batches: Vec<Batch>,
        pub total: u64,
        pub has_more: bool,
    }

    /// A user's in-flight tasks in the capacity snapshot.
    #[serde(rename_all = "camelCase")]
    pub struct CapacityUser {
        pub user_id: String,
        pub inflight: u32,
    }

    /// A worker's in-flight tasks in the capacity snapshot.
    #[serde(rename_all = "camelCase")]
    pub struct CapacityWorker {
        pub worker_id: String,
        pub inflight: u32,
    }

    /// `GET /api/v1/browser-agents/_system/capacity`.
    #[serde(rename_all = "camelCase")]
    pub struct CapacitySnapshot {
        pub total_active: u32,
        pub max_sandboxes: u32,
        pub per_user_cap: u32,
        pub pending: u32,
        pub running: u32,
        pub claimed: u32,
        pub failed: u32,
        /// 0 to 1.
        pub utilization: f64,
        pub oldest_queued_age_ms: f64,
        #[serde(default)]
        pub top_users: Vec<CapacityUser>,
        #[serde(default)]
        pub workers: Vec<CapacityWorker>,
    }

    /// `task_result` frame of the stream.
    #[serde(rename_all = "camelCase")]
    pub struct TaskResultFrame {
        pub task_index: u32,
        pub status: TaskStatus,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub data: Option<Value>,
    }

    /// An action the agent planned.
    pub struct PlannedAction {
        #[serde(rename = "type")]
        #[cfg_attr(feature = "ts", ts(rename = "type"))]
        pub action_type: Option<String>,
        pub selector: Option<String>,
        pub value: Option<String>,
    }
}

/// Action kinds a service may send as an event's `type` instead of `type: "action"`.
pub const ACTION_KINDS: &[&str] = &[
    "click", "fill", "type", "press", "select", "scroll", "hover", "check", "uncheck", "submit",
    "goto", "navigate", "wait", "extract",
];

/// One entry of a task's timeline: `{taskIndex, type, timestamp, ...fields of the type}`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TaskEvent {
    #[cfg_attr(feature = "ts", ts(rename = "taskIndex"))]
    pub task_index: u32,
    /// Unix milliseconds.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub timestamp: Option<f64>,
    #[cfg_attr(feature = "ts", ts(flatten))]
    pub kind: TaskEventKind,
}

/// The type-specific part of a task event. Unknown types keep their fields in `Unknown`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, tag = "type"))]
pub enum TaskEventKind {
    #[cfg_attr(feature = "ts", ts(rename = "sandbox"))]
    Sandbox(SandboxEvent),
    #[cfg_attr(feature = "ts", ts(rename = "navigation"))]
    Navigation(NavigationEvent),
    #[cfg_attr(feature = "ts", ts(rename = "screenshot"))]
    Screenshot(ScreenshotEvent),
    #[cfg_attr(feature = "ts", ts(rename = "plan"))]
    Plan(PlanEvent),
    #[cfg_attr(feature = "ts", ts(rename = "action"))]
    Action(ActionEvent),
    #[cfg_attr(feature = "ts", ts(rename = "waiting"))]
    Waiting(WaitingEvent),
    #[cfg_attr(feature = "ts", ts(rename = "validation"))]
    Validation(ValidationEvent),
    #[cfg_attr(feature = "ts", ts(rename = "done"))]
    Done(TaskDoneEvent),
    #[cfg_attr(feature = "ts", ts(rename = "error"))]
    Error(TaskErrorEvent),
    /// A type this version does not know: its name and every other field.
    #[cfg_attr(feature = "ts", ts(skip))]
    Unknown {
        event_type: String,
        fields: Map<String, Value>,
    },
}

impl TaskEventKind {
    /// The event's `type`.
    pub fn event_type(&self) -> TaskEventType {
        match self {
            Self::Sandbox(_) => TaskEventType::Sandbox,
            Self::Navigation(_) => TaskEventType::Navigation,
            Self::Screenshot(_) => TaskEventType::Screenshot,
            Self::Plan(_) => TaskEventType::Plan,
            Self::Action(_) => TaskEventType::Action,
            Self::Waiting(_) => TaskEventType::Waiting,
            Self::Validation(_) => TaskEventType::Validation,
            Self::Done(_) => TaskEventType::Done,
            Self::Error(_) => TaskEventType::Error,
            Self::Unknown { event_type, .. } => TaskEventType::Unknown(event_type.clone()),
        }
    }

    /// `done` or `error`: the task reached its terminal state.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Done(_) | Self::Error(_))
    }
}

wire! {
    /// `sandbox`: the browser sandbox changed state.
    pub struct SandboxEvent {
        pub status: String,
    }

    /// `navigation`: a page loaded.
    pub struct NavigationEvent {
        pub url: String,
        pub title: Option<String>,
    }

    /// `screenshot`: one chunk of a viewport capture (base64 in `data`).
    #[serde(rename_all = "camelCase")]
    pub struct ScreenshotEvent {
        pub url: Option<String>,
        pub mime_type: String,
        pub chunk_index: u32,
        pub chunk_count: u32,
        pub data: Option<String>,
    }

    /// `plan`: next actions decided.
    #[serde(rename_all = "camelCase")]
    pub struct PlanEvent {
        #[serde(default)]
        pub actions: Vec<PlannedAction>,
        pub notes: Option<String>,
        #[serde(default)]
        pub done: bool,
        #[serde(default)]
        pub captcha_detected: bool,
    }

    /// `action`: an action ran. `actionType` is its kind (click, fill, ...).
    #[serde(rename_all = "camelCase")]
    pub struct ActionEvent {
        pub action_type: Option<String>,
        pub selector: Option<String>,
        #[serde(default)]
        pub success: bool,
        pub message: Option<String>,
    }

    /// `waiting`: waiting on something (for example `cloudflare`).
    pub struct WaitingEvent {
        pub reason: String,
    }

    /// `validation`: the schema check.
    pub struct ValidationEvent {
        pub ok: bool,
    }

    /// `done`: the task's terminal state.
    #[serde(rename_all = "camelCase")]
    pub struct TaskDoneEvent {
        pub status: TaskStatus,
        pub data: Option<Value>,
        pub duration_ms: Option<f64>,
    }

    /// `error`: the task errored.
    #[serde(rename_all = "camelCase")]
    pub struct TaskErrorEvent {
        pub status: TaskStatus,
        pub error: Option<String>,
        pub duration_ms: Option<f64>,
    }
}

fn fields_of<T: Serialize>(value: &T) -> Map<String, Value> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}

impl Serialize for TaskEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = match &self.kind {
            TaskEventKind::Sandbox(e) => fields_of(e),
            TaskEventKind::Navigation(e) => fields_of(e),
            TaskEventKind::Screenshot(e) => fields_of(e),
            TaskEventKind::Plan(e) => fields_of(e),
            TaskEventKind::Action(e) => fields_of(e),
            TaskEventKind::Waiting(e) => fields_of(e),
            TaskEventKind::Validation(e) => fields_of(e),
            TaskEventKind::Done(e) => fields_of(e),
            TaskEventKind::Error(e) => fields_of(e),
            TaskEventKind::Unknown { fields, .. } => fields.clone(),
        };
        map.insert("taskIndex".into(), Value::from(self.task_index));
        map.insert(
            "type".into(),
            Value::from(self.kind.event_type().as_str().to_owned()),
        );
        if let Some(ts) = self.timestamp {
            map.insert("timestamp".into(), number(ts));
        }
        map.serialize(serializer)
    }
}

/// A float that is a whole number is written as an integer (timestamps stay `1700000000000`).
fn number(v: f64) -> Value {
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        Value::from(v as i64)
    } else {
        Value::from(v)
    }
}

impl TaskEvent {
    /// Decodes an event from its JSON text in one pass, without an intermediate map: every field
    /// any event type has is read into one flat record, then the record becomes the event of its
    /// `type`. Same result as `serde_json::from_str`, faster on the stream's hot path; anything
    /// unusual (an unknown type, a field of an unexpected JSON type) takes the general path.
    pub fn from_json_str(text: &str) -> Result<Self, serde_json::Error> {
        match serde_json::from_str::<FlatEvent>(text)
            .ok()
            .and_then(FlatEvent::into_event)
        {
            Some(event) => Ok(event),
            None => serde_json::from_str(text),
        }
    }
}

/// Every field of every task event type, for [`TaskEvent::from_json_str`].
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FlatEvent {
    #[serde(default)]
    task_index: u32,
    timestamp: Option<f64>,
    #[serde(rename = "type")]
    event_type: String,
    status: Option<String>,
    url: Option<String>,
    title: Option<String>,
    mime_type: Option<String>,
    chunk_index: Option<u32>,
    chunk_count: Option<u32>,
    data: Option<Value>,
    actions: Option<Vec<PlannedAction>>,
    notes: Option<String>,
    done: Option<bool>,
    captcha_detected: Option<bool>,
    action_type: Option<String>,
    selector: Option<String>,
    success: Option<bool>,
    message: Option<String>,
    reason: Option<String>,
    ok: Option<bool>,
    error: Option<String>,
    duration_ms: Option<f64>,
}

impl FlatEvent {
    fn into_event(self) -> Option<TaskEvent> {
        let kind = match self.event_type.as_str() {
            "sandbox" => TaskEventKind::Sandbox(SandboxEvent {
                status: self.status?,
            }),
            "navigation" => TaskEventKind::Navigation(NavigationEvent {
                url: self.url?,
                title: self.title,
            }),
            "screenshot" => TaskEventKind::Screenshot(ScreenshotEvent {
                url: self.url,
                mime_type: self.mime_type?,
                chunk_index: self.chunk_index?,
                chunk_count: self.chunk_count?,
                data: match self.data {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s),
                    Some(_) => return None,
                },
            }),
            "plan" => TaskEventKind::Plan(PlanEvent {
                actions: self.actions.unwrap_or_default(),
                notes: self.notes,
                done: self.done.unwrap_or_default(),
                captcha_detected: self.captcha_detected.unwrap_or_default(),
            }),
            "action" => TaskEventKind::Action(ActionEvent {
                action_type: self.action_type,
                selector: self.selector,
                success: self.success.unwrap_or_default(),
                message: self.message,
            }),
            "waiting" => TaskEventKind::Waiting(WaitingEvent {
                reason: self.reason?,
            }),
            "validation" => TaskEventKind::Validation(ValidationEvent { ok: self.ok? }),
            "done" => TaskEventKind::Done(TaskDoneEvent {
                status: TaskStatus::from(self.status?.as_str()),
                data: self.data.filter(|d| !d.is_null()),
                duration_ms: self.duration_ms,
            }),
            "error" => TaskEventKind::Error(TaskErrorEvent {
                status: TaskStatus::from(self.status?.as_str()),
                error: self.error,
                duration_ms: self.duration_ms,
            }),
            _ => return None,
        };
        Some(TaskEvent {
            task_index: self.task_index,
            timestamp: self.timestamp,
            kind,
        })
    }
}

impl<'de> Deserialize<'de> for TaskEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(deserializer)?;
        let task_index = match map.remove("taskIndex") {
            Some(v) => u32::deserialize(v).map_err(D::Error::custom)?,
            None => 0,
        };
        let timestamp = match map.remove("timestamp") {
            Some(Value::Null) | None => None,
            Some(v) => Some(f64::deserialize(v).map_err(D::Error::custom)?),
        };
        let event_type = match map.remove("type") {
            Some(Value::String(s)) => s,
            _ => return Err(D::Error::missing_field("type")),
        };
        fn read<T: serde::de::DeserializeOwned, E: serde::de::Error>(
            map: Map<String, Value>,
        ) -> Result<T, E> {
            serde_json::from_value(Value::Object(map)).map_err(E::custom)
        }
        let kind = match event_type.as_str() {
            "sandbox" => TaskEventKind::Sandbox(read::<_, D::Error>(map)?),
            "navigation" => TaskEventKind::Navigation(read::<_, D::Error>(map)?),
            "screenshot" => TaskEventKind::Screenshot(read::<_, D::Error>(map)?),
            "plan" => TaskEventKind::Plan(read::<_, D::Error>(map)?),
            "action" => TaskEventKind::Action(read::<_, D::Error>(map)?),
            "waiting" => TaskEventKind::Waiting(read::<_, D::Error>(map)?),
            "validation" => TaskEventKind::Validation(read::<_, D::Error>(map)?),
            "done" => TaskEventKind::Done(read::<_, D::Error>(map)?),
            "error" => TaskEventKind::Error(read::<_, D::Error>(map)?),
            // An action whose `type` is the action's own kind (click, fill, ...).
            other
                if ACTION_KINDS.contains(&other)
                    || (map.contains_key("selector") && map.contains_key("success")) =>
            {
                let mut action: ActionEvent = read::<_, D::Error>(map)?;
                if action.action_type.is_none() {
                    action.action_type = Some(other.to_owned());
                }
                TaskEventKind::Action(action)
            }
            _ => TaskEventKind::Unknown {
                event_type,
                fields: map,
            },
        };
        Ok(TaskEvent {
            task_index,
            timestamp,
            kind,
        })
    }
}

/// One frame of the batch stream.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum StreamFrame {
    /// `task_event`.
    TaskEvent(TaskEvent),
    /// `task_result`.
    TaskResult(TaskResultFrame),
    /// `done`: the full batch.
    Done(Box<Batch>),
}

impl StreamFrame {
    /// The SSE event name of this frame.
    pub fn event_name(&self) -> &'static str {
        match self {
            Self::TaskEvent(_) => "task_event",
            Self::TaskResult(_) => "task_result",
            Self::Done(_) => "done",
        }
    }

    /// Decodes a frame from its SSE event name and data. `Ok(None)` for an event name this version
    /// does not know (the caller skips it).
    pub fn decode(event: &str, data: &str) -> Result<Option<Self>, serde_json::Error> {
        Ok(Some(match event {
            "task_event" => Self::TaskEvent(TaskEvent::from_json_str(data)?),
            "task_result" => Self::TaskResult(serde_json::from_str(data)?),
            "done" => Self::Done(Box::new(serde_json::from_str(data)?)),
            _ => return Ok(None),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_path_decodes_exactly_like_the_general_path() {
        let events = [
            r##"{"taskIndex":3,"type":"sandbox","timestamp":1700000000000,"status":"starting"}"##,
            r##"{"taskIndex":3,"type":"navigation","timestamp":1,"url":"http://x/","title":"X"}"##,
            r##"{"taskIndex":3,"type":"navigation","url":"http://x/"}"##,
            r##"{"taskIndex":0,"type":"screenshot","url":"http://x/","mimeType":"image/png","chunkIndex":1,"chunkCount":4,"data":"iVBOR"}"##,
            r##"{"taskIndex":0,"type":"plan","actions":[{"type":"click","selector":"#a"}],"notes":"n","done":false,"captchaDetected":true}"##,
            r##"{"taskIndex":0,"type":"action","actionType":"fill","selector":"#q","success":true,"message":"ok"}"##,
            r##"{"taskIndex":0,"type":"click","selector":"#q","success":false}"##,
            r##"{"taskIndex":0,"type":"waiting","reason":"cloudflare"}"##,
            r##"{"taskIndex":0,"type":"validation","ok":false}"##,
            r##"{"taskIndex":0,"type":"done","status":"SUCCESS","data":{"a":[1,2]},"durationMs":12.5}"##,
            r##"{"taskIndex":0,"type":"done","status":"NEW_STATUS","data":null}"##,
            r##"{"taskIndex":0,"type":"error","status":"ERROR","error":"HTTP 500","durationMs":3}"##,
            r##"{"taskIndex":9,"type":"telemetry","cpu":0.5,"extra":{"x":1}}"##,
            r##"{"taskIndex":1,"type":"sandbox","status":7}"##,
        ];
        for text in events {
            let general: Result<TaskEvent, _> = serde_json::from_str(text);
            let fast = TaskEvent::from_json_str(text);
            match (general, fast) {
                (Ok(g), Ok(f)) => assert_eq!(g, f, "{text}"),
                (Err(_), Err(_)) => {}
                (g, f) => panic!("{text}: general {g:?} vs fast {f:?}"),
            }
        }
        let click = TaskEvent::from_json_str(events[6]).unwrap();
        assert_eq!(
            click.kind,
            TaskEventKind::Action(ActionEvent {
                action_type: Some("click".into()),
                selector: Some("#q".into()),
                success: false,
                message: None,
            })
        );
    }
}
