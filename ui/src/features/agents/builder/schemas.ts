// Starter output schemas: the shapes most batches ask for.
export interface StarterSchema {
  id: string;
  label: string;
  schema: Record<string, unknown>;
}

export const STARTER_SCHEMAS: StarterSchema[] = [
  {
    id: "items",
    label: "List of items",
    schema: {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: { name: { type: "string" }, price: { type: "string" }, url: { type: "string" } },
            required: ["name", "price", "url"],
          },
        },
      },
      required: ["items"],
    },
  },
  {
    id: "check",
    label: "Yes/no check with evidence",
    schema: {
      type: "object",
      properties: { passed: { type: "boolean" }, evidence: { type: "string" } },
      required: ["passed", "evidence"],
    },
  },
  {
    id: "contact",
    label: "Contact record",
    schema: {
      type: "object",
      properties: {
        name: { type: "string" },
        email: { type: "string" },
        phone: { type: "string" },
        company: { type: "string" },
        address: { type: "string" },
      },
      required: ["name"],
    },
  },
];

/** A starter as it goes into the schema box. */
export function starterText(id: string): string {
  const s = STARTER_SCHEMAS.find((x) => x.id === id);
  return s ? JSON.stringify(s.schema, null, 2) : "";
}
