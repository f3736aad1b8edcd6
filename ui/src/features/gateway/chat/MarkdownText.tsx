// A reply rendered as markdown while it streams. A streamed reply's HTML comes with its deltas
// (rendered in Rust, renderedCache.ts) and is shown in the same update as the text. Any other
// text goes to `render_markdown` (pulldown-cmark + sanitizing in Rust, as specs are) as soon as
// it changes, but never while a render is in flight: the latest text is rendered when that one
// returns. Raw model text is never put in innerHTML: until a render arrives (or if rendering
// fails) it is shown as plain text.
import { useEffect, useRef, useState } from "react";
import { call } from "../../../ipc/invoke";
import { handleRenderedLinkClick, useOpenExternal } from "../../../lib/external";
import { rememberRendered, renderedOf } from "./renderedCache";

export function MarkdownText({ text, className = "" }: { text: string; className?: string }) {
  const [rendered, setRendered] = useState<{ html: string; for: string } | null>(() => {
    const html = renderedOf(text);
    return html === undefined ? null : { html, for: text };
  });
  const [failed, setFailed] = useState(false);
  const latest = useRef(text);
  const busy = useRef(false);
  const done = useRef<string | null>(renderedOf(text) !== undefined ? text : null);
  const alive = useRef(true);
  const open = useOpenExternal();

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  useEffect(() => {
    latest.current = text;
    const schedule = () => {
      if (busy.current) return;
      run();
    };
    const run = () => {
      const md = latest.current;
      if (md === done.current || renderedOf(md) !== undefined) return;
      busy.current = true;
      call("render_markdown", { markdown: md })
        .then((r) => {
          rememberRendered(md, r.html);
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

  // Rendered already (with its delta, or before): shown with this very text.
  const html = renderedOf(text) ?? (rendered && !failed ? rendered.html : undefined);
  if (html === undefined) {
    return <div className={`chat-md pre-wrap ${className}`}>{text}</div>;
  }
  return (
    <div
      className={`chat-md ${className}`}
      // Sanitized in Rust (render_markdown): no script, no handlers, no javascript: links.
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={(e) => handleRenderedLinkClick(e, open, (id) => document.getElementById(id)?.scrollIntoView())}
    />
  );
}
