//! The built-in Sandbox: the emulator started inside the app on a free loopback port, with its
//! state kept in the app's data folder so a user's sandbox work survives restarts.

use std::path::Path;

use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle};

/// Starts the embedded sandbox, its state in `data_dir`.
pub async fn start(data_dir: &Path) -> std::io::Result<SandboxHandle> {
    std::fs::create_dir_all(data_dir)?;
    Sandbox::start(SandboxConfig {
        addr: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        state_file: Some(data_dir.join("sandbox-state.json")),
        ..SandboxConfig::default()
    })
    .await
}

#[cfg(test)]
mod tests {
    use specdesk_core::Profiles;

    use super::start as start_embedded_sandbox;

    #[tokio::test]
    async fn the_embedded_sandbox_listens_on_loopback_and_keeps_its_state_in_the_data_folder() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("sandbox");
        let sandbox = start_embedded_sandbox(&data).await.unwrap();
        assert_eq!(sandbox.addr.ip(), std::net::Ipv4Addr::LOCALHOST);
        assert_ne!(sandbox.addr.port(), 0);
        assert_eq!(
            sandbox.base_url(),
            format!("http://127.0.0.1:{}", sandbox.addr.port())
        );
        let profiles = Profiles::in_memory(sandbox.base_url());
        let client = profiles
            .client_for(specdesk_core::SANDBOX_PROFILE_ID)
            .await
            .unwrap();
        client
            .specs()
            .submit(&specdesk_client::SpecSubmission::fast(
                "Kept across restarts",
            ))
            .await
            .unwrap();
        sandbox.shutdown().await;
        assert!(data.join("sandbox-state.json").is_file());

        // Started again (on another free port), it still has the spec.
        let sandbox = start_embedded_sandbox(&data).await.unwrap();
        let profiles = Profiles::in_memory(sandbox.base_url());
        let (_, client) = profiles.active_client().await.unwrap();
        let list = client
            .specs()
            .list(&specdesk_client::SpecListQuery::default())
            .await
            .unwrap();
        assert_eq!(list.total, 1);
        assert_eq!(list.specs[0].input, "Kept across restarts");
    }
}
