// Base answers of the mock IPC: every command of ../ipc/contract.ts, on the in-memory state of
// ./state.ts that starts like a fresh install on the built-in Sandbox (./fixtures.ts), with the
// shared rules of ./helpers.ts. Handlers read and write `db`, so a flow (add a connection, submit a
// spec, follow it) stays consistent within one page load. Words and rules follow the Rust side
// (crates/core, crates/client).
import type { SpendToday } from "../ipc/contract";
import type { CommandName, CachedSpec, ChatEvent, FileInfo, JobEvent, MediaItem, MessagesResponse, ModelList, PlanView, ProfileView, PublicCatalog, SpecView } from "../ipc/contract";
import { ipcError, type Handler } from "./registry";
import { MISSING_KEY, NOT_FOUND, NO_PROJECT_YET, ROTATION_NOTICE, SANDBOX_ID, clone, maskedTail, nextId, now } from "./state";
import { IMAGE_MODELS, TEXT_MODELS, VIDEO_MODELS } from "./fixtures";
import { agentHandlers } from "./agents";
import { conversationHandlers } from "./conversations";
import { mediaHandlers } from "./media";
import { SPEC_FILE_TYPES, addJob, balanceView, catalogView, charge, checkInput, checkKey, checkWebUrl, completeJob, copyToClipboard, findJob, findProfile, findSpec, isFinished, lastText, newObjectId, profileViews, renderMarkdown, requireKey, specPage, touch, mockImageFile } from "./helpers";


export { createDb, PROJECT_HABITS, SPEC_HABITS } from "./fixtures";
export type { MockDb } from "./state";
import type { MockDb } from "./state";

// Today's raises of a connection's spend cap (crates/core `Stored.capRaises`), per page state.
const capRaises = new WeakMap<MockDb, Map<string, { date: string; credits: number }>>();

