// The Gateway area: one studio per kind of call (chat, images, speech and music, transcription,
// video, rerank) and the model catalog every picker uses, as tabs.
import { useState } from "react";
import { Tabs, type TabDef } from "../../lib/Tabs";
import { ChatStudio } from "./chat/ChatStudio";
import { ImageStudio } from "./images/ImageStudio";
import { ModelCatalog } from "./models/ModelCatalog";
import { RerankStudio } from "./rerank/RerankStudio";
import { SpeechStudio } from "./speech/SpeechStudio";
import { TrialNote } from "./shared/TrialNote";
import { TranscribeStudio } from "./transcribe/TranscribeStudio";
import { VideoStudio } from "./video/VideoStudio";
import "./gateway.css";

export type Studio = "chat" | "images" | "speech" | "transcribe" | "video" | "rerank" | "models";

const STUDIOS: TabDef<Studio>[] = [
  { id: "chat", label: "Chat" },
  { id: "images", label: "Images" },
  { id: "speech", label: "Speech and music" },
  { id: "transcribe", label: "Transcription" },
  { id: "video", label: "Video" },
  { id: "rerank", label: "Rerank" },
  { id: "models", label: "Models" },
];

export function GatewayScreen() {
  const [studio, setStudio] = useState<Studio>("chat");
  return (
    <section className="page page-wide gateway" aria-labelledby="gateway-title">
      <h1 id="gateway-title">Gateway</h1>
      <p className="muted">Chat, rerank, speech, music, transcription, images and video from many AI labs.</p>
      <TrialNote />
      <Tabs idPrefix="studio" label="Studios" tabs={STUDIOS} active={studio} onChange={setStudio}>
        {studio === "chat" ? (
          <ChatStudio />
        ) : studio === "images" ? (
          <ImageStudio />
        ) : studio === "speech" ? (
          <SpeechStudio />
        ) : studio === "transcribe" ? (
          <TranscribeStudio />
        ) : studio === "video" ? (
          <VideoStudio />
        ) : studio === "rerank" ? (
          <RerankStudio />
        ) : (
          <ModelCatalog />
        )}
      </Tabs>
    </section>
  );
}
