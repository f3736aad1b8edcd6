// The Models tab: one browser over the public catalog and the connection's authed catalog
// (audio models, prices): search, lab, type, input and output modality, context length, newest
// first; then the image and video models with their prices. Offline, the copies kept on this
// computer, with their age. The model chosen in the list is the route's (`#/gateway/models?model=`):
// marked, scrolled to, and shown even when the filters would hide it.
import { useEffect, useMemo, useRef, useState } from "react";
import { useNavigate } from "../../../lib/nav";
import type { CatalogModel } from "../../../bindings/CatalogModel";
import { ErrorPanel } from "../../../components/ErrorPanel";
import { toIpcError } from "../../../ipc/invoke";
import { formatDateTime, plural } from "../../../lib/format";
import { NO_FILTERS, catalogDate, filterModels, formatContext, formatCreated, labOf, labsOf, mergeCatalogs, priceLabel, valuesOf, type CatalogFilters } from "./catalog";
import { OfflineNote } from "./OfflineNote";
import { useGatewayModels, useImageModels, usePublicCatalog, useVideoModels } from "./queries";
import "./models.css";

const CONTEXTS = [
  { value: 0, label: "Any length" },
  { value: 32_000, label: "32K or more" },
  { value: 128_000, label: "128K or more" },
  { value: 200_000, label: "200K or more" },
  { value: 1_000_000, label: "1M or more" },
];

