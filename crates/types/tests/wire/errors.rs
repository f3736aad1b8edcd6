//! The two error shapes: REST and gateway.

use crate::common::{assert_covers, assert_keys, json, roundtrip, roundtrip_each};
use specdesk_types::*;

#[test]
fn rest_error_with_every_field() {
    let e: RestError = roundtrip("errors/rest-error-full.json");
    assert_keys(
        &json("errors/rest-error-full.json"),
        "",
        &[
            "error",
            "message",
            "code",
            "actionUrl",
            "requiresSubscription",
            "trialsUsed",
            "maxTrials",
        ],
    );
    assert_eq!(e.error, "Subscription required");
    assert_eq!(e.code.as_deref(), Some("SUBSCRIPTION_REQUIRED"));
    assert_eq!(e.action_url.as_deref(), Some("https://svc.example/pricing"));
    assert_eq!(e.requires_subscription, Some(true));
    assert_eq!((e.trials_used, e.max_trials), (Some(3), Some(3)));
    assert!(e.extra.is_empty());
}

#[test]
fn every_rest_error_row_decodes() {
    let errors: Vec<RestError> = roundtrip_each("errors/rest-errors.json", Some("body"));
    let texts: Vec<String> = errors.iter().map(|e| e.error.clone()).collect();
    // Every `error` value of the plan and credits tables.
    assert_covers(
        "REST error",
        &[
            "Invalid request",
            "Invalid ID",
            "Missing API key",
            "Authentication failed",
            "Project not found",
            "No project yet",
            "Not available",
            "Failed to fetch plan",
            "Unauthorized",
            "Missing context",
            "Failed to retrieve credits balance",
        ],
        &texts,
    );
    assert!(errors.iter().all(|e| e.extra.is_empty()));
}

#[test]
fn gateway_error_for_every_code_with_its_svc_fields() {
    let rows = json("errors/gateway-errors.json");
    let errors: Vec<GatewayErrorBody> = roundtrip_each("errors/gateway-errors.json", Some("body"));
    let codes: Vec<String> = errors
        .iter()
        .map(|e| e.error.code.as_ref().unwrap().to_string())
        .collect();
    assert_covers("gateway error code", GatewayErrorCode::KNOWN, &codes);
    for (i, e) in errors.iter().enumerate() {
        assert_keys(
            &rows,
            &format!("/{i}/body/error"),
            &["message", "type", "code", "param", "svc"],
        );
        let code = e.error.code.as_ref().unwrap();
        assert!(code.is_known(), "{code}");
        assert_eq!(e.error.param, None);
        let svc = e.error.svc.as_ref().expect("svc is always an object");
        assert!(svc.extra.is_empty());
        let status = rows[i]["status"].as_u64().unwrap();
        match code {
            GatewayErrorCode::InsufficientCredits => {
                assert_eq!(status, 402);
                assert_eq!(svc.credits_remaining, Some(0.0));
                assert_eq!(svc.estimated_credits, Some(0.35));
                assert!(svc.topup_url.is_some());
                assert_eq!(svc.trial_credits_used, None);
            }
            GatewayErrorCode::SubscriptionRequired => {
                assert_eq!(status, 402);
                assert_eq!(svc.trial_credits_used, Some(5.2));
                assert!(svc.topup_url.is_some());
                assert_eq!(svc.credits_remaining, None);
            }
            _ => assert_eq!(
                svc,
                &GatewayErrorSvc {
                    credits_remaining: None,
                    estimated_credits: None,
                    topup_url: None,
                    trial_credits_used: None,
                    extra: Default::default(),
                },
                "{code} has no svc fields"
            ),
        }
        if matches!(
            code,
            GatewayErrorCode::InternalError | GatewayErrorCode::CatalogUnavailable
        ) {
            assert_eq!(e.error.error_type.as_deref(), Some("server_error"));
        }
    }
}
