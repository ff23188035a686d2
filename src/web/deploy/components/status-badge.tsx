/**
 * A deploy's or a connection test's status as a badge ("never" when there is none): its word and
 * colour agree (failed and rolled back red, success green, queued and running neutral). A deploy
 * that was rolled back failed, safely: "rolled back", red, never an amber warning.
 */
export function StatusBadge({ status, rolledBack = false }: { status: string | null; rolledBack?: boolean }) {
  if (!status) return <span className="muted">never</span>;
  const kind = status === "success" ? "ok" : status === "failed" ? "error" : "";
  return <span className={`badge ${kind}`}>{rolledBack ? "rolled back" : status === "pending" ? "queued" : status}</span>;
}
