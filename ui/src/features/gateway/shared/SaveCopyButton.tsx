// "Download": a copy of a generated file saved into the download folder (`save_media_copy`),
// confirmed with where it went.
import { useErrorToast } from "../../../components/Toasts";
import { call } from "../../../ipc/invoke";
import { useNotice } from "../../../lib/notices";

export function SaveCopyButton({ id, label = "Download" }: { id: number; label?: string }) {
  const toast = useErrorToast();
  const notice = useNotice();
  const save = async () => {
    try {
      const path = await call("save_media_copy", { id, choose: false });
      if (path) notice(`Saved to ${path}`);
    } catch (e) {
      toast(e);
    }
  };
  return (
    <button className="btn" type="button" onClick={() => void save()}>
      {label}
    </button>
  );
}
