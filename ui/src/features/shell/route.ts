// The app's place as a URL hash, both ways: `#/specs/<id>`, `#/plans?specId=…`, `#/agents`, …
// Pure functions (no window): the router glue (./history.ts) and the tests use them.
//
//   #/specs[?q=…&status=…&sort=…&page=…]     the Specs area (composer, generations, library), with the
//                                            library's list (../specs/library/listAddress.ts)
//   #/specs/<specId>[?tab=<tab>]             one spec, on one of its tabs (SPEC_TABS)
//   #/plans                                  the Plans area
//   #/plans?specId=<hex24> | ?projectId=<hex24>   a plan
//          [&filter=<chip>][&feature=<id>]   its feature filter chip and the feature whose details are open
//   #/agents                                 the Browser agents area (batches)
//   #/agents/batches/<batchId>[?task=<n>[&step=<n>]]  a batch open, its task and step (from 1)
//   #/agents/acceptance?specId=<id>[&url=<address> | &run=<id>]  a spec's stories checked on the
//                                            user's app, or one of its runs kept here
//   #/gateway                                the Gateway on Chat
//   #/gateway/<studio>                       a studio (STUDIOS), with what is open in it:
//          chat?conversation=<n> | models?model=<id> | images?image=<n> | speech?take=<n>
//   #/settings[/<section>]                   Settings, at a section (SETTINGS_SECTIONS)
//
// Anything else (unknown area, extra parts, a malformed id or query) reads as the Specs area. The
// library's list is the one lenient part: its unknown or unusable parameters are dropped one by one
// (listAddress.ts), since the rest of that address still names a list worth showing.
import { SETTINGS_SECTIONS, SPEC_TABS, STUDIOS, type BatchPlace, type NavTarget, type SettingsSection, type SpecTab, type Studio } from "../../lib/nav";
import { canonicalList } from "../specs/library/listAddress";

/** Where a hash that cannot be read leads. */
export const FALLBACK: NavTarget = { area: "specs" };

/** A spec id as the service and the local library give it (an ObjectId; lenient on shape). */
const SPEC_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A plan's spec or project id: 24 hexadecimal characters (PlanTarget). */
const HEX_ID = /^[0-9a-fA-F]{24}$/;
/** The longest app address an acceptance request keeps in the URL. */
const MAX_URL = 2048;
/** A feature filter chip's key or a feature's id (featureFilter.ts; the service's ids). */
const VIEW_VALUE = /^[A-Za-z0-9_:.-]{1,128}$/;

/** A model's id in the catalog ("anthropic/claude-…", "gpt-4o:latest"). */
const MODEL_ID = /^[A-Za-z0-9_:./@+-]{1,200}$/;
/** A count from 1 as the screen shows it (a task's or a step's number), or a library id. */
const NUMBER = /^[1-9][0-9]{0,8}$/;
/** A task list's status filter: a status the service sends (upper case), `queued`, `running` or `failed`. */
const TASK_STATUS = /^(?:[A-Z][A-Z0-9_]{0,39}|queued|running|failed)$/;
/** The longest search a batch's address keeps. */
const MAX_SEARCH = 200;

const isSpecTab = (v: string): v is SpecTab => (SPEC_TABS as readonly string[]).includes(v);
const isStudio = (v: string): v is Studio => (STUDIOS as readonly string[]).includes(v);
const isSection = (v: string): v is SettingsSection => (SETTINGS_SECTIONS as readonly string[]).includes(v);

/** The one parameter each studio keeps in its address (what is open in it). */
const STUDIO_ITEM = { chat: "conversation", models: "model", images: "image", speech: "take" } as const satisfies Partial<
  Record<Studio, keyof import("../../lib/nav").StudioItem>
>;

