// A finished task's data checked against the output schema it was sent with (`check_task_data`,
// the same JSON Schema checker as the submission's), each failing place named by its path.
import { useQuery } from "@tanstack/react-query";
import type { JsonValue } from "../../../bindings/serde_json/JsonValue";
import { call, toIpcError } from "../../../ipc/invoke";

export function DataCheck({ schema, data }: { schema: unknown; data: JsonValue | null | undefined }) {
  const check = useQuery({
    queryKey: ["check_task_data", JSON.stringify(schema), JSON.stringify(data ?? null)],
    queryFn: () => call("check_task_data", { schema, data: data ?? null }),
    retry: false,
    staleTime: Infinity,
  });
  if (check.isPending) return <p className="muted">Checking the data against the task's schema…</p>;
  if (check.isError) return <p className="warn-text">The data could not be checked: {toIpcError(check.error).message}</p>;
  if (check.data.length === 0) {
    return (
      <p className="data-check" data-ok="true">
        <span aria-hidden="true">✓ </span>Matches the task's output schema.
      </p>
    );
  }
  return (
    <div className="data-check" data-ok="false" role="group" aria-label="Does not match the schema">
      <p>
        <strong>Does not match the task's output schema</strong> ({check.data.length === 1 ? "1 place" : `${check.data.length} places`}):
      </p>
      <ul>
        {check.data.map((p, i) => (
          <li key={i}>
            <code>{p.path || "(the whole data)"}</code> — {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
