//! Profiles, keys and settings end to end: in-memory keychain and settings fakes, the real
//! sandbox over HTTP for connection tests.

use std::sync::Arc;
use std::time::Duration;

use specdesk_core::*;
use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle, keys};

struct World {
    profiles: Profiles,
    keychain: MemorySecretStore,
    settings: MemorySettings,
    sandbox: SandboxHandle,
}

async fn world() -> World {
    let sandbox = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
    let keychain = MemorySecretStore::default();
    let settings = MemorySettings::default();
    let profiles = Profiles::new(
        Arc::new(settings.clone()),
        Keys::new(Arc::new(keychain.clone()), Duration::from_secs(5)),
        sandbox.base_url(),
    );
    World {
        profiles,
        keychain,
        settings,
        sandbox,
    }
}

fn input(w: &World, name: &str) -> ProfileInput {
    ProfileInput {
        name: name.to_owned(),
        base_url: w.sandbox.base_url().to_owned(),
        key_kind: KeyKind::Personal,
        project_id: None,
    }
}

#[tokio::test]
async fn a_first_run_lands_on_the_sandbox_with_its_balance() {
    let w = world().await;
    assert!(w.profiles.first_run().unwrap());
    let list = w.profiles.list().await.unwrap();
    assert_eq!(list.len(), 1);
    let sb = &list[0];
    assert_eq!(
        (sb.id.as_str(), sb.name.as_str(), sb.built_in, sb.active),
        ("sandbox", "Sandbox", true, true)
    );
    assert_eq!(
        sb.key,
        KeyStatus {
            has_key: true,
            masked_tail: Some("••••_org".into())
        }
    );
    assert_eq!(
        w.profiles.test_connection("sandbox").await.unwrap(),
        10000.0
    );
    w.profiles.finish_welcome().await.unwrap();
    assert!(!w.profiles.first_run().unwrap());
}

#[tokio::test]
async fn a_key_goes_to_the_keychain_and_nowhere_else() {
    let w = world().await;
    let view = w
        .profiles
        .add(&input(&w, "  Work  "), Some(keys::PRO))
        .await
        .unwrap();
    assert_eq!(view.name, "Work");
    assert_eq!(view.key.masked_tail.as_deref(), Some("••••_pro"));
    assert_eq!(
        w.keychain.get(&view.id).unwrap().as_deref(),
        Some(keys::PRO),
        "read back through the keychain"
    );
    let stored = serde_json::to_string(&w.settings.load().unwrap()).unwrap();
    assert!(!stored.contains(keys::PRO), "{stored}");
    let listed = serde_json::to_string(&w.profiles.list().await.unwrap()).unwrap();
    assert!(!listed.contains(keys::PRO), "{listed}");

    assert_eq!(w.profiles.test_connection(&view.id).await.unwrap(), 1000.0);

    let change = w.profiles.set_key(&view.id, keys::ORG).await.unwrap();
    assert_eq!(
        change.notice.as_deref(),
        Some(specdesk_core::profiles::ROTATION_NOTICE)
    );
    let same = w.profiles.set_key(&view.id, keys::ORG).await.unwrap();
    assert_eq!(same.notice, None, "the same key again is no rotation");
    assert_eq!(w.profiles.test_connection(&view.id).await.unwrap(), 10000.0);
}

#[tokio::test]
async fn bad_input_is_refused_before_anything_is_saved() {
    let w = world().await;
    let mut bad = input(&w, "Prod");
    bad.base_url = "http://api.example.com".into();
    let e = w.profiles.add(&bad, Some(keys::PRO)).await.unwrap_err();
    assert_eq!(
        (e.kind.clone(), e.field.as_deref()),
        (IpcErrorKind::InvalidInput, Some("baseUrl"))
    );
    assert!(e.message.contains("https://"), "{}", e.message);
    assert_eq!(w.profiles.list().await.unwrap().len(), 1, "nothing saved");

    let e = w.profiles.add(&input(&w, ""), None).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("name"));

    let e = w
        .profiles
        .add(&input(&w, "Work"), Some("sk live with spaces"))
        .await
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("apiKey"));

    let mut bad_project = input(&w, "Work");
    bad_project.project_id = Some("xyz".into());
    let e = w.profiles.add(&bad_project, None).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("projectId"));

    // A key of only spaces is said, never saved as "no key".
    let e = w
        .profiles
        .add(&input(&w, "Work"), Some("   "))
        .await
        .unwrap_err();
    assert_eq!(
        (e.field.as_deref(), e.message.as_str()),
        (
            Some("apiKey"),
            "What you pasted is only spaces. Paste your API key, or leave the field empty to add it later."
        )
    );
    assert_eq!(w.profiles.list().await.unwrap().len(), 1, "nothing saved");
}

