// Helpers the mock handlers share: profiles and keys, specs and jobs as the Sandbox runs them,
// checks with the Rust side's words.
import type { Batch, BrowserTask, CreditsView, DataProblem, IpcError, Job, ProfileInput, ProfileView, Rendered, SpecPage, SpecQuery } from "../ipc/contract";
import type { CallCharge } from "../bindings/CallCharge";
import type { CatalogView } from "../bindings/CatalogView";
import type { ImageFile } from "../bindings/ImageFile";
import type { SpecRecord } from "../bindings/SpecRecord";
import type { SpecStatusResponse } from "../bindings/SpecStatusResponse";
import { checkApiKey, checkBaseUrl, checkProfileName, checkProjectId } from "../lib/validate";
import { ipcError, type MockContext } from "./registry";
import { MISSING_KEY, NOT_FOUND, clone, nextId, now, type MockDb } from "./state";
import { batchResults, habitsMarkdown, habitsScope } from "./fixtures";


// ---------------------------------------------------------------------------------------------
// Helpers the handlers share.

export function profileViews(db: MockDb): ProfileView[] {
  return db.profiles.map((p) => ({ ...clone(p), active: p.id === db.settings.activeProfileId }));
}

export function findProfile(db: MockDb, id: string): ProfileView {
  const p = db.profiles.find((x) => x.id === id);
  if (!p) throw ipcError("notFound", "That connection no longer exists.");
  return p;
}

export function checkInput(input: ProfileInput): ProfileInput {
  const name = checkProfileName(input.name);
  if (name) throw ipcError("invalidInput", name, { field: "name" });
  const url = checkBaseUrl(input.baseUrl);
  if (url) throw ipcError("invalidInput", url, { field: "baseUrl" });
  const project = checkProjectId(input.projectId ?? "");
  if (project) throw ipcError("invalidInput", project, { field: "projectId" });
  const projectId = input.projectId?.trim();
  return { name: input.name.trim(), baseUrl: input.baseUrl.trim(), keyKind: input.keyKind, ...(projectId ? { projectId } : {}) };
}

export function checkKey(key: string): string {
  const problem = checkApiKey(key);
  if (problem) throw ipcError("invalidInput", problem, { field: "apiKey" });
  return key.trim();
}

export function activeProfile(db: MockDb): ProfileView {
  return findProfile(db, db.settings.activeProfileId);
}

export function balanceView(db: MockDb, profileId: string): CreditsView {
  return { profileId, creditsRemaining: db.credits[profileId] ?? 0, at: now(db) };
}

/**
 * Charges the active profile and broadcasts the new balance, as every metered command does; the
 * call's charge, as the gateway commands return it with their result.
 */
export function charge(db: MockDb, ctx: MockContext, endpoint: string, credits: number, model?: string): CallCharge {
  const p = activeProfile(db);
  const left = Math.max(0, (db.credits[p.id] ?? 0) - credits);
  db.credits[p.id] = Math.round(left * 1000) / 1000;
  const view = balanceView(db, p.id);
  db.ledger.unshift({ at: view.at, profileId: p.id, endpoint, ...(model ? { model } : {}), creditsCharged: credits, creditsRemaining: view.creditsRemaining, pending: false, estimated: false });
  ctx.emit("credits-changed", view);
  return { creditsCharged: credits, balanceAfter: view.creditsRemaining };
}

/** What the Rust copy commands do: write the system clipboard, or say it is out of reach. */
export function copyToClipboard(db: MockDb, text: string): null {
  if (!db.clipboard) throw ipcError("internal", "Specdesk could not reach the clipboard (no clipboard). Use “Download .md” instead.");
  db.clipboard.text = text;
  return null;
}

export function requireKey(db: MockDb): ProfileView {
  const p = activeProfile(db);
  if (!p.key.hasKey) throw ipcError("missingKey", MISSING_KEY);
  return p;
}

export function findSpec(db: MockDb, specId: string): SpecStatusResponse {
  const s = db.specs.find((x) => x.specId === specId || x._id === specId);
  if (!s) throw ipcError("notFound", NOT_FOUND, { status: 404 });
  return s;
}

