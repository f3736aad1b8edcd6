//! The model catalogs are kept in the library per connection: read from the service (the public
//! catalog conditionally, with the kept ETag), and shown from the kept copy, marked offline with
//! its time, when the service cannot be reached. One connection's copy never shows for another.

use specdesk_client::{Client, ClientConfig, RetryPolicy};
use specdesk_core::catalogs::{self, CatalogView};
use specdesk_core::spend::{PriceList, Prices};
use specdesk_core::*;
use specdesk_types::{ModelList, PublicCatalog};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn client(uri: &str) -> Client {
    Client::new(
        ClientConfig::new(uri)
            .unwrap()
            .with_api_key("sk-test".to_owned())
            .with_retry(RetryPolicy::none()),
    )
    .unwrap()
}

fn images() -> serde_json::Value {
    serde_json::json!({
        "object": "list",
        "data": [{"id": "openai/gpt-image-1", "type": "image", "svc": {"credits_per_image": 0.4}}]
    })
}

/// From now on the service answers 503 to everything (it cannot be reached).
async fn goes_away(server: &MockServer) {
    server.reset().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(503))
        .mount(server)
        .await;
}

fn public() -> serde_json::Value {
    serde_json::json!({
        "object": "catalog",
        "updated_at": "2026-11-20",
        "total": 1,
        "counts": {"text": 1, "image": 0, "video": 0, "embeddings": 0},
        "labs": [],
        "data": [{"id": "anthropic/claude-sonnet-4.5", "type": "text"}]
    })
}

#[tokio::test]
async fn a_list_read_once_is_served_offline_with_its_time_and_only_to_its_connection() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/images/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(images()))
        .mount(&server)
        .await;
    let uri = server.uri();
    let c = client(&uri);
    let library = Library::in_memory().unwrap();
    let prices = Prices::default();
    let online = catalogs::model_list(&library, &prices, "a", &c, PriceList::Images)
        .await
        .unwrap();
    let expected: ModelList = serde_json::from_value(images()).unwrap();
    assert_eq!(online.list, expected);
    assert!(!online.offline);
    let at = online.cached_at.clone().expect("kept");

    // The service goes away: the kept copy, with the time it was read.
    goes_away(&server).await;
    let offline = catalogs::model_list(&library, &prices, "a", &c, PriceList::Images)
        .await
        .unwrap();
    assert_eq!(
        offline,
        CatalogView {
            list: expected,
            cached_at: Some(at),
            offline: true
        }
    );
    // Another connection, or another list, has nothing kept: the error shows.
    let e = catalogs::model_list(&library, &prices, "b", &c, PriceList::Images)
        .await
        .unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::Server);
    let e = catalogs::model_list(&library, &prices, "a", &c, PriceList::Videos)
        .await
        .unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::Server);
    // Nor does the same connection moved to another address.
    let moved = client("http://127.0.0.1:9");
    assert!(
        catalogs::model_list(&library, &prices, "a", &moved, PriceList::Images)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn an_error_the_service_gave_is_not_hidden_by_the_kept_copy() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(images()))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(401).set_body_json(serde_json::json!({
            "error": {"type": "unauthorized", "message": "Invalid API key."}
        })))
        .mount(&server)
        .await;
    let c = client(&server.uri());
    let library = Library::in_memory().unwrap();
    let prices = Prices::default();
    catalogs::model_list(&library, &prices, "a", &c, PriceList::Models)
        .await
        .unwrap();
    let e = catalogs::model_list(&library, &prices, "a", &c, PriceList::Models)
        .await
        .unwrap_err();
    assert_ne!(e.kind, IpcErrorKind::Network);
}

#[tokio::test]
async fn the_public_catalog_is_read_with_the_kept_etag_and_a_304_keeps_the_copy() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(header("if-none-match", "\"v1\""))
        .respond_with(ResponseTemplate::new(304))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(public())
                .insert_header("etag", "\"v1\""),
        )
        .expect(1)
        .mount(&server)
        .await;
    let uri = server.uri();
    let library = Library::in_memory().unwrap();
    let expected: PublicCatalog = serde_json::from_value(public()).unwrap();

    let first = catalogs::public_catalog(&library, "a", &client(&uri))
        .await
        .unwrap();
    assert_eq!((&first.list, first.offline), (&expected, false));
    let first_at = first.cached_at.unwrap();

    // A new client (the app started again) still sends the ETag kept in the library; the 304
    // answer shows the kept body, now marked current.
    std::thread::sleep(std::time::Duration::from_millis(5));
    let second = catalogs::public_catalog(&library, "a", &client(&uri))
        .await
        .unwrap();
    assert_eq!((&second.list, second.offline), (&expected, false));
    let second_at = second.cached_at.unwrap();
    assert!(second_at > first_at, "{second_at} after {first_at}");
    server.verify().await;

    goes_away(&server).await;
    let offline = catalogs::public_catalog(&library, "a", &client(&uri))
        .await
        .unwrap();
    assert_eq!(
        offline,
        CatalogView {
            list: expected,
            cached_at: Some(second_at),
            offline: true
        }
    );
    assert!(
        catalogs::public_catalog(&library, "b", &client(&uri))
            .await
            .is_err()
    );
}
