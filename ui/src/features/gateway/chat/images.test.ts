import { describe, expect, it } from "vitest";
import { CommandError } from "../../../ipc/invoke";
import { pastedImage, readImagePaths, userBlocks } from "./images";

describe("images dropped on the window", () => {
  it("reads each path through Rust, keeps the images and says why the others were refused", async () => {
    const asked: string[] = [];
    const read = (path: string) => {
      asked.push(path);
      if (path.endsWith(".txt")) return Promise.reject(new CommandError({ kind: "invalidInput", message: "notes.txt is not a PNG, JPEG, GIF or WebP image.", field: "path" }));
      return Promise.resolve({ name: path.split("/").pop() ?? path, mediaType: "image/jpeg", data: "AAAA" });
    };
    const { images, problems } = await readImagePaths(["/a/cat.jpg", "/a/notes.txt", "/b/dog.jpg"], read);
    expect(asked).toEqual(["/a/cat.jpg", "/a/notes.txt", "/b/dog.jpg"]);
    expect(images.map(({ name, mediaType, data }) => ({ name, mediaType, data }))).toEqual([
      { name: "cat.jpg", mediaType: "image/jpeg", data: "AAAA" },
      { name: "dog.jpg", mediaType: "image/jpeg", data: "AAAA" },
    ]);
    expect(new Set(images.map((i) => i.id)).size).toBe(2);
    expect(problems).toEqual(["notes.txt is not a PNG, JPEG, GIF or WebP image."]);
    expect(userBlocks(" Which? ", images.slice(0, 1))).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAAA" } },
      { type: "text", text: "Which?" },
    ]);
  });
});


describe("an image pasted in WebKitGTK (read from the clipboard by Rust)", () => {
  it("is attached with the name and type Rust gives it", async () => {
    const { images, problems } = await pastedImage(async () => ({ name: "Pasted image.png", mediaType: "image/png", data: "iVBORw0KGgo=" }));
    expect(problems).toEqual([]);
    expect(images.map(({ name, mediaType, data }) => ({ name, mediaType, data }))).toEqual([{ name: "Pasted image.png", mediaType: "image/png", data: "iVBORw0KGgo=" }]);
    expect(userBlocks("What is this?", images)).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      { type: "text", text: "What is this?" },
    ]);
  });

  it("attaches nothing when the clipboard holds no image, and says why a bad one is refused", async () => {
    expect(await pastedImage(async () => null)).toEqual({ images: [], problems: [] });
    const refused = await pastedImage(async () => {
      throw new CommandError({ kind: "invalidInput", field: "image", message: "Pasted image.png is larger than 5 MB. Attach a smaller image." });
    });
    expect(refused).toEqual({ images: [], problems: ["Pasted image.png is larger than 5 MB. Attach a smaller image."] });
  });
});