export function toRecord(s: SpecStatusResponse): SpecRecord {
  const id = s.specId ?? s._id ?? "";
  return {
    _id: id,
    created: s.created ?? "",
    endpoint: s.endpoint ?? "fast_spec",
    input: s.input ?? "",
    status: s.status,
    success: s.success ?? false,
    ...(s.totalHumanHours !== undefined ? { totalHumanHours: s.totalHumanHours } : {}),
    ...(s.executionTime !== undefined ? { executionTime: s.executionTime } : {}),
    ...(s.errorMessage ? { errorMessage: s.errorMessage } : {}),
    ...(s.progress ? { progress: s.progress } : {}),
    ...(s.creditsUsed !== undefined ? { creditsUsed: s.creditsUsed } : {}),
  };
}

/**
 * The page `query` asks for of the mock's specs, filtered as the service (and the Rust side's
 * search of the specs kept on this computer) filters them: depth, status, and `search` as a
 * case-insensitive regular expression on the description. `refuse` throws for a pattern that
 * cannot be used.
 */
export function specPage(db: MockDb, query: SpecQuery, offline: boolean, refuse: () => never): SpecPage {
  let pattern: RegExp | null = null;
  if (query.search) {
    try {
      pattern = new RegExp(query.search, "i");
    } catch {
      refuse();
    }
  }
  const limit = query.limit ?? 20;
  const skip = query.skip ?? 0;
  const all = db.specs.filter(
    (s) =>
      (!query.endpoint || s.endpoint === query.endpoint) &&
      (!query.status || s.status === query.status) &&
      (!pattern || pattern.test(s.input ?? "")),
  );
  return { specs: all.slice(skip, skip + limit).map(toRecord), total: all.length, hasMore: skip + limit < all.length, offline };
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A tiny markdown renderer (headings, bullet lists, paragraphs): enough for mock documents. */
export function renderMarkdown(md: string): Rendered {
  const toc: Rendered["toc"] = [];
  const out: string[] = [];
  let list = false;
  for (const line of md.split("\n")) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (!item && list) {
      out.push("</ul>");
      list = false;
    }
    if (heading?.[1] && heading[2] !== undefined) {
      const level = heading[1].length;
      const text = heading[2].trim();
      const id = slug(text);
      toc.push({ level, text, id });
      out.push(`<h${level} id="${id}">${escapeHtml(text)}</h${level}>`);
    } else if (item?.[1] !== undefined) {
      if (!list) out.push("<ul>");
      list = true;
      out.push(`<li>${escapeHtml(item[1])}</li>`);
    } else if (line.trim()) {
      out.push(`<p>${escapeHtml(line.trim())}</p>`);
    }
  }
  if (list) out.push("</ul>");
  return { html: out.join("\n"), toc };
}

export function isFinished(job: Job): boolean {
  return job.status === "completed" || job.status === "failed" || job.status === "cancelled";
}

export function findJob(db: MockDb, jobId: number): Job {
  const job = db.jobs.find((j) => j.id === jobId);
  if (!job) throw ipcError("notFound", "That job is no longer in the library.");
  return job;
}

export function touch(db: MockDb, ctx: MockContext, job: Job): Job {
  job.updatedAt = now(db);
  const copy = clone(job);
  ctx.emit("job-changed", copy);
  return copy;
}

