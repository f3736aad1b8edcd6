// The Speech and music studio: the form, the player of the take in hand (its waveform drawn from
// the decoded audio, what it cost), the history of takes and an A/B of two of them.
import { useMemo, useState } from "react";
import { useNavigate } from "../../../lib/nav";
import type { MediaItem, SpeechRequest } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { CostLine } from "../shared/CostLine";
import { MediaFacts } from "../shared/MediaFacts";
import { useMedia, useRefreshMedia } from "../shared/queries";
import { useDeleteMedia } from "../shared/useDeleteMedia";
import { ListMore } from "../shared/ListMore";
import { RunningElsewhere } from "../shared/RunningElsewhere";
import { useGatewayModels } from "../models/queries";
import { historyNumbers, isRecording } from "../shared/media";
import { rememberSettings } from "../shared/settingsMemory";
import { useMeteredCall } from "../shared/useMeteredCall";
import { AbCompare } from "./AbCompare";
import { AudioPlayer } from "./AudioPlayer";
import { EMPTY_AB, isReady, preferredIds, putInSlot, swapActive, togglePreferred, type AbState } from "./abState";
import { EMPTY_SPEECH, SpeechComposer, type SpeechDraft } from "./SpeechComposer";
import { TakeHistory } from "./TakeHistory";
import { audioModels, modeOf, takeFacts } from "./speechModels";
import "../shared/shared.css";
import "./speech.css";
import { SaveCopyButton } from "../shared/SaveCopyButton";

export function toSpeechRequest(d: SpeechDraft): SpeechRequest {
  const music = d.mode === "music";
  return {
    model: d.model,
    input: d.input.trim(),
    ...(music ? {} : { voice: d.voice, response_format: d.format }),
    ...(!music && d.instructions.trim() ? { instructions: d.instructions.trim() } : {}),
  };
}

/** `take`: the take in hand, as the route names it (lib/nav.ts); the newest when absent. */
export function SpeechStudio({ take }: { take?: number }) {
  const navigate = useNavigate();
  const catalog = useGatewayModels();
  const takes = useMedia("audio");
  const refresh = useRefreshMedia();
  const toast = useErrorToast();
  const deleteMedia = useDeleteMedia();
  const generation = useMeteredCall<MediaItem>();
  const [draft, setDraft] = useState<SpeechDraft>(EMPTY_SPEECH);
  const current = take ?? null;
  // The take in hand is a view of the studio: choosing one replaces the address.
  const setCurrent = (id: number) => navigate({ area: "gateway", studio: "speech", take: id }, { replace: true });
  const [ab, setAb] = useState<AbState>(EMPTY_AB);
  const [abOpen, setAbOpen] = useState(false);

  const models = useMemo(() => catalog.data?.list.data ?? [], [catalog.data]);
  const model = draft.model || audioModels(models, draft.mode)[0]?.id || "";
  // Recordings from the microphone are the Transcription studio's, not takes of this one.
  const list = useMemo(() => (takes.data ?? []).filter((t) => (modeOf(t.model) !== null || t.kind === "audio") && !isRecording(t)), [takes.data]);
  const preferred = useMemo(() => preferredIds(list), [list]);
  const numbers = useMemo(() => historyNumbers(list), [list]);
  const takeNo = (id: number | null) => (id === null ? undefined : numbers.get(id));
  const byId = (id: number | null) => (id === null ? undefined : list.find((t) => t.id === id));
  const inHand = byId(current) ?? list[0];
  const justMade = generation.result && inHand?.id === generation.result.id;

  const generate = async () => {
    const full = { ...draft, model };
    const item = await generation.run(() => call("speech", { request: toSpeechRequest(full) }));
    if (item) {
      // The take is kept whatever happens to its settings; a failure to keep them is said.
      await rememberSettings([item.id], {
        ...(full.mode === "music" ? { format: "mp3" } : { voice: full.voice, format: full.format }),
        ...(full.mode === "speech" && full.instructions.trim() ? { instructions: full.instructions.trim() } : {}),
      }).catch(toast);
      setCurrent(item.id);
      refresh();
    }
  };

  const a = byId(ab.a);
  const b = byId(ab.b);

  return (
    <div className="studio speech-studio">
      {catalog.isError && <ErrorPanel error={toIpcError(catalog.error)} onRetry={() => void catalog.refetch()} />}
      <SpeechComposer
        catalog={models}
        source={catalog.data}
        draft={{ ...draft, model }}
        onChange={setDraft}
        onGenerate={() => void generate()}
        pending={generation.pending}
        error={generation.error}
      />
      <RunningElsewhere kinds={["speech", "music"]} busy={generation.pending} />
      {inHand && (
        <section className="card studio-section" aria-label="Player">
          <div className="section-head">
            <h2>Take {takeNo(inHand.id)}</h2>
            <div className="row">
              <SaveCopyButton id={inHand.id} />
              <button className="btn" type="button" onClick={() => void call("reveal_media", { id: inHand.id }).catch(toast)}>
                Show in folder
              </button>
            </div>
          </div>
          <p className="prompt-text">{inHand.prompt}</p>
          <AudioPlayer key={inHand.id} item={inHand} label={`take ${takeNo(inHand.id)}`} />
          <MediaFacts item={inHand} showPrompt={false} extra={takeFacts(inHand)} />
          {justMade && <CostLine charge={generation.charge} creditsFallback={generation.result?.credits} cost={generation.result?.cost} />}
        </section>
      )}
      {abOpen && a && b && (
        <AbCompare
          ab={ab}
          a={a}
          b={b}
          preferred={preferred}
          numbers={numbers}
          onSwap={() => setAb(swapActive)}
          onActive={(slot) => setAb((s) => ({ ...s, active: slot }))}
          onPrefer={(item) => void togglePreferred(item, [a.id, b.id]).then(refresh, toast)}
          onClose={() => setAbOpen(false)}
        />
      )}
      {isReady(ab) && !abOpen && (
        <div className="panel panel-info ab-ready">
          <p>
            A: take {takeNo(ab.a)} · B: take {takeNo(ab.b)}
          </p>
          <button className="btn btn-primary" type="button" onClick={() => setAbOpen(true)}>
            Compare A and B
          </button>
        </div>
      )}
      {takes.isError ? (
        <ErrorPanel error={toIpcError(takes.error)} onRetry={() => void takes.refetch()} />
      ) : takes.isPending ? (
        <p className="skeleton">Loading the takes…</p>
      ) : (
        <TakeHistory
          takes={list}
          current={inHand?.id ?? null}
          ab={ab}
          preferred={preferred}
          numbers={numbers}
          onPlay={(t) => setCurrent(t.id)}
          onSlot={(slot, t) => setAb((s) => putInSlot(s, slot, t.id))}
          onReveal={(t) => void call("reveal_media", { id: t.id }).catch(toast)}
          onDelete={(t, name) =>
            deleteMedia(t, name, () => {
              setAb((s) => ({ ...s, a: s.a === t.id ? null : s.a, b: s.b === t.id ? null : s.b }));
              // The focus was on the take's Delete, which is gone: to the history's heading.
              document.querySelector<HTMLElement>(".takes h2")?.focus();
            })
          }
          footer={<ListMore shown={takes.data?.length ?? 0} total={takes.total} noun="audio file" more={!!takes.more} onMore={takes.loadMore} />}
        />
      )}
    </div>
  );
}
