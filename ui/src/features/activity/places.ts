// Where an activity entry's item is shown, as a route (lib/nav.ts), and the words for its kind
// and state. Pure: tested in places.test.ts.
import type { Activity } from "../../bindings/Activity";
import type { ActivityKind } from "../../bindings/ActivityKind";
import type { ActivityPlace } from "../../bindings/ActivityPlace";
import { STUDIOS, type NavTarget, type Studio } from "../../lib/nav";

export const KIND_WORDS: Record<ActivityKind, string> = {
  chat: "Chat reply",
  image: "Image",
  speech: "Speech",
  music: "Music",
  transcription: "Transcription",
  rerank: "Rerank",
  video: "Video",
  spec: "Spec",
  batch: "Batch",
};

const isStudio = (v: string): v is Studio => (STUDIOS as readonly string[]).includes(v);

/** The route that shows `place`. */
export function routeOf(place: ActivityPlace): NavTarget {
  switch (place.kind) {
    case "conversation":
      return { area: "gateway", studio: "chat", conversation: place.id };
    case "studio": {
      const studio = isStudio(place.studio) ? place.studio : "chat";
      if (place.item === undefined) return { area: "gateway", studio };
      if (studio === "images") return { area: "gateway", studio, image: place.item };
      if (studio === "speech") return { area: "gateway", studio, take: place.item };
      return { area: "gateway", studio };
    }
    case "spec":
      return place.specId ? { area: "specs", specId: place.specId } : { area: "specs" };
    case "batch":
      return place.batchId ? { area: "agents", batch: { batchId: place.batchId } } : { area: "agents" };
  }
}

/** The entries running now. */
export function runningOf(list: readonly Activity[]): Activity[] {
  return list.filter((a) => a.state === "running");
}

/** "2 running" (or "Nothing running"), as the header's control says it. */
export function runningLabel(n: number): string {
  return n === 0 ? "Nothing running" : `${n.toLocaleString("en-US")} running`;
}
