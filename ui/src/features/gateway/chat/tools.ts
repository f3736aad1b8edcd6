// The tool definitions editor's check: a JSON array of {name, description, input_schema}, with
// every problem said plainly (where it is and what to write), before anything is sent.
import type { Tool } from "../../../bindings/Tool";

export interface ToolsCheck {
  tools: Tool[];
  problems: string[];
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function checkTools(text: string): ToolsCheck {
  if (!text.trim()) return { tools: [], problems: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { tools: [], problems: [`This is not valid JSON: ${e instanceof Error ? e.message : String(e)}.`] };
  }
  if (!Array.isArray(value)) return { tools: [], problems: ["Write a JSON array of tools: [ { \"name\": …, \"description\": …, \"input_schema\": { … } } ]."] };
  const problems: string[] = [];
  const names = new Set<string>();
  value.forEach((t: unknown, i) => {
    const where = `Tool ${i + 1}`;
    if (!t || typeof t !== "object" || Array.isArray(t)) {
      problems.push(`${where} is not an object.`);
      return;
    }
    const o = t as Record<string, unknown>;
    if (typeof o.name !== "string" || !NAME.test(o.name)) {
      problems.push(`${where}: "name" must be 1 to 64 letters, digits, _ or -.`);
    } else if (names.has(o.name)) {
      problems.push(`${where}: the name "${o.name}" is used twice.`);
    } else {
      names.add(o.name);
    }
    if (typeof o.description !== "string" || !o.description.trim()) problems.push(`${where}: add a "description" saying when the model should use it.`);
    const schema = o.input_schema;
    if (!schema || typeof schema !== "object" || Array.isArray(schema)) {
      problems.push(`${where}: "input_schema" must be a JSON Schema object.`);
    } else if ((schema as Record<string, unknown>).type !== "object") {
      problems.push(`${where}: "input_schema" needs "type": "object".`);
    }
  });
  return problems.length ? { tools: [], problems } : { tools: value as Tool[], problems: [] };
}

export const TOOLS_EXAMPLE = `[
  {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "input_schema": {
      "type": "object",
      "properties": { "city": { "type": "string" } },
      "required": ["city"]
    }
  }
]`;
