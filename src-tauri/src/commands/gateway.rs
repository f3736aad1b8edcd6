//! The AI gateway: catalogs, rerank, speech and music, transcription, streamed chat kept in
//! conversations, images, videos through the job ledger, and the media library.

use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use specdesk_client::Client;
use specdesk_core::activity::calls::{CallOutcome, call_entry};
use specdesk_core::activity::{ActivityPlace, StopBy, stream_entry};
use specdesk_core::agents::frames::FRAME;
use specdesk_core::catalogs::{self, CatalogView};
use specdesk_core::chat_frames::forward_in_frames;
use specdesk_core::image_file::ImageFile;
use specdesk_core::live_replies::LiveReplyView;
use specdesk_core::settings::SpendToday;
use specdesk_core::spend::{GatewayCall, PriceList, check_call};
use specdesk_core::{Charged, ChatEvent, ChatReply, Job, MediaItem, Studio};
use specdesk_types::{
    ImageRequest, MessagesRequest, ModelList, PublicCatalog, RerankRequest, RerankResult,
    SpeechRequest, Transcription, VideoRequest,
};

use super::{Result, emit, emit_latest_credits, events};
use crate::state::AppState;
use crate::streams::{Ending, send_event};

/// The public catalog, read with the kept ETag and kept in the library: offline, the copy kept.
#[tauri::command]
pub async fn public_catalog(state: State<'_, AppState>) -> Result<CatalogView<PublicCatalog>> {
    let (profile_id, client) = state.profiles.active_client().await?;
    catalogs::public_catalog(&state.library, &profile_id, &client).await
}

/// A priced model list, kept in the library (and its prices for spend estimates).
async fn priced_list(state: &AppState, list: PriceList) -> Result<CatalogView<ModelList>> {
    let (profile_id, client) = state.profiles.active_client().await?;
    catalogs::model_list(&state.library, &state.prices, &profile_id, &client, list).await
}

#[tauri::command]
pub async fn gateway_models(state: State<'_, AppState>) -> Result<CatalogView<ModelList>> {
    priced_list(&state, PriceList::Models).await
}

#[tauri::command]
pub async fn image_models(state: State<'_, AppState>) -> Result<CatalogView<ModelList>> {
    priced_list(&state, PriceList::Images).await
}

#[tauri::command]
pub async fn video_models(state: State<'_, AppState>) -> Result<CatalogView<ModelList>> {
    priced_list(&state, PriceList::Videos).await
}

