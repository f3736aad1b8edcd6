// Find in a document: the plain-text matches of a query as DOM Ranges over the document's text
// nodes, without changing the DOM. The text of each block (paragraph, heading, list item, code
// block, table cell…) is searched as one string, so a match may span inline elements ("Next.js
// docs" across a link, code split into highlight.js spans) but never two blocks.

/** Elements that start a new block of text: a match never crosses one of their edges. */
const BLOCK_TAGS = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "BR", "DD", "DETAILS", "DIV", "DL", "DT", "FIGCAPTION", "FIGURE",
  "FOOTER", "H1", "H2", "H3", "H4", "H5", "H6", "HEADER", "HR", "LI", "MAIN", "NAV", "OL", "P", "PRE", "SECTION",
  "SUMMARY", "TABLE", "TBODY", "TD", "TFOOT", "TH", "THEAD", "TR", "UL",
]);

/** Never searched: nothing a reader sees. */
const SKIPPED_TAGS = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT"]);

/** Most matches kept: past this the count reads "5000+" and the rest are not highlighted. */
export const MAX_MATCHES = 5000;

/** One text node's place in the searched text. */
interface Piece {
  node: Text;
  /** Offset of the node's first character in `text`. */
  start: number;
}

/** The searched text of `root`: its text nodes in order, a separator between blocks. */
export interface TextIndex {
  text: string;
  pieces: Piece[];
}

/** Between two blocks: no query can contain it (queries are one line of text). */
const BLOCK_SEPARATOR = "\n\u0000\n";

function blockOf(node: Node, root: Node): Node {
  let el = node.parentNode;
  while (el && el !== root) {
    if (el.nodeType === 1 && BLOCK_TAGS.has((el as Element).tagName)) return el;
    el = el.parentNode;
  }
  return root;
}

/** Indexes the text nodes under `root` (in document order). */
export function indexText(root: Node): TextIndex {
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */, {
    acceptNode(n) {
      for (let p = n.parentNode; p && p !== root; p = p.parentNode) {
        if (p.nodeType === 1 && SKIPPED_TAGS.has((p as Element).tagName)) return 2; // FILTER_REJECT
      }
      return 1; // FILTER_ACCEPT
    },
  });
  const parts: string[] = [];
  const pieces: Piece[] = [];
  let length = 0;
  let lastBlock: Node | null = null;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const node = n as Text;
    const data = node.data;
    if (!data) continue;
    const block = blockOf(node, root);
    if (lastBlock && block !== lastBlock) {
      parts.push(BLOCK_SEPARATOR);
      length += BLOCK_SEPARATOR.length;
    }
    lastBlock = block;
    pieces.push({ node, start: length });
    parts.push(data);
    length += data.length;
  }
  return { text: parts.join(""), pieces };
}

/**
 * The pattern a query searches for: its text, case-insensitive, any run of white space in it
 * matching any run of white space within a block (a block separator holds a character that is
 * not white space). Null for a query with nothing to find.
 */
export function queryPattern(query: string): RegExp | null {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const escaped = words.map((w) => w.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
  return new RegExp(escaped.join("\\s+"), "giu");
}

/** A match as offsets into `TextIndex.text`. */
export interface Span {
  start: number;
  end: number;
}

/** The spans of `query` in `text`, at most `max`; `truncated` when there were more. */
export function findSpans(text: string, query: string, max = MAX_MATCHES): { spans: Span[]; truncated: boolean } {
  const pattern = queryPattern(query);
  const spans: Span[] = [];
  if (!pattern) return { spans, truncated: false };
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m[0].length === 0) {
      pattern.lastIndex += 1;
      continue;
    }
    if (spans.length === max) return { spans, truncated: true };
    spans.push({ start: m.index, end: m.index + m[0].length });
  }
  return { spans, truncated: false };
}

/** The piece holding offset `at` (the last piece starting at or before it). */
function pieceAt(pieces: Piece[], at: number): number {
  let lo = 0;
  let hi = pieces.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((pieces[mid] as Piece).start <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The DOM position of text offset `at`; `end` prefers the end of a node to the start of the next. */
function positionOf(index: TextIndex, at: number, end: boolean): { node: Text; offset: number } {
  let i = pieceAt(index.pieces, at);
  let piece = index.pieces[i] as Piece;
  if (end && at === piece.start && i > 0) {
    i -= 1;
    piece = index.pieces[i] as Piece;
  }
  return { node: piece.node, offset: Math.min(at - piece.start, piece.node.data.length) };
}

/** A span as a Range over the text nodes it covers. */
export function spanToRange(index: TextIndex, span: Span): Range {
  const start = positionOf(index, span.start, false);
  const end = positionOf(index, span.end, true);
  const range = start.node.ownerDocument.createRange();
  range.setStart(start.node, start.offset);
  range.setEnd(end.node, end.offset);
  return range;
}

export interface FoundMatches {
  ranges: Range[];
  /** More matches than `MAX_MATCHES`: only the first ones are in `ranges`. */
  truncated: boolean;
}

/** Every match of `query` under `root` as a Range, in document order. */
export function findMatches(root: Node, query: string, max = MAX_MATCHES): FoundMatches {
  const index = indexText(root);
  const { spans, truncated } = findSpans(index.text, query, max);
  return { ranges: spans.map((s) => spanToRange(index, s)), truncated };
}

/**
 * The parts of a range that lie in each text node, in document order: what the `<mark>`
 * fallback wraps (an element cannot span several text nodes' parents).
 */
export function textSegments(range: Range): { node: Text; start: number; end: number }[] {
  const out: { node: Text; start: number; end: number }[] = [];
  const root = range.commonAncestorContainer;
  const push = (node: Text) => {
    const start = node === range.startContainer ? range.startOffset : 0;
    const end = node === range.endContainer ? range.endOffset : node.data.length;
    if (end > start) out.push({ node, start, end });
  };
  if (root.nodeType === 3) {
    push(root as Text);
    return out;
  }
  const doc = root.ownerDocument ?? (root as Document);
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (range.intersectsNode(n)) push(n as Text);
  }
  return out;
}
