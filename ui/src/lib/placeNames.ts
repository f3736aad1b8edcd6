// The names of the places the route table knows beyond the areas, as the screens show them (the
// Gateway's tabs, the Settings headings) and the command palette lists them.
import type { SettingsSection, Studio } from "./nav";

/** The studios' names, as their tabs say them. */
export const STUDIO_NAMES: Record<Studio, string> = {
  chat: "Chat",
  images: "Images",
  speech: "Speech and music",
  transcribe: "Transcription",
  video: "Video",
  rerank: "Rerank",
  models: "Models",
};

/** The sections' names, as their headings say them. */
export const SECTION_NAMES: Record<SettingsSection, string> = {
  connections: "Connections",
  preferences: "Preferences",
  spending: "Spending",
  support: "Help and diagnostics",
};
