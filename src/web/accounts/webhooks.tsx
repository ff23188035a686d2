// Webhooks (in Settings): a chat channel (Discord-style) or a custom endpoint told about list,
// suggestion and deploy events; the custom one's signing secret is shown once, with how to check
// it; send a test and see the answer; the delivery log (status, attempts, next retry); re-enable
// one the service switched off after repeated failures.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api, get } from "../app/api";
import { dateTime } from "../app/format";
import type * as E from "../../features/events/model";
import { ConfirmButton, DataTable, ErrorMessage, Field, Notice, SelectField } from "../ui/components";
import { listQueries } from "../lists/lists.queries";
import { EVENT_LABELS } from "./components/event-labels";

type Webhook = z.infer<typeof E.webhookView>;
type Created = z.infer<typeof E.createdWebhookView>;
type Delivery = z.infer<typeof E.deliveryView>;
type TestResult = z.infer<typeof E.testResultView>;

const KINDS = Object.keys(EVENT_LABELS);

const hooks = (signal?: AbortSignal) => get<Webhook[]>("/settings/webhooks", signal);
const deliveries = (id: string, signal?: AbortSignal) => get<Delivery[]>(`/settings/webhooks/${id}/deliveries`, signal);

function CopyOnce({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="alert warn stack" role="status">
      <p style={{ margin: 0 }}>
        <strong>The signing secret, shown this once.</strong> Keep it with your receiver; it cannot be shown again (delete the webhook and create a new one to get a
        new secret).
      </p>
      <div className="row">
        <code className="mono break-anywhere" data-testid="webhook-secret">
          {secret}
        </code>
        <button type="button" className="btn secondary" onClick={() => navigator.clipboard.writeText(secret).then(() => setCopied(true), () => setCopied(false))}>
          {copied ? "Copied" : "Copy the secret"}
        </button>
      </div>
      <p className="small" style={{ margin: 0 }}>
        To verify a delivery (Standard Webhooks): the key is the secret without <code>whsec_</code>, base64-decoded; the signature is base64(HMAC-SHA256(key,{" "}
        <code>{"{webhook-id}.{webhook-timestamp}.{raw body}"}</code>)); compare it with the value after <code>v1,</code> in the <code>webhook-signature</code> header,
        and refuse timestamps more than five minutes old.
      </p>
    </div>
  );
}

function Deliveries({ hook }: { hook: Webhook }) {
  const log = useQuery({ queryKey: ["webhook-deliveries", hook.id], queryFn: ({ signal }) => deliveries(hook.id, signal) });
  if (log.error) return <ErrorMessage error={log.error} retry={() => log.refetch()} />;
  if (!log.data) return null;
  if (log.data.length === 0) return <p className="muted small">No delivery yet.</p>;
  return (
    <DataTable
      compact
      caption={`Deliveries of ${hook.name}, newest first`}
      rows={log.data}
      rowKey={(d) => d.id}
      columns={[
        { header: "When", cell: (d) => dateTime(d.created_at) },
        { header: "Event", cell: (d) => d.event },
        { header: "Attempt", num: true, cell: (d) => d.attempt },
        { header: "Answer", cell: (d) => (d.success ? `${d.response_status} ok` : <span className="error-text">{d.response_status ?? d.error ?? "failed"}</span>) },
        { header: "Next retry", cell: (d) => (d.next_retry_at ? dateTime(d.next_retry_at) : "–") },
      ]}
    />
  );
}

