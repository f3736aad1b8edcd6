//! The microphone, for recordings to transcribe (the Transcription studio): the one device the
//! window may open. Every other permission a page can ask (camera, screen, location, web
//! notifications: the app notifies through the OS) is refused without a prompt. The OS still asks
//! the user the first time where it does (macOS: `NSMicrophoneUsageDescription`,
//! src-tauri/Info.plist).

use tauri::Runtime;
use tauri::webview::{PermissionKind, PermissionResponse, Webview};

/// The app's answer to a page asking for a permission: the microphone for the app's own page only.
pub fn on_permission_request<R: Runtime>(
    webview: Webview<R>,
    kind: PermissionKind,
) -> PermissionResponse {
    let own = webview.url().is_ok_and(|url| is_app_page(&url));
    let answer = match kind {
        PermissionKind::Microphone if own => PermissionResponse::Allow,
        _ => PermissionResponse::Deny,
    };
    tracing::info!(
        webview = webview.label(),
        ?kind,
        ?answer,
        own,
        "a permission was asked"
    );
    answer
}

/// Whether `url` is the app's own page: `tauri://localhost` (Linux, macOS),
/// `http(s)://tauri.localhost` (Windows), or the development server in a debug build.
fn is_app_page(url: &url::Url) -> bool {
    let dev_server = cfg!(debug_assertions)
        && url.scheme() == "http"
        && matches!(url.host_str(), Some("127.0.0.1" | "localhost"));
    dev_server
        || matches!(
            (url.scheme(), url.host_str()),
            ("tauri", Some("localhost")) | ("http" | "https", Some("tauri.localhost"))
        )
}

/// WebKitGTK keeps `getUserMedia` (and with it `MediaRecorder`'s input) off unless the web view's
/// settings turn media streams on. Called in `setup`, on the main thread, where Tauri runs
/// `with_webview` at once: before the page's first document exists, so it sees the setting. Test
/// builds (`e2e-hooks`) record from WebKit's mock capture devices: the machines that run the
/// end-to-end tests have no microphone.
#[cfg(target_os = "linux")]
pub fn enable_media_streams<R: Runtime>(window: &tauri::WebviewWindow<R>) {
    use webkit2gtk::{SettingsExt, WebViewExt};
    let applied = window.with_webview(|platform| {
        if let Some(settings) = WebViewExt::settings(&platform.inner()) {
            settings.set_enable_media_stream(true);
            #[cfg(feature = "e2e-hooks")]
            settings.set_enable_mock_capture_devices(true);
        }
    });
    if let Err(e) = applied {
        tracing::warn!("the window's media settings could not be set: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::is_app_page;

    #[test]
    fn only_the_apps_own_page_counts_as_the_app() {
        let page = |s: &str| is_app_page(&s.parse().unwrap());
        assert!(page("tauri://localhost/#/gateway"));
        assert!(page("http://tauri.localhost/index.html"));
        assert!(!page("https://example.com/"));
        assert!(!page("tauri://elsewhere/"));
        assert!(!page("file:///tmp/x.html"));
        assert_eq!(page("http://127.0.0.1:5173/"), cfg!(debug_assertions));
    }
}
