// One of a spec's two documents: sanitized HTML from Rust (render_spec) with its table of
// contents (the section in view marked), code highlighting, find in the document (Ctrl/Cmd+F),
// print, copy and save as Markdown.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { SpecDoc } from "../../ipc/contract";
import { useProfiles } from "../../ipc/hooks";
import { call, toIpcError } from "../../ipc/invoke";
import { ErrorPanel } from "../../components/ErrorPanel";
import { useErrorToast } from "../../components/Toasts";
import { handleRenderedLinkClick, useOpenExternal } from "../../lib/external";
import { slugify } from "../../lib/format";
import { useNotice } from "../../lib/notices";
import { useRendered } from "./queries";
import { FindBar } from "./document/FindBar";
import { useDocumentFind } from "./document/useDocumentFind";
import { useTocSpy } from "./document/useTocSpy";

const DOC_NAMES: Record<SpecDoc, { title: string; file: string }> = {
  human: { title: "Human spec", file: "spec" },
  codingAgent: { title: "Coding-agent spec", file: "coding-agent-spec" },
};

/** The file name a document is saved under: "recipe-box-coding-agent-spec.md". */
export function documentFileName(title: string, doc: SpecDoc): string {
  return `${slugify(title)}-${DOC_NAMES[doc].file}.md`;
}

/**
 * Performance marks of opening a document (read by bench/spec-view.mjs): SpecView marks
 * OPEN_MARK at the click on the document's tab; this view marks PAINTED_MARK once its HTML is in
 * the DOM and a frame has been painted, and measures OPEN_MEASURE between the two (once per
 * open). Only the latest mark and measure of each name are kept: a long session piles nothing up.
 */
const OPEN_MARK = "specdesk:spec-view:open";
const PAINTED_MARK = "specdesk:spec-view:painted";
const OPEN_MEASURE = "specdesk:spec-view:open-document";

function isOpenOf(mark: PerformanceEntry, specId: string, doc: SpecDoc): boolean {
  const detail: unknown = (mark as PerformanceMark).detail;
  return typeof detail === "object" && detail !== null && "specId" in detail && detail.specId === specId && "doc" in detail && detail.doc === doc;
}

