import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import type { MediaItem } from "../../../ipc/contract";
import { renderRouted, renderScreen } from "../../../lib/testing";
import type { NavTarget } from "../../../lib/nav";
import { ImageStudio } from "./ImageStudio";

beforeEach(() => {
  // jsdom has no layout: give the gallery's virtual grid a size so it renders its rows.
  Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 900 });
  Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 1000 });
  Element.prototype.scrollTo = () => undefined;
});

afterEach(() => {
  cleanup();
  clearMocks();
  window.localStorage.clear();
});

const drawImages = (route: NavTarget) => <ImageStudio image={route.area === "gateway" ? route.image : undefined} />;

const img = (id: number, prompt: string): MediaItem => ({ id, kind: "image", path: `/m/${id}.png`, prompt, model: "a/one", profileId: "sandbox", credits: 0.4, createdAt: "2026-11-21T10:00:00Z" });

describe("ImageStudio", () => {
  it("shows the price before generating, then the call's request id, charge and balance", async () => {
    const calls: { cmd: string; args: unknown }[] = [];
    let media = [img(1, "A lighthouse at dusk"), img(2, "A bakery logo")];
    mockIPC((cmd, args) => {
      calls.push({ cmd, args });
      if (cmd === "image_models") return { list: { object: "list", data: [{ id: "a/one", input: [], output: [], svc: { credits_per_image: 0.4 } }, { id: "b/two", input: [], output: [], svc: { credits_per_image: 0.5 } }] }, cachedAt: "2026-11-22T09:00:00Z", offline: false };
      if (cmd === "list_media") return media;
      if (cmd === "generate_images") {
        const made = [img(3, "A kite"), { ...img(4, "A kite"), credits: undefined }];
        media = [...made, ...media];
        return { value: made, charge: { requestId: "req_9", creditsCharged: 0.8, balanceAfter: 41.2 } };
      }
      if (cmd === "set_media_settings") {
        const { ids, settings } = args as { ids: number[]; settings: Record<string, string | number> };
        media = media.map((m) => (ids.includes(m.id) ? { ...m, settings } : m));
        return null;
      }
      // Another call's line, newer in the ledger: the studio shows its own call's charge.
      if (cmd === "credit_ledger") return [{ at: "x", profileId: "sandbox", endpoint: "v1/images", requestId: "req_other", creditsCharged: 0.4, creditsRemaining: 40.8, pending: false, estimated: false }];
      return null;
    });
    renderScreen(<ImageStudio />);
    const form = screen.getByRole("form", { name: "New images" });
    await waitFor(() => expect(within(form).getByText("0.4 credits per image · 1 image: 0.4 credits")).toBeTruthy());
    fireEvent.change(within(form).getByLabelText("Images"), { target: { value: "2" } });
    fireEvent.change(within(form).getByLabelText("Model"), { target: { value: "b/two" } });
    expect(within(form).getByText("0.5 credits per image · 2 images: 1 credit")).toBeTruthy();
    fireEvent.change(within(form).getByLabelText("Prompt"), { target: { value: "  A kite " } });
    fireEvent.click(within(form).getByRole("button", { name: "Generate 2 images" }));
    const cost = await screen.findByLabelText("What this call cost");
    expect(cost.textContent).toBe("Request id req_9 · 0.8 credits charged · balance after: 41.2 credits");
    expect(calls.find((c) => c.cmd === "generate_images")?.args).toEqual({ request: { model: "b/two", prompt: "A kite", n: 2, size: "1024x1024" } });
    const gallery = screen.getByRole("region", { name: "Gallery" });
    await waitFor(() => expect(within(gallery).getByText("4 images")).toBeTruthy());
    // The size asked for is kept in the library with each image of the batch.
    expect(calls.find((c) => c.cmd === "set_media_settings")?.args).toEqual({ ids: [3, 4], settings: { size: "1024x1024", count: 2 } });
    await waitFor(() => expect(within(gallery).getAllByText("1024 × 1024")).toHaveLength(2));
  });

  it("opens the viewer, moves with the arrow keys and closes with Escape", async () => {
    mockIPC((cmd) => {
      if (cmd === "image_models") return { list: { object: "list", data: [] }, cachedAt: "2026-11-22T09:00:00Z", offline: false };
      if (cmd === "list_media") return [img(1, "First"), img(2, "Second")];
      return null;
    });
    const went: NavTarget[] = [];
    renderRouted({ area: "gateway", studio: "images" }, drawImages, (to, options) => {
      went.push(to);
      expect(options).toEqual({ replace: true });
    });
    const thumbs = await screen.findAllByRole("button", { name: /^Open image/ });
    thumbs[1]?.focus();
    fireEvent.click(thumbs[1] as HTMLElement);
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByRole("heading").textContent).toBe("Image 2 of 2");
    fireEvent.keyDown(dialog, { key: "ArrowRight" });
    expect(within(dialog).getByRole("heading").textContent).toBe("Image 1 of 2");
    fireEvent.keyDown(dialog, { key: "Escape" });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement?.getAttribute("data-media-id")).toBe("1");
    // The image open is the address's.
    expect(went).toEqual([
      { area: "gateway", studio: "images", image: 2 },
      { area: "gateway", studio: "images", image: 1 },
      { area: "gateway", studio: "images" },
    ]);
  });

  it("opens the image its address names, and says so when the gallery no longer has it", async () => {
    mockIPC((cmd) => {
      if (cmd === "image_models") return { list: { object: "list", data: [] }, cachedAt: "2026-11-22T09:00:00Z", offline: false };
      if (cmd === "list_media") return [img(1, "First"), img(2, "Second")];
      return null;
    });
    renderRouted({ area: "gateway", studio: "images", image: 2 }, drawImages);
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("heading").textContent).toBe("Image 2 of 2");
    cleanup();

    const went: NavTarget[] = [];
    renderRouted({ area: "gateway", studio: "images", image: 9 }, drawImages, (to) => went.push(to));
    await screen.findByText("That image is no longer in the gallery.");
    expect(went).toEqual([{ area: "gateway", studio: "images" }]);
    expect(screen.queryByRole("dialog")).toBeNull();
  });
});
