// The few shared components: buttons, labelled fields, messages, skeletons, empty states,
// a pager. Everything a person can act on is a real <button> or <a>; every field has a <label>.
import { useEffect, useId, useRef, useState, type ReactNode, type InputHTMLAttributes, type SelectHTMLAttributes } from "react";
import { Link } from "@tanstack/react-router";
import { ApiError, isRetryable } from "../app/api";

export function Field(
  props: { label: string; hint?: string; error?: string | null } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, hint, error, id, ...input } = props;
  const auto = useId();
  const fid = id ?? auto;
  const hintId = hint ? `${fid}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={fid}>{label}</label>
      <input id={fid} aria-describedby={hintId} aria-invalid={error ? true : undefined} {...input} />
      {hint && (
        <span className="hint" id={hintId}>
          {hint}
        </span>
      )}
    </div>
  );
}

export function SelectField(props: { label: string; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  const { label, children, id, ...select } = props;
  const auto = useId();
  const fid = id ?? auto;
  return (
    <div className="field">
      <label htmlFor={fid}>{label}</label>
      <select id={fid} {...select}>
        {children}
      </select>
    </div>
  );
}

/** The API's {error} text, where the action was taken; offline and 5xx say they can be retried. */
export function ErrorMessage({ error, retry }: { error: unknown; retry?: () => void }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const retryable = error instanceof ApiError && isRetryable(error);
  return (
    <div className="alert error" role="alert">
      {message}
      {retryable && retry && (
        <>
          {" "}
          <button type="button" className="btn link" onClick={retry}>
            Try again
          </button>
        </>
      )}
    </div>
  );
}

export function Notice({ kind = "info", children }: { kind?: "info" | "ok" | "warn" | "error"; children: ReactNode }) {
  return (
    <div className={`alert ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

export function Skeleton({ lines = 3, label = "Loading" }: { lines?: number; label?: string }) {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="sr-only">{label}…</span>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="skeleton" style={{ height: "1.1rem", margin: "0.5rem 0", width: `${90 - i * 12}%` }} />
      ))}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty card">
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      {children}
    </div>
  );
}

export function Pager({ page, pages, to }: { page: number; pages: number; to: (page: number) => ReactNode }) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? to(page - 1) : <span className="muted">Previous</span>}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? to(page + 1) : <span className="muted">Next</span>}
    </nav>
  );
}

export { Link };

/** A workshop image, or a neutral placeholder when it cannot load (offline, CDN unreachable). */
export function RemoteImage(props: { src: string | null | undefined; alt: string; width: number; height: number; className?: string; lazy?: boolean }) {
  const [failed, setFailed] = useState(false);
  if (!props.src || failed) return <div className={`thumb ${props.className ?? ""}`} role={props.alt ? "img" : undefined} aria-label={props.alt || undefined} aria-hidden={props.alt ? undefined : true} />;
  return (
    <img
      src={props.src}
      alt={props.alt}
      width={props.width}
      height={props.height}
      className={props.className}
      loading={props.lazy ? "lazy" : undefined}
      onError={() => setFailed(true)}
    />
  );
}

/** "Sign in to see …", returning here afterwards. */
export function SignInFirst({ next, what }: { next: string; what: string }) {
  return (
    <Notice>
      <Link to="/sign-in" search={{ next }}>
        Sign in
      </Link>{" "}
      to see {what}.
    </Notice>
  );
}

export interface Column<T> {
  header: string;
  /** Visually hidden header (an actions column). */
  hiddenHeader?: boolean;
  /** Right-aligned, tabular figures. */
  num?: boolean;
  cell: (row: T) => ReactNode;
}

