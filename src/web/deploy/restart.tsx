// The deploy loop on the server page (docs/deploy.md): a deploy that restarts its server shows its
// phases as they happen (writing, waiting for an empty server, restarting, verifying, rolling
// back), each step's state in words and a mark as well as colour (done, now, failed, skipped, to
// do), how long the current wait has run against its limit ("17 s of 10 min"), "Restart now
// instead" while it waits for players to leave, a rollback as failed and safe ("Rolled back: the
// server runs the previous mods"), a deploy that changed nothing as not restarted (with "Restart
// anyway"). Times in the reader's locale, UTC on hover (ui/time.tsx). Plus the restart settings.
import { useEffect, useState, type ReactNode } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { count, duration } from "../app/format";
import { ErrorMessage, Field, Notice, SelectField } from "../ui/components";
import { Time } from "../ui/time";
import { restartNow, type Deployment, type RestartMode, type Server } from "./my-servers.services";

export const RESTART_LABELS: Record<RestartMode, string> = {
  none: "Don't restart (the mods load at the next restart)",
  now: "Restart right away",
  when_empty: "Restart when the server is empty",
};
/** The same choices in a few words (the deploy box's "Then"). */
export const RESTART_SHORT: Record<RestartMode, string> = { none: "Don't restart", now: "Restart right away", when_empty: "Restart when empty" };

/** The current time, ticking every second while `on` (for "has waited …"). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [on]);
  return now;
}

/** How a step stands; each has its mark and its word, never colour alone. */
export type StepState = "done" | "current" | "failed" | "skipped" | "todo" | "safe";
const STATE_WORD: Record<StepState, string> = { done: "done", current: "now", failed: "failed", skipped: "skipped", todo: "to do", safe: "previous mods back" };
const STATE_MARK: Record<StepState, string> = { done: "✓", current: "●", failed: "✕", skipped: "–", todo: "○", safe: "↺" };

export interface Step {
  key: string;
  label: string;
  state: StepState;
  /** What the state word does not say: "17 s of 10 min", "not restarted". */
  note?: string;
}

