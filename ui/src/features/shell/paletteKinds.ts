// The palette's items for every kind of place beyond the areas and the specs: the Gateway's
// studios and the sections of Settings (fixed), and the user's plans, conversations, batches,
// images and takes, and the catalog's models (read when the palette opens). Each goes to its
// route (lib/nav.ts), as a link of the app would. All are listed once the user types (the empty
// palette keeps to the areas, the actions and the specs). Pure: tested in paletteKinds.test.ts.
import type { Batch } from "../../bindings/Batch";
import type { CatalogModel } from "../../bindings/CatalogModel";
import type { Conversation } from "../../bindings/Conversation";
import type { MediaItem } from "../../bindings/MediaItem";
import type { RecentProject } from "../../bindings/RecentProject";
import { SETTINGS_SECTIONS, STUDIOS, type SettingsSection } from "../../lib/nav";
import { SECTION_NAMES, STUDIO_NAMES } from "../../lib/placeNames";
import { isRecording } from "../gateway/shared/media";
import { safeId, specTitle, type PaletteItem, type SpecLike } from "./paletteCommands";

const SECTION_WORDS: Record<SettingsSection, string> = {
  connections: "keys account profile api",
  preferences: "theme notifications depth",
  spending: "credits cap ledger money",
  support: "logs diagnostics report bug",
};

/** Every studio of the Gateway, then every section of Settings. */
export const PLACE_ITEMS: readonly PaletteItem[] = [
  ...STUDIOS.map(
    (studio): PaletteItem => ({
      id: `studio-${studio}`,
      group: "Go to",
      searchOnly: true,
      label: `${STUDIO_NAMES[studio]} studio`,
      keywords: "gateway",
      hint: "Gateway",
      run: { kind: "go", to: { area: "gateway", studio } },
    }),
  ),
  ...SETTINGS_SECTIONS.map(
    (section): PaletteItem => ({
      id: `settings-${section}`,
      group: "Go to",
      searchOnly: true,
      label: SECTION_NAMES[section],
      keywords: `settings ${SECTION_WORDS[section]}`,
      hint: "Settings",
      run: { kind: "go", to: { area: "settings", section } },
    }),
  ),
];

/** The plans opened here (by project), then a plan for each completed spec (by spec). */
export function planItems(projects: readonly RecentProject[], specs: readonly SpecLike[], dateOf: (iso: string) => string): PaletteItem[] {
  const out: PaletteItem[] = projects.map((p) => ({
    id: `plan-project-${safeId(p.projectId)}`,
    group: "Plans",
    searchOnly: true,
    label: p.name?.trim() || "Untitled project",
    keywords: "plan project",
    hint: `opened ${dateOf(p.openedAt)}`,
    created: p.openedAt,
    run: { kind: "go", to: { area: "plans", target: { projectId: p.projectId } } },
  }));
  const seen = new Set<string>();
  for (const s of specs) {
    if (s.status !== "completed" || seen.has(s.id)) continue;
    seen.add(s.id);
    out.push({
      id: `plan-spec-${safeId(s.id)}`,
      group: "Plans",
    searchOnly: true,
      label: `Plan of ${specTitle(s.input, s.fileName)}`,
      keywords: `plan project ${s.input ?? ""}`,
      hint: s.created ? dateOf(s.created) : undefined,
      created: s.created,
      run: { kind: "go", to: { area: "plans", target: { specId: s.id } } },
    });
  }
  return out;
}

/** The conversations kept on this computer for the connection in use. */
export function conversationItems(conversations: readonly Conversation[], dateOf: (iso: string) => string): PaletteItem[] {
  return conversations.map((c) => ({
    id: `conversation-${c.id}`,
    group: "Conversations",
    searchOnly: true,
    label: c.title.trim() || "Untitled conversation",
    keywords: `chat conversation ${c.model ?? ""}`,
    hint: dateOf(c.updatedAt),
    created: c.updatedAt,
    run: { kind: "go", to: { area: "gateway", studio: "chat", conversation: c.id } },
  }));
}

const BATCH_WORDS: Record<string, string> = { processing: "running", completed: "finished", failed: "failed" };

/** The service's newest batches: "Batch of 3 tasks, finished". */
export function batchItems(batches: readonly Batch[], dateOf: (iso: string) => string): PaletteItem[] {
  return batches.map((b) => {
    const urls = b.results.map((r) => r.url ?? "").join(" ");
    return {
      id: `batch-${safeId(b.id)}`,
      group: "Batches",
    searchOnly: true,
      label: `Batch of ${b.total.toLocaleString("en-US")} ${b.total === 1 ? "task" : "tasks"}, ${BATCH_WORDS[b.status] ?? b.status}`,
      keywords: `batch browser agents ${b.id} ${urls}`,
      hint: dateOf(b.createdAt),
      created: b.createdAt,
      run: { kind: "go", to: { area: "agents", batch: { batchId: b.id } } },
    };
  });
}

/** Images and takes (speech and music) by their prompt; recordings and videos have no item place. */
export function mediaItems(media: readonly MediaItem[], dateOf: (iso: string) => string): PaletteItem[] {
  const out: PaletteItem[] = [];
  for (const m of media) {
    const prompt = specTitle(m.prompt).replace(/^Untitled spec$/, "Untitled");
    if (m.kind === "image") {
      out.push({ id: `image-${m.id}`, group: "Media", searchOnly: true, label: `Image: ${prompt}`, keywords: `picture ${m.prompt} ${m.model}`, hint: dateOf(m.createdAt), created: m.createdAt, run: { kind: "go", to: { area: "gateway", studio: "images", image: m.id } } });
    } else if (m.kind === "audio" && !isRecording(m)) {
      out.push({ id: `take-${m.id}`, group: "Media", searchOnly: true, label: `Take: ${prompt}`, keywords: `speech music audio ${m.prompt} ${m.model}`, hint: dateOf(m.createdAt), created: m.createdAt, run: { kind: "go", to: { area: "gateway", studio: "speech", take: m.id } } });
    }
  }
  return out;
}

/** The catalog's models, by name and id. */
export function modelItems(models: readonly CatalogModel[]): PaletteItem[] {
  return models.map((m) => ({
    id: `model-${safeId(m.id)}`,
    group: "Models",
    searchOnly: true,
    label: m.name || m.id,
    keywords: `model ${m.id} ${m.type ?? ""}`,
    hint: m.name ? m.id : undefined,
    run: { kind: "go", to: { area: "gateway", studio: "models", model: m.id } },
  }));
}