#[tokio::test]
async fn two_connections_never_share_a_name() {
    let w = world().await;
    let work = w.profiles.add(&input(&w, "Work"), None).await.unwrap();
    for taken in ["Work", " work ", "SANDBOX"] {
        let e = w.profiles.add(&input(&w, taken), None).await.unwrap_err();
        assert_eq!(e.field.as_deref(), Some("name"), "{taken}");
        assert!(
            e.message
                .starts_with("You already have a connection named “"),
            "{}",
            e.message
        );
    }
    let personal = w.profiles.add(&input(&w, "Personal"), None).await.unwrap();
    let e = w
        .profiles
        .update(&personal.id, &input(&w, "WORK"))
        .await
        .unwrap_err();
    assert_eq!(
        e.message,
        "You already have a connection named “Work”. Give this one another name."
    );
    // Its own name, in another case, is fine.
    let renamed = w
        .profiles
        .update(&work.id, &input(&w, "work"))
        .await
        .unwrap();
    assert_eq!(renamed.name, "work");
    assert_eq!(w.profiles.list().await.unwrap().len(), 3);
}

#[tokio::test]
async fn a_wrong_key_gets_a_plain_invalid_key_error() {
    let w = world().await;
    let view = w
        .profiles
        .add(&input(&w, "Typo"), Some("sk_sandbox_prx"))
        .await
        .unwrap();
    let e = w.profiles.test_connection(&view.id).await.unwrap_err();
    assert_eq!(
        (e.kind.clone(), e.status),
        (IpcErrorKind::InvalidKey, Some(401))
    );
    assert!(
        e.message.contains("did not accept your API key"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("sk_sandbox_prx"));

    w.profiles.delete_key(&view.id).await.unwrap();
    let e = w.profiles.test_connection(&view.id).await.unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::MissingKey);
}

#[tokio::test]
async fn deleting_the_active_profile_returns_to_the_sandbox_and_forgets_its_key() {
    let w = world().await;
    let view = w
        .profiles
        .add(&input(&w, "Work"), Some(keys::PRO))
        .await
        .unwrap();
    w.profiles.set_active(&view.id).await.unwrap();
    let (active, client) = w.profiles.active_client().await.unwrap();
    assert_eq!(active, view.id);
    assert_eq!(
        client
            .account()
            .credits_balance()
            .await
            .unwrap()
            .credits_remaining,
        1000.0
    );
    w.profiles.delete(&view.id).await.unwrap();
    assert_eq!(w.profiles.settings().unwrap().active_profile_id, "sandbox");
    assert_eq!(w.keychain.get(&view.id).unwrap(), None);
    let e = w.profiles.delete("sandbox").await.unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::InvalidInput);
}

#[tokio::test]
async fn settings_are_checked_before_they_are_saved() {
    let w = world().await;
    let mut s = w.profiles.settings().unwrap();
    s.theme = Theme::Dark;
    s.spec_poll_interval_secs = 15;
    assert_eq!(w.profiles.save_settings(&s).await.unwrap(), s);
    let mut bad = s.clone();
    bad.active_profile_id = "p_gone".into();
    let e = w.profiles.save_settings(&bad).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("activeProfileId"));
    assert_eq!(
        w.profiles.settings().unwrap(),
        s,
        "the saved settings are unchanged"
    );
}

#[test]
fn the_sandbox_profiles_key_is_the_emulators_organization_key() {
    assert_eq!(SANDBOX_KEY, keys::ORG);
}