/** A table that scrolls sideways inside its own box on narrow screens, with a caption for screen readers. */
/** A table of rows; with `empty`, no rows show that sentence instead of an empty table. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  compact,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty?: string;
  /** Under 600 px each row is a compact block, its cells labelled by their columns. */
  compact?: boolean;
}) {
  if (rows.length === 0 && empty !== undefined) return <p className="muted">{empty}</p>;
  return (
    <div className="table-wrap">
      <table className={compact ? "cards-sm" : undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.num ? "num" : undefined}>
                {c.hiddenHeader ? <span className="sr-only">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)}>
              {columns.map((c) => (
                <td key={c.header} className={c.num ? "num" : undefined} data-label={compact && !c.hiddenHeader ? c.header : undefined}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A button that asks once ("Revoke the key?") before a destructive action. */
export function ConfirmButton({
  question,
  onConfirm,
  children,
  className = "btn secondary",
  label,
  disabled,
}: {
  question: string;
  onConfirm: () => void;
  children: ReactNode;
  className?: string;
  /** Accessible name when the visible text is not enough ("Remove" of which row). */
  label?: string;
  disabled?: boolean;
}) {
  return (
    <button type="button" className={className} aria-label={label} disabled={disabled} onClick={() => confirm(question) && onConfirm()}>
      {children}
    </button>
  );
}

/**
 * The body of a long table, rendered in chunks of `chunk` rows as they come near the viewport
 * (one <tbody> per chunk; a chunk not yet shown is one empty row of its estimated height, so
 * the scrollbar is right from the start). A 1,000-row list opens and re-filters at the cost of
 * its first 100 rows; the rest mount while scrolling (bench/web-list.ts). `resetKey` changes
 * when the rows are re-filtered or re-sorted: only the first chunks stay mounted.
 */
export function ChunkedRows<T>({ rows, render, columns, resetKey, chunk = 50 }: { rows: T[]; render: (row: T) => ReactNode; columns: number; resetKey: string; chunk?: number }) {
  const [shown, setShown] = useState(() => new Set([0, 1]));
  const [rowHeight, setRowHeight] = useState(41);
  const refs = useRef<(HTMLTableSectionElement | null)[]>([]);
  const [lastKey, setLastKey] = useState(resetKey);
  if (lastKey !== resetKey) {
    setLastKey(resetKey);
    setShown(new Set([0, 1]));
  }
  const chunks = Math.ceil(rows.length / chunk);
  useEffect(() => {
    const first = refs.current[0];
    if (first && first.rows.length > 0) setRowHeight(Math.max(24, first.getBoundingClientRect().height / first.rows.length));
    if (typeof IntersectionObserver === "undefined") {
      setShown(new Set(Array.from({ length: chunks }, (_, i) => i)));
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        const near = entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset.chunk));
        if (near.length) setShown((s) => (near.every((n) => s.has(n)) ? s : new Set([...s, ...near])));
      },
      { rootMargin: "1200px 0px" },
    );
    for (const el of refs.current.slice(0, chunks)) if (el && el.dataset.placeholder) io.observe(el);
    return () => io.disconnect();
  }, [chunks, shown, resetKey]);
  const out: ReactNode[] = [];
  for (let c = 0; c < chunks; c++) {
    const part = rows.slice(c * chunk, (c + 1) * chunk);
    const ref = (el: HTMLTableSectionElement | null) => {
      refs.current[c] = el;
    };
    out.push(
      shown.has(c) ? (
        <tbody key={c} ref={ref} data-chunk={c}>
          {part.map(render)}
        </tbody>
      ) : (
        <tbody key={c} ref={ref} data-chunk={c} data-placeholder="1" aria-hidden="true">
          <tr style={{ height: part.length * rowHeight }}>
            <td colSpan={columns} />
          </tr>
        </tbody>
      ),
    );
  }
  return <>{out}</>;
}

/** A form in a card with its heading (the form is named by it): submitting never reloads the page. */
export function FormCard({ id, title, onSubmit, children, level = 2 }: { id: string; title: ReactNode; onSubmit: () => void; children: ReactNode; level?: 2 | 3 }) {
  const H = level === 2 ? "h2" : "h3";
  return (
    <form
      className="card stack"
      aria-labelledby={id}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <H id={id} style={{ marginTop: 0, marginBottom: 0 }}>
        {title}
      </H>
      {children}
    </form>
  );
}