/** Finishes a job as the Sandbox would (instantly), with its side effects. */
export function completeJob(db: MockDb, ctx: MockContext, job: Job): void {
  if (job.kind === "spec") {
    const req = job.request as { depth?: string; input?: string };
    const specId = job.remoteId ?? newObjectId(db);
    const failed = (req.input ?? "").includes("[sandbox:fail]");
    const deep = req.depth === "deep";
    const scope = { ...habitsScope(), title: "Your spec", executiveSummary: req.input ?? "" };
    const spec: SpecStatusResponse = {
      _id: specId,
      specId,
      endpoint: deep ? "deep_spec" : "fast_spec",
      input: req.input ?? "",
      status: failed ? "failed" : "completed",
      success: !failed,
      created: job.createdAt,
      creditsUsed: failed ? 0 : deep ? 10 : 2.5,
      ...(failed
        ? { errorMessage: "The spec could not be generated from this description. Add more detail and try again." }
        : { humanSpecJson: scope, codingAgentSpecJson: scope, totalHumanHours: 86, executionTime: 40, zippedDocsUrls: [] }),
    };
    db.specs = [spec, ...db.specs.filter((s) => s.specId !== specId)];
    if (!failed) db.docs[specId] = habitsMarkdown(scope);
    job.remoteId = specId;
    job.status = failed ? "failed" : "completed";
    job.progress = failed ? undefined : "Done";
    job.result = spec;
    if (failed) job.error = spec.errorMessage === undefined ? undefined : { kind: "failed", message: spec.errorMessage };
    else charge(db, ctx, spec.endpoint === "deep_spec" ? "deep_spec" : "fast_spec", spec.creditsUsed ?? 0);
  } else if (job.kind === "batch") {
    const batch = db.batches.find((b) => b.id === job.remoteId);
    if (batch) finishBatch(db, ctx, batch);
    job.status = "completed";
    job.result = batch ? clone(batch) : null;
  } else {
    const req = job.request as { model?: string; prompt?: string };
    const id = nextId(db);
    db.media.unshift({
      id,
      kind: "video",
      path: `${db.appInfo.dataDir}/media/${id}.mp4`,
      prompt: req.prompt ?? "",
      model: req.model ?? "",
      profileId: job.profileId,
      credits: 6,
      jobId: job.id,
      createdAt: now(db),
    });
    job.status = "completed";
    job.result = { status: "completed", progress: 100 };
    charge(db, ctx, "v1/videos", 6, req.model);
  }
}

export function finishBatch(db: MockDb, ctx: MockContext, batch: Batch): void {
  if (batch.status !== "processing") return;
  const tasks = db.batchTasks[batch.id] ?? [];
  batch.results = batchResults(tasks);
  batch.completed = batch.total;
  batch.totalCost = batch.results.reduce((s, r) => s + r.cost, 0);
  batch.totalCreditsUsed = batch.results.reduce((s, r) => s + r.creditsUsed, 0);
  batch.status = "completed";
  batch.completedAt = now(db);
  db.batchTasks = Object.fromEntries(Object.entries(db.batchTasks).filter(([id]) => id !== batch.id));
  charge(db, ctx, "browser_agents", batch.totalCreditsUsed);
}

export function newObjectId(db: MockDb): string {
  return (0x6750000000 + nextId(db)).toString(16).padStart(24, "0");
}

export function addJob(db: MockDb, ctx: MockContext, job: Omit<Job, "id" | "createdAt" | "updatedAt" | "profileId">): Job {
  const at = now(db);
  const full: Job = { ...job, id: nextId(db), profileId: db.settings.activeProfileId, createdAt: at, updatedAt: at };
  db.jobs.unshift(full);
  ctx.emit("job-changed", clone(full));
  return clone(full);
}

export function checkWebUrl(field: string, url: string, message: string): void {
  try {
    const u = new URL(url);
    if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname) return;
  } catch {
    // falls through to the error
  }
  throw ipcError("invalidInput", message, { field });
}

/** check_tasks as Rust words it (crates/client/src/agents.rs `task_problems`); the mock cannot
 * compile a JSON Schema, so it only asks for an object with a known `type` when one is given. */
