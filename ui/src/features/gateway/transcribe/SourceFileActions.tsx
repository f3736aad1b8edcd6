// The file of the library chosen to transcribe (a recording or a take): shown in its folder or
// deleted with an Undo, like every file of the media library.
import { useErrorToast } from "../../../components/Toasts";
import { call } from "../../../ipc/invoke";
import { useDeleteMedia } from "../shared/useDeleteMedia";

export function SourceFileActions({ mediaId, label, onDeleted }: { mediaId: number; label: string; onDeleted: () => void }) {
  const toast = useErrorToast();
  const deleteMedia = useDeleteMedia();
  return (
    <span className="row source-actions">
      <button className="btn btn-small btn-ghost" type="button" onClick={() => void call("reveal_media", { id: mediaId }).catch(toast)}>
        Show in folder<span className="visually-hidden"> ({label})</span>
      </button>
      <button className="btn btn-small btn-ghost" type="button" onClick={() => deleteMedia({ id: mediaId }, label, onDeleted)}>
        Delete<span className="visually-hidden"> {label}</span>
      </button>
    </span>
  );
}
