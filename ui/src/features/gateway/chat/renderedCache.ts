// Safe HTML of recent replies by their markdown: rendered in Rust, either with a streamed delta
// (`ChatEvent` text's `html`, noted by stream.ts) or on request (`render_markdown`, by
// MarkdownText). A reply whose text is here shows its HTML in the same update that brings the
// text (no round trip, no plain-text flash), and a turn scrolled back into a virtualized thread
// shows it at once (no change of height to measure again).
const RENDERED = new Map<string, string>();
const RENDERED_MAX = 400;

export function rememberRendered(markdown: string, html: string): void {
  RENDERED.delete(markdown);
  RENDERED.set(markdown, html);
  if (RENDERED.size > RENDERED_MAX) RENDERED.delete(RENDERED.keys().next().value as string);
}

export function renderedOf(markdown: string): string | undefined {
  return RENDERED.get(markdown);
}
