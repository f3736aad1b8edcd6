// A task's `data`: a collapsible tree (native details/summary, keyboard ready), and a table when
// it is a list of like records.
import { useState } from "react";
import type { JsonValue } from "../../../bindings/serde_json/JsonValue";
import { cellText, isRecord, tableColumns } from "./dataTable";

/** Rows a table shows at most (the tree and the exports have them all). */
export const TABLE_MAX_ROWS = 500;

function summaryOf(v: JsonValue): string {
  if (Array.isArray(v)) return `[${v.length} ${v.length === 1 ? "item" : "items"}]`;
  if (isRecord(v)) {
    const n = Object.keys(v).length;
    return `{${n} ${n === 1 ? "field" : "fields"}}`;
  }
  return "";
}

function Leaf({ value }: { value: JsonValue }) {
  const kind = value === null ? "null" : typeof value;
  return (
    <span className="tree-value" data-kind={kind}>
      {typeof value === "string" ? `“${value}”` : String(value)}
    </span>
  );
}

function Node({ name, value, depth }: { name: string; value: JsonValue; depth: number }) {
  if (value === null || typeof value !== "object") {
    return (
      <li className="tree-leaf">
        <span className="tree-key">{name}</span>: <Leaf value={value} />
      </li>
    );
  }
  const entries: [string, JsonValue][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value).filter((e): e is [string, JsonValue] => e[1] !== undefined);
  return (
    <li>
      <details open={depth < 2}>
        <summary>
          <span className="tree-key">{name}</span> <span className="muted">{summaryOf(value)}</span>
        </summary>
        <ul className="tree">
          {entries.map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} />
          ))}
        </ul>
      </details>
    </li>
  );
}

export function DataTree({ data }: { data: JsonValue }) {
  return (
    <ul className="tree tree-root" aria-label="Data as a tree">
      <Node name="data" value={data} depth={0} />
    </ul>
  );
}

export function DataTable({ data, columns }: { data: JsonValue[]; columns: string[] }) {
  const rows = data.slice(0, TABLE_MAX_ROWS);
  return (
    <>
      <div className="table-wrap data-scroll">
        <table className="data-table">
          <caption className="visually-hidden">Data as a table, {data.length} rows</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                <td className="num">{i + 1}</td>
                {columns.map((c) => (
                  <td key={c}>{isRecord(r) ? cellText(r[c]) : ""}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.length > rows.length && (
        <p className="muted">
          The first {TABLE_MAX_ROWS} of {data.length} rows; the tree and the exports have them all.
        </p>
      )}
    </>
  );
}

export function DataView({ data }: { data: JsonValue | null | undefined }) {
  const columns = tableColumns(data);
  const [view, setView] = useState<"table" | "tree">("table");
  if (data === undefined || data === null) return <p className="muted">No data was returned.</p>;
  return (
    <div className="data-view">
      {columns && (
        <div className="row data-switch" role="group" aria-label="Show the data as">
          <button className="btn btn-small" type="button" aria-pressed={view === "table"} onClick={() => setView("table")}>
            Table
          </button>
          <button className="btn btn-small" type="button" aria-pressed={view === "tree"} onClick={() => setView("tree")}>
            Tree
          </button>
        </div>
      )}
      {columns !== null && view === "table" && Array.isArray(data) ? <DataTable data={data} columns={columns} /> : <DataTree data={data} />}
    </div>
  );
}
