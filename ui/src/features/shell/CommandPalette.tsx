// The command palette (Ctrl/Cmd+K): go to an area, a studio or a section of Settings, start a new
// spec, switch connection, or open a spec, a plan, a conversation, a batch, an image or take, or a
// model by its name. A modal dialog with a filter field (a combobox) and a
// listbox: the arrow keys move through the list, Enter runs the item, Escape closes.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { useSetActiveProfile } from "../../ipc/hooks";
import { useErrorToast } from "../../components/Toasts";
import { formatDate } from "../../lib/format";
import type { NavTarget } from "../../lib/nav";
import { Modal } from "./Modal";
import { requestNewSpec } from "./newSpec";
import {
  GO_ITEMS,
  GROUPS,
  NEW_SPEC_ITEM,
  connectionItems,
  filterPalette,
  specItems,
  type PaletteItem,
} from "./paletteCommands";
import { batchItems, conversationItems, mediaItems, modelItems, planItems, PLACE_ITEMS } from "./paletteKinds";
import { usePaletteSources } from "./usePaletteSources";

interface CommandPaletteProps {
  route: NavTarget;
  navigate: (to: NavTarget) => void;
  onClose: () => void;
}

export function CommandPalette({ route, navigate, onClose }: CommandPaletteProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const sources = usePaletteSources(true);
  const setProfile = useSetActiveProfile();
  const showError = useErrorToast();

  const items = useMemo(
    () => [
      ...GO_ITEMS,
      ...PLACE_ITEMS,
      NEW_SPEC_ITEM,
      ...connectionItems(sources.profiles),
      ...specItems(sources.specs, formatDate),
      ...planItems(sources.projects, sources.specs, formatDate),
      ...conversationItems(sources.conversations, formatDate),
      ...batchItems(sources.batches, formatDate),
      ...mediaItems(sources.media, formatDate),
      ...modelItems(sources.models),
    ],
    [sources],
  );
  const shown = useMemo(() => filterPalette(items, query), [items, query]);
  const at = shown.length === 0 ? -1 : Math.min(active, shown.length - 1);
  const current = at >= 0 ? shown[at] : undefined;
  const optionId = (item: PaletteItem) => `${id}-${item.id}`;

  useEffect(() => {
    if (at < 0) return;
    listRef.current?.querySelector(`[data-index="${at}"]`)?.scrollIntoView?.({ block: "nearest" });
  }, [at]);

  const run = (item: PaletteItem) => {
    onClose();
    const r = item.run;
    if (r.kind === "go") navigate(r.to);
    else if (r.kind === "spec") navigate({ area: "specs", specId: r.specId });
    else if (r.kind === "newSpec") requestNewSpec(navigate, route.area === "specs" && !route.specId);
    else {
      // The palette is gone by the time the switch answers, so its callbacks are the promise's
      // (a mutate() callback of an unmounted component never runs).
      setProfile.mutateAsync(r.profileId).then(() => {
        // What the screen showed belongs to the previous connection: its area's start instead.
        if (
          (route.area === "specs" && route.specId) ||
          (route.area === "plans" && route.target) ||
          (route.area === "agents" && (route.acceptance || route.batch)) ||
          (route.area === "gateway" && (route.conversation !== undefined || route.image !== undefined || route.take !== undefined))
        ) {
          navigate({ area: route.area });
        }
      }, showError);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (shown.length === 0) return;
      const step = e.key === "ArrowDown" ? 1 : -1;
      setActive((Math.max(at, 0) + step + shown.length) % shown.length);
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (current) run(current);
    }
  };

  const titleId = `${id}-title`;
  const listId = `${id}-list`;
  let index = 0;
  return (
    <Modal labelledBy={titleId} className="palette" onClose={onClose} initialFocus={inputRef}>
      <h2 id={titleId} className="visually-hidden">
        Command palette
      </h2>
      <input
        ref={inputRef}
        className="input palette-input"
        type="text"
        role="combobox"
        aria-label="Type a command or a name"
        placeholder="Go to, new spec, switch connection, or a spec, plan, conversation, batch, image or model…"
        aria-expanded={shown.length > 0}
        aria-controls={shown.length > 0 ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={current ? optionId(current) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      {shown.length > 0 ? (
        <div ref={listRef} id={listId} role="listbox" aria-label="Commands and places" className="palette-list">
          {GROUPS.map((group) => {
            const inGroup = shown.filter((i) => i.group === group);
            if (inGroup.length === 0) return null;
            return (
              <div key={group} role="group" aria-label={group} className="palette-group">
                <div className="palette-group-name" aria-hidden="true">
                  {group}
                </div>
                {inGroup.map((item) => {
                  const i = index++;
                  return (
                    <div
                      key={item.id}
                      id={optionId(item)}
                      role="option"
                      aria-selected={i === at}
                      data-index={i}
                      className="palette-option"
                      onMouseMove={() => i !== at && setActive(i)}
                      onMouseDown={(e) => e.preventDefault()}
                      onClick={() => run(item)}
                    >
                      <span className="palette-label">{item.label}</span>
                      {item.hint && <span className="palette-hint">{item.hint}</span>}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      ) : (
        <p className="palette-empty muted">Nothing matches “{query.trim()}”.</p>
      )}
      <p className="palette-status muted" role="status">
        {sources.loading ? "Reading your specs, plans, conversations, batches and media…" : ""}
      </p>
    </Modal>
  );
}