function usePaintedMark(specId: string, doc: SpecDoc, html: string | undefined) {
  // A layout effect runs right after the HTML is committed, before the browser can paint it: the
  // next animation frame is the one that lays it out and paints it, and a task queued from that
  // frame runs once it is painted. (A passive effect may run after that paint, a frame late.)
  useLayoutEffect(() => {
    if (!html) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        const detail = { specId, doc };
        performance.clearMarks(PAINTED_MARK);
        const painted = performance.mark(PAINTED_MARK, { detail });
        const open = performance
          .getEntriesByName(OPEN_MARK, "mark")
          .filter((m) => isOpenOf(m, specId, doc))
          .at(-1);
        if (!open) return;
        performance.clearMarks(OPEN_MARK);
        performance.clearMeasures(OPEN_MEASURE);
        performance.measure(OPEN_MEASURE, { start: open.startTime, end: painted.startTime, detail });
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [specId, doc, html]);
}

/** Headings shown in the table of contents (levels 1 to 3). */
const TOC_MAX_LEVEL = 3;

export function DocumentView({ specId, doc, title }: { specId: string; doc: SpecDoc; title: string }) {
  const rendered = useRendered(specId, doc, true);
  const bodyRef = useRef<HTMLElement>(null);
  const open = useOpenExternal();
  const toast = useErrorToast();
  const notice = useNotice();
  const [busy, setBusy] = useState<string | null>(null);
  const name = DOC_NAMES[doc].title;
  const html = rendered.data?.html;
  const findButtonRef = useRef<HTMLButtonElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const { find, inputRef: findInputRef } = useDocumentFind(bodyRef, !!html, findButtonRef);
  const tocData = rendered.data?.toc;
  const tocIds = useMemo(() => (tocData ?? []).filter((t) => t.level <= TOC_MAX_LEVEL).map((t) => t.id), [tocData]);
  const inView = useTocSpy(bodyRef, endRef, tocIds, html);

  // highlight.js is loaded on first use, after the document is painted: opening a document never
  // waits for it.
  useEffect(() => {
    const root = bodyRef.current;
    if (!root || !html) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./highlight").then(({ highlightWithin }) => {
      if (!cancelled) stop = highlightWithin(root);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [html]);
  usePaintedMark(specId, doc, html);

  const scrollTo = (id: string) => {
    const root = bodyRef.current;
    if (!root) return;
    const target = document.getElementById(id);
    if (!target || !root.contains(target)) return;
    target.scrollIntoView({ block: "start" });
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  };

  const withMarkdown = async (what: string, f: (markdown: string) => Promise<void>) => {
    setBusy(what);
    try {
      const markdown = await call("spec_markdown", { specId, doc });
      await f(markdown);
    } catch (e) {
      toast(e);
    } finally {
      setBusy(null);
    }
  };

  const copy = async () => {
    setBusy("copy");
    try {
      await call("copy_spec_markdown", { specId, doc });
      notice(doc === "codingAgent" ? "Copied. Paste it into your coding agent." : `Copied the ${name.toLowerCase()} as Markdown.`);
    } catch (e) {
      toast(e);
    } finally {
      setBusy(null);
    }
  };

  const save = (choose: boolean) =>
    withMarkdown(choose ? "saveAs" : "save", async (md) => {
      const path = await call("save_document", { fileName: documentFileName(title, doc), contents: md, choose });
      if (path) notice(`Saved to ${path}`);
    });

  if (rendered.isPending) return <p className="skeleton">Opening the {name.toLowerCase()}…</p>;
  if (rendered.isError) return <ErrorPanel error={toIpcError(rendered.error)} onRetry={() => void rendered.refetch()} level={2} />;

  const toc = rendered.data.toc.filter((t) => t.level <= TOC_MAX_LEVEL);
  return (
    <div className="doc-layout">
      <div className="row doc-actions">
        {doc === "codingAgent" ? (
          <button className="btn btn-primary" type="button" disabled={!!busy} onClick={() => void copy()}>
            Copy for a coding agent
          </button>
        ) : (
          <button className="btn" type="button" disabled={!!busy} onClick={() => void copy()}>
            Copy as Markdown
          </button>
        )}
        <button className="btn" type="button" disabled={!!busy} onClick={() => void save(false)}>
          Download .md
        </button>
        <button className="btn" type="button" disabled={!!busy} onClick={() => void save(true)}>
          Save as…
        </button>
        <button className="btn" type="button" onClick={() => window.print()}>
          Print
        </button>
        <button ref={findButtonRef} className="btn" type="button" aria-keyshortcuts="Control+F Meta+F" aria-expanded={find.open} onClick={find.show}>
          Find…
        </button>
      </div>
      {find.open && <FindBar find={find} inputRef={findInputRef} docName={name} />}
      <div className="doc-columns">
        {toc.length > 0 && (
          <nav className="doc-toc" aria-label={`Contents of the ${name.toLowerCase()}`}>
            <h2>Contents</h2>
            <ol>
              {toc.map((t, i) => (
                <li key={`${t.id}-${i}`} data-level={t.level}>
                  <a
                    href={`#${t.id}`}
                    aria-current={inView === t.id ? "true" : undefined}
                    onClick={(e) => {
                      e.preventDefault();
                      scrollTo(t.id);
                    }}
                  >
                    {t.text}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        )}
        <article
          ref={bodyRef}
          className="doc-body print-doc"
          aria-label={name}
          onClick={(e) => handleRenderedLinkClick(e, open, scrollTo)}
          dangerouslySetInnerHTML={{ __html: rendered.data.html }}
        />
      </div>
      {/* Seen once the end of the document is on screen (the contents then mark the last section). */}
      <div ref={endRef} className="doc-end" aria-hidden="true" />
    </div>
  );
}

/**
 * A document of a spec read from this computer's copy (the service cannot be reached) whose
 * markdown was never kept here (`SpecView.hasHumanMarkdown`/`hasAgentMarkdown` false): rendering
 * it could only fail, so the tab says so in plain words and offers to try the service again.
 */
export function NotSavedOffline({ doc, checking, stillOffline, onRetry }: { doc: SpecDoc; checking: boolean; stillOffline: boolean; onRetry: () => void }) {
  const active = useProfiles().data?.find((p) => p.active);
  const where = active ? active.name : "the service";
  const headingId = `not-saved-${doc}`;
  return (
    <section className="panel panel-info" aria-labelledby={headingId}>
      <h2 id={headingId}>Not saved offline</h2>
      <p>This document was not downloaded on this computer. Connect to {where} and open it again to keep a copy.</p>
      {stillOffline && !checking && (
        <p className="muted" role="status">
          {active ? `${active.name} still cannot be reached.` : "The service still cannot be reached."}
        </p>
      )}
      <button className="btn" type="button" disabled={checking} onClick={onRetry}>
        {checking ? "Checking…" : "Try again"}
      </button>
    </section>
  );
}
