// The Images studio: a form (prompt, model with its price per image, count, size), the last
// generation with what it cost, and the gallery of every image of the library with a full-size
// viewer, a side-by-side comparison and "same prompt on another model".
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "../../../lib/nav";
import type { MediaItem } from "../../../ipc/contract";
import { call, toIpcError } from "../../../ipc/invoke";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { useErrorToast } from "../../../components/Toasts";
import { useNotice } from "../../../lib/notices";
import { CostLine } from "../shared/CostLine";
import { useMedia, useRefreshMedia } from "../shared/queries";
import { useDeleteMedia } from "../shared/useDeleteMedia";
import { ListMore } from "../shared/ListMore";
import { RunningElsewhere } from "../shared/RunningElsewhere";
import { useImageModels } from "../models/queries";
import { rememberSettings } from "../shared/settingsMemory";
import { useDebounced } from "../shared/useDebounced";
import { useMeteredCall } from "../shared/useMeteredCall";
import { ImageCompare } from "./ImageCompare";
import { ImageComposer, type ImageDraft } from "./ImageComposer";
import { ImageGallery } from "./ImageGallery";
import { ImageViewer } from "./ImageViewer";
import { MediaImage } from "./MediaImage";
import { filterByPrompt, otherModel, toggleCompare } from "./gallerySearch";
import "../shared/shared.css";
import "./images.css";

