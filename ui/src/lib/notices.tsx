// Short confirmations ("Saved to …", "Copied"), some with an action ("Undo"), as toasts of the one
// toaster (components/Toasts.tsx). Errors use useErrorToast instead.
import { useCallback } from "react";
import { toast } from "sonner";
import { showCard } from "../components/Toasts";

/** A button a notice offers (e.g. "Restore the earlier draft"); it dismisses the notice. */
export interface NoticeAction {
  label: string;
  run: () => void;
}

type ShowNotice = (text: string, action?: NoticeAction) => void;

let counter = 0;

export function useNotice(): ShowNotice {
  return useCallback((text: string, action?: NoticeAction) => {
    counter += 1;
    showCard({
      id: `notice:${counter}`,
      tone: "info",
      // A notice with an action stays longer: there is something to do.
      duration: action ? 15000 : 6000,
      render: (id) => (
        <>
          <span>{text}</span>
          {action && (
            <button
              className="btn"
              type="button"
              onClick={() => {
                action.run();
                toast.dismiss(id);
              }}
            >
              {action.label}
            </button>
          )}
        </>
      ),
    });
  }, []);
}
