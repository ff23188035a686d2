// The Templates tab: follow a template (its mods applied now and at each push), make one of this
// list, push your templates to their followers.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dateTime, num, count } from "../../app/format";
import { useSession } from "../../app/session";
import { ConfirmButton, DataTable, ErrorMessage, Field, Notice, SelectField } from "../../ui/components";
import { applyTemplate, createTemplate, pushTemplate, unsubscribe } from "../templates.services";
import { invalidateList, listQueries, useListRefresh } from "../lists.queries";
import type { ListTabProps } from "./tab";

/** Templates: make one of this list, follow one (its mods are applied, later pushes too), push yours. */
export default function Templates({ list }: ListTabProps) {
  const { me } = useSession();
  const refresh = useListRefresh(list.id);
  const qc = useQueryClient();
  const all = useQuery(listQueries.templates());
  const links = useQuery(listQueries.templateLinks(list.id));
  const again = () => (void invalidateList.part(qc, listQueries.templates()), void invalidateList.part(qc, listQueries.templateLinks(list.id)));
  const [name, setName] = useState(`${list.name} template`);
  const [chosen, setChosen] = useState("");
  const make = useMutation({ mutationFn: () => createTemplate(list.id, name), onSuccess: again });
  const apply = useMutation({ mutationFn: () => applyTemplate(list.id, chosen), onSuccess: () => (again(), refresh()) });
  const drop = useMutation({ mutationFn: (tid: string) => unsubscribe(list.id, tid), onSuccess: again });
  const push = useMutation({ mutationFn: (tid: string) => pushTemplate(tid), onSuccess: () => (again(), refresh()) });
  const mine = (all.data ?? []).filter((t) => t.owner_id === me?.id);
  return (
    <section className="stack" aria-label="Templates">
      <ErrorMessage error={make.error ?? apply.error ?? drop.error ?? push.error ?? all.error ?? links.error} />
      <div className="card stack">
        <h2 style={{ marginTop: 0 }}>Follow a template</h2>
        <p className="muted">Its mods are added now, and the changes its owner pushes later are applied to this list.</p>
        <div className="row">
          <SelectField label="Template" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose</option>
            {(all.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({count(t.mod_count, "mod")})
              </option>
            ))}
          </SelectField>
          <button type="button" className="btn" disabled={!chosen || apply.isPending} onClick={() => apply.mutate()}>
            Follow and apply
          </button>
        </div>
        {apply.data && (
          <Notice kind="ok">
            Applied: {apply.data.added} added, {apply.data.removed} removed, {count(apply.data.version_changed, "version")} changed.
          </Notice>
        )}
        {links.data && links.data.length > 0 && (
          <DataTable
            compact
            caption="Templates this list follows"
            rows={links.data}
            rowKey={(t) => t.template_id}
            columns={[
              { header: "Template", cell: (t) => t.name },
              { header: "Mods", num: true, cell: (t) => num(t.mod_count) },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (t) => (
                  <ConfirmButton question={`Stop following “${t.name}”? Its mods stay in the list.`} onConfirm={() => drop.mutate(t.template_id)} label={`Stop following ${t.name}`}>
                    Stop following
                  </ConfirmButton>
                ),
              },
            ]}
          />
        )}
      </div>
      <form
        className="card stack"
        onSubmit={(e) => {
          e.preventDefault();
          make.mutate();
        }}
      >
        <h2 style={{ marginTop: 0 }}>Make a template of this list</h2>
        <Field label="Template name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <div>
          <button type="submit" className="btn secondary" disabled={make.isPending}>
            Make template
          </button>
        </div>
        {make.data && <Notice kind="ok">Template “{make.data.name}” made with {count(make.data.mod_count, "mod")}.</Notice>}
      </form>
      {mine.length > 0 && (
        <div className="card stack">
          <h2 style={{ marginTop: 0 }}>Your templates</h2>
          <p className="muted">Pushing takes the template's list as it is now and applies it to every list that follows the template.</p>
          <DataTable
            compact
            caption="Templates you own"
            rows={mine}
            rowKey={(t) => t.id}
            columns={[
              { header: "Template", cell: (t) => t.name },
              { header: "Mods", num: true, cell: (t) => num(t.mod_count) },
              { header: "Updated", cell: (t) => dateTime(t.updated_at) },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (t) => (
                  <button type="button" className="btn secondary" onClick={() => push.mutate(t.id)} disabled={push.isPending}>
                    Push updates<span className="sr-only"> of {t.name} to its followers</span>
                  </button>
                ),
              },
            ]}
          />
          {push.data && (
            <Notice kind="ok">
              Pushed to {count(push.data.lists, "list")}: {count(push.data.results.reduce((n, r) => n + r.added, 0), "mod")} added, {push.data.results.reduce((n, r) => n + r.removed, 0)} removed.
            </Notice>
          )}
        </div>
      )}
    </section>
  );
}

