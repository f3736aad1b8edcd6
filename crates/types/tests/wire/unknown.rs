//! What a newer service may send: extra fields, new values of closed sets, new event types.

use crate::common::{canonical, json, roundtrip, roundtrip_value};
use pretty_assertions::assert_eq;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};
use specdesk_types::*;
use std::fmt::Debug;

/// `v` without the fields a newer service added (named `future*` in the fixtures).
fn without_future_fields(v: &Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !k.starts_with("future"))
                .map(|(k, v)| (k.clone(), without_future_fields(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_future_fields).collect()),
        other => other.clone(),
    }
}

/// The fixture decodes despite its unknown fields, and re-encodes to itself minus those fields.
fn ignores_extra_fields<T>(path: &str) -> T
where
    T: Serialize + DeserializeOwned + Debug + PartialEq,
{
    let v = json(path);
    assert_ne!(v, without_future_fields(&v), "{path} has no future* fields");
    let decoded: T = serde_json::from_value(v.clone())
        .unwrap_or_else(|e| panic!("{path} with unknown fields does not decode: {e}"));
    assert_eq!(
        canonical(serde_json::to_value(&decoded).unwrap()),
        canonical(without_future_fields(&v)),
        "{path}: the known fields must come back unchanged"
    );
    decoded
}

#[test]
fn unknown_fields_never_fail_decoding() {
    ignores_extra_fields::<SpecList>("unknown/spec-list-extra-fields.json");
    let r = ignores_extra_fields::<SpecResult>("unknown/spec-result-extra-fields.json");
    assert_eq!(
        r.human_spec_json.unwrap().milestones[0].stories[0]
            .sub_tasks
            .len(),
        1
    );
    ignores_extra_fields::<PlanResponse>("unknown/plan-extra-fields.json");
    let b = ignores_extra_fields::<Batch>("unknown/batch-extra-fields.json");
    assert_eq!(b.results[0].events.as_ref().unwrap().len(), 3);
    ignores_extra_fields::<CapacitySnapshot>("unknown/capacity-extra-fields.json");
    let c = ignores_extra_fields::<PublicCatalog>("unknown/public-catalog-extra-fields.json");
    assert_eq!(c.updated_at, Some(json!(1763791200)));
    ignores_extra_fields::<MessagesResponse>("unknown/messages-response-extra-fields.json");
}

#[test]
fn error_bodies_keep_their_extra_fields() {
    // REST errors: "further fields may appear"; they are kept, not dropped.
    let e: RestError = roundtrip("unknown/rest-error-extra-fields.json");
    assert_eq!(e.extra["requiredCredits"], json!(100));
    assert_eq!(e.extra["details"], json!({"tasks": 1000}));
    assert_eq!(e.extra.len(), 3);

    // Gateway `svc` keeps every field; an unknown field beside `svc` is dropped.
    let g = ignores_extra_fields::<GatewayErrorBody>("unknown/gateway-error-extra-fields.json");
    let svc = g.error.svc.unwrap();
    assert_eq!(svc.credits_remaining, Some(0.0));
    assert_eq!(svc.extra["workspace_id"], json!("ws_21c0"));
    assert_eq!(svc.extra.len(), 2);
}

