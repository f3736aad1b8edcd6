//! The microphone, for recordings to transcribe (the Transcription studio): the one device the
//! window may open. Every other permission a page can ask (camera, screen, location, web
//! notifications: the app notifies through the OS) is refused without a prompt. The OS still asks
//! the user the first time where it does (macOS: `NSMicrophoneUsageDescription`,
//! src-tauri/Info.plist).

use tauri::Runtime;
use tauri::webview::{PermissionKind, PermissionResponse, Webview};

/// The app's answer to a page asking for a permission.
pub fn on_permission_request<R: Runtime>(
    webview: Webview<R>,
    kind: PermissionKind,
) -> PermissionResponse {
    let answer = match kind {
        PermissionKind::Microphone => PermissionResponse::Allow,
        _ => PermissionResponse::Deny,
    };
    tracing::info!(
        webview = webview.label(),
        ?kind,
        ?answer,
        "a permission was asked"
    );
    answer
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
