// The list's own questions on its suggestion form (owners): add, edit and delete text,
// checkbox and select fields; the API validates them (a select needs options, options unique).
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { invalidateList, listQueries } from "../lists.queries";
import { ConfirmButton, ErrorMessage, Field, SelectField } from "../../ui/components";
import { createField, deleteField, updateField, type FieldInput, type FormField, type ListDetail } from "../lists.services";

const EMPTY: FieldInput = { label: "", type: "text", required: false, options: null };

function FieldForm({ initial, submitLabel, onSubmit, onCancel, pending, idPrefix }: { initial: FieldInput; submitLabel: string; onSubmit: (f: FieldInput) => void; onCancel?: () => void; pending: boolean; idPrefix: string }) {
  const [f, setF] = useState(initial);
  const [options, setOptions] = useState((initial.options ?? []).join("\n"));
  return (
    <form
      className="stack"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        const opts = options
          .split("\n")
          .map((o) => o.trim())
          .filter(Boolean);
        onSubmit({ ...f, options: f.type === "select" ? opts : null });
      }}
    >
      <div className="row">
        <Field id={`${idPrefix}-label`} label="Question" required maxLength={200} value={f.label} onChange={(e) => setF({ ...f, label: e.target.value })} />
        <SelectField id={`${idPrefix}-type`} label="Answer" value={f.type} onChange={(e) => setF({ ...f, type: e.target.value as FieldInput["type"] })}>
          <option value="text">Text</option>
          <option value="checkbox">Yes or no</option>
          <option value="select">One of a few choices</option>
        </SelectField>
        <label className="row" style={{ alignItems: "center", gap: "0.35rem" }}>
          <input type="checkbox" checked={f.required} onChange={(e) => setF({ ...f, required: e.target.checked })} style={{ minHeight: 0 }} /> Required
        </label>
      </div>
      {f.type === "select" && (
        <div className="field">
          <label htmlFor={`${idPrefix}-options`}>Choices, one a line</label>
          <textarea id={`${idPrefix}-options`} rows={4} value={options} onChange={(e) => setOptions(e.target.value)} />
        </div>
      )}
      <div className="row">
        <button type="submit" className="btn secondary" disabled={pending}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn link" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

export function FormFields({ list }: { list: ListDetail }) {
  const qc = useQueryClient();
  const fields = useQuery(listQueries.formFields(list.id));
  const again = () => invalidateList.part(qc, listQueries.formFields(list.id));
  const [editing, setEditing] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const add = useMutation({ mutationFn: (f: FieldInput) => createField(list.id, f), onSuccess: () => (setFormKey((k) => k + 1), again()) });
  const save = useMutation({ mutationFn: (v: { id: string; f: FieldInput }) => updateField(list.id, v.id, v.f), onSuccess: () => (setEditing(null), again()) });
  const remove = useMutation({ mutationFn: (id: string) => deleteField(list.id, id), onSuccess: again });
  const describe = (f: FormField) => `${f.type === "text" ? "text" : f.type === "checkbox" ? "yes or no" : `one of: ${f.options.join(", ")}`}${f.required ? ", required" : ""}`;
  return (
    <section className="card stack" aria-labelledby="fields-h">
      <h2 id="fields-h" style={{ marginTop: 0 }}>
        Questions on the suggestion form
      </h2>
      <p className="muted">Everyone who suggests a mod answers these (for example "Which missions need it?").</p>
      {fields.data && fields.data.length === 0 && <p className="muted">No questions: the form asks only for the mod and a reason.</p>}
      {fields.data && fields.data.length > 0 && (
        <ul className="plain">
          {fields.data.map((f) =>
            editing === f.id ? (
              <li key={f.id} className="card">
                <FieldForm
                  idPrefix={`edit-${f.id}`}
                  initial={{ label: f.label, type: f.type, required: f.required, options: f.options }}
                  submitLabel="Save question"
                  pending={save.isPending}
                  onSubmit={(v) => save.mutate({ id: f.id, f: v })}
                  onCancel={() => setEditing(null)}
                />
              </li>
            ) : (
              <li key={f.id} className="row" style={{ alignItems: "center" }}>
                <span style={{ flex: 1 }}>
                  <strong>{f.label}</strong> <span className="muted small">({describe(f)})</span>
                </span>
                <button type="button" className="btn secondary" onClick={() => setEditing(f.id)} aria-label={`Edit the question ${f.label}`}>
                  Edit
                </button>
                <ConfirmButton question={`Delete the question "${f.label}"?`} label={`Delete the question ${f.label}`} onConfirm={() => remove.mutate(f.id)}>
                  Delete
                </ConfirmButton>
              </li>
            ),
          )}
        </ul>
      )}
      <h3>Add a question</h3>
      <FieldForm key={formKey} idPrefix="new-field" initial={EMPTY} submitLabel="Add question" pending={add.isPending} onSubmit={(f) => add.mutate(f)} />
      <ErrorMessage error={add.error ?? save.error ?? remove.error ?? fields.error} />
    </section>
  );
}
