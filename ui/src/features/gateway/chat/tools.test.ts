import { describe, expect, it } from "vitest";
import { TOOLS_EXAMPLE, checkTools } from "./tools";

describe("checkTools", () => {
  it("accepts the example and an empty editor", () => {
    expect(checkTools(TOOLS_EXAMPLE).tools.map((t) => t.name)).toEqual(["get_weather"]);
    expect(checkTools("  ")).toEqual({ tools: [], problems: [] });
  });

  it("says what is wrong, tool by tool", () => {
    expect(checkTools("{").problems[0]).toMatch(/^This is not valid JSON: /);
    expect(checkTools('{"name": "x"}').problems).toEqual(['Write a JSON array of tools: [ { "name": …, "description": …, "input_schema": { … } } ].']);
    expect(
      checkTools(JSON.stringify([{ name: "get weather", description: "", input_schema: { type: "object" } }, 3, { name: "a", description: "d", input_schema: [] }, { name: "a", description: "d", input_schema: { type: "string" } }])).problems,
    ).toEqual([
      'Tool 1: "name" must be 1 to 64 letters, digits, _ or -.',
      'Tool 1: add a "description" saying when the model should use it.',
      "Tool 2 is not an object.",
      'Tool 3: "input_schema" must be a JSON Schema object.',
      'Tool 4: the name "a" is used twice.',
      'Tool 4: "input_schema" needs "type": "object".',
    ]);
  });
});