/** The hash of a place, with its leading `#`. */
export function formatRoute(to: NavTarget): string {
  switch (to.area) {
    case "specs": {
      if (!to.specId) {
        const list = to.list ? canonicalList(to.list) : "";
        return list ? `#/specs?${list}` : "#/specs";
      }
      const tab = to.tab && to.tab !== "overview" ? `?${new URLSearchParams({ tab: to.tab })}` : "";
      return `#/specs/${encodeURIComponent(to.specId)}${tab}`;
    }
    case "plans": {
      const t = to.target;
      const q = t?.specId ? new URLSearchParams({ specId: t.specId }) : t?.projectId ? new URLSearchParams({ projectId: t.projectId }) : null;
      if (!q) return "#/plans";
      if (to.filter && to.filter !== "all") q.set("filter", to.filter);
      if (to.feature) q.set("feature", to.feature);
      return `#/plans?${q}`;
    }
    case "agents": {
      const a = to.acceptance;
      if (a) {
        const q = new URLSearchParams({ specId: a.specId });
        if (a.run) q.set("run", a.run);
        else if (a.url) q.set("url", a.url);
        return `#/agents/acceptance?${q}`;
      }
      const b = to.batch;
      if (!b?.batchId) return "#/agents";
      const q = new URLSearchParams();
      if (b.status) q.set("status", b.status);
      if (b.q) q.set("q", b.q);
      if (b.task) {
        q.set("task", String(b.task));
        if (b.step) q.set("step", String(b.step));
      }
      return `#/agents/batches/${encodeURIComponent(b.batchId)}${q.size ? `?${q}` : ""}`;
    }
    case "gateway":
      return formatGateway(to);
    case "settings":
      return to.section ? `#/settings/${to.section}` : "#/settings";
  }
}

function formatGateway(to: Extract<NavTarget, { area: "gateway" }>): string {
  const studio = to.studio ?? "chat";
  const key = (STUDIO_ITEM as Partial<Record<Studio, keyof typeof to>>)[studio];
  const value = key ? to[key] : undefined;
  if (value !== undefined && value !== "") return `#/gateway/${studio}?${new URLSearchParams({ [key as string]: String(value) })}`;
  return studio === "chat" ? "#/gateway" : `#/gateway/${studio}`;
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** The query of a hash as exactly the allowed keys, each once; null when anything else is there. */
function readQuery(query: string, allowed: readonly string[]): Map<string, string> | null {
  const out = new Map<string, string>();
  if (query === "") return out;
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    if (eq <= 0) return null;
    const key = decode(pair.slice(0, eq).replace(/\+/g, " "));
    const value = decode(pair.slice(eq + 1).replace(/\+/g, " "));
    if (key === null || value === null || !allowed.includes(key) || out.has(key)) return null;
    out.set(key, value);
  }
  return out;
}

/** `#/plans?…`: the Plans area, or a plan with its view (filter chip, open feature). */
function parsePlans(query: string): NavTarget | null {
  const params = readQuery(query, ["specId", "projectId", "filter", "feature"]);
  if (!params) return null;
  const specId = params.get("specId");
  const projectId = params.get("projectId");
  const filter = params.get("filter");
  const feature = params.get("feature");
  if (specId === undefined && projectId === undefined) return params.size === 0 ? { area: "plans" } : null;
  if (specId !== undefined && projectId !== undefined) return null;
  const id = (specId ?? projectId) as string;
  if (!HEX_ID.test(id)) return null;
  if ((filter !== undefined && !VIEW_VALUE.test(filter)) || (feature !== undefined && !VIEW_VALUE.test(feature))) return null;
  const place: Extract<NavTarget, { area: "plans" }> = { area: "plans", target: specId !== undefined ? { specId: id } : { projectId: id } };
  if (filter !== undefined && filter !== "all") place.filter = filter;
  if (feature !== undefined) place.feature = feature;
  return place;
}

/** The place a hash names (with or without its `#`); null when it names none. */
export function parseRoute(hash: string): NavTarget | null {
  const h = hash.startsWith("#") ? hash.slice(1) : hash;
  if (!h.startsWith("/")) return null;
  const q = h.indexOf("?");
  const path = q < 0 ? h.slice(1) : h.slice(1, q);
  const query = q < 0 ? "" : h.slice(q + 1);
  const parts = path.split("/");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop(); // one trailing slash
  const [area, ...rest] = parts;

  switch (area) {
    case "specs": {
      if (rest.length > 1) return null;
      if (rest.length === 0) {
        const list = canonicalList(query);
        return list ? { area: "specs", list } : { area: "specs" };
      }
      const id = decode(rest[0] ?? "");
      const params = readQuery(query, ["tab"]);
      if (id === null || !SPEC_ID.test(id) || !params) return null;
      const tab = params.get("tab");
      if (tab === undefined) return { area: "specs", specId: id };
      return isSpecTab(tab) ? { area: "specs", specId: id, tab } : null;
    }
    case "plans":
      return rest.length > 0 ? null : parsePlans(query);
    case "agents":
      return parseAgents(rest, query);
    case "gateway":
      return parseGateway(rest, query);
    case "settings": {
      if (query !== "" || rest.length > 1) return null;
      if (rest.length === 0) return { area: "settings" };
      const section = rest[0] ?? "";
      return isSection(section) ? { area: "settings", section } : null;
    }
    default:
      return null;
  }
}