#[test]
fn unknown_enum_values_are_kept_and_written_back_unchanged() {
    let list: SpecList = roundtrip("unknown/spec-list-unknown-enums.json");
    assert_eq!(
        list.specs[0].endpoint,
        SpecEndpoint::Unknown("ultra_spec".into())
    );
    assert_eq!(list.specs[0].status, SpecStatus::Unknown("archived".into()));
    assert!(!list.specs[0].status.is_terminal());

    let sow: ScopeOfWork = roundtrip("unknown/scope-of-work-unknown-enums.json");
    assert_eq!(
        sow.core_functionalities[0].priority,
        Some(Priority::Unknown("Critical".into()))
    );
    let story = &sow.milestones[0].stories[0];
    assert_eq!(story.complexity, Some(Complexity::Unknown("XXL".into())));
    assert_eq!(story.sub_tasks[0].complexity, Some(Complexity::Xs));

    let plan = roundtrip::<PlanResponse>("unknown/plan-unknown-enums.json")
        .plan
        .unwrap();
    assert_eq!(
        plan.progress.basis,
        ProgressBasis::Unknown("modules".into())
    );
    let f = &plan.features[0];
    assert_eq!(f.status, FeatureStatus::Unknown("deprecated".into()));
    assert!(!f.status.is_built());
    assert_eq!(f.scope, FeatureScope::Unknown("suggested_by_owner".into()));
    assert_eq!(
        plan.ready_to_launch.unwrap().items[0].state,
        LaunchState::Unknown("blocked".into())
    );

    let b: Batch = roundtrip("unknown/batch-unknown-enums.json");
    assert_eq!(b.status, BatchStatus::Unknown("cancelled".into()));
    assert!(!b.status.is_terminal());
    assert_eq!(
        b.results[0].status,
        TaskStatus::Unknown("RATE_LIMITED".into())
    );
    match &b.results[0].events.as_ref().unwrap()[0].kind {
        TaskEventKind::Done(d) => assert_eq!(d.status.as_str(), "RATE_LIMITED"),
        other => panic!("{other:?}"),
    }

    let g: GatewayErrorBody = roundtrip("unknown/gateway-error-unknown-code.json");
    assert_eq!(
        g.error.code,
        Some(GatewayErrorCode::Unknown("workspace_frozen".into()))
    );
    assert_eq!(
        g.error.svc.unwrap().extra["frozen_until"],
        "2026-12-01T00:00:00Z"
    );

    let m: ModelList = roundtrip("unknown/model-list-unknown-type.json");
    assert_eq!(
        m.data[0].model_type,
        Some(ModelType::Unknown("audio".into()))
    );

    let v: VideoJob = roundtrip("unknown/video-job-unknown-status.json");
    assert_eq!(v.status, VideoStatus::Unknown("cancelled".into()));
    assert!(!v.status.is_terminal());

    let s: SpeechRequest = roundtrip("unknown/speech-request-unknown-voice.json");
    assert_eq!(s.voice, Some(Voice::Unknown("nova".into())));

    let r: MessagesResponse = roundtrip("unknown/messages-response-unknown-enums.json");
    assert_eq!(
        r.stop_reason,
        Some(StopReason::Unknown("model_context_window_exceeded".into()))
    );
}

/// Each closed set: every known value parses as known and prints as itself; any other string is
/// kept in `Unknown` and written back as it came, through JSON too.
#[test]
fn every_string_enum_knows_its_values_and_keeps_others() {
    fn check<T>(known: &[&str])
    where
        T: Serialize
            + DeserializeOwned
            + Debug
            + PartialEq
            + std::fmt::Display
            + for<'a> From<&'a str>,
    {
        for s in known {
            let v = T::from(s);
            assert_eq!(v.to_string(), *s);
            assert_eq!(serde_json::to_value(&v).unwrap(), json!(s));
            assert!(!format!("{v:?}").starts_with("Unknown"), "{s}");
        }
        let odd = "Some new Value-2";
        let v: T = serde_json::from_value(json!(odd)).unwrap();
        assert!(format!("{v:?}").starts_with("Unknown"), "{v:?}");
        assert_eq!(serde_json::to_value(&v).unwrap(), json!(odd));
        // Wire strings are case-sensitive: `Completed` is not `completed`.
        if let Some(s) = known.iter().find(|s| s.to_uppercase() != **s) {
            let upper: T = serde_json::from_value(json!(s.to_uppercase())).unwrap();
            assert!(format!("{upper:?}").starts_with("Unknown"), "{upper:?}");
        }
    }
    check::<SpecEndpoint>(SpecEndpoint::KNOWN);
    check::<SpecStatus>(SpecStatus::KNOWN);
    check::<Priority>(Priority::KNOWN);
    check::<Complexity>(Complexity::KNOWN);
    check::<ProgressBasis>(ProgressBasis::KNOWN);
    check::<FeatureStatus>(FeatureStatus::KNOWN);
    check::<FeatureScope>(FeatureScope::KNOWN);
    check::<LaunchState>(LaunchState::KNOWN);
    check::<BatchStatus>(BatchStatus::KNOWN);
    check::<TaskStatus>(TaskStatus::KNOWN);
    check::<TaskEventType>(TaskEventType::KNOWN);
    check::<ModelType>(ModelType::KNOWN);
    check::<Voice>(Voice::KNOWN);
    check::<AudioFormat>(AudioFormat::KNOWN);
    check::<VideoStatus>(VideoStatus::KNOWN);
    check::<MessageRole>(MessageRole::KNOWN);
    check::<StopReason>(StopReason::KNOWN);
    check::<GatewayErrorCode>(GatewayErrorCode::KNOWN);
}