/** The mock's local day: the day of its clock. */
function mockDay(db: MockDb): string {
  const d = new Date(db.clock);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** What crates/core `Profiles::spend_today` answers: today's charges of `profileId` against its cap. */
export function spendToday(db: MockDb, profileId: string): SpendToday {
  const date = mockDay(db);
  const local = (at: string) => {
    const d = new Date(at);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  };
  const spent = db.ledger
    .filter((e) => e.profileId === profileId && e.endpoint !== "credits-balance" && local(e.at) === date)
    .reduce((sum, e) => sum + (e.creditsCharged ?? 0), 0);
  const dailyCap = db.settings.spendCaps?.[profileId];
  const raise = capRaises.get(db)?.get(profileId);
  const raised = raise?.date === date ? raise.credits : 0;
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return { profileId, date, spent: round(spent), raised, ...(dailyCap === undefined ? {} : { dailyCap, limit: round(dailyCap + raised) }) };
}

// ---------------------------------------------------------------------------------------------
// The handlers: one per command of the contract (tsc fails here when a command is added there).

export type BaseHandlers = { [C in CommandName]: Handler<C> };

export const baseHandlers: BaseHandlers = {
  app_info: (_a, { db }) => clone(db.appInfo),
  activity: (_a, { db }) => clone(db.activity ?? []),
  take_deep_link: (_a, { db }) => {
    const link = db.launchLink ?? null;
    db.launchLink = undefined;
    return link;
  },
  finish_welcome: (_a, { db }) => {
    db.appInfo.firstRun = false;
    return null;
  },

  list_profiles: (_a, { db }) => profileViews(db),
  add_profile: ({ input, apiKey }, ctx) => {
    const { db } = ctx;
    const checked = checkInput(input);
    const key = apiKey?.trim() ? checkKey(apiKey) : undefined;
    const profile: ProfileView = {
      id: `p_${nextId(ctx.db)}`,
      ...checked,
      builtIn: false,
      active: false,
      key: key ? { hasKey: true, maskedTail: maskedTail(key) } : { hasKey: false },
    };
    db.profiles.push(profile);
    db.credits[profile.id] = 1000;
    ctx.emit("profiles-changed", null);
    return clone(profile);
  },
  update_profile: ({ id, input }, ctx) => {
    const p = findProfile(ctx.db, id);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox connection cannot be changed.");
    const checked = checkInput(input);
    p.name = checked.name;
    p.baseUrl = checked.baseUrl;
    p.keyKind = checked.keyKind;
    p.projectId = checked.projectId;
    ctx.emit("profiles-changed", null);
    return profileViews(ctx.db).find((x) => x.id === id) as ProfileView;
  },
  delete_profile: ({ id }, ctx) => {
    const p = findProfile(ctx.db, id);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox connection cannot be removed.");
    ctx.db.profiles = ctx.db.profiles.filter((x) => x.id !== id);
    if (ctx.db.settings.activeProfileId === id) ctx.db.settings.activeProfileId = SANDBOX_ID;
    ctx.emit("profiles-changed", null);
    return null;
  },
  set_active_profile: ({ id }, ctx) => {
    findProfile(ctx.db, id);
    ctx.db.settings.activeProfileId = id;
    ctx.emit("profiles-changed", null);
    return profileViews(ctx.db).find((x) => x.id === id) as ProfileView;
  },
  set_api_key: ({ profileId, apiKey }, ctx) => {
    const p = findProfile(ctx.db, profileId);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox uses its own key; it cannot be changed.");
    const key = checkKey(apiKey);
    const replaced = p.key.hasKey;
    p.key = { hasKey: true, maskedTail: maskedTail(key) };
    ctx.emit("profiles-changed", null);
    return { key: clone(p.key), ...(replaced ? { notice: ROTATION_NOTICE } : {}) };
  },
  delete_api_key: ({ profileId }, ctx) => {
    const p = findProfile(ctx.db, profileId);
    if (p.builtIn) throw ipcError("invalidInput", "The Sandbox uses its own key; it cannot be removed.");
    p.key = { hasKey: false };
    ctx.emit("profiles-changed", null);
    return clone(p.key);
  },
  test_connection: ({ profileId }, ctx) => {
    const p = findProfile(ctx.db, profileId);
    if (!p.key.hasKey) throw ipcError("missingKey", MISSING_KEY);
    const view = balanceView(ctx.db, profileId);
    ctx.emit("credits-changed", view);
    return { profileId, creditsRemaining: view.creditsRemaining };
  },

  get_settings: (_a, { db }) => clone(db.settings),
  save_settings: ({ settings }, ctx) => {
    const s = settings.specPollIntervalSecs;
    if (!Number.isInteger(s) || s < 10 || s > 15) {
      throw ipcError("invalidInput", "Choose a whole number of seconds from 10 to 15.", { field: "specPollIntervalSecs" });
    }
    findProfile(ctx.db, settings.activeProfileId);
    ctx.db.settings = clone(settings);
    ctx.emit("settings-changed", clone(settings));
    return clone(settings);
  },

  credits_balance: (_a, ctx) => {
    const p = requireKey(ctx.db);
    const view = balanceView(ctx.db, p.id);
    ctx.emit("credits-changed", view);
    return view;
  },
  credit_ledger: ({ limit, profileId, since }, { db }) =>
    clone((profileId !== undefined && since !== undefined ? db.ledger.filter((e) => e.profileId === profileId && e.at >= since) : db.ledger).slice(0, limit)),
  open_external: ({ url }) => {
    checkWebUrl("url", url, "That link is not a web address.");
    return null;
  },
  cancel_stream: () => null,
  open_log_folder: () => null,
  retry_start: () => null,
  start_fresh_library: () => null,
  open_data_folder: () => null,
  copy_diagnostics: () => null,
  first_usable: () => null,

  list_jobs: ({ kind, limit }, { db }) =>
    clone(db.jobs.filter((j) => j.profileId === db.settings.activeProfileId && (!kind || j.kind === kind)).slice(0, limit)),
  cancel_job: ({ jobId }, ctx) => {
    const job = findJob(ctx.db, jobId);
    if (isFinished(job)) return clone(job);
    job.status = "cancelled";
    return touch(ctx.db, ctx, job);
  },
  follow_job: ({ jobId, onEvent }, ctx) => {
    const channel = ctx.channel<JobEvent>(onEvent);
    const job = findJob(ctx.db, jobId);
    if (!isFinished(job)) {
      job.status = "running";
      job.progress = job.kind === "spec" ? "Writing the milestones" : "Working";
      channel.send({ type: "update", job: touch(ctx.db, ctx, job) });
      completeJob(ctx.db, ctx, job);
      touch(ctx.db, ctx, job);
    }
    const done = clone(job);
    channel.send({ type: "done", job: done });
    return done;
  },

  inspect_file: ({ path }) => {
    const name = path.split(/[\\/]/).pop() ?? path;
    const ext = name.includes(".") ? (name.split(".").pop() ?? "").toLowerCase() : "";
    const mime = SPEC_FILE_TYPES[ext];
    if (!mime) {
      throw ipcError(
        "invalidInput",
        `"${name}" is not a type the service can read. Use a Markdown, text, PDF, JSON or CSV file.`,
        { field: "file" },
      );
    }
    const info: FileInfo = { path, name, size: 2048 + name.length * 512, mime };
    return info;
  },
  submit_spec: ({ draft }, ctx) => {
    requireKey(ctx.db);
    const input: string = draft.input ?? "";
    if (!input.trim() && !draft.filePath) {
      throw ipcError("invalidInput", "Describe what you want to build, or attach a file that describes it.", { field: "input" });
    }
    const docUrls: string[] = (draft.docUrls ?? []).map((u: string) => u.trim()).filter((u: string) => u);
    docUrls.forEach((url, i) =>
      checkWebUrl(
        "docUrls",
        url,
        `Documentation link ${i + 1} ("${url}") is not a full web address. Write it like https://docs.example.com.`,
      ),
    );
    const fileName = draft.filePath ? draft.filePath.split(/[\\/]/).pop() : undefined;
    return addJob(ctx.db, ctx, {
      kind: "spec",
      request: {
        depth: draft.depth,
        input,
        ...(draft.currentContext ? { currentContext: draft.currentContext } : {}),
        docUrls,
        ...(fileName ? { fileName, fileSize: 4096 } : {}),
      },
      remoteId: newObjectId(ctx.db),
      status: "submitted",
      result: null,
    });
  },
  list_specs: ({ query }, { db }) => {
    requireKey(db);
    const limit: number = query.limit ?? 20;
    const skip: number = query.skip ?? 0;
    if (limit < 1 || limit > 100 || skip < 0) {
      throw ipcError("invalidInput", "The service refused the request: Invalid request. Check what you entered and try again.", {
        status: 400,
        field: limit < 1 || limit > 100 ? "limit" : "skip",
      });
    }
    return specPage(db, query, false, () => {
      throw ipcError("invalidInput", "The service refused the request: Invalid request. Check what you entered and try again.", {
        status: 400,
        field: "search",
      });
    });
  },
  // crates/core `specs::cached_page`: never the network, no key needed, the limit kept in 1..=100.
  search_cached_specs: ({ query }, { db }) =>
    specPage(db, { ...query, limit: Math.min(100, Math.max(1, query.limit ?? 20)), skip: Math.max(0, query.skip ?? 0) }, true, () => {
      throw ipcError("invalidInput", "That search pattern cannot be used on the specs kept on this computer. Search for plain words instead.", {
        field: "search",
      });
    }),
  cached_specs: ({ limit, offset }, { db }) =>
    db.specs.slice(offset, offset + limit).map((s): CachedSpec => {
      const id = s.specId ?? s._id ?? "";
      return {
        specId: id,
        profileId: SANDBOX_ID,
        input: s.input,
        status: s.status,
        endpoint: s.endpoint,
        created: s.created,
        totalHumanHours: s.totalHumanHours,
        creditsUsed: s.creditsUsed,
        hasMarkdown: id in db.docs,
        cachedAt: "2026-11-21T18:00:00.000Z",
      };
    }),
  get_spec: ({ specId }, { db }) => {
    const spec = clone(findSpec(db, specId));
    delete spec.humanSpecMarkdown;
    delete spec.codingAgentSpecMarkdown;
    const docs = db.docs[specId];
    const view: SpecView = {
      spec,
      offline: false,
      hasHumanMarkdown: !!docs?.human,
      hasAgentMarkdown: !!docs?.codingAgent,
      cachedAt: "2026-11-21T18:00:00.000Z",
    };
    return view;
  },
  render_spec: ({ specId, doc }, { db }) => {
    findSpec(db, specId);
    const docs = db.docs[specId];
    if (!docs) throw ipcError("notFound", "This spec has no document yet.");
    return renderMarkdown(doc === "human" ? docs.human : docs.codingAgent);
  },
  spec_markdown: ({ specId, doc }, { db }) => {
    findSpec(db, specId);
    const docs = db.docs[specId];
    if (!docs) throw ipcError("notFound", "This spec has no document yet.");
    return doc === "human" ? docs.human : docs.codingAgent;
  },

  get_plan: ({ target }, { db }) => {
    requireKey(db);
    let projectId: string | undefined = target.projectId;
    if (target.specId) {
      const spec = findSpec(db, target.specId);
      if (spec.status !== "completed" || !spec.projectId) throw ipcError("notFound", NO_PROJECT_YET, { status: 404 });
      projectId = spec.projectId;
    }
    const plan = projectId ? db.plans[projectId] : undefined;
    if (!plan) throw ipcError("notFound", NOT_FOUND, { status: 404 });
    const view: PlanView = { response: clone(plan.response), history: clone(plan.history), changed: false };
    const profileId = db.settings.activeProfileId;
    const p = plan.response.plan;
    db.recentProjects = [
      {
        projectId: plan.response.projectId,
        profileId,
        name: p?.name ?? undefined,
        specId: plan.response.specId ?? undefined,
        percent: p?.progress.percent,
        built: p?.progress.built,
        total: p?.progress.total,
        computedAt: p?.computedAt,
        openedAt: new Date().toISOString(),
      },
      ...db.recentProjects.filter((r) => !(r.profileId === profileId && r.projectId === plan.response.projectId)),
    ];
    return view;
  },
  recent_projects: ({ limit }, { db }) =>
    clone(db.recentProjects.filter((r) => r.profileId === db.settings.activeProfileId).slice(0, limit)),
  forget_project: ({ projectId }, { db }) => {
    db.recentProjects = db.recentProjects.filter((r) => !(r.profileId === db.settings.activeProfileId && r.projectId === projectId));
    return null;
  },
  plan_markdown: ({ target }, ctx) => {
    const view = baseHandlers.get_plan({ target }, ctx) as PlanView;
    return view.response.markdown;
  },

  copy_spec_markdown: ({ specId, doc }, ctx) => copyToClipboard(ctx.db, baseHandlers.spec_markdown({ specId, doc }, ctx) as string),
  copy_plan_markdown: ({ target }, ctx) => copyToClipboard(ctx.db, baseHandlers.plan_markdown({ target }, ctx) as string),
  copy_text: ({ text }, { db }) => copyToClipboard(db, text),

  choose_file: (_args, { db }) => (typeof db.dialog.open === "string" ? db.dialog.open : null),

  save_document: ({ fileName, choose }, { db }) => {
    if (choose) return db.dialog.save;
    return `${db.settings.downloadFolder ?? "/home/user/Downloads"}/${fileName}`;
  },

  render_markdown: ({ markdown }) => renderMarkdown(markdown),

  public_catalog: (_, ctx) => {
    // The public catalog carries no prices.
    const data = [...TEXT_MODELS.slice(0, 2), ...IMAGE_MODELS, ...VIDEO_MODELS].map((m) => {
      const row = clone(m);
      delete row.svc;
      return row;
    });
    const catalog: PublicCatalog = {
      object: "list",
      total: data.length,
      counts: { text: 2, image: 1, video: 1, embeddings: 0 },
      labs: [
        { id: "anthropic", name: "Anthropic", models: 1 },
        { id: "google", name: "Google", models: 1 },
        { id: "openai", name: "OpenAI", models: 2 },
      ],
      data,
    };
    return catalogView(ctx.db, catalog);
  },
  gateway_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone([...TEXT_MODELS, ...IMAGE_MODELS, ...VIDEO_MODELS]) }),
  image_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(IMAGE_MODELS) }),
  video_models: (_, ctx) => catalogView<ModelList>(ctx.db, { object: "list", data: clone(VIDEO_MODELS) }),
  rerank: ({ request }, ctx) => {
    requireKey(ctx.db);
    const words = request.query.toLowerCase().split(/\W+/).filter(Boolean);
    const scored = request.documents.map((d, index) => {
      const text = d.toLowerCase();
      const hits = words.filter((w) => text.includes(w)).length;
      return { index, relevance_score: words.length ? Math.round((hits / words.length) * 1000) / 1000 : 0 };
    });
    scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
    const charged = charge(ctx.db, ctx, "v1/rerank", 0.01, request.model);
    return { value: { model: request.model, results: scored.slice(0, request.top_n ?? scored.length), usage: { total_tokens: 42 } }, charge: charged };
  },
  speech: ({ request }, ctx) => {
    requireKey(ctx.db);
    const id = nextId(ctx.db);
    const item: MediaItem = {
      id,
      kind: "audio",
      path: `${ctx.db.appInfo.dataDir}/media/${id}.wav`,
      prompt: request.input,
      model: request.model,
      profileId: ctx.db.settings.activeProfileId,
      credits: 0.05,
      createdAt: now(ctx.db),
    };
    ctx.db.media.unshift(item);
    const charged = charge(ctx.db, ctx, "v1/audio/speech", 0.05, request.model);
    return { value: clone(item), charge: charged };
  },
  transcribe: ({ path, model }, ctx) => {
    requireKey(ctx.db);
    const name = path.split(/[\\/]/).pop() ?? path;
    const charged = charge(ctx.db, ctx, "v1/audio/transcriptions", 0.02, model);
    return { value: { text: `Sandbox transcription of ${name}.`, usage: { cost: 0.002 } }, charge: charged };
  },
  chat_stream: ({ conversationId, request, onEvent }, ctx) => {
    const channel = ctx.channel<ChatEvent>(onEvent);
    requireKey(ctx.db);
    const { db } = ctx;
    let conversation = conversationId === undefined ? undefined : db.conversations.find((c) => c.id === conversationId);
    const last = request.messages[request.messages.length - 1];
    const asked = last ? lastText(last.content) : "";
    if (!conversation) {
      const at = now(db);
      conversation = { id: nextId(db), profileId: db.settings.activeProfileId, title: asked.slice(0, 60) || "New conversation", model: request.model, createdAt: at, updatedAt: at };
      db.conversations.unshift(conversation);
    }
    const convId = conversation.id;
    channel.send({ type: "start", conversationId: convId });
    const text = `Sandbox reply to: ${asked}`;
    const parts = text.split(/(?<= )/);
    parts.forEach((t) => channel.send({ type: "text", index: 0, text: t }));
    const message: MessagesResponse = {
      id: `msg_${nextId(db)}`,
      type: "message",
      role: "assistant",
      model: request.model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: parts.length, cost: 0.002 },
    };
    const at = now(db);
    db.messages.push(
      { id: nextId(db), conversationId: convId, role: "user", content: last?.content ?? "", createdAt: at, cut: false },
      { id: nextId(db), conversationId: convId, role: "assistant", content: message.content, model: request.model, creditsCharged: 0.02, createdAt: at, cut: false },
    );
    conversation.updatedAt = at;
    charge(db, ctx, "v1/messages", 0.02, request.model);
    channel.send({ type: "done", message, conversationId: convId, creditsCharged: 0.02 });
    return { message, conversationId: convId, creditsCharged: 0.02 };
  },
  generate_images: ({ request }, ctx) => {
    requireKey(ctx.db);
    const n = Math.min(4, Math.max(1, request.n ?? 1));
    const items: MediaItem[] = [];
    for (let i = 0; i < n; i += 1) {
      const id = nextId(ctx.db);
      items.push({
        id,
        kind: "image",
        path: `${ctx.db.appInfo.dataDir}/media/${id}.png`,
        prompt: request.prompt,
        model: request.model,
        profileId: ctx.db.settings.activeProfileId,
        credits: 0.4,
        createdAt: now(ctx.db),
      });
    }
    ctx.db.media.unshift(...items);
    const charged = charge(ctx.db, ctx, "v1/images", 0.4 * n, request.model);
    return { value: clone(items), charge: charged };
  },
  submit_video: ({ request }, ctx) => {
    requireKey(ctx.db);
    return addJob(ctx.db, ctx, {
      kind: "video",
      request,
      remoteId: `video_${nextId(ctx.db)}`,
      status: "submitted",
      result: null,
    });
  },
  raise_spend_cap_today: ({ profileId, credits }, { db }) => {
    findProfile(db, profileId);
    if (!Number.isFinite(credits) || credits <= 0 || credits > 1_000_000) {
      throw ipcError("invalidInput", "Raise the cap by a number of credits above 0 and up to 1,000,000.", { field: "credits" });
    }
    if (db.settings.spendCaps?.[profileId] === undefined) {
      throw ipcError("invalidInput", "This connection has no daily cap to raise. Set one in Settings, under Connections.", { field: "credits" });
    }
    const date = mockDay(db);
    const raises = capRaises.get(db) ?? new Map<string, { date: string; credits: number }>();
    capRaises.set(db, raises);
    const before = raises.get(profileId);
    raises.set(profileId, { date, credits: (before?.date === date ? before.credits : 0) + credits });
    return spendToday(db, profileId);
  },
  ...mediaHandlers,
  read_image_file: ({ path }) => mockImageFile(path),
  // A browser's paste carries its image as a file: the clipboard read from Rust finds none.
  paste_image: () => null,
  read_text_file: ({ path }, { db }) => {
    const text = db.textFiles[path];
    if (text === undefined) throw ipcError("invalidInput", "Choose the file again: Specdesk reads only files you picked.", { field: "path" });
    return text;
  },
  transcribe_media: ({ id, model }, ctx) => {
    const item = ctx.db.media.find((m) => m.id === id);
    if (!item) throw ipcError("notFound", "That file is no longer in the media folder.");
    return baseHandlers.transcribe({ path: item.path, model }, ctx);
  },
  save_media_copy: ({ id, choose }, { db }) => {
    const item = db.media.find((m) => m.id === id);
    if (!item) throw ipcError("notFound", "That file is no longer in the media folder.");
    if (choose) return db.dialog.save;
    return `${db.settings.downloadFolder ?? "/home/user/Downloads"}/${item.path.split(/[\\/]/).pop()}`;
  },
  reveal_media: ({ id }, { db }) => {
    if (!db.media.some((m) => m.id === id)) throw ipcError("notFound", "That file is no longer in the media folder.");
    return null;
  },
  ...conversationHandlers,
  ...agentHandlers,
};

