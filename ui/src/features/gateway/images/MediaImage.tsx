// A saved image shown through the asset protocol, or a plain note where it cannot be shown.
import { useState } from "react";
import type { MediaItem } from "../../../ipc/contract";
import { mediaSrc } from "../shared/media";

export function MediaImage({
  item,
  alt,
  className,
  onSize,
}: {
  item: MediaItem;
  alt: string;
  className?: string;
  /** The image's real size, once loaded. */
  onSize?: (size: string) => void;
}) {
  const src = mediaSrc(item.path);
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
      onError={() => setBroken(true)}
      onLoad={(e) => onSize?.(`${e.currentTarget.naturalWidth}x${e.currentTarget.naturalHeight}`)}
    />
  );
}