#[test]
fn an_action_event_typed_by_its_kind_is_an_action() {
    let v = json("unknown/task-event-click.json");
    let e: TaskEvent = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(e.task_index, 3);
    assert_eq!(e.timestamp, Some(1_763_798_402_500.0));
    match &e.kind {
        TaskEventKind::Action(a) => {
            assert_eq!(a.action_type.as_deref(), Some("click"));
            assert_eq!(a.selector.as_deref(), Some("button#buy"));
            assert!(a.success);
            assert_eq!(a.message.as_deref(), Some("Clicked \"Buy now\""));
        }
        other => panic!("click read as {other:?}"),
    }
    assert_eq!(e.kind.event_type(), TaskEventType::Action);
    // It is written back in the documented form: `type: "action"` and the kind in `actionType`.
    let mut expected = v;
    expected["type"] = json!("action");
    expected["actionType"] = json!("click");
    assert_eq!(canonical(serde_json::to_value(&e).unwrap()), expected);
    let again: TaskEvent = roundtrip_value("click re-encoded", &expected);
    assert_eq!(again, e);

    // `fill` too, and an explicit `actionType` wins over the kind in `type`.
    let fill: TaskEvent = serde_json::from_value(json!({
        "taskIndex": 0, "type": "fill", "selector": "#q", "success": false,
        "actionType": "fill_and_submit"
    }))
    .unwrap();
    assert!(
        matches!(&fill.kind, TaskEventKind::Action(a) if a.action_type.as_deref() == Some("fill_and_submit"))
    );
}

#[test]
fn an_unknown_event_type_is_kept_with_its_fields() {
    let v = json("unknown/task-event-unknown-type.json");
    let e: TaskEvent = roundtrip("unknown/task-event-unknown-type.json");
    match &e.kind {
        TaskEventKind::Unknown { event_type, fields } => {
            assert_eq!(event_type, "console");
            assert_eq!(fields["level"], "warn");
            assert_eq!(fields["args"], json!([1, "two", null]));
            assert!(!fields.contains_key("type") && !fields.contains_key("taskIndex"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        e.kind.event_type(),
        TaskEventType::Unknown("console".into())
    );
    assert!(!e.kind.is_terminal());
    assert_eq!(serde_json::to_value(&e).unwrap(), v);

    // In the stream it is still a `task_event` frame.
    let frame = StreamFrame::decode("task_event", &v.to_string())
        .unwrap()
        .unwrap();
    assert_eq!(serde_json::to_value(&frame).unwrap(), v);
}

#[test]
fn unknown_messages_blocks_and_events_decode() {
    let v = json("unknown/messages-unknown-types.json");
    let r: MessagesResponse = serde_json::from_value(v["response"].clone()).unwrap();
    assert_eq!(r.content[0], ContentBlock::Unknown);
    assert_eq!(
        r.content[1],
        ContentBlock::Text {
            text: "Found some.".into()
        }
    );
    let delta: MessagesStreamEvent = serde_json::from_value(v["events"][0].clone()).unwrap();
    assert_eq!(
        delta,
        MessagesStreamEvent::ContentBlockDelta {
            index: 0,
            delta: ContentDelta::Unknown
        }
    );
    let other: MessagesStreamEvent = serde_json::from_value(v["events"][1].clone()).unwrap();
    assert_eq!(other, MessagesStreamEvent::Unknown);
}

#[test]
fn missing_optional_fields_and_null_data_decode() {
    // `data` is optional on a task result: absent and null both read as None.
    let mut r = json!({
        "url": "https://example.org/", "status": "ERROR", "cost": 0, "creditsUsed": 0.1,
        "durationMs": 5
    });
    assert_eq!(
        serde_json::from_value::<TaskResult>(r.clone())
            .unwrap()
            .data,
        None
    );
    r["data"] = Value::Null;
    assert_eq!(serde_json::from_value::<TaskResult>(r).unwrap().data, None);
    // A spec record needs only its always-present fields.
    let rec: SpecRecord = serde_json::from_value(json!({
        "_id": "6650f1c2a9b3e4d5f6a7b8c9", "created": "2026-11-20T09:14:03.512Z",
        "endpoint": "fast_spec", "input": "x", "status": "pending", "success": false
    }))
    .unwrap();
    assert_eq!(rec.human_spec_url, None);
}
