// The Gateway area: one studio per kind of call (chat, images, speech and music, transcription,
// video, rerank) and the model catalog every picker uses, as tabs. The studio and what is open in
// it are the route's (lib/nav.ts): Back, Forward and a relaunch return to them.
import { useEffect } from "react";
import { Tabs, type TabDef } from "../../lib/Tabs";
import { STUDIOS, useNavigate, type NavTarget, type Studio } from "../../lib/nav";
import { STUDIO_NAMES } from "../../lib/placeNames";
import { useConnectionId } from "../../ipc/hooks";
import { ChatStudio } from "./chat/ChatStudio";
import { ImageStudio } from "./images/ImageStudio";
import { ModelCatalog } from "./models/ModelCatalog";
import { RerankStudio } from "./rerank/RerankStudio";
import { SpeechStudio } from "./speech/SpeechStudio";
import { TrialNote } from "./shared/TrialNote";
import { TranscribeStudio } from "./transcribe/TranscribeStudio";
import { VideoStudio } from "./video/VideoStudio";
import "./gateway.css";

const TABS: TabDef<Studio>[] = STUDIOS.map((id) => ({ id, label: STUDIO_NAMES[id] }));

/** What was last open in each studio, this run, per connection (another's items mean nothing). */
const lastInStudio = new Map<string, Partial<Record<Studio, NavTarget>>>();

export function GatewayScreen({ place }: { place: Extract<NavTarget, { area: "gateway" }> }) {
  const navigate = useNavigate();
  const studio = place.studio ?? "chat";
  const connection = useConnectionId() ?? "";
  useEffect(() => {
    const last = lastInStudio.get(connection) ?? {};
    last[studio] = place;
    lastInStudio.set(connection, last);
  }, [studio, place, connection]);
  // A studio's tab reopens what was last open in it (the conversation, the image, the take).
  const setStudio = (next: Studio) => navigate(lastInStudio.get(connection)?.[next] ?? { area: "gateway", studio: next });
  return (
    <section className="page page-wide gateway" aria-labelledby="gateway-title">
      <h1 id="gateway-title">Gateway</h1>
      <p className="muted">Chat, rerank, speech, music, transcription, images and video from many AI labs.</p>
      <TrialNote />
      <Tabs idPrefix="studio" label="Studios" tabs={TABS} active={studio} onChange={setStudio}>
        {studio === "chat" ? (
          <ChatStudio conversation={place.conversation} />
        ) : studio === "images" ? (
          <ImageStudio image={place.image} />
        ) : studio === "speech" ? (
          <SpeechStudio take={place.take} />
        ) : studio === "transcribe" ? (
          <TranscribeStudio />
        ) : studio === "video" ? (
          <VideoStudio />
        ) : studio === "rerank" ? (
          <RerankStudio />
        ) : (
          <ModelCatalog model={place.model} />
        )}
      </Tabs>
    </section>
  );
}
