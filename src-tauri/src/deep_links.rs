//! `specdesk://` links: a link opens the same place its route names in the app (a spec, a plan, a
//! batch and its task, a conversation: `specdesk://specs/<id>` is `#/specs/<id>`). The link of a
//! second launch is forwarded by the single-instance plugin as that launch's arguments, and the
//! link of a cold start is read from this launch's own (Linux loses it otherwise: DESIGN.md,
//! Jan's deep-link bug); macOS delivers links as events, through `tauri-plugin-deep-link`, which
//! also carries the scheme into the bundles (the Linux desktop file's `x-scheme-handler`). The
//! link goes to the web view as it was given: the UI reads it through its route table and says in
//! plain words when it names no place, opening nothing.

use std::sync::Mutex;

use tauri::{AppHandle, Manager, Runtime};

/// The event that carries a link to the web view (its text, as given).
pub const DEEP_LINK: &str = "deep-link";

/// The link the UI has not taken yet (`take_deep_link`): this launch's own, or one forwarded
/// before the web view listened; after the UI took it once, links come as events only.
#[derive(Default)]
pub struct PendingLink(Mutex<Pending>);

#[derive(Default)]
struct Pending {
    link: Option<String>,
    taken: bool,
}

impl PendingLink {
    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The scheme's links, told apart from the other arguments a launch may get.
pub fn is_link(arg: &str) -> bool {
    arg.get(..9)
        .is_some_and(|s| s.eq_ignore_ascii_case("specdesk:"))
}

/// The first link among a launch's arguments (the program's own name left out).
pub fn link_in<I: IntoIterator<Item = S>, S: AsRef<str>>(args: I) -> Option<String> {
    args.into_iter()
        .skip(1)
        .map(|a| a.as_ref().trim().to_owned())
        .find(|a| is_link(a))
}

/// Opens `link` in the running window (the caller brought it forward): the UI told, or, before
/// it has taken its first link, kept for it (a link forwarded while the window still loads).
pub fn open<R: Runtime>(app: &AppHandle<R>, link: &str) {
    tracing::info!("a specdesk:// link was opened");
    if let Some(pending) = app.try_state::<PendingLink>() {
        let mut pending = pending.lock();
        if !pending.taken {
            pending.link = Some(link.to_owned());
        }
    }
    crate::commands::emit(app, DEEP_LINK, link.to_owned());
}

/// The link the UI has not seen yet, once (later links come as `deep-link` events).
#[tauri::command]
pub fn take_deep_link(pending: tauri::State<'_, PendingLink>) -> Option<String> {
    let mut pending = pending.lock();
    pending.taken = true;
    pending.link.take()
}

/// Keeps this launch's own link for the UI, and follows the links macOS delivers as events.
pub fn install(app: &tauri::App) {
    app.manage(PendingLink(Mutex::new(Pending {
        link: link_in(std::env::args()),
        taken: false,
    })));
    #[cfg(target_os = "macos")]
    {
        use tauri_plugin_deep_link::DeepLinkExt;
        let handle = app.handle().clone();
        app.deep_link().on_open_url(move |event| {
            crate::focus_main_window(&handle);
            for url in event.urls() {
                open(&handle, url.as_str());
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_link_is_found_among_its_arguments() {
        assert_eq!(
            link_in(["specdesk", "specdesk://specs/abc"]).as_deref(),
            Some("specdesk://specs/abc")
        );
        assert_eq!(
            link_in([
                "specdesk",
                "--flag",
                " SpecDesk://gateway/chat?conversation=4 "
            ])
            .as_deref(),
            Some("SpecDesk://gateway/chat?conversation=4")
        );
        // A malformed one is still given to the UI, which says it opens nothing.
        assert_eq!(
            link_in(["specdesk", "specdesk:%%"]).as_deref(),
            Some("specdesk:%%")
        );
        assert_eq!(
            link_in(["specdesk://specs/abc"]),
            None,
            "the program's own name"
        );
        assert_eq!(link_in(["specdesk", "https://example.com"]), None);
        assert!(!is_link("spec"));
    }
}
