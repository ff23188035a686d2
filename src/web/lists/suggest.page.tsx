// The form a player sees from a list's suggestion link: a mod from the catalog, a reason, and
// the list's own questions (text, checkbox, select). The API checks the answers.
import { useState, type FormEvent } from "react";
import { Link, useParams, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSession } from "../app/session";
import { ErrorMessage, Notice, SelectField, SignInFirst, Skeleton } from "../ui/components";
import { ModPicker, type PickedMod } from "../catalog/components/mod-picker";
import { suggest } from "./lists.services";
import { listQueries } from "./lists.queries";

export function SuggestPage() {
  const { id } = useParams({ from: "/lists/$id/suggest" });
  const { token } = useSearch({ from: "/lists/$id/suggest" });
  const { me, token: session } = useSession();
  const fields = useQuery({ ...listQueries.formFields(id, token), enabled: !!session });
  const [mod, setMod] = useState<PickedMod | null>(null);
  const [reason, setReason] = useState("");
  const [answers, setAnswers] = useState<Record<string, string | boolean>>({});
  const send = useMutation({ mutationFn: () => suggest(id, token, { workshop_id: mod!.workshop_id, reason, form_answers: answers }) });
  if (!session) return <SignInFirst next={`/lists/${id}/suggest${token ? `?token=${token}` : ""}`} what="the suggestion form" />;
  if (fields.isLoading || !me) return <Skeleton />;
  if (fields.error) return <ErrorMessage error={fields.error} />;
  if (send.isSuccess)
    return (
      <div className="narrow stack">
        <h1>Thank you</h1>
        <Notice kind="ok">Your suggestion of {send.data.mod_name ?? mod?.name} is with the list's owners. They see the votes it gets.</Notice>
        <p>
          <Link to="/mods">Back to the catalog</Link>
        </p>
      </div>
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate();
  };
  return (
    <form className="narrow stack" onSubmit={submit} aria-label="Suggest a mod">
      <h1>Suggest a mod</h1>
      {!mod ? (
        <ModPicker label="Mod" onPick={setMod} required />
      ) : (
        <p>
          Suggesting <strong>{mod.name}</strong>.{" "}
          <button type="button" className="btn link" onClick={() => setMod(null)}>
            Choose another
          </button>
        </p>
      )}
      <div className="field">
        <label htmlFor="suggest-reason">Why this mod?</label>
        <textarea id="suggest-reason" maxLength={2000} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      {fields.data!.map((f) =>
        f.type === "checkbox" ? (
          <label key={f.id}>
            <input type="checkbox" checked={answers[f.id] === true} onChange={(e) => setAnswers({ ...answers, [f.id]: e.target.checked })} style={{ minHeight: 0 }} /> {f.label}
            {f.required ? " (required)" : ""}
          </label>
        ) : f.type === "select" ? (
          <SelectField key={f.id} label={f.label} required={f.required} value={String(answers[f.id] ?? "")} onChange={(e) => setAnswers({ ...answers, [f.id]: e.target.value })}>
            <option value="">Choose</option>
            {f.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </SelectField>
        ) : (
          <div className="field" key={f.id}>
            <label htmlFor={`f-${f.id}`}>{f.label}</label>
            <input id={`f-${f.id}`} required={f.required} value={String(answers[f.id] ?? "")} onChange={(e) => setAnswers({ ...answers, [f.id]: e.target.value })} />
          </div>
        ),
      )}
      <ErrorMessage error={send.error} />
      <div>
        <button type="submit" className="btn" disabled={!mod || send.isPending}>
          Send the suggestion
        </button>
      </div>
    </form>
  );
}
