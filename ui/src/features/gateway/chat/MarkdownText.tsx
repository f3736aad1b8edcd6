// A reply rendered as markdown while it streams: the text goes to `render_markdown` (pulldown-cmark
// + sanitizing in Rust, as specs are) at most once per animation frame and never while a render
// is in flight; the latest text is rendered when that one returns. Raw model text is never put
// in innerHTML: until the first render arrives (or if rendering fails) it is shown as plain text.
import { useEffect, useRef, useState } from "react";
import { call } from "../../../ipc/invoke";
import { handleRenderedLinkClick, useOpenExternal } from "../../../lib/external";

// The latest renders by markdown: a turn scrolled back into a virtualized thread shows its HTML at
// once (no plain-text flash, no change of height to measure again).
const RENDERED = new Map<string, string>();
const RENDERED_MAX = 400;

function remember(markdown: string, html: string): void {
  RENDERED.delete(markdown);
  RENDERED.set(markdown, html);
  if (RENDERED.size > RENDERED_MAX) RENDERED.delete(RENDERED.keys().next().value as string);
}

export function MarkdownText({ text, className = "" }: { text: string; className?: string }) {
  const [rendered, setRendered] = useState<{ html: string; for: string } | null>(() => {
    const html = RENDERED.get(text);
    return html === undefined ? null : { html, for: text };
  });
  const [failed, setFailed] = useState(false);
  const latest = useRef(text);
  const busy = useRef(false);
  const frame = useRef<number | null>(null);
  const done = useRef<string | null>(RENDERED.has(text) ? text : null);
  const alive = useRef(true);
  const open = useOpenExternal();

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, []);

  useEffect(() => {
    latest.current = text;
    const schedule = () => {
      if (frame.current !== null || busy.current) return;
      frame.current = requestAnimationFrame(run);
    };
    const run = () => {
      frame.current = null;
      const md = latest.current;
      if (md === done.current) return;
      busy.current = true;
      call("render_markdown", { markdown: md })
        .then((r) => {
          remember(md, r.html);
          if (!alive.current) return;
          setRendered({ html: r.html, for: md });
          setFailed(false);
        })
        .catch(() => {
          if (alive.current) setFailed(true);
        })
        .finally(() => {
          done.current = md;
          busy.current = false;
          if (alive.current && latest.current !== md) schedule();
        });
    };
    schedule();
  }, [text]);

  if (!rendered || failed) {
    return <div className={`chat-md pre-wrap ${className}`}>{text}</div>;
  }
  return (
    <div
      className={`chat-md ${className}`}
      // Sanitized in Rust (render_markdown): no script, no handlers, no javascript: links.
      dangerouslySetInnerHTML={{ __html: rendered.html }}
      onClick={(e) => handleRenderedLinkClick(e, open, (id) => document.getElementById(id)?.scrollIntoView())}
    />
  );
}