/** `#/agents…`: the batches, a batch with its task and step, or an acceptance request or run. */
function parseAgents(rest: string[], query: string): NavTarget | null {
  if (rest.length === 0) return query === "" ? { area: "agents" } : null;
  if (rest.length === 2 && rest[0] === "batches") {
    const batchId = decode(rest[1] ?? "");
    const params = readQuery(query, ["status", "q", "task", "step"]);
    if (batchId === null || !SPEC_ID.test(batchId) || !params) return null;
    const task = params.get("task");
    const step = params.get("step");
    if ((task !== undefined && !NUMBER.test(task)) || (step !== undefined && (task === undefined || !NUMBER.test(step)))) return null;
    const status = params.get("status");
    const search = params.get("q");
    if (status !== undefined && !TASK_STATUS.test(status)) return null;
    if (search !== undefined && (search.trim() === "" || search.length > MAX_SEARCH)) return null;
    const batch: BatchPlace = { batchId };
    if (status !== undefined) batch.status = status;
    if (search !== undefined) batch.q = search;
    if (task !== undefined) batch.task = Number(task);
    if (step !== undefined) batch.step = Number(step);
    return { area: "agents", batch };
  }
  if (rest.length !== 1 || rest[0] !== "acceptance") return null;
  const params = readQuery(query, ["specId", "url", "run"]);
  const specId = params?.get("specId");
  if (!params || !specId || !SPEC_ID.test(specId)) return null;
  const url = params.get("url");
  const run = params.get("run");
  if (url !== undefined && (url.trim() === "" || url.length > MAX_URL)) return null;
  if (run !== undefined && (url !== undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(run))) return null;
  if (run !== undefined) return { area: "agents", acceptance: { specId, run } };
  return { area: "agents", acceptance: url === undefined ? { specId } : { specId, url } };
}

/** `#/gateway[/<studio>][?<item>=…]`: a studio and what is open in it. */
function parseGateway(rest: string[], query: string): NavTarget | null {
  if (rest.length === 0) return query === "" ? { area: "gateway" } : null;
  const studio = rest[0] ?? "";
  if (rest.length !== 1 || !isStudio(studio)) return null;
  const key = (STUDIO_ITEM as Partial<Record<Studio, string>>)[studio];
  const params = readQuery(query, key ? [key] : []);
  if (!params) return null;
  const value = key ? params.get(key) : undefined;
  if (value === undefined) return studio === "chat" ? { area: "gateway" } : { area: "gateway", studio };
  if (key === "model") return MODEL_ID.test(value) ? { area: "gateway", studio, model: value } : null;
  if (!NUMBER.test(value)) return null;
  return { area: "gateway", studio, [key as string]: Number(value) };
}

/** The place a hash names, else the Specs area. */
export function routeOf(hash: string): NavTarget {
  return parseRoute(hash) ?? FALLBACK;
}

/** The hash in its one written form (what the address bar shows and history keeps). */
export function canonicalHash(hash: string): string {
  return formatRoute(routeOf(hash));
}

/**
 * The place without its view (a spec without its tab, the library without its search, filters,
 * page or sort, a plan without its filter or open feature): a new place moves the focus to its
 * heading, a new view of the same place does not.
 */
export function placeOf(to: NavTarget): string {
  if (to.area === "specs") return formatRoute({ area: "specs", specId: to.specId });
  if (to.area === "plans") return formatRoute({ area: "plans", target: to.target });
  if (to.area === "agents") return formatRoute(to.acceptance ? { area: "agents", acceptance: { specId: to.acceptance.specId } } : { area: "agents" });
  if (to.area === "gateway") return "#/gateway";
  if (to.area === "settings") return "#/settings";
  return formatRoute(to);
}