/// Runs `f` (gateway call `call`) with the active profile's studio, then tells the UI the new
/// balance. Nothing is sent when the call's estimate, from the priced model lists, would take
/// today's spending past the connection's daily cap (`spendCap`); a call of unknown price is
/// estimated at 0, so only a cap already reached stops it.
async fn with_studio<T: CallOutcome>(
    app: &AppHandle,
    state: &AppState,
    call: GatewayCall<'_>,
    f: impl AsyncFnOnce(&Studio<'_>) -> Result<T>,
) -> Result<T> {
    with_studio_stoppable(app, state, call, None, f).await
}

/// A gateway call, listed in the activity list while it runs and after it ends; `stop` says how
/// the user stops it (a chat reply's stream).
async fn with_studio_stoppable<T: CallOutcome>(
    app: &AppHandle,
    state: &AppState,
    call: GatewayCall<'_>,
    stop: Option<StopBy>,
    f: impl AsyncFnOnce(&Studio<'_>) -> Result<T>,
) -> Result<T> {
    let (kind, title, place) = call_entry(&call);
    let entry = state.activity.start(kind, &title, place, stop);
    emit(app, events::ACTIVITY_CHANGED, ());
    let out = run_call(app, state, call, f).await;
    match &out {
        Ok(value) => state
            .activity
            .end(&entry, Ok((value.credits(), value.place()))),
        Err(error) => state.activity.end(&entry, Err(error)),
    }
    emit(app, events::ACTIVITY_CHANGED, ());
    out
}

async fn run_call<T>(
    app: &AppHandle,
    state: &AppState,
    call: GatewayCall<'_>,
    f: impl AsyncFnOnce(&Studio<'_>) -> Result<T>,
) -> Result<T> {
    let (profile_id, client) = state.profiles.active_client().await?;
    // Counted as under way (its estimate against the cap) until the call ends: its charge is
    // recorded by then, or a cut stream's line counts at the estimate (`Studio::estimate`).
    let counted = check_call(
        &state.profiles,
        &state.library,
        &state.prices,
        &state.under_way,
        &profile_id,
        &client,
        &call,
    )
    .await?;
    let studio = Studio {
        client: &client,
        library: &state.library,
        profile_id: &profile_id,
        media_dir: &state.media_dir,
        estimate: counted.estimate(),
    };
    let known = state.profiles.knows_trial(&profile_id);
    let out = f(&studio).await;
    emit_latest_credits(app, state, &profile_id);
    learn_trial(app, state, &profile_id, &client, known).await;
    out
}

/// A call may show the key is on the gateway's trial: kept with the connection, and the UI told
/// (it explains the trial's limits).
async fn learn_trial<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
    profile_id: &str,
    client: &Client,
    known_before: bool,
) {
    if state
        .profiles
        .learn_trial(profile_id, client, known_before)
        .await
    {
        emit(app, events::PROFILES_CHANGED, ());
    }
}

#[tauri::command]
pub async fn rerank(
    app: AppHandle,
    state: State<'_, AppState>,
    request: RerankRequest,
) -> Result<Charged<RerankResult>> {
    with_studio(&app, &state, GatewayCall::Rerank(&request), async |s| {
        s.rerank(&request).await
    })
    .await
}

#[tauri::command]
pub async fn speech(
    app: AppHandle,
    state: State<'_, AppState>,
    request: SpeechRequest,
) -> Result<Charged<MediaItem>> {
    with_studio(&app, &state, GatewayCall::Speech(&request), async |s| {
        s.speech(&request).await
    })
    .await
}

#[tauri::command]
pub async fn transcribe(
    app: AppHandle,
    state: State<'_, AppState>,
    path: String,
    model: String,
) -> Result<Charged<Transcription>> {
    let path = state.chosen_files.check(&path, "file")?;
    with_studio(
        &app,
        &state,
        GatewayCall::Transcription { model: &model },
        async |s| s.transcribe(&path, &model).await,
    )
    .await
}

/// The text of a file the user chose (documents to rank: .txt, .md, .csv, at most 2 MB).
#[tauri::command]
pub async fn read_text_file(state: State<'_, AppState>, path: String) -> Result<String> {
    let path = state.chosen_files.check(&path, "path")?;
    tauri::async_runtime::spawn_blocking(move || specdesk_core::files::read_text(&path))
        .await
        .map_err(specdesk_core::IpcError::storage)?
}

/// An image the user dropped on the chat or chose, for a message's image block: PNG, JPEG, GIF
/// or WebP by its first bytes, at most 5 MB, as base64 (`specdesk_core::image_file`).
#[tauri::command]
pub async fn read_image_file(state: State<'_, AppState>, path: String) -> Result<ImageFile> {
    let path = state.chosen_files.check(&path, "path")?;
    tauri::async_runtime::spawn_blocking(move || specdesk_core::image_file::read_image(&path))
        .await
        .map_err(specdesk_core::IpcError::storage)?
}

/// The image on the system clipboard, as a PNG for a message's image block, or `None` when the
/// clipboard holds no image. WebKitGTK gives a paste event no file for a copied image, so the chat
/// asks for it here when a paste brings none (a user's paste, never on its own).
#[tauri::command]
pub async fn paste_image(app: AppHandle) -> Result<Option<ImageFile>> {
    use tauri_plugin_clipboard_manager::ClipboardExt;
    let Ok(image) = app.clipboard().read_image() else {
        return Ok(None);
    };
    let (width, height, rgba) = (image.width(), image.height(), image.rgba().to_vec());
    tauri::async_runtime::spawn_blocking(move || {
        specdesk_core::image_file::png_from_pixels(width, height, &rgba).map(Some)
    })
    .await
    .map_err(specdesk_core::IpcError::storage)?
}

/// Transcribes a take of the media library (a file Specdesk made, in the media folder).
#[tauri::command]
pub async fn transcribe_media(
    app: AppHandle,
    state: State<'_, AppState>,
    id: i64,
    model: String,
) -> Result<Charged<Transcription>> {
    let path = specdesk_core::media::media_path(&state.library, &state.media_dir, id)?;
    with_studio(
        &app,
        &state,
        GatewayCall::Transcription { model: &model },
        async |s| s.transcribe(&path, &model).await,
    )
    .await
}

#[tauri::command]
pub async fn generate_images(
    app: AppHandle,
    state: State<'_, AppState>,
    request: ImageRequest,
) -> Result<Charged<Vec<MediaItem>>> {
    with_studio(&app, &state, GatewayCall::Images(&request), async |s| {
        s.images(&request).await
    })
    .await
}

/// A streamed chat turn: `start`, `text` deltas, then always `done` or `error`.
#[tauri::command]
#[allow(clippy::too_many_arguments)]
pub async fn chat_stream(
    app: AppHandle,
    state: State<'_, AppState>,
    stream_id: String,
    conversation_id: Option<i64>,
    turn_id: Option<String>,
    request: MessagesRequest,
    on_event: Channel<ChatEvent>,
) -> Result<ChatReply> {
    let ending = Ending {
        // The turn sends its own `done`, with the conversation it is kept in.
        done: |_: &ChatReply| None,
        error: |error| ChatEvent::Error { error },
        cancelled: "Stopped. The reply so far is kept.",
    };
    // The reply runs on whatever its screen does, listed with what it said so far, so a screen
    // that comes back follows it again (`live_reply`); only Stop (`cancel_stream`) ends it.
    let events = on_event.clone();
    let live = state.replies.begin(
        &stream_id,
        turn_id,
        conversation_id,
        prefill_of(&request),
        Box::new(move |e| send_event(&events, e)),
    );
    let reply = live.reply().clone();
    // Deltas go to the web view at most once a frame, those of a frame merged
    // (`core::chat_frames`): a reply is thousands of them.
    let (to_frames, from_stream) = tokio::sync::mpsc::unbounded_channel();
    let (app, state_ref, request_ref, stream_ref) = (&app, &*state, &request, stream_id.as_str());
    let stream = async move {
        let stop = Some(StopBy::Stream {
            stream_id: stream_ref.to_owned(),
        });
        let call = GatewayCall::Chat(request_ref);
        let outcome = with_studio_stoppable(app, state_ref, call, stop, async |s| {
            s.chat_stream(conversation_id, request_ref, |e| {
                let _ = to_frames.send(e);
            })
            .await
        })
        .await;
        drop(to_frames);
        outcome
    };
    // Each frame's text goes with the reply's HTML so far (`core::chat_render`), to every screen
    // following the reply.
    let to_screens = reply.clone();
    let (board, entry, events_app) = (&state.activity, stream_entry(&stream_id), app.clone());
    let frames = forward_in_frames(from_stream, FRAME, move |e| {
        // The activity list opens the reply's conversation once it is known.
        if let ChatEvent::Start { conversation_id } = &e {
            board.place(
                &entry,
                ActivityPlace::Conversation {
                    id: *conversation_id,
                },
            );
            emit(&events_app, events::ACTIVITY_CHANGED, ());
        }
        to_screens.send(e)
    });
    let body = async move { tokio::join!(stream, frames).0 };
    let outcome = state.streams.run(&stream_id, &on_event, ending, body).await;
    if let Err(error) = &outcome {
        reply.fail(error);
    }
    drop(live);
    outcome
}

/// The words a reply continues: the request's last message when it is the assistant's own (a
/// prefill), without its trailing white space, as the studio sends them.
fn prefill_of(request: &MessagesRequest) -> String {
    request
        .messages
        .last()
        .filter(|m| m.role == specdesk_types::MessageRole::Assistant)
        .map(|m| {
            specdesk_core::studio::text_of(&m.content)
                .trim_end()
                .to_owned()
        })
        .unwrap_or_default()
}

/// A screen back at conversation `conversation_id`: the reply streaming in it now, with its text
/// so far, every later event of it going to `on_event` as well; `None` when no reply streams there.
#[tauri::command]
pub fn live_reply(
    state: State<'_, AppState>,
    conversation_id: i64,
    on_event: Channel<ChatEvent>,
) -> Option<LiveReplyView> {
    state
        .replies
        .attach(conversation_id, Box::new(move |e| send_event(&on_event, e)))
}

#[tauri::command]
pub async fn submit_video<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    request: VideoRequest,
) -> Result<Job> {
    let (profile_id, client) = state.profiles.active_client().await?;
    // Counted as under way until the job is in the ledger, then as an unfinished video.
    let _counted = check_call(
        &state.profiles,
        &state.library,
        &state.prices,
        &state.under_way,
        &profile_id,
        &client,
        &GatewayCall::Video(&request),
    )
    .await?;
    let known = state.profiles.knows_trial(&profile_id);
    let job = state.jobs.start_video(&profile_id, &request).await;
    learn_trial(&app, &state, &profile_id, &client, known).await;
    job
}

/// Raises connection `profile_id`'s daily spend cap by `credits` for today only (the action of a
/// `spendCap` error). Today's spending against the new cap.
#[tauri::command]
pub async fn raise_spend_cap_today(
    state: State<'_, AppState>,
    profile_id: String,
    credits: f64,
) -> Result<SpendToday> {
    state
        .profiles
        .raise_cap_today(&state.library, &profile_id, credits)
        .await
}

/// A chat reply's markdown as sanitized HTML (the same renderer and sanitizer as specs).
/// Off the window's thread (a long reply takes milliseconds to render).
#[tauri::command]
pub async fn render_markdown(markdown: String) -> Result<specdesk_core::markdown::Rendered> {
    tauri::async_runtime::spawn_blocking(move || specdesk_core::markdown::render(&markdown))
        .await
        .map_err(|e| specdesk_core::IpcError::internal(e.to_string()))
}
