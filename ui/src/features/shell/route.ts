// The app's place as a URL hash, both ways: `#/specs/<id>`, `#/plans?specId=…`, `#/agents`, …
// Pure functions (no window): the router glue (./history.ts) and the tests use them.
//
//   #/specs                                  the Specs area (composer, generations, library)
//   #/specs/<specId>                         one spec
//   #/plans                                  the Plans area
//   #/plans?specId=<hex24> | ?projectId=<hex24>   a plan
//   #/agents                                 the Browser agents area (batches)
//   #/agents/acceptance?specId=<id>[&url=<address>]  a spec's stories checked on the user's app
//   #/gateway, #/settings
//
// Anything else (unknown area, extra parts, a malformed id or query) reads as the Specs area.
import type { NavTarget } from "../../lib/nav";

/** Where a hash that cannot be read leads. */
export const FALLBACK: NavTarget = { area: "specs" };

/** A spec id as the service and the local library give it (an ObjectId; lenient on shape). */
const SPEC_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A plan's spec or project id: 24 hexadecimal characters (PlanTarget). */
const HEX_ID = /^[0-9a-fA-F]{24}$/;
/** The longest app address an acceptance request keeps in the URL. */
const MAX_URL = 2048;

/** The hash of a place, with its leading `#`. */
export function formatRoute(to: NavTarget): string {
  switch (to.area) {
    case "specs":
      return to.specId ? `#/specs/${encodeURIComponent(to.specId)}` : "#/specs";
    case "plans": {
      const t = to.target;
      if (t?.specId) return `#/plans?${new URLSearchParams({ specId: t.specId })}`;
      if (t?.projectId) return `#/plans?${new URLSearchParams({ projectId: t.projectId })}`;
      return "#/plans";
    }
    case "agents": {
      const a = to.acceptance;
      if (!a) return "#/agents";
      const q = new URLSearchParams({ specId: a.specId });
      if (a.url) q.set("url", a.url);
      return `#/agents/acceptance?${q}`;
    }
    case "gateway":
      return "#/gateway";
    case "settings":
      return "#/settings";
  }
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
      if (query !== "" || rest.length > 1) return null;
      if (rest.length === 0) return { area: "specs" };
      const id = decode(rest[0] ?? "");
      return id !== null && SPEC_ID.test(id) ? { area: "specs", specId: id } : null;
    }
    case "plans": {
      if (rest.length > 0) return null;
      const params = readQuery(query, ["specId", "projectId"]);
      if (!params || params.size > 1) return null;
      const [entry] = [...params];
      if (!entry) return { area: "plans" };
      const [key, id] = entry;
      if (!HEX_ID.test(id)) return null;
      return { area: "plans", target: key === "specId" ? { specId: id } : { projectId: id } };
    }
    case "agents": {
      if (rest.length === 0) return query === "" ? { area: "agents" } : null;
      if (rest.length !== 1 || rest[0] !== "acceptance") return null;
      const params = readQuery(query, ["specId", "url"]);
      const specId = params?.get("specId");
      if (!params || !specId || !SPEC_ID.test(specId)) return null;
      const url = params.get("url");
      if (url !== undefined && (url.trim() === "" || url.length > MAX_URL)) return null;
      return { area: "agents", acceptance: url === undefined ? { specId } : { specId, url } };
    }
    case "gateway":
    case "settings":
      return rest.length === 0 && query === "" ? { area } : null;
    default:
      return null;
  }
}

/** The place a hash names, else the Specs area. */
export function routeOf(hash: string): NavTarget {
  return parseRoute(hash) ?? FALLBACK;
}

/** The hash in its one written form (what the address bar shows and history keeps). */
export function canonicalHash(hash: string): string {
  return formatRoute(routeOf(hash));
}
