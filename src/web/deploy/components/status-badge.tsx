/** A deploy's or a connection test's last status as a badge ("never" when there is none). */
export function StatusBadge({ status }: { status: string | null }) {
  if (!status) return <span className="muted">never</span>;
  const kind = status === "success" ? "ok" : status === "failed" ? "warn" : "";
  return <span className={`badge ${kind}`}>{status === "pending" ? "queued" : status}</span>;
}
