// Images attached to a message, sent as base64 image blocks as the Messages API takes them:
// read in the web view when pasted, picked with the browser's own file input or dropped as
// HTML5 files (a browser), or read by Rust: from the paths of Tauri's own drag-drop event
// (`read_image_file`), which is how a drop on the app's window arrives, and from the clipboard
// (`paste_image`) when WebKitGTK's paste event brings no file for a copied image.
import type { ContentBlock } from "../../../bindings/ContentBlock";
import type { ImageFile } from "../../../bindings/ImageFile";
import { call, toIpcError } from "../../../ipc/invoke";

export interface Attachment {
  id: string;
  name: string;
  mediaType: string;
  /** Base64 without the `data:` prefix. */
  data: string;
}

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
/** The service's limit for one image is not in the spec; 5 MB is the Messages API's usual one. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

let seq = 0;

/** Reads image files; the others (wrong type, too big) come back as plain-words problems. */
export async function readImages(files: Iterable<File>): Promise<{ images: Attachment[]; problems: string[] }> {
  const images: Attachment[] = [];
  const problems: string[] = [];
  for (const f of files) {
    if (!IMAGE_TYPES.includes(f.type)) {
      problems.push(`${f.name || "That file"} is not a PNG, JPEG, GIF or WebP image.`);
      continue;
    }
    if (f.size > MAX_IMAGE_BYTES) {
      problems.push(`${f.name} is larger than 5 MB.`);
      continue;
    }
    const url = await new Promise<string>((resolve, reject) => {
      const r = new FileReader();
      r.onload = () => resolve(String(r.result));
      r.onerror = () => reject(r.error ?? new Error("read failed"));
      r.readAsDataURL(f);
    });
    seq += 1;
    images.push({ id: `img${seq}`, name: f.name || `Pasted image ${seq}`, mediaType: f.type, data: url.slice(url.indexOf(",") + 1) });
  }
  return { images, problems };
}

/**
 * The images at `paths` (dropped on the window), each read by `read` (Rust's `read_image_file`,
 * which checks the file by its first bytes and size); the refusals come back as its plain words.
 */
export async function readImagePaths(paths: readonly string[], read: (path: string) => Promise<ImageFile> = (path) => call("read_image_file", { path })): Promise<{ images: Attachment[]; problems: string[] }> {
  const images: Attachment[] = [];
  const problems: string[] = [];
  for (const path of paths) {
    try {
      const f = await read(path);
      seq += 1;
      images.push({ id: `img${seq}`, name: f.name, mediaType: f.mediaType, data: f.data });
    } catch (e) {
      problems.push(toIpcError(e).message);
    }
  }
  return { images, problems };
}

/**
 * The image on the system clipboard, read by Rust (`paste_image`, a PNG): how a copied image is
 * pasted in WebKitGTK, whose paste event carries no file for it. Nothing when it holds none.
 */
export async function pastedImage(read: () => Promise<ImageFile | null> = () => call("paste_image")): Promise<{ images: Attachment[]; problems: string[] }> {
  try {
    const f = await read();
    if (!f) return { images: [], problems: [] };
    seq += 1;
    return { images: [{ id: `img${seq}`, name: f.name, mediaType: f.mediaType, data: f.data }], problems: [] };
  } catch (e) {
    return { images: [], problems: [toIpcError(e).message] };
  }
}

/** A user turn's blocks: images first, then the text. */
export function userBlocks(text: string, images: Attachment[]): ContentBlock[] {
  return [
    ...images.map((i): ContentBlock => ({ type: "image", source: { type: "base64", media_type: i.mediaType, data: i.data } })),
    ...(text.trim() ? [{ type: "text" as const, text: text.trim() }] : []),
  ];
}
