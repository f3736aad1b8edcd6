//! A gateway call's result with what that call cost, so a studio shows its own call's request id,
//! charge and balance after it (never another call's ledger line).

use serde::Serialize;
use specdesk_client::Metering;
use specdesk_types::MessagesResponse;

use crate::events::ChatEvent;

/// What one call cost, as its metering headers said.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct CallCharge {
    pub request_id: Option<String>,
    pub credits_charged: Option<f64>,
    pub balance_after: Option<f64>,
}

impl CallCharge {
    /// The charge of a call, or `None` when the service sent no metering header.
    pub fn of(metering: &Metering) -> Option<Self> {
        (!metering.is_empty()).then(|| CallCharge {
            request_id: metering.request_id.clone(),
            credits_charged: metering.credits_charged,
            balance_after: metering.credits_remaining,
        })
    }
}

/// A call's result and its charge.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Charged<T> {
    pub value: T,
    pub charge: Option<CallCharge>,
}

impl<T> Charged<T> {
    pub fn new(value: T, metering: &Metering) -> Self {
        Charged {
            value,
            charge: CallCharge::of(metering),
        }
    }
}

/// A streamed chat turn's answer: the reply, the conversation it is kept in, and what the
/// stream's headers said of it. The same as its `done` event, so the window settles the turn on
/// whichever of the two reaches it first.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct ChatReply {
    pub message: MessagesResponse,
    pub conversation_id: i64,
    /// The service's request id of the reply, when its headers gave one.
    pub request_id: Option<String>,
    /// The balance after the reply, when the headers announced its charge.
    pub balance_after: Option<f64>,
    /// The credits the reply cost (its final usage, else its headers), as the ledger keeps.
    pub credits_charged: Option<f64>,
}

impl ChatReply {
    /// The turn's `done` event.
    pub fn done_event(&self) -> ChatEvent {
        ChatEvent::Done {
            message: self.message.clone(),
            conversation_id: self.conversation_id,
            request_id: self.request_id.clone(),
            balance_after: self.balance_after,
            credits_charged: self.credits_charged,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_without_metering_headers_has_no_charge() {
        assert_eq!(Charged::new(1, &Metering::default()).charge, None);
    }

    #[test]
    fn the_headers_become_the_charge_and_serialize_without_missing_parts() {
        let metering = Metering {
            request_id: Some("req_7".into()),
            credits_charged: Some(0.4),
            credits_remaining: None,
        };
        let charged = Charged::new("ok", &metering);
        assert_eq!(
            serde_json::to_value(&charged).unwrap(),
            serde_json::json!({"value": "ok", "charge": {"requestId": "req_7", "creditsCharged": 0.4}})
        );
    }
}
