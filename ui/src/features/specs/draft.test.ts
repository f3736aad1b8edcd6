import { describe, expect, it } from "vitest";
import {
  EMPTY_COMPOSER,
  SET_ASIDE_STORAGE_KEY,
  loadSetAside,
  saveSetAside,
  withSetAside,
  NEED_CONTEXT,
  NEED_INPUT,
  balanceWarning,
  checkDocUrls,
  checkSpecDraft,
  costHint,
  draftFromJobRequest,
  fieldOf,
  toSpecDraft,
} from "./draft";

const FILE = { path: "/home/me/brief.pdf", name: "brief.pdf", size: 48213, mime: "application/pdf" };

describe("spec draft checks", () => {
  it("needs a description or a file", () => {
    expect(checkSpecDraft(EMPTY_COMPOSER)).toEqual({ input: NEED_INPUT });
    expect(checkSpecDraft({ ...EMPTY_COMPOSER, description: "   \n " })).toEqual({
      input: "Describe what you want to build, or attach a file that describes it.",
    });
    expect(checkSpecDraft({ ...EMPTY_COMPOSER, file: FILE })).toEqual({});
    expect(checkSpecDraft({ ...EMPTY_COMPOSER, description: "A habit tracker" })).toEqual({});
  });

  it("names the line of a bad documentation link", () => {
    const text = "https://nextjs.org/docs\n\nftp://files.example.com\nhttps://ok.example.com";
    expect(checkDocUrls(text)).toBe(
      "Line 3 (“ftp://files.example.com”) is not a full web address. Write one address per line, like https://docs.example.com.",
    );
    expect(checkSpecDraft({ ...EMPTY_COMPOSER, description: "x", docUrls: "docs.example.com" }).docUrls).toBe(
      "Line 1 (“docs.example.com”) is not a full web address. Write one address per line, like https://docs.example.com.",
    );
    expect(checkDocUrls("http://localhost:3000/docs\n https://www.prisma.io/docs ")).toBeNull();
    expect(checkDocUrls("https://")).toContain("Line 1");
  });

  it("asks for the existing project when adding to one", () => {
    expect(checkSpecDraft({ ...EMPTY_COMPOSER, description: "Dark mode", existing: true })).toEqual({ context: NEED_CONTEXT });
  });

  it("turns the composer into the command's draft", () => {
    expect(
      toSpecDraft(
        {
          ...EMPTY_COMPOSER,
          description: "  A recipe app ",
          existing: true,
          context: " Next.js app with Prisma ",
          docUrls: "https://nextjs.org/docs\n\n  https://www.prisma.io/docs  ",
          file: FILE,
        },
        "fast",
      ),
    ).toEqual({
      depth: "fast",
      input: "A recipe app",
      currentContext: "Next.js app with Prisma",
      docUrls: ["https://nextjs.org/docs", "https://www.prisma.io/docs"],
      filePath: "/home/me/brief.pdf",
    });
    // Context typed but switched off is not sent; an explicit depth wins over the default.
    expect(toSpecDraft({ ...EMPTY_COMPOSER, description: "x", context: "old", depth: "deep" }, "fast")).toEqual({
      depth: "deep",
      input: "x",
      docUrls: [],
    });
  });

  it("maps error fields to composer fields", () => {
    expect(fieldOf("docURLs[1]")).toBe("docUrls");
    expect(fieldOf("docUrls")).toBe("docUrls");
    expect(fieldOf("file")).toBe("file");
    expect(fieldOf("input")).toBe("input");
    expect(fieldOf("currentContext")).toBe("context");
    expect(fieldOf("limit")).toBeNull();
    expect(fieldOf(undefined)).toBeNull();
  });

  it("refills the composer from a failed job's request", () => {
    expect(
      draftFromJobRequest({
        depth: "deep",
        input: "A recipe app",
        currentContext: "Existing Next.js app",
        docUrls: ["https://nextjs.org/docs", "https://www.prisma.io/docs"],
        fileName: "brief.pdf",
        fileSize: 48213,
      }),
    ).toEqual({
      description: "A recipe app",
      existing: true,
      context: "Existing Next.js app",
      docUrls: "https://nextjs.org/docs\nhttps://www.prisma.io/docs",
      depth: "deep",
      file: null,
      missingFileName: "brief.pdf",
    });
    expect(draftFromJobRequest(null)).toEqual({ ...EMPTY_COMPOSER });
  });

  it("gives the documented cost ranges and warns on a low balance", () => {
    expect(costHint("fast")).toBe("Fast spec: about 5–10 credits.");
    expect(costHint("deep")).toBe("Deep spec: about 10–50 credits.");
    expect(balanceWarning("fast", 1000)).toBeNull();
    expect(balanceWarning("deep", 20)).toBe("Your balance may not cover this spec if it runs long.");
    expect(balanceWarning("fast", 3)).toBe("Your balance is below what this spec usually costs. Top up before you send it.");
    expect(balanceWarning("fast", undefined)).toBeNull();
  });
});

describe("drafts set aside", () => {
  const d = (description: string) => ({ ...EMPTY_COMPOSER, description });

  it("keeps a list, newest first, and reads the one draft an earlier version kept as a list of one", () => {
    window.localStorage.setItem(SET_ASIDE_STORAGE_KEY, JSON.stringify(d("Kept by an earlier version")));
    expect(loadSetAside().map((x) => x.description)).toEqual(["Kept by an earlier version"]);
    saveSetAside(withSetAside(withSetAside([], d("First")), d("Second")));
    expect(loadSetAside().map((x) => x.description)).toEqual(["Second", "First"]);
    // The same draft twice, or an empty one, is not set aside again.
    expect(withSetAside(loadSetAside(), d("First")).map((x) => x.description)).toEqual(["Second", "First"]);
    expect(withSetAside(loadSetAside(), d("  ")).map((x) => x.description)).toEqual(["Second", "First"]);
    saveSetAside([]);
    expect(window.localStorage.getItem(SET_ASIDE_STORAGE_KEY)).toBeNull();
  });
});