function HookCard({ hook }: { hook: Webhook }) {
  const qc = useQueryClient();
  const again = () => {
    void qc.invalidateQueries({ queryKey: ["webhooks"] });
    void qc.invalidateQueries({ queryKey: ["webhook-deliveries", hook.id] });
  };
  const test = useMutation({ mutationFn: () => api<TestResult>("POST", `/settings/webhooks/${hook.id}/test`), onSuccess: again });
  const enable = useMutation({ mutationFn: () => api<Webhook>("PUT", `/settings/webhooks/${hook.id}`, { body: { enabled: true } }), onSuccess: again });
  const remove = useMutation({ mutationFn: () => api<void>("DELETE", `/settings/webhooks/${hook.id}`), onSuccess: again });
  return (
    <li className="card stack">
      <div>
        <strong>{hook.name}</strong> <span className="muted small">({hook.type === "chat" ? "chat channel" : "custom, signed"})</span>
        <div className="muted small break-anywhere">{hook.url}</div>
        <div className="small">
          {hook.scope === "global" ? "All your lists" : "One list"} · {hook.events.length === KINDS.length ? "every event" : hook.events.map((e) => EVENT_LABELS[e] ?? e).join("; ")}
        </div>
      </div>
      {!hook.enabled && (
        <div className="alert warn row" role="status" style={{ alignItems: "center" }}>
          Switched off {hook.disabled_at ? dateTime(hook.disabled_at) : ""} after {hook.consecutive_failures} failed deliveries in a row.
          <button type="button" className="btn secondary" onClick={() => enable.mutate()} disabled={enable.isPending}>
            Turn it back on
          </button>
        </div>
      )}
      <div className="row">
        <button type="button" className="btn secondary" onClick={() => test.mutate()} disabled={test.isPending} aria-label={`Send a test to ${hook.name}`}>
          Send a test
        </button>
        <ConfirmButton question={`Delete the webhook ${hook.name}?`} label={`Delete webhook ${hook.name}`} onConfirm={() => remove.mutate()}>
          Delete
        </ConfirmButton>
      </div>
      {test.data && (
        <Notice kind={test.data.ok ? "ok" : "error"}>
          Test {test.data.ok ? "delivered" : "failed"}: {test.data.status !== null ? `the endpoint answered ${test.data.status}` : (test.data.error ?? "no answer")} in {test.data.duration_ms}{" "}
          ms.
        </Notice>
      )}
      <ErrorMessage error={test.error ?? enable.error ?? remove.error} />
      <details>
        <summary>Delivery log</summary>
        <Deliveries hook={hook} />
      </details>
    </li>
  );
}

export function Webhooks() {
  const qc = useQueryClient();
  const all = useQuery({ queryKey: ["webhooks"], queryFn: ({ signal }) => hooks(signal) });
  const lists = useQuery({ ...listQueries.mine() });
  const [form, setForm] = useState({ name: "", url: "", type: "custom" as "chat" | "custom", scope: "global" as "global" | "list", list_id: "" });
  const [events, setEvents] = useState<string[]>(KINDS);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      api<Created>("POST", "/settings/webhooks", {
        body: { name: form.name || undefined, url: form.url, type: form.type, scope: form.scope, list_id: form.scope === "list" ? form.list_id : null, events },
      }),
    onSuccess: (h) => {
      setSecret(h.secret ?? null);
      setForm({ ...form, name: "", url: "" });
      void qc.invalidateQueries({ queryKey: ["webhooks"] });
    },
  });
  return (
    <section className="card stack" aria-labelledby="hooks-h">
      <h2 id="hooks-h" style={{ marginTop: 0 }}>
        Webhooks
      </h2>
      <p className="muted">Tell a chat channel or your own service when your lists change, suggestions arrive or deployments finish.</p>
      {secret && <CopyOnce secret={secret} />}
      <ErrorMessage error={all.error} retry={() => all.refetch()} />
      {all.data && all.data.length === 0 && <p className="muted">No webhooks yet.</p>}
      {all.data && all.data.length > 0 && (
        <ul className="plain stack">
          {all.data.map((h) => (
            <HookCard key={h.id} hook={h} />
          ))}
        </ul>
      )}
      <form
        className="stack"
        aria-labelledby="new-hook-h"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h3 id="new-hook-h">New webhook</h3>
        <div className="row">
          <Field label="Webhook name" maxLength={100} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          <Field label="Endpoint URL" type="url" required value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} style={{ minWidth: "18rem" }} />
          <SelectField label="Kind" value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as "chat" | "custom" })}>
            <option value="custom">Custom (signed JSON)</option>
            <option value="chat">Chat channel (Discord webhook URL)</option>
          </SelectField>
          <SelectField label="For" value={form.scope} onChange={(e) => setForm({ ...form, scope: e.target.value as "global" | "list" })}>
            <option value="global">All my lists</option>
            <option value="list">One list</option>
          </SelectField>
          {form.scope === "list" && (
            <SelectField label="Which list" value={form.list_id} onChange={(e) => setForm({ ...form, list_id: e.target.value })} required>
              <option value="">Choose…</option>
              {(lists.data ?? []).map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </SelectField>
          )}
        </div>
        <fieldset className="grid" style={{ border: 0, padding: 0, margin: 0, gap: "0.25rem 1rem" }}>
          <legend className="small" style={{ fontWeight: 600 }}>
            Tell it when
          </legend>
          {KINDS.map((k) => (
            <label key={k} className="check">
              <input type="checkbox" checked={events.includes(k)} onChange={(e) => setEvents(e.target.checked ? [...events, k] : events.filter((x) => x !== k))} style={{ minHeight: 0 }} />
              {EVENT_LABELS[k]}
            </label>
          ))}
        </fieldset>
        <ErrorMessage error={create.error} />
        <div>
          <button type="submit" className="btn" disabled={create.isPending || events.length === 0}>
            Create webhook
          </button>
        </div>
      </form>
    </section>
  );
}
