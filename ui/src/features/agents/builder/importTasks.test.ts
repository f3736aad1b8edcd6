import { describe, expect, it } from "vitest";
import { parseCsv, parseJsonTasks, parsePastedRows, parseTaskFile, tooManyMessage } from "./importTasks";
import { rowToTask, type TaskRow } from "./model";

const tasks = (rows: TaskRow[]) => rows.map((r) => rowToTask(r));

function csvOf(n: number): string {
  const lines = ["url,instruction"];
  for (let i = 1; i <= n; i++) lines.push(`https://example.com/p/${i},Read page ${i}`);
  return lines.join("\n");
}

describe("pasted rows", () => {
  it("reads URL and instruction separated by a tab, skipping a header and blank lines", () => {
    const r = parsePastedRows("url\tinstruction\nhttps://a.example\tFind the price\n\n https://b.example \tSign in\tthen check\n");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(tasks(r.rows)).toEqual([
      { url: "https://a.example", instruction: "Find the price" },
      { url: "https://b.example", instruction: "Sign in\tthen check" },
    ]);
  });

  it("keeps a spreadsheet cell that holds a line break", () => {
    const r = parsePastedRows('https://a.example\t"Line one\nline two"\r\nhttps://b.example\tNext');
    expect(r.ok && tasks(r.rows)).toEqual([
      { url: "https://a.example", instruction: "Line one\nline two" },
      { url: "https://b.example", instruction: "Next" },
    ]);
  });

  it("reads every column a pasted header row names, as in a CSV file", () => {
    const pasted = [
      "url\tinstruction\tmaxSteps\ttimeoutMs\tinput.email\tnotes",
      "https://shop.example\tFind the cheapest item\t12\t60000\tme@example.com\tx",
      "https://b.example\tCheck the title\t\t\t\t",
    ].join("\n");
    const r = parsePastedRows(pasted);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.note).toBe("Columns not read: notes.");
    expect(tasks(r.rows)).toEqual([
      { url: "https://shop.example", instruction: "Find the cheapest item", input: { email: "me@example.com" }, timeoutMs: 60000, maxSteps: 12 },
      { url: "https://b.example", instruction: "Check the title" },
    ]);
    expect(parsePastedRows("url\tinstruction\tmaxSteps\n")).toEqual({ ok: false, message: "The pasted rows name their columns but hold no task. Nothing was added." });
  });

  it("refuses nothing to paste", () => {
    expect(parsePastedRows("\n\n")).toEqual({ ok: false, message: "Nothing to add: paste one task a line, its URL, a tab, then its instruction." });
  });
});

describe("CSV", () => {
  it("reads every documented column and input.<name> columns", () => {
    const csv = [
      "url,instruction,successCondition,timeoutMs,maxSteps,maxDurationSeconds,mode,output,input.email,input.password,notes",
      'https://shop.example, Find the cheapest item ,Shows a price,60000,12,90,extract,"{""type"":""object"",""properties"":{""price"":{""type"":""string""}}}",me@example.com,hunter2,x',
      "https://b.example,Check the title,,,,,,,,,",
    ].join("\n");
    const r = parseCsv(csv);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.note).toBe("Columns not read: notes.");
    expect(tasks(r.rows)).toEqual([
      {
        url: "https://shop.example",
        instruction: "Find the cheapest item",
        input: { email: "me@example.com", password: "hunter2" },
        output: { type: "object", properties: { price: { type: "string" } } },
        successCondition: "Shows a price",
        timeoutMs: 60000,
        maxSteps: 12,
        maxDurationSeconds: 90,
        mode: "extract",
      },
      { url: "https://b.example", instruction: "Check the title" },
    ]);
    // The schema is laid out for reading in its box.
    expect(r.rows[0]?.output).toBe('{\n  "type": "object",\n  "properties": {\n    "price": {\n      "type": "string"\n    }\n  }\n}');
  });

  it("accepts 1000 tasks and refuses 1001 with the count", () => {
    const ok = parseCsv(csvOf(1000));
    expect(ok.ok && ok.rows.length).toBe(1000);
    expect(ok.ok && rowToTask(ok.rows[999] as TaskRow)).toEqual({ url: "https://example.com/p/1000", instruction: "Read page 1000" });
    expect(parseCsv(csvOf(1001))).toEqual({
      ok: false,
      message: "This file has 1001 tasks; a batch holds at most 1000. Nothing was imported.",
    });
    expect(tooManyMessage(2500)).toBe("This file has 2500 tasks; a batch holds at most 1000. Nothing was imported.");
  });

  it("refuses a file without a url column", () => {
    expect(parseCsv("address,instruction\nhttps://a.example,x")).toEqual({
      ok: false,
      message: "This CSV file has no “url” column. Its first row must name the columns: url, instruction, and any of the others.",
    });
  });
});

describe("JSON", () => {
  it("reads an array of tasks and {tasks: [...]}", () => {
    const list = [
      { url: "https://a.example", instruction: "Read", output: { type: "object" }, maxSteps: 5, input: { q: "shoes" } },
      { url: "https://b.example" },
    ];
    const a = parseJsonTasks(JSON.stringify(list));
    const b = parseJsonTasks(JSON.stringify({ tasks: list }));
    const expected = [
      { url: "https://a.example", instruction: "Read", input: { q: "shoes" }, output: { type: "object" }, maxSteps: 5 },
      { url: "https://b.example" },
    ];
    expect(a.ok && tasks(a.rows)).toEqual(expected);
    expect(b.ok && tasks(b.rows)).toEqual(expected);
  });

  it("refuses 1001 tasks, a non-task item and other shapes, importing nothing", () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ url: `https://example.com/${i}` }));
    expect(parseJsonTasks(JSON.stringify({ tasks: many }))).toEqual({
      ok: false,
      message: "This file has 1001 tasks; a batch holds at most 1000. Nothing was imported.",
    });
    expect(parseJsonTasks('[{"url": "https://a.example"}, 3]')).toEqual({
      ok: false,
      message: "Item 2 of this file is not a task (an object with a “url”). Nothing was imported.",
    });
    expect(parseJsonTasks('{"items": []}')).toEqual({
      ok: false,
      message: "This JSON file holds no tasks: it must be an array of tasks, or an object with a “tasks” array.",
    });
    const broken = parseJsonTasks("[{");
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.message.startsWith("This file is not valid JSON (")).toBe(true);
  });

  it("picks the reader by the file's name", () => {
    const json = parseTaskFile("tasks.json", '\uFEFF[{"url": "https://a.example"}]');
    const csv = parseTaskFile("tasks.csv", "url\nhttps://b.example");
    expect(json.ok && tasks(json.rows)).toEqual([{ url: "https://a.example" }]);
    expect(csv.ok && tasks(csv.rows)).toEqual([{ url: "https://b.example" }]);
  });
});
