// The message box: Enter sends, Shift+Enter is a new line, Enter while an input method is
// composing only confirms the composition (keys.ts). Images by drop, paste or the picker, shown
// as thumbnails. Send turns into Stop while a reply streams. In the app a file dropped on the
// window arrives as Tauri's drag-drop event (its paths, read by Rust), not as an HTML5 drop;
// the composer listens to it while it is shown (the Chat studio) and highlights meanwhile.
import { memo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import type { ContentBlock } from "../../../bindings/ContentBlock";
import { useFileDrop } from "../../../ipc/events";
import { isSendKey } from "./keys";
import { pastedImage, readImagePaths, readImages, userBlocks, type Attachment } from "./images";

export const Composer = memo(function Composer({ busy, onSend, onStop, sendLabel = "Send", disabled }: { busy: boolean; onSend: (blocks: ContentBlock[], text: string) => void; onStop: () => void; sendLabel?: string; disabled?: string }) {
  const [text, setText] = useState("");
  const [images, setImages] = useState<Attachment[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const picker = useRef<HTMLInputElement>(null);

  const attach = async (files: Iterable<File>) => add(await readImages(files));
  const add = ({ images: added, problems: bad }: { images: Attachment[]; problems: string[] }) => {
    setImages((list) => [...list, ...added]);
    setProblems(bad);
  };

  // One highlight for a drag over the window (the app: Tauri's event) and over the form as a
  // page sees it.
  const [dragging, setDragging] = useState(false);
  useFileDrop("chat-drag-drop", (paths) => void readImagePaths(paths).then(add), setDragging);

  const send = () => {
    if (busy || disabled) return;
    if (!text.trim() && images.length === 0) return;
    onSend(userBlocks(text, images), text.trim());
    setText("");
    setImages([]);
    setProblems([]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSendKey({ key: e.key, shiftKey: e.shiftKey, isComposing: e.nativeEvent.isComposing, keyCode: e.nativeEvent.keyCode })) {
      e.preventDefault();
      send();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
    if (files.length) {
      e.preventDefault();
      void attach(files);
    } else if (e.clipboardData.types.length === 0) {
      // WebKitGTK hands a copied image to the page as an empty paste: Rust reads the clipboard.
      void pastedImage().then(add);
    }
  };

  const onDrop = (e: DragEvent<HTMLFormElement>) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) void attach(e.dataTransfer.files);
  };

  return (
    <form
      className="chat-composer"
      aria-label="Message"
      data-dragging={dragging}
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {images.length > 0 && (
        <ul className="thumbs" aria-label="Attached images">
          {images.map((img) => (
            <li key={img.id} className="thumb">
              <img src={`data:${img.mediaType};base64,${img.data}`} alt={img.name} />
              <button className="btn btn-ghost btn-small" type="button" aria-label={`Remove ${img.name}`} onClick={() => setImages((l) => l.filter((x) => x.id !== img.id))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="visually-hidden" htmlFor="chat-input">
        Your message
      </label>
      <textarea
        id="chat-input"
        className="textarea chat-input"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        placeholder="Write a message. Enter sends, Shift+Enter starts a new line."
        aria-describedby={problems.length ? "chat-input-problems" : undefined}
      />
      {problems.length > 0 && (
        <ul id="chat-input-problems" className="error-text problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      {disabled && <p className="muted">{disabled}</p>}
      <div className="row composer-actions">
        <input
          ref={picker}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          onChange={(e) => {
            if (e.target.files) void attach([...e.target.files]);
            e.target.value = "";
          }}
        />
        <button className="btn" type="button" onClick={() => picker.current?.click()}>
          Attach images
        </button>
        <span className="grow" />
        {busy ? (
          <button className="btn btn-primary" type="button" onClick={onStop}>
            Stop
          </button>
        ) : (
          <button className="btn btn-primary" type="submit" disabled={!!disabled || (!text.trim() && images.length === 0)}>
            {sendLabel}
          </button>
        )}
      </div>
    </form>
  );
});
