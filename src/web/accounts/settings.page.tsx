// Settings: display name, password (with the current one; other sessions signed out), API keys
// (shown once, copy, revoke), webhooks, account deletion.
import { useState } from "react";
import { useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { clearToken, getToken, setToken } from "../app/auth-store";
import { dateTime } from "../app/format";
import { useSession } from "../app/session";
import { ConfirmButton, DataTable, ErrorMessage, Field, Notice, SignInFirst, Skeleton, FormCard } from "../ui/components";
import { changePassword, createKey, deleteAccount, listKeys, revokeKey, setDisplayName } from "./accounts.services";
import { Webhooks } from "./webhooks";

const CONFIRM = "delete my account";

export function SettingsPage() {
  const { me, token, loading } = useSession();
  if (!token) return <SignInFirst next="/settings" what="your settings" />;
  if (loading || !me) return <Skeleton />;
  return (
    <div className="stack">
      <h1>Settings</h1>
      <p className="muted">
        Signed in as {me.display_name}
        {me.email ? ` (${me.email})` : ""}.
      </p>
      <DisplayName current={me.display_name} />
      <Password />
      <ApiKeys />
      <Webhooks />
      <DeleteAccount />
    </div>
  );
}

function DisplayName({ current }: { current: string }) {
  const qc = useQueryClient();
  const [name, setName] = useState(current);
  const save = useMutation({ mutationFn: () => setDisplayName(name), onSuccess: () => qc.invalidateQueries({ queryKey: ["me"] }) });
  return (
    <FormCard id="dn-h" title="Display name" onSubmit={() => save.mutate()}>
      <Field label="Display name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      <ErrorMessage error={save.error} />
      {save.isSuccess && <Notice kind="ok">Saved.</Notice>}
      <div>
        <button className="btn" type="submit" disabled={save.isPending}>
          Save name
        </button>
      </div>
    </FormCard>
  );
}

/** The password, changed with the current one; the new token the API answers becomes this session's. */
function Password() {
  const qc = useQueryClient();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const change = useMutation({
    mutationFn: () => changePassword(current, next),
    onSuccess: (r) => {
      // Every token issued before now is refused from now on: this session goes on with the new
      // one, and the same person (no new look-up, so the page stays as it is).
      qc.setQueryData(["me", r.token], qc.getQueryData(["me", getToken()]));
      setToken(r.token);
      setCurrent("");
      setNext("");
      setAgain("");
    },
  });
  const mismatch = again !== "" && again !== next;
  return (
    <FormCard id="pw-h" title="Password" onSubmit={() => !mismatch && change.mutate()}>
      <p className="muted">Changing it signs you out everywhere else (other browsers and devices); this page stays signed in. API keys keep working.</p>
      <Field label="Current password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
      <Field label="New password" type="password" autoComplete="new-password" required minLength={8} maxLength={128} hint="8 to 128 characters." value={next} onChange={(e) => setNext(e.target.value)} />
      <Field
        label="New password again"
        type="password"
        autoComplete="new-password"
        required
        value={again}
        onChange={(e) => setAgain(e.target.value)}
        error={mismatch ? "The two new passwords differ." : null}
        hint={mismatch ? "The two new passwords differ." : undefined}
      />
      <ErrorMessage error={change.error} />
      {change.isSuccess && <Notice kind="ok">Password changed. Every other session is signed out.</Notice>}
      <div>
        <button className="btn" type="submit" disabled={change.isPending || mismatch}>
          Change password
        </button>
      </div>
    </FormCard>
  );
}

function ApiKeys() {
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: ["api-keys"], queryFn: listKeys });
  const [name, setName] = useState("");
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () => createKey(name),
    onSuccess: () => {
      setName("");
      setCopied(false);
      void qc.invalidateQueries({ queryKey: ["api-keys"] });
    },
  });
  const revoke = useMutation({ mutationFn: revokeKey, onSuccess: () => qc.invalidateQueries({ queryKey: ["api-keys"] }) });
  return (
    <section className="card stack" aria-labelledby="keys-h">
      <h2 id="keys-h" style={{ marginTop: 0 }}>
        API keys
      </h2>
      <p className="muted">For launchers, bots and scripts: send the key as the X-API-Key header.</p>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <Field label="Name of the new key" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <button className="btn" type="submit" disabled={create.isPending}>
          Create key
        </button>
      </form>
      <ErrorMessage error={create.error} />
      {create.data && (
        <div className="alert ok" role="status">
          <p style={{ marginTop: 0 }}>
            Your new key <strong>{create.data.name}</strong>. Copy it now: it is shown only this once.
          </p>
          <p>
            <code className="mono" data-testid="new-api-key">
              {create.data.key}
            </code>
          </p>
          <button
            type="button"
            className="btn secondary"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(create.data!.key);
                setCopied(true);
              } catch {
                setCopied(false);
              }
            }}
          >
            {copied ? "Copied" : "Copy key"}
          </button>
        </div>
      )}
      {keys.isLoading ? (
        <Skeleton lines={2} />
      ) : keys.error ? (
        <ErrorMessage error={keys.error} retry={() => keys.refetch()} />
      ) : keys.data && keys.data.length > 0 ? (
        <DataTable
          compact
          caption="Your API keys"
          rows={keys.data}
          rowKey={(k) => k.id}
          columns={[
            { header: "Name", cell: (k) => k.name },
            { header: "Starts with", cell: (k) => <code>{k.prefix}…</code> },
            { header: "Created", cell: (k) => dateTime(k.created_at) },
            { header: "Last used", cell: (k) => (k.last_used_at ? dateTime(k.last_used_at) : "never") },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (k) => (
                <ConfirmButton
                  question={`Revoke the key "${k.name}"? Programs using it stop working at once.`}
                  onConfirm={() => revoke.mutate(k.id)}
                  label={`Revoke key ${k.name}`}
                  disabled={revoke.isPending}
                >
                  Revoke
                </ConfirmButton>
              ),
            },
          ]}
        />
      ) : (
        <p className="muted">No API keys yet.</p>
      )}
      <ErrorMessage error={revoke.error} />
    </section>
  );
}

function DeleteAccount() {
  const [typed, setTyped] = useState("");
  const navigate = useNavigate();
  const qc = useQueryClient();
  const del = useMutation({
    mutationFn: deleteAccount,
    onSuccess: async () => {
      clearToken();
      qc.clear();
      await navigate({ to: "/mods" });
    },
  });
  return (
    <section className="card stack" aria-labelledby="del-h">
      <h2 id="del-h" style={{ marginTop: 0 }}>
        Delete account
      </h2>
      <p>
        This deletes your account, your lists, servers, keys and everything else of yours, at once and for good. Type <strong>{CONFIRM}</strong> to confirm.
      </p>
      <Field label="Confirmation" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
      <ErrorMessage error={del.error} />
      <div>
        <button type="button" className="btn danger" disabled={typed !== CONFIRM || del.isPending} onClick={() => del.mutate()}>
          Delete my account
        </button>
      </div>
    </section>
  );
}
