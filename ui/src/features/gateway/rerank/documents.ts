// Rerank's inputs and "Ask a spec": documents pasted one per block, a spec's markdown split into
// sections and stories, the chat prompt that sends the best of them as context, and the
// sections an answer cites. Pure, tested in documents.test.ts.
import Papa from "papaparse";
import type { RerankHit } from "../../../bindings/RerankHit";

/** The rerank model ids the service accepts (absent from the catalogs; the sandbox's names). */
export const RERANK_MODELS = [
  "cohere/rerank-v3.5",
  "cohere/rerank-4-fast",
  "cohere/rerank-4-pro",
  "voyage/rerank-2.5",
  "voyage/rerank-2.5-lite",
  "qwen/qwen3-reranker-8b",
] as const;

/** Documents pasted one per block: blocks are separated by one or more blank lines. */
/**
 * The documents of an imported file as blocks of the documents box: a CSV gives one document per
 * row (its cells joined with " · ", the header row left out when it looks like one); text and
 * Markdown are taken as they are (blank lines separate documents).
 */
export function documentsFromFile(fileName: string, text: string): string {
  if (!/\.csv$/i.test(fileName)) return text.replace(/\r\n?/g, "\n").trim();
  const rows = Papa.parse<string[]>(text.trim(), { skipEmptyLines: true }).data.map((r) => r.map((c) => c.trim()).filter(Boolean));
  const looksLikeHeader = (r: string[] | undefined) => !!r && r.length > 0 && r.every((c) => /^[A-Za-z_][\w .-]{0,30}$/.test(c) && !/\d{3,}/.test(c));
  const body = rows.length > 1 && looksLikeHeader(rows[0]) ? rows.slice(1) : rows;
  return body
    .filter((r) => r.length > 0)
    .map((r) => r.join(" · "))
    .join("\n\n");
}

export function parseDocuments(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((d) => d.trim())
    .filter(Boolean);
}

/** "1. [#3] First line of the document" per result, most relevant first. */
export function orderText(results: RerankHit[], documents: string[]): string {
  return results.map((r, i) => `${i + 1}. [#${r.index + 1}] ${firstLine(documents[r.index] ?? "")}`).join("\n");
}

export function firstLine(text: string, max = 120): string {
  const line = text.split("\n", 1)[0]?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export interface SpecChunk {
  /** What the answer cites it by, e.g. "Milestone 1: Accounts › S1 Sign up". */
  label: string;
  /** What is reranked and sent. */
  text: string;
}

const MAX_CHUNK = 4000;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(.*)$/;

/**
 * A spec's markdown as chunks to rerank: each heading's prose is a section, each list item under
 * a heading (a story, a requirement) is its own chunk labelled with its heading.
 */
export function splitSpec(markdown: string): SpecChunk[] {
  const chunks: SpecChunk[] = [];
  let heading = "";
  let body: string[] = [];
  let fence = false;
  const flush = () => {
    const text = body.join("\n").trim();
    if (text) chunks.push({ label: heading || "Introduction", text: clip(heading ? `${heading}\n${text}` : text) });
    body = [];
  };
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = fence ? null : HEADING.exec(line);
    const item = fence ? null : ITEM.exec(line);
    if (h?.[2] !== undefined) {
      flush();
      heading = h[2];
    } else if (item?.[1] !== undefined && item[1].trim()) {
      const story = item[1].trim();
      chunks.push({ label: heading ? `${heading} › ${firstLine(story, 60)}` : firstLine(story, 60), text: clip(heading ? `${heading}: ${story}` : story) });
    } else {
      body.push(line);
    }
  }
  flush();
  return chunks;
}

function clip(text: string): string {
  return text.length > MAX_CHUNK ? `${text.slice(0, MAX_CHUNK - 1)}…` : text;
}

export const ASK_SYSTEM =
  "Answer the question using only the numbered sections of the spec below. Cite every section you use by its number in square brackets, like [2]. If the sections do not answer the question, say so plainly.";

/** The user message of "Ask a spec": the chosen sections, numbered from 1, then the question. */
export function askMessage(specTitle: string, question: string, sections: SpecChunk[]): string {
  const context = sections.map((s, i) => `[${i + 1}] ${s.label}\n${s.text}`).join("\n\n");
  return `Sections of the spec “${specTitle}”:\n\n${context}\n\nQuestion: ${question.trim()}`;
}

/** The section numbers an answer cites ([2], [1, 3]), in order of first use, within 1..count. */
export function citationsOf(answer: string, count: number): number[] {
  const seen: number[] = [];
  for (const m of answer.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const part of (m[1] ?? "").split(",")) {
      const n = Number(part.trim());
      if (n >= 1 && n <= count && !seen.includes(n)) seen.push(n);
    }
  }
  return seen;
}
