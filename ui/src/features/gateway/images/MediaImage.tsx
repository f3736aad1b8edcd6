// A saved image shown through the asset protocol (a gallery card shows its thumbnail), or a plain
// note where it cannot be shown.
import { useState } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { mediaSrc } from "../shared/media";

export function MediaImage({
  item,
  alt,
  className,
  onSize,
  thumb = false,
}: {
  item: MediaItem;
  alt: string;
  className?: string;
  /** The image's real size, once loaded (not told for a thumbnail). */
  onSize?: (size: string) => void;
  /** Its thumbnail where Rust made one (a gallery's card); the image itself else, or when the
   * thumbnail cannot be read. */
  thumb?: boolean;
}) {
  const [thumbBroken, setThumbBroken] = useState(false);
  const useThumb = thumb && !!item.thumbPath && !thumbBroken;
  const src = mediaSrc(useThumb && item.thumbPath ? item.thumbPath : item.path);
  const [broken, setBroken] = useState(false);
  if (!src || broken) {
    return (
      <div className={`media-missing ${className ?? ""}`} role="img" aria-label={alt}>
        Preview not available: the file could not be opened.
      </div>
    );
  }
  return (
    <img
      className={className}
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => (useThumb ? setThumbBroken(true) : setBroken(true))}
      onLoad={(e) => !useThumb && onSize?.(`${e.currentTarget.naturalWidth}x${e.currentTarget.naturalHeight}`)}
    />
  );
}
