// Audio and video from the media folder as the web view can play them. WebKitGTK's media player
// (GStreamer) cannot read the app's asset protocol, so the file is fetched through it and played
// from a blob URL of its bytes, on every platform alike.
import { useEffect, useState } from "react";
import { fileExtension, mediaSrc } from "./media";

const TYPES: Record<string, string> = {
  wav: "audio/wav",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  opus: "audio/ogg",
  flac: "audio/flac",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  webm: "video/webm",
  mov: "video/quicktime",
};

/** The MIME type of a media file, by its extension. */
export function mediaType(path: string): string {
  return TYPES[fileExtension(path)] ?? "application/octet-stream";
}

/** The file's bytes, fetched through the asset protocol. */
export async function fetchMedia(path: string): Promise<ArrayBuffer> {
  const src = mediaSrc(path);
  if (!src) throw new Error("This file cannot be opened in this window.");
  const res = await fetch(src);
  if (!res.ok) throw new Error(`status ${res.status}`);
  return res.arrayBuffer();
}

/** A blob URL the media element plays (revoked when the path changes or the caller goes). */
export function usePlayableUrl(path: string): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ path: string; url: string | null; failed: boolean }>({ path, url: null, failed: false });
  useEffect(() => {
    let made: string | null = null;
    let gone = false;
    fetchMedia(path)
      .then((bytes) => {
        if (gone) return;
        made = URL.createObjectURL(new Blob([bytes], { type: mediaType(path) }));
        setState({ path, url: made, failed: false });
      })
      .catch(() => {
        if (!gone) setState({ path, url: null, failed: true });
      });
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [path]);
  return state.path === path ? { url: state.url, failed: state.failed } : { url: null, failed: false };
}