export function ModelCatalog({ model }: { model?: string }) {
  const navigate = useNavigate();
  const pub = usePublicCatalog();
  const authed = useGatewayModels();
  const images = useImageModels();
  const videos = useVideoModels();
  const [filters, setFilters] = useState<CatalogFilters>(NO_FILTERS);
  const all = useMemo(() => mergeCatalogs(pub.data?.list.data, authed.data?.list.data), [pub.data, authed.data]);
  const filtered = useMemo(() => filterModels(all, filters), [all, filters]);
  // The chosen model stays in the list, even when the filters leave it out.
  const chosen = model ? all.find((m) => m.id === model) : undefined;
  const shown = useMemo(() => (chosen && !filtered.includes(chosen) ? [chosen, ...filtered] : filtered), [chosen, filtered]);
  const set = (patch: Partial<CatalogFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const updated = catalogDate(pub.data?.list.updated_at);

  if (pub.isPending && authed.isPending) return <p className="skeleton">Loading the model catalog…</p>;
  if (pub.isError && authed.isError) {
    return <ErrorPanel error={toIpcError(pub.error)} onRetry={() => void pub.refetch()} level={2} />;
  }
  return (
    <div className="model-catalog">
      <section aria-labelledby="models-title">
        <div className="section-head">
          <h2 id="models-title">Models</h2>
          <p className="muted catalog-age">
            {updated ? `Catalog updated ${formatDateTime(updated.toISOString())}` : "Catalog date not given"}
            {authed.isError ? " · public list only (no prices)" : ""}
          </p>
        </div>
        <OfflineNote sources={[pub.data, authed.data, images.data, videos.data]} />
        {authed.isError && (
          <>
            <p className="muted">Prices and audio models need the connection&rsquo;s catalog, which could not be read:</p>
            <ErrorPanel error={toIpcError(authed.error)} onRetry={() => void authed.refetch()} />
          </>
        )}
        <form className="catalog-filters" role="search" aria-label="Filter models" onSubmit={(e) => e.preventDefault()}>
          <div className="field grow">
            <label htmlFor="model-search">Search models</label>
            <input id="model-search" className="input" type="search" value={filters.search} onChange={(e) => set({ search: e.target.value })} placeholder="claude, gpt, veo…" />
          </div>
          <Choice id="model-lab" label="Lab" value={filters.lab} onChange={(lab) => set({ lab })} options={labsOf(all).map((l) => ({ value: l.id, label: `${l.id} (${l.count})` }))} any="Every lab" />
          <Choice id="model-type" label="Type" value={filters.type} onChange={(type) => set({ type })} options={valuesOf(all, "type").map((v) => ({ value: v, label: v }))} any="Every type" />
          <Choice id="model-input" label="Reads" value={filters.input} onChange={(input) => set({ input })} options={valuesOf(all, "input").map((v) => ({ value: v, label: v }))} any="Any input" />
          <Choice id="model-output" label="Writes" value={filters.output} onChange={(output) => set({ output })} options={valuesOf(all, "output").map((v) => ({ value: v, label: v }))} any="Any output" />
          <div className="field">
            <label htmlFor="model-context">Context length</label>
            <select id="model-context" className="select" value={filters.minContext} onChange={(e) => set({ minContext: Number(e.target.value) })}>
              {CONTEXTS.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
        </form>
        <p className="muted" aria-live="polite">
          {shown.length === all.length ? plural(all.length, "model") : `${plural(shown.length, "model")} of ${all.length}`}, newest first
        </p>
        {shown.length === 0 ? (
          <div className="empty">
            <p>No model matches these filters.</p>
            <button className="btn" type="button" onClick={() => setFilters(NO_FILTERS)}>
              Clear the filters
            </button>
          </div>
        ) : (
          <ModelTable
            label="Models"
            rows={shown}
            priced={!!authed.data}
            current={model}
            onChoose={(id) => navigate({ area: "gateway", studio: "models", model: id }, { replace: true })}
          />
        )}
      </section>
      <PricedList title="Image models" query={images} />
      <PricedList title="Video models" query={videos} />
    </div>
  );
}

function Choice({ id, label, value, onChange, options, any }: { id: string; label: string; value: string; onChange: (v: string) => void; options: { value: string; label: string }[]; any: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function ModelTable({
  label,
  rows,
  priced = false,
  current,
  onChoose,
}: {
  label: string;
  rows: CatalogModel[];
  priced?: boolean;
  /** The model chosen (marked and scrolled to), and how a click chooses one. */
  current?: string;
  onChoose?: (id: string) => void;
}) {
  const currentRow = useRef<HTMLTableRowElement>(null);
  const found = !!current && rows.some((m) => m.id === current);
  useEffect(() => {
    if (found) currentRow.current?.scrollIntoView?.({ block: "center" });
  }, [current, found]);
  return (
    <div className="table-wrap">
      <table className="data-table model-table" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Lab</th>
            <th scope="col">Type</th>
            <th scope="col">Reads</th>
            <th scope="col">Writes</th>
            <th scope="col" className="num">
              Context
            </th>
            <th scope="col">Added</th>
            {priced && <th scope="col">Price</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => (
            <tr key={m.id} ref={m.id === current ? currentRow : undefined} aria-current={m.id === current ? "true" : undefined} className={m.id === current ? "row-current" : undefined}>
              <td>
                {onChoose ? (
                  <button className="link-button model-name" type="button" onClick={() => onChoose(m.id)}>
                    {m.name || m.id}
                  </button>
                ) : (
                  <span className="model-name">{m.name || m.id}</span>
                )}
                <span className="mono model-id">{m.id}</span>
              </td>
              <td>{labOf(m)}</td>
              <td>{m.type ?? "—"}</td>
              <td>{m.input.join(", ") || "—"}</td>
              <td>{m.output.join(", ") || "—"}</td>
              <td className="num">{formatContext(m.context_length)}</td>
              <td className="nowrap">{formatCreated(m.created)}</td>
              {priced && <td className="nowrap">{priceLabel(m) || "—"}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PricedList({ title, query }: { title: string; query: ReturnType<typeof useImageModels> }) {
  const id = `models-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="priced-list">
      <h2 id={id}>{title}</h2>
      {query.isPending ? (
        <p className="skeleton">Loading…</p>
      ) : query.isError ? (
        <ErrorPanel error={toIpcError(query.error)} onRetry={() => void query.refetch()} />
      ) : query.data.list.data.length === 0 ? (
        <p className="muted">None offered.</p>
      ) : (
        <ModelTable label={title} rows={[...query.data.list.data].sort((a, b) => (b.created ?? -1) - (a.created ?? -1))} priced />
      )}
    </section>
  );
}