export function taskProblems(tasks: BrowserTask[], concurrency?: number): IpcError[] {
  const out: IpcError[] = [];
  const add = (field: string, message: string) => out.push({ kind: "invalidInput", message, field });
  if (tasks.length === 0) add("tasks", "Add at least one task to run.");
  if (tasks.length > 1000) {
    add("tasks", `A batch can hold at most 1000 tasks; this one has ${tasks.length}. Split it into smaller batches.`);
  }
  const types = ["object", "array", "string", "number", "integer", "boolean", "null"];
  tasks.forEach((t, i) => {
    const n = i + 1;
    if (!t.url.trim()) add(`tasks[${i}].url`, `Task ${n} has no start address. Enter the page it starts on.`);
    else {
      try {
        checkWebUrl(`tasks[${i}].url`, t.url, "");
      } catch {
        add(`tasks[${i}].url`, `Task ${n}: "${t.url}" is not a full web address. Start it with https:// or http://.`);
      }
    }
    const schema = t.output;
    if (schema !== undefined && schema !== null) {
      if (typeof schema !== "object" || Array.isArray(schema)) {
        add(`tasks[${i}].output`, `Task ${n}: the output schema must be a JSON object.`);
      } else if ("type" in schema && typeof schema.type === "string" && !types.includes(schema.type)) {
        add(
          `tasks[${i}].output`,
          `Task ${n}: the output schema is not a valid JSON Schema ("${schema.type}" is not a JSON Schema type). Fix it, or start from one of the starter schemas.`,
        );
      }
    }
    if (t.timeoutMs === 0) add(`tasks[${i}].timeoutMs`, `Task ${n}: the time limit must be more than 0.`);
    if (t.maxSteps === 0) add(`tasks[${i}].maxSteps`, `Task ${n}: the step limit must be at least 1.`);
    if (t.maxDurationSeconds === 0) {
      add(`tasks[${i}].maxDurationSeconds`, `Task ${n}: the duration limit must be at least 1 second.`);
    }
  });
  if (concurrency !== undefined && (concurrency < 1 || concurrency > 20)) {
    add("concurrency", `Tasks at once must be between 1 and 20 (it was ${concurrency}).`);
  }
  return out;
}

/** check_task_data for the schemas the screens use (required keys and simple types only; Rust's
 * checker does the whole of JSON Schema), in the order Rust gives: required first, then types. */
export function schemaProblems(schema: unknown, data: unknown): DataProblem[] {
  const s = schema as { type?: string; required?: string[]; properties?: Record<string, { type?: string }> };
  const out: DataProblem[] = [];
  if (s.type === "object" && (typeof data !== "object" || data === null || Array.isArray(data))) {
    return [{ path: "", message: `${JSON.stringify(data)} is not of type "object"` }];
  }
  const record = (data ?? {}) as Record<string, unknown>;
  for (const key of s.required ?? []) {
    if (!(key in record)) out.push({ path: "", message: `"${key}" is a required property` });
  }
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    const v = record[key];
    if (v === undefined || !prop.type) continue;
    const actual = Array.isArray(v) ? "array" : v === null ? "null" : typeof v;
    if (actual !== prop.type && !(prop.type === "integer" && Number.isInteger(v))) {
      out.push({ path: `/${key}`, message: `${JSON.stringify(v)} is not of type "${prop.type}"` });
    }
  }
  return out;
}

export const SPEC_FILE_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  text: "text/plain",
  pdf: "application/pdf",
  json: "application/json",
  csv: "text/csv",
};

export function lastText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((b: unknown) => (b && typeof b === "object" && "text" in b && typeof b.text === "string" ? b.text : ""))
      .join(" ");
  }
  return "";
}


/** A 1×1 PNG: what the mock's `read_image_file` finds in every image it is given. */
export const MOCK_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/**
 * `read_image_file` without a disk: a path named like a PNG, JPEG, GIF or WebP image is that
 * 1×1 PNG, any other is refused in the words of crates/core `image_file::read_image`.
 */
export function mockImageFile(path: string): ImageFile {
  const name = path.split(/[\\/]/).pop() ?? path;
  if (!/\.(png|jpe?g|gif|webp)$/i.test(name)) throw ipcError("invalidInput", `${name} is not a PNG, JPEG, GIF or WebP image.`, { field: "path" });
  return { name, mediaType: "image/png", data: MOCK_PNG };
}

/** A model catalog as the commands answer it: read just now, or (`db.catalogsKeptAt` set) the
 * copy kept on this computer, offline, with its time (crates/core `catalogs`). */
export function catalogView<T>(db: MockDb, list: T): CatalogView<T> {
  if (db.catalogsKeptAt) return { list, cachedAt: db.catalogsKeptAt, offline: true };
  return { list, cachedAt: new Date(db.clock).toISOString(), offline: false };
}
