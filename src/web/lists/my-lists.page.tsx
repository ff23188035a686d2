// Lists: the caller's own, co-owned and collaborating lists (with their role), public lists,
// and a form to start a new one.
import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { bytes, date, num } from "../app/format";
import { useSession } from "../app/session";
import { DataTable, Empty, ErrorMessage, Field, Skeleton } from "../ui/components";
import { createList, myLists, pinnedLists, publicLists, type ListSummary } from "./lists.services";

function ListsTable({ caption, lists, showRole }: { caption: string; lists: ListSummary[]; showRole?: boolean }) {
  return (
    <DataTable
      caption={caption}
      rows={lists}
      rowKey={(l) => l.id}
      columns={[
        {
          header: "List",
          cell: (l) => (
            <Link to="/lists/$id" params={{ id: l.id }} search={{}}>
              {l.name}
            </Link>
          ),
        },
        ...(showRole ? [{ header: "Your role", cell: (l: ListSummary) => l.role ?? "owner" }] : [{ header: "Owner", cell: (l: ListSummary) => l.owner_name }]),
        { header: "Mods", num: true, cell: (l) => num(l.mod_count) },
        { header: "Download", num: true, cell: (l) => bytes(l.total_size_bytes) },
        { header: "Visibility", cell: (l) => (l.is_public ? "public" : "private") },
        { header: "Updated", cell: (l) => date(l.updated_at) },
      ]}
    />
  );
}

export function ListsPage() {
  const { me, token } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const mine = useQuery({ queryKey: ["lists", "mine"], queryFn: ({ signal }) => myLists(signal), enabled: !!token });
  const pins = useQuery({ queryKey: ["lists", "pins"], queryFn: ({ signal }) => pinnedLists(signal), enabled: !!token });
  const pub = useQuery({ queryKey: ["lists", "public"], queryFn: ({ signal }) => publicLists(signal) });
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [isPublic, setIsPublic] = useState(false);
  const create = useMutation({
    mutationFn: () => createList({ name, description, is_public: isPublic }),
    onSuccess: async (r) => {
      await qc.invalidateQueries({ queryKey: ["lists"] });
      await navigate({ to: "/lists/$id", params: { id: r.id }, search: {} });
    },
  });
  return (
    <div className="stack">
      <h1>Mod lists</h1>
      {me && pins.data && pins.data.length > 0 && (
        <section className="stack" aria-labelledby="pins-h">
          <h2 id="pins-h">Pinned</h2>
          <ListsTable caption="Lists you pinned" lists={pins.data} />
        </section>
      )}
      {me && (
        <section className="stack" aria-labelledby="mine-h">
          <h2 id="mine-h">Your lists</h2>
          {mine.isLoading ? (
            <Skeleton />
          ) : mine.error ? (
            <ErrorMessage error={mine.error} retry={() => mine.refetch()} />
          ) : mine.data!.length === 0 ? (
            <Empty title="No lists yet">Start one below: a list is what your server runs.</Empty>
          ) : (
            <ListsTable caption="Your lists and the lists you help with" lists={mine.data!} showRole />
          )}
          <form
            className="card stack"
            aria-labelledby="new-h"
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <h3 id="new-h" style={{ marginTop: 0 }}>
              New list
            </h3>
            <Field label="List name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
            <Field label="Description" maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
            <label className="row" style={{ alignItems: "center", gap: "0.5rem" }}>
              <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} style={{ minHeight: 0 }} /> Public: anyone can see
              it
            </label>
            <ErrorMessage error={create.error} />
            <div>
              <button type="submit" className="btn" disabled={create.isPending}>
                Create list
              </button>
            </div>
          </form>
        </section>
      )}
      <section className="stack" aria-labelledby="pub-h">
        <h2 id="pub-h">Public lists</h2>
        {pub.isLoading ? (
          <Skeleton />
        ) : pub.error ? (
          <ErrorMessage error={pub.error} retry={() => pub.refetch()} />
        ) : pub.data!.length === 0 ? (
          <p className="muted">No public lists yet.</p>
        ) : (
          <ListsTable caption="Public lists" lists={pub.data!} />
        )}
      </section>
    </div>
  );
}
