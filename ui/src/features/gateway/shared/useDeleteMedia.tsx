// Deleting a file of the media library (an image, a take, a recording, a video) as every list
// does it: out of the list at once, with an Undo that brings it back whole (Rust keeps the file
// until the next start: core::media).
import type { MediaItem } from "../../../ipc/contract";
import { call } from "../../../ipc/invoke";
import { useErrorToast } from "../../../components/Toasts";
import { useNotice } from "../../../lib/notices";
import { useRefreshMedia } from "./queries";

/** Deletes `item`, named `name` in the notice ("Take 3"); `after` runs once it is out. */
export function useDeleteMedia(): (item: Pick<MediaItem, "id">, name: string, after?: () => void) => void {
  const refresh = useRefreshMedia();
  const notice = useNotice();
  const toast = useErrorToast();
  return (item, name, after) => {
    call("delete_media", { id: item.id })
      .then(() => {
        refresh();
        after?.();
        notice(`${name} deleted.`, {
          label: "Undo",
          run: () => {
            call("restore_media", { id: item.id }).then(refresh).catch(toast);
          },
        });
      })
      .catch(toast);
  };
}
