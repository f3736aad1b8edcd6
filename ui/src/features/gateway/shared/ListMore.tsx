// Under a list read a page at a time: how many of how many it shows, and Show more while some
// are not read yet (never a list that stops without saying so).
import { plural } from "../../../lib/format";
import { MEDIA_PAGE } from "./queries";

/** `step`: how many Show more reads (a page of the media library by default). */
export function ListMore({
  shown,
  total,
  noun,
  more,
  onMore,
  step = MEDIA_PAGE,
}: {
  shown: number;
  total: number | undefined;
  noun: string;
  more: boolean;
  onMore: () => void;
  step?: number;
}) {
  if (!total) return null;
  const rest = total - shown;
  return (
    <div className="list-more">
      <p className="muted" aria-live="polite">
        {rest > 0 ? `Showing ${shown.toLocaleString("en-US")} of ${plural(total, noun)}.` : `All ${plural(total, noun)}.`}
      </p>
      {more && rest > 0 && (
        <button className="btn btn-small" type="button" onClick={onMore}>
          Show {Math.min(step, rest).toLocaleString("en-US")} more
        </button>
      )}
    </div>
  );
}
