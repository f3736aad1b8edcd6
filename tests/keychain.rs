//! The app's key handling against a real Secret Service (GNOME Keyring in a private D-Bus
//! session): keys are read back through the keychain itself (`secret-tool`), not through the app,
//! and never appear in the settings file or the library.
//!
//! These need the Secret Service, so they are ignored by a plain `cargo test`; `scripts/test`
//! runs them with `scripts/lib/keyring-session.sh cargo test -p specdesk --test keychain --
//! --ignored`.

use std::process::Command;
use std::sync::Arc;

use specdesk_app::keychain::OsKeychain;
use specdesk_app::state::AppState;
use specdesk_core::{KeyKind, ProfileInput, SecretStore, SilentNotifier};

/// What the Secret Service holds for (service, account), asked with `secret-tool`.
fn lookup(service: &str, account: &str) -> Option<String> {
    let out = Command::new("secret-tool")
        .args(["lookup", "service", service, "username", account])
        .output()
        .expect("secret-tool runs (package libsecret-tools)");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn unique_service() -> String {
    format!("app.specdesk.test.{}", uuid::Uuid::new_v4().simple())
}

#[test]
#[ignore = "needs a Secret Service: run inside scripts/lib/keyring-session.sh"]
fn keys_are_stored_replaced_and_removed_in_the_os_keychain() {
    let service = unique_service();
    let keychain = OsKeychain::with_service(&service);
    assert_eq!(keychain.get("p1").unwrap(), None);
    keychain.set("p1", "sk_live_first_0001").unwrap();
    assert_eq!(
        lookup(&service, "p1").as_deref(),
        Some("sk_live_first_0001")
    );
    assert_eq!(
        keychain.get("p1").unwrap().as_deref(),
        Some("sk_live_first_0001")
    );
    keychain.set("p1", "sk_live_second_0002").unwrap();
    assert_eq!(
        lookup(&service, "p1").as_deref(),
        Some("sk_live_second_0002")
    );
    keychain.delete("p1").unwrap();
    assert_eq!(lookup(&service, "p1"), None);
    keychain.delete("p1").unwrap();
}

#[test]
#[ignore = "needs a Secret Service: run inside scripts/lib/keyring-session.sh"]
fn a_profile_key_reaches_the_keychain_and_no_file() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let data = tempfile::tempdir().unwrap();
        let service = unique_service();
        let state = AppState::open(
            data.path(),
            Arc::new(specdesk_core::MemorySettings::default()),
            Arc::new(OsKeychain::with_service(&service)),
            Arc::new(SilentNotifier),
            false,
        )
        .await
        .unwrap()
        .0;
        let key = specdesk_sandbox::keys::PRO;
        let view = state
            .profiles
            .add(
                &ProfileInput {
                    name: "Work".into(),
                    base_url: state.sandbox.base_url().to_owned(),
                    key_kind: KeyKind::Personal,
                    project_id: None,
                },
                Some(key),
            )
            .await
            .unwrap();
        assert_eq!(lookup(&service, &view.id).as_deref(), Some(key));
        assert_eq!(view.key.masked_tail.as_deref(), Some("••••_pro"));
        assert_eq!(
            state.profiles.test_connection(&view.id).await.unwrap(),
            1000.0
        );

        let listed = serde_json::to_string(&state.profiles.list().await.unwrap()).unwrap();
        assert!(!listed.contains(key));
        // Everything the app wrote (the embedded sandbox's own data, under sandbox/, is the
        // emulated service's store, not the app's).
        for entry in walk(data.path())
            .into_iter()
            .filter(|p| !p.starts_with(data.path().join("sandbox")))
        {
            let bytes = std::fs::read(&entry).unwrap();
            assert!(
                !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                "{} contains the key",
                entry.display()
            );
        }

        state.profiles.delete(&view.id).await.unwrap();
        assert_eq!(lookup(&service, &view.id), None, "removed with its profile");
        let AppState { sandbox, .. } = state;
        sandbox.shutdown().await;
    });
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
#[ignore = "needs no D-Bus session: scripts/test runs it with DBUS_SESSION_BUS_ADDRESS pointing nowhere"]
fn without_a_secret_service_the_user_is_told_plainly() {
    let e = OsKeychain::with_service(&unique_service())
        .set("p1", "sk_live_never_stored")
        .unwrap_err();
    assert!(
        matches!(e, specdesk_core::SecretError::Unavailable(_)),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("No keychain service was found on this computer"),
        "{e}"
    );
    assert!(!format!("{e:?} {e}").contains("sk_live_never_stored"));
}