/** A deploy's (or a test's) steps, each with its state in words beside its colour and mark. */
export function Steps({ label, steps }: { label: string; steps: Step[] }) {
  return (
    <ol className="steps" aria-label={label}>
      {steps.map((s) => (
        <li key={s.key} className={s.state} aria-current={s.state === "current" ? "step" : undefined}>
          <span className="step-mark" aria-hidden="true">
            {STATE_MARK[s.state]}
          </span>
          <span className="step-label">{s.label}</span>
          <span className="step-state">
            <span className="sr-only">: </span>
            {STATE_WORD[s.state]}
            {s.note ? ` · ${s.note}` : ""}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** "17 s of 10 min": how long a wait has run, against its limit. */
const seconds = (ms: number) => (ms < 1000 ? "0 s" : duration(Math.round(ms / 1000) * 1000));
const waitedOf = (ms: number, limitS: number | null | undefined) => `${seconds(ms)}${limitS ? ` of ${seconds(limitS * 1000)}` : ""}`;

/** A deploy that found the server's config already as it would write it, and did not restart. */
export const unchangedNotRestarted = (d: Deployment) => d.kind === "deploy" && d.status === "success" && d.config_unchanged && !d.restart_anyway;

/** A deploy that failed and was rolled back: the server answered again with its previous config. */
export const rolledBackSafely = (d: Deployment) => d.status === "failed" && d.rolled_back && d.rolled_back_at !== null;

function stepsOf(d: Deployment, now: number): Step[] {
  const rollback = d.rolled_back || d.phase === "rolling_back" || d.failed_phase === "rolling_back" || d.rollback_reason !== null;
  const base: { key: string; label: string }[] = [
    { key: "pending", label: "Queued" },
    { key: "writing", label: "Writing the config" },
    ...(d.restart === "when_empty" ? [{ key: "waiting_for_empty", label: "Waiting for an empty server" }] : []),
    { key: "restarting", label: "Restarting" },
    { key: "verifying", label: "Verifying" },
    ...(rollback ? [{ key: "rolling_back", label: "Rolling back" }] : []),
  ];
  const waited = d.phase_started_at ? now - Date.parse(d.phase_started_at) : 0;
  const limitOf = (key: string) => (key === "waiting_for_empty" ? (d.empty_wait_s ?? (d.wait_until && d.phase_started_at ? (Date.parse(d.wait_until) - Date.parse(d.phase_started_at)) / 1000 : null)) : key === "verifying" || key === "rolling_back" ? d.verify_timeout_s : null);
  if (d.status === "pending" || d.status === "running") {
    const key = d.status === "pending" ? "pending" : (d.phase ?? "writing");
    const at = base.findIndex((s) => s.key === key);
    return [
      ...base.map((s, i): Step => {
        // Rolling back: the new config did not come back in time.
        if (key === "rolling_back" && s.key === "verifying") return { ...s, state: "failed", note: "not back in time" };
        if (i < at) return { ...s, state: "done" };
        if (i === at) return { ...s, state: "current", note: limitOf(s.key) !== null || s.key === "waiting_for_empty" ? waitedOf(waited, limitOf(s.key)) : undefined };
        return { ...s, state: "todo" };
      }),
      { key: "done", label: "Verified", state: "todo" },
    ];
  }
  if (d.status === "success") {
    if (unchangedNotRestarted(d))
      return [
        ...base.map((s): Step => (s.key === "pending" ? { ...s, state: "done" } : s.key === "writing" ? { ...s, state: "done", note: "nothing to change" } : { ...s, state: "skipped" })),
        { key: "done", label: "Not restarted", state: "done", note: "nothing changed" },
      ];
    return [
      ...base.map((s): Step => (s.key === "waiting_for_empty" && d.wait_ended === "timeout" ? { ...s, state: "done", note: "players still on: restarted anyway" } : { ...s, state: "done" })),
      { key: "done", label: d.verified_at ? "Verified" : "Done", state: "done" },
    ];
  }
  // Failed: where it failed, what came after.
  const failedAt = base.findIndex((s) => s.key === (d.failed_phase ?? "writing"));
  const safe = rolledBackSafely(d);
  return [
    ...base.map((s, i): Step => {
      if (s.key === "rolling_back") return safe ? { ...s, state: "done" } : { ...s, state: "failed" };
      if (d.failed_phase === "rolling_back" && s.key === "verifying") return { ...s, state: "failed", note: "not back in time" };
      if (i < failedAt) return { ...s, state: "done" };
      if (i === failedAt) return { ...s, state: "failed", note: s.key === "verifying" ? "not back in time" : undefined };
      return { ...s, state: "skipped" };
    }),
    safe ? { key: "done", label: "Rolled back", state: "safe" } : { key: "done", label: "Failed", state: "failed" },
  ];
}

/** Where a deploy with a restart stands: its phases, what it waits for and for how long. */
export function RestartProgress({ d, serverId, restartAnyway }: { d: Deployment; serverId: string; restartAnyway?: ReactNode }) {
  const active = d.status === "pending" || d.status === "running";
  const now = useNow(active);
  const qc = useQueryClient();
  const cut = useMutation({
    mutationFn: () => restartNow(serverId, d.id),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["deployments", serverId] }),
  });
  const waited = d.phase_started_at ? now - Date.parse(d.phase_started_at) : 0;
  return (
    <div className="stack">
      <Steps label="Deployment progress" steps={stepsOf(d, now)} />
      {d.phase === "waiting_for_empty" && active && (
        <div className="alert info row" role="status">
          <span>
            Waiting for the server to empty{d.verify_note ? `: ${d.verify_note}` : ""}. Waited {waitedOf(waited, d.empty_wait_s)}
            {d.wait_until ? (
              <>
                ; restarts anyway at <Time iso={d.wait_until} />
              </>
            ) : (
              ""
            )}
            .
          </span>
          <button type="button" className="btn secondary" onClick={() => cut.mutate()} disabled={cut.isPending}>
            Restart now instead
          </button>
        </div>
      )}
      {d.phase === "restarting" && active && <Notice>Restarting the server{d.verify_note ? ` (${d.verify_note})` : ""}…</Notice>}
      {d.phase === "verifying" && active && (
        <Notice>
          Restarted{d.restarted_at ? (
            <>
              {" "}at <Time iso={d.restarted_at} />
            </>
          ) : (
            ""
          )}
          . Waiting for it to answer: {waitedOf(waited, d.verify_timeout_s)}
          {d.verify_note ? ` (${d.verify_note})` : ""}; it is rolled back if it does not answer in time.
        </Notice>
      )}
      {d.phase === "rolling_back" && active && (
        <Notice kind="error">
          The server did not come back in time: putting the previous config back and restarting it. {waitedOf(waited, d.verify_timeout_s)}
          {d.verify_note ? ` (${d.verify_note})` : ""}.
        </Notice>
      )}
      <ErrorMessage error={cut.error} />
      {d.status === "success" && unchangedNotRestarted(d) && (
        <div className="alert ok row" role="status">
          <span>
            <strong>Nothing changed on the server: not restarted.</strong> Its config already had these {count(d.item_count ?? 0, "mod")}, so nothing was written and the players
            stayed on.
          </span>
          {restartAnyway}
        </div>
      )}
      {d.status === "success" && !unchangedNotRestarted(d) && (
        <Notice kind="ok">
          {d.config_unchanged ? "Nothing changed in the config" : `Deployed ${count(d.item_count ?? 0, "mod")}`}
          {d.restarted_at ? (
            <>
              ; the server {d.config_unchanged ? "was restarted anyway" : "restarted"} at <Time iso={d.restarted_at} />
            </>
          ) : (
            ""
          )}
          {d.verified_at ? (
            <>
              {" "}and answered again at <Time iso={d.verified_at} /> (verified)
            </>
          ) : (
            ""
          )}
          {d.wait_ended === "timeout" ? ". Players were still on when the wait ran out; it restarted anyway" : ""}.
        </Notice>
      )}
      {rolledBackSafely(d) && (
        <div className="alert error" role="alert">
          <strong>Rolled back: the server runs the previous mods.</strong> The deploy failed and nothing of it stayed: {d.rollback_reason ?? "the server did not come back"}; the
          previous config was put back and the server answered again at <Time iso={d.rolled_back_at} />.
        </div>
      )}
      {d.status === "failed" && !rolledBackSafely(d) && (
        <div className="alert error" role="alert">
          <strong>Failed:</strong> {d.error_message ?? "failed"}
        </div>
      )}
      {d.restart_output !== null && (
        <details>
          <summary>
            Restart command output (exit status {d.restart_exit_status ?? "none"})
          </summary>
          <pre className="mono small break-anywhere">{d.restart_output || "(no output)"}</pre>
        </details>
      )}
      {d.previous_config !== null && (
        <details>
          <summary>The previous config (to restore by hand)</summary>
          <pre className="mono small break-anywhere">{d.previous_config}</pre>
        </details>
      )}
      {d.new_config !== null && (
        <details>
          <summary>The config this deploy wrote</summary>
          <pre className="mono small break-anywhere">{d.new_config}</pre>
        </details>
      )}
    </div>
  );
}

/** One line of the history for a deploy: what became of its restart (null: nothing to say). */
export function restartResult(d: Deployment): ReactNode {
  if (d.kind !== "deploy") return null;
  if (unchangedNotRestarted(d)) return "nothing changed on the server: not restarted";
  if (d.restart === "none") return null;
  if (d.status === "success")
    return d.verified_at ? (
      <span>
        {d.config_unchanged ? "restarted anyway" : "restarted"}, verified <Time iso={d.verified_at} />
      </span>
    ) : (
      "restarted"
    );
  if (d.status === "running" && d.phase) return d.phase.replace(/_/g, " ");
  return null;
}

export type RestartSettings = Pick<Server, "restart" | "empty_wait_s" | "verify_timeout_s" | "restart_command" | "query_address">;

/** The restart fields of the settings form. */
export function RestartFields({ type, value, onChange }: { type: Server["connection_type"]; value: RestartSettings; onChange: (v: RestartSettings) => void }) {
  return (
    <>
      <SelectField label="After a deploy" value={value.restart} onChange={(e) => onChange({ ...value, restart: e.target.value as RestartMode })}>
        {(Object.keys(RESTART_LABELS) as RestartMode[]).map((m) => (
          <option key={m} value={m}>
            {RESTART_LABELS[m]}
          </option>
        ))}
      </SelectField>
      {value.restart === "when_empty" && (
        <Field
          label="Longest wait for an empty server (seconds)"
          type="number"
          min={0}
          max={86400}
          value={value.empty_wait_s}
          onChange={(e) => onChange({ ...value, empty_wait_s: Number(e.target.value) })}
          hint="Then it restarts anyway and says so."
        />
      )}
      <Field
        label="Time to come back (seconds)"
        type="number"
        min={10}
        max={3600}
        value={value.verify_timeout_s}
        onChange={(e) => onChange({ ...value, verify_timeout_s: Number(e.target.value) })}
        hint="Not answering by then: the previous config is put back."
      />
      <Field
        label="Query address"
        value={value.query_address ?? ""}
        placeholder={type === "sftp" ? "the SFTP host, port 17777" : "host:17777"}
        onChange={(e) => onChange({ ...value, query_address: e.target.value.trim() === "" ? null : e.target.value })}
        hint="Where the server answers A2S queries (player count, and the check after a restart)."
      />
      {type === "sftp" && (
        <Field
          label="Restart command"
          value={value.restart_command ?? ""}
          placeholder="systemctl restart reforger"
          onChange={(e) => onChange({ ...value, restart_command: e.target.value === "" ? null : e.target.value })}
          hint="Run over SSH exactly as written."
        />
      )}
    </>
  );
}
