// The Items tab: the vehicles, weapons and gear of one version (read from the mod's packed files
// when a server running it is scanned), and what changed between two versions. The versions
// shown are in the URL (`version`, `from`, `to`).
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { count } from "../../app/format";
import { Empty, ErrorMessage, Notice, SelectField, Skeleton } from "../../ui/components";
import { modDiff, modItems, modItemVersions } from "../catalog.services";
import type { ModTabProps } from "./tab";

export default function Items({ id }: ModTabProps) {
  const { version, from, to } = useSearch({ from: "/mods/$id" });
  const navigate = useNavigate({ from: "/mods/$id" });
  const versions = useQuery({ queryKey: ["mod-item-versions", id], queryFn: ({ signal }) => modItemVersions(id, signal) });
  const items = useQuery({ queryKey: ["mod-items", id, version ?? ""], queryFn: ({ signal }) => modItems(id, version, signal) });
  const diff = useQuery({ queryKey: ["mod-diff", id, from, to], queryFn: ({ signal }) => modDiff(id, from!, to!, signal), enabled: !!from && !!to && from !== to });
  if (versions.isLoading || items.isLoading) return <Skeleton />;
  const err = versions.error ?? items.error;
  if (err) return <ErrorMessage error={err} retry={() => void items.refetch()} />;
  const vs = versions.data!;
  if (vs.length === 0)
    return (
      <Empty title="No item data yet">
        <p>Items are read from the mod's packed files when a server that runs it is scanned. None has been yet for this mod.</p>
      </Empty>
    );
  const shown = items.data!;
  const byType = (t: string) => shown.items.filter((x) => x.type === t);
  return (
    <section className="stack" aria-label="Items">
      <div className="row">
        <SelectField label="Version" value={shown.version ?? ""} onChange={(e) => navigate({ search: (s) => ({ ...s, version: e.target.value }) })}>
          {vs.map((v) => (
            <option key={v.version} value={v.version}>
              {v.version} ({count(v.item_count, "item")})
            </option>
          ))}
        </SelectField>
      </div>
      {(["vehicle", "weapon", "gear"] as const).map((t) => (
        <div key={t}>
          <h2 className="h3">
            {t === "vehicle" ? "Vehicles" : t === "weapon" ? "Weapons" : "Gear"} ({byType(t).length})
          </h2>
          {byType(t).length === 0 ? (
            <p className="muted small">None.</p>
          ) : (
            <ul className="small">
              {byType(t).map((x) => (
                <li key={x.path}>
                  {x.name} <code className="muted">{x.path}</code>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
      <div className="card stack">
        <h2 className="h3" style={{ marginTop: 0 }}>
          Compare two versions
        </h2>
        <div className="row">
          <VersionSelect label="From" versions={vs} value={from} onChange={(v) => navigate({ search: (s) => ({ ...s, from: v }) })} />
          <VersionSelect label="To" versions={vs} value={to} onChange={(v) => navigate({ search: (s) => ({ ...s, to: v }) })} />
        </div>
        <ErrorMessage error={diff.error} />
        {diff.data && (!diff.data.items_known.from || !diff.data.items_known.to) && (
          <Notice>No item data yet for version {!diff.data.items_known.from ? diff.data.from : diff.data.to}: nothing to compare.</Notice>
        )}
        {diff.data && diff.data.items_known.from && diff.data.items_known.to && (
          <div aria-live="polite">
            <p>
              <span className="added">{diff.data.added.length} added</span>, <span className="removed">{diff.data.removed.length} removed</span>,{" "}
              {diff.data.changed.length} changed.
            </p>
            <ul className="small">
              {diff.data.added.map((x) => (
                <li key={`a${x.path}`} className="added">
                  + {x.name} <code>{x.path}</code>
                </li>
              ))}
              {diff.data.removed.map((x) => (
                <li key={`r${x.path}`} className="removed">
                  − {x.name} <code>{x.path}</code>
                </li>
              ))}
              {diff.data.changed.map((x) => (
                <li key={`c${x.to.path}`}>
                  ~ {x.from.name} → {x.to.name}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}

function VersionSelect({ label, versions, value, onChange }: { label: string; versions: { version: string }[]; value?: string; onChange: (v: string | undefined) => void }) {
  return (
    <SelectField label={label} value={value ?? ""} onChange={(e) => onChange(e.target.value || undefined)}>
      <option value="">Choose</option>
      {versions.map((v) => (
        <option key={v.version} value={v.version}>
          {v.version}
        </option>
      ))}
    </SelectField>
  );
}
