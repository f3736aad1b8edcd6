// Where an activity entry's item is shown, as a route (lib/nav.ts), and the words for its kind
// and state. Pure: tested in places.test.ts.
import type { Activity } from "../../bindings/Activity";
import type { ActivityKind } from "../../bindings/ActivityKind";
import type { ActivityPlace } from "../../bindings/ActivityPlace";
import { STUDIOS, type NavTarget, type Studio } from "../../lib/nav";
import { formatRoute } from "../shell/route";

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

/** `title` cut at a word to about 60 characters ("streaks…", never "streaks an…"). */
export function shortTitle(title: string): string {
  if (title.length <= 60) return title;
  const cut = title.slice(0, 60);
  const word = cut.lastIndexOf(" ");
  return `${(word > 20 ? cut.slice(0, word) : cut).replace(/[\s,;:.…]+$/, "")}…`;
}

/** What the in-app notice of a finished job says (its Open goes to `routeOf(place)`). */
export function finishedSentence(job: Activity): string {
  const title = shortTitle(job.title);
  const failed = job.state === "failed";
  switch (job.kind) {
    case "spec":
      return failed ? `Your spec could not be generated: “${title}”.` : `Your spec is ready: “${title}”.`;
    case "video":
      return failed ? `Your video could not be made: “${title}”.` : `Your video is ready: “${title}”.`;
    case "batch":
      return failed ? `Your browser batch could not be finished (${title}).` : `Your browser batch has finished (${title}).`;
    default:
      return `${KIND_WORDS[job.kind]} ${failed ? "failed" : "finished"}: “${title}”.`;
  }
}

/** Where a finished job's notice (or its desktop notification) opens `place`: its item (a spec
 * on its human document). */
export function opensAt(place: ActivityPlace): NavTarget {
  const to = routeOf(place);
  return to.area === "specs" && to.specId ? { ...to, tab: "human" } : to;
}

/** Whether `shown` is the place `target` names or a view within it (a spec's tab, a batch's task).
 * An area without an item (a spec that failed before the service named it) is shown by itself
 * only, not by any spec of it. */
export function showsPlace(shown: NavTarget, target: NavTarget): boolean {
  const at = formatRoute(shown);
  const want = formatRoute(target);
  const namesItem = want.split(/[/?]/).length > 2;
  return at === want || (namesItem && at.startsWith(want) && "/?".includes(at.charAt(want.length)));
}