/** `image`: the image open in the viewer, as the route names it (lib/nav.ts). */
export function ImageStudio({ image }: { image?: number }) {
  const navigate = useNavigate();
  const models = useImageModels();
  const media = useMedia("image");
  const refresh = useRefreshMedia();
  const notice = useNotice();
  const toast = useErrorToast();
  const generation = useMeteredCall<MediaItem[]>();
  const [draft, setDraft] = useState<ImageDraft>({ prompt: "", model: "", count: 1, size: "1024x1024" });
  const [focusModel, setFocusModel] = useState(0);
  const [query, setQuery] = useState("");
  const search = useDebounced(query, 250);
  const [selected, setSelected] = useState<number[]>([]);
  const [comparing, setComparing] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  const modelList = useMemo(() => models.data?.list.data ?? [], [models.data]);
  const model = draft.model || modelList[0]?.id || "";
  const all = useMemo(() => media.data ?? [], [media.data]);
  const shown = useMemo(() => filterByPrompt(all, search), [all, search]);
  // The viewer pages through the gallery as filtered, or the whole of it when the image the
  // address names is filtered out.
  const viewerItems = image !== undefined && !shown.some((m) => m.id === image) ? all : shown;
  const found = image === undefined ? -1 : viewerItems.findIndex((m) => m.id === image);
  const viewer = found < 0 ? null : found;
  // Opening, paging and closing the viewer are views of the studio: they replace the address.
  const setViewer = (index: number | null) => {
    const item = index === null ? undefined : viewerItems[index];
    navigate({ area: "gateway", studio: "images", ...(item ? { image: item.id } : {}) }, { replace: true });
  };
  // An image the address names or a search looks further than the pages read: the next is read
  // until it is found or every image is read.
  const missing = image !== undefined && !all.some((m) => m.id === image);
  const { more, isFetching, loadMore } = media;
  useEffect(() => {
    if ((missing || search.trim() !== "") && more && !isFetching) loadMore();
  }, [missing, search, more, isFetching, loadMore]);
  // (Judged on a current, whole list: an image made while the studio was away may not be in an
  // older copy, nor an old one in the pages read so far.)
  const gone = media.data !== undefined && !isFetching && !more && missing;
  useEffect(() => {
    if (!gone) return;
    notice("That image is no longer in the gallery.");
    navigate({ area: "gateway", studio: "images" }, { replace: true });
  }, [gone, notice, navigate]);

  const generate = async () => {
    const request = { model, prompt: draft.prompt.trim(), n: draft.count, size: draft.size };
    const items = await generation.run(() => call("generate_images", { request }));
    if (items) {
      // The images are kept whatever happens to their settings; a failure to keep them is said.
      await rememberSettings(
        items.map((i) => i.id),
        { size: draft.size, count: draft.count },
      ).catch(toast);
      refresh();
    }
  };

  const samePrompt = (item: MediaItem) => {
    const next = otherModel(
      modelList.map((m) => m.id),
      item.model,
    );
    setDraft({ ...draft, prompt: item.prompt, model: next ?? item.model });
    setViewer(null);
    setFocusModel((n) => n + 1);
    notice(next ? `The prompt is in the form with ${next}. Pick another model if you like, then generate.` : "The prompt is in the form. This is the only image model listed.");
  };

  const closeViewer = () => {
    const current = viewer === null ? undefined : viewerItems[viewer];
    const thumb = current ? document.querySelector<HTMLElement>(`.gallery-thumb[data-media-id="${current.id}"]`) : null;
    setViewer(null);
    (thumb ?? opener.current)?.focus();
  };

  const deleteMedia = useDeleteMedia();
  const remove = (item: MediaItem) =>
    deleteMedia(item, "Image", () => {
      setViewer(null);
      setSelected((s) => s.filter((x) => x !== item.id));
      opener.current?.closest(".gallery")?.querySelector<HTMLElement>("input[type=search]")?.focus();
    });

  const compared = selected.map((id) => all.find((m) => m.id === id)).filter((m): m is MediaItem => !!m);

  return (
    <div className="studio image-studio">
      {models.isError && <ErrorPanel error={toIpcError(models.error)} onRetry={() => void models.refetch()} />}
      <ImageComposer
        models={modelList}
        source={models.data}
        draft={{ ...draft, model }}
        onChange={setDraft}
        onGenerate={() => void generate()}
        pending={generation.pending}
        error={generation.error}
        onRetry={() => void generate()}
        focusModel={focusModel}
      />
      <RunningElsewhere kinds={["image"]} busy={generation.pending} />
      {generation.result && (
        <section className="card studio-section last-result" aria-label="Just generated">
          <h2>Just generated</h2>
          <ul className="result-strip">
            {generation.result.map((item) => (
              <li key={item.id}>
                <MediaImage item={item} alt={item.prompt} />
              </li>
            ))}
          </ul>
          <CostLine charge={generation.charge} creditsFallback={generation.result[0]?.credits} cost={generation.result[0]?.cost} />
        </section>
      )}
      {comparing && compared.length >= 2 && <ImageCompare items={compared} onClose={() => setComparing(false)} />}
      {media.isError ? (
        <ErrorPanel error={toIpcError(media.error)} onRetry={() => void media.refetch()} />
      ) : media.isPending ? (
        <p className="skeleton">Loading the gallery…</p>
      ) : (
        <ImageGallery
          total={media.total ?? all.length}
          items={shown}
          query={query}
          onQuery={setQuery}
          selected={selected}
          onToggle={(id) => setSelected((s) => toggleCompare(s, id))}
          onOpen={(i, el) => {
            opener.current = el;
            setViewer(i);
          }}
          onSamePrompt={samePrompt}
          onCompare={() => setComparing(true)}
          onClearSelection={() => {
            setSelected([]);
            setComparing(false);
          }}
          open={viewer !== null && viewerItems === shown ? viewer : undefined}
          more={!!media.more}
          onMore={media.loadMore}
        />
      )}
      <ListMore shown={all.length} total={media.total} noun="image" more={!!media.more} onMore={media.loadMore} />
      {viewer !== null && viewerItems[viewer] && (
        <ImageViewer
          items={viewerItems}
          index={viewer}
          onIndex={setViewer}
          onClose={closeViewer}
          onReveal={(item) => void call("reveal_media", { id: item.id }).catch(toast)}
          onSamePrompt={samePrompt}
          onDelete={remove}
        />
      )}
    </div>
  );
}