fn public_catalog() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../types/tests/fixtures/gateway/public-catalog.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[tokio::test]
async fn a_connection_keeps_one_client_until_its_key_changes() {
    use wiremock::matchers::{header, method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    // Only the first read of each client has no ETag to send.
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(|r: &wiremock::Request| !r.headers.contains_key("if-none-match"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(public_catalog())
                .insert_header("etag", "\"c1\""),
        )
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(header("if-none-match", "\"c1\""))
        .respond_with(ResponseTemplate::new(304))
        .expect(2)
        .mount(&server)
        .await;
    let w = world().await;
    let mut conn = input(&w, "Mock service");
    conn.base_url = server.uri();
    let p = w.profiles.add(&conn, Some("sk_live_one")).await.unwrap();
    let total = public_catalog()["total"].as_u64().unwrap();

    // Two commands, one client: the second read is conditional and answered 304 from its cache.
    for _ in 0..2 {
        let c = w.profiles.client_for(&p.id).await.unwrap();
        let catalog = c.gateway().public_catalog().await.unwrap();
        assert_eq!(catalog.total as u64, total);
    }
    // A new key is a new client: its first read has no ETag to send, the next one has.
    w.profiles.set_key(&p.id, "sk_live_two").await.unwrap();
    for _ in 0..2 {
        let c = w.profiles.client_for(&p.id).await.unwrap();
        c.gateway().public_catalog().await.unwrap();
    }
    let sent: Vec<Option<String>> = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| {
            r.headers
                .get("if-none-match")
                .map(|v| v.to_str().unwrap().to_owned())
        })
        .collect();
    let etag = Some("\"c1\"".to_owned());
    assert_eq!(sent, [None, etag.clone(), None, etag]);
}

#[tokio::test]
async fn a_kept_client_is_dropped_when_its_connection_changes_or_goes() {
    let w = world().await;
    let p = w
        .profiles
        .add(&input(&w, "Pro"), Some(keys::PRO))
        .await
        .unwrap();
    let first = w.profiles.client_for(&p.id).await.unwrap();
    assert_eq!(first.config().project_id, None);
    // Learnt state (a trial allowance, a cached catalog) lives in the kept client.
    let again = w.profiles.client_for(&p.id).await.unwrap();
    assert!(std::ptr::eq(first.config(), again.config()));

    let mut edited = input(&w, "Pro");
    edited.project_id = Some("0123456789abcdef01234567".into());
    w.profiles.update(&p.id, &edited).await.unwrap();
    let after_edit = w.profiles.client_for(&p.id).await.unwrap();
    assert_eq!(
        after_edit.config().project_id.as_deref(),
        Some("0123456789abcdef01234567")
    );

    w.profiles.delete_key(&p.id).await.unwrap();
    let keyless = w.profiles.client_for(&p.id).await.unwrap();
    assert!(!keyless.config().has_key());

    w.profiles.delete(&p.id).await.unwrap();
    let gone = w.profiles.client_for(&p.id).await.unwrap_err();
    assert_eq!(gone.kind, IpcErrorKind::NotFound);
}

#[tokio::test]
async fn a_trial_learnt_from_the_service_is_kept_for_the_connections_next_clients() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "0")
                .set_body_json(serde_json::json!({"error": {"message": "slow down",
                    "type": "rate_limit_error", "code": "rate_limit_exceeded", "param": null, "svc": {}}})),
        )
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"model": "cohere/rerank-v3.5",
                "results": [{"index": 0, "relevance_score": 0.9}], "usage": {"total_tokens": 3}})),
        )
        .mount(&server)
        .await;
    let w = world().await;
    let mut conn = input(&w, "Free key");
    conn.base_url = server.uri();
    let p = w.profiles.add(&conn, Some("sk_free_one")).await.unwrap();
    let rerank: specdesk_types::RerankRequest = serde_json::from_value(serde_json::json!({
        "model": "cohere/rerank-v3.5", "query": "q", "documents": ["d"]
    }))
    .unwrap();

    let client = w.profiles.client_for(&p.id).await.unwrap();
    assert!(!client.is_trial());
    let known = w.profiles.knows_trial(&p.id);
    assert!(!known);
    assert!(
        !w.profiles.learn_trial(&p.id, &client, known).await,
        "nothing learnt yet"
    );
    client.gateway().rerank(&rerank).await.unwrap();
    assert!(client.is_trial(), "refused for the rate at its first call");
    // Kept with the connection once the call is over (the UI is told: true), and shown in its view.
    // Another command's client_for may keep it first: the call that learnt it still tells.
    w.profiles.client_for(&p.id).await.unwrap();
    assert!(w.profiles.learn_trial(&p.id, &client, known).await);
    let known = w.profiles.knows_trial(&p.id);
    assert!(
        !w.profiles.learn_trial(&p.id, &client, known).await,
        "told once"
    );
    let view = |list: Vec<ProfileView>| list.into_iter().find(|v| v.id == p.id).unwrap();
    assert_eq!(view(w.profiles.list().await.unwrap()).trial, Some(true));
    w.profiles.client_for(&p.id).await.unwrap();

    // After a restart (new Profiles over the same settings and keychain), the first client of
    // the connection keeps to the trial's rate from its first call.
    let restarted = Profiles::new(
        Arc::new(w.settings.clone()),
        Keys::new(Arc::new(w.keychain.clone()), Duration::from_secs(5)),
        w.sandbox.base_url(),
    );
    assert!(restarted.client_for(&p.id).await.unwrap().is_trial());
    assert_eq!(
        restarted
            .client_for(&p.id)
            .await
            .unwrap()
            .config()
            .gateway_requests_per_minute,
        30
    );
    // A new key may be a paid one: learnt again from scratch.
    restarted.set_key(&p.id, "sk_paid_two").await.unwrap();
    assert!(!restarted.client_for(&p.id).await.unwrap().is_trial());
    assert_eq!(view(restarted.list().await.unwrap()).trial, None);
}
