// Lists: the caller's own, co-owned and collaborating lists (with their role), organised by
// folders, tags and communities; pinned lists; public lists to search. Its forms show when asked
// for: a new list behind "New list" (shown at once while there is none), each Organise card's
// form behind its button (shown at once while the card is empty).
import { useDeferredValue, useMemo, useState, type FormEvent, type ReactNode } from "react";
import { Link, useNavigate } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { bytes, date, num } from "../app/format";
import { useSession } from "../app/session";
import { ConfirmButton, DataTable, Empty, ErrorMessage, Field, SelectField, Skeleton, FormCard } from "../ui/components";
import { createCommunity, type Community } from "./communities.services";
import { createFolder, deleteFolder, type Folder } from "./folders.services";
import { createList, type ListSummary } from "./lists.services";
import { createTag, deleteTag, type Tag } from "./tags.services";
import { CopyFromServer } from "./components/copy-from-server";
import { invalidateList, listQueries, organiseQueries } from "./lists.queries";
import { TagChip } from "./components/tag-chip";


function ListsTable({ caption, lists, showRole, folderName }: { caption: string; lists: ListSummary[]; showRole?: boolean; folderName?: (id: string | null) => string }) {
  return (
    <DataTable
      caption={caption}
      rows={lists}
      rowKey={(l) => l.id}
      compact
      columns={[
        {
          header: "List",
          cell: (l) => (
            <>
              <Link to="/lists/$id" params={{ id: l.id }} search={{}}>
                {l.name}
              </Link>
              {l.tags.length > 0 && (
                <div>
                  {l.tags.map((t) => (
                    <TagChip key={t.id} tag={t} />
                  ))}
                </div>
              )}
            </>
          ),
        },
        ...(showRole ? [{ header: "Your role", cell: (l: ListSummary) => l.role ?? "owner" }] : [{ header: "Owner", cell: (l: ListSummary) => l.owner_name }]),
        ...(folderName ? [{ header: "Folder", cell: (l: ListSummary) => folderName(l.folder_id) }] : []),
        { header: "Mods", num: true, cell: (l) => num(l.mod_count) },
        { header: "Download", num: true, cell: (l) => bytes(l.total_size_bytes) },
        { header: "Visibility", cell: (l) => (l.is_public ? "public" : "private") },
        { header: "Updated", cell: (l) => date(l.updated_at) },
      ]}
    />
  );
}

const ALL = "";
const NONE = "none";

/** The caller's lists with a name search and folder, tag and community filters. */
function YourLists({ lists, folderList, tagList, communityList }: { lists: ListSummary[]; folderList: Folder[]; tagList: Tag[]; communityList: Community[] }) {
  const [q, setQ] = useState("");
  const [folder, setFolder] = useState(ALL);
  const [tag, setTag] = useState(ALL);
  const [community, setCommunity] = useState(ALL);
  const query = useDeferredValue(q.trim().toLowerCase());
  const shown = useMemo(
    () =>
      lists.filter(
        (l) =>
          (!query || l.name.toLowerCase().includes(query) || l.description.toLowerCase().includes(query)) &&
          (folder === ALL || (folder === NONE ? l.folder_id === null : l.folder_id === folder)) &&
          (tag === ALL || l.tags.some((t) => t.id === tag)) &&
          (community === ALL || (community === NONE ? l.community_id === null : l.community_id === community)),
      ),
    [lists, query, folder, tag, community],
  );
  const names = new Map(folderList.map((f) => [f.id, f.name]));
  return (
    <>
      <div className="row">
        <Field label="Search your lists" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        <SelectField label="Folder" value={folder} onChange={(e) => setFolder(e.target.value)}>
          <option value={ALL}>All folders</option>
          <option value={NONE}>Not in a folder</option>
          {folderList.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Tag" value={tag} onChange={(e) => setTag(e.target.value)}>
          <option value={ALL}>Any tag</option>
          {/* The caller's tags and any other tag their lists carry. */}
          {[...new Map([...tagList, ...lists.flatMap((l) => l.tags)].map((t) => [t.id, t])).values()].map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Community" value={community} onChange={(e) => setCommunity(e.target.value)}>
          <option value={ALL}>All communities</option>
          <option value={NONE}>No community</option>
          {communityList.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="muted small" aria-live="polite">
        {shown.length === lists.length ? `${num(lists.length)} ${lists.length === 1 ? "list" : "lists"}` : `${num(shown.length)} of ${num(lists.length)} lists`}
      </p>
      {shown.length > 0 ? (
        <ListsTable caption="Your lists and the lists you help with" lists={shown} showRole folderName={(id) => (id ? (names.get(id) ?? "–") : "–")} />
      ) : (
        <p className="muted">No list matches these filters.</p>
      )}
    </>
  );
}

/**
 * A card of Organise: what there is, and the form that adds one. The form shows by itself while
 * there is nothing yet; otherwise its button opens it (a page's forms show when asked for).
 */
function OrganiseCard({ id, title, empty, count: n, addLabel, children, form }: { id: string; title: string; empty: string; count: number; addLabel: string; children: ReactNode; form: (close: () => void) => ReactNode }) {
  const [open, setOpen] = useState(false);
  const shown = open || n === 0;
  return (
    <section className="card stack" aria-labelledby={id}>
      <h3 id={id} style={{ marginTop: 0 }}>
        {title}
      </h3>
      {n === 0 ? <p className="muted">{empty}</p> : children}
      {shown ? (
        form(() => setOpen(false))
      ) : (
        <div>
          <button type="button" className="btn secondary" onClick={() => setOpen(true)}>
            {addLabel}
          </button>
        </div>
      )}
    </section>
  );
}

/** Folders (yours only; a list keeps existing when its folder goes), tags and communities. */
function Organise({ folderList, tagList, communityList, lists }: { folderList: Folder[]; tagList: Tag[]; communityList: Community[]; lists: ListSummary[] }) {
  const qc = useQueryClient();
  const again = (key: string) => () => {
    void qc.invalidateQueries({ queryKey: [key] });
    void invalidateList.collections(qc);
  };
  const [folderName, setFolderName] = useState("");
  const [tagName, setTagName] = useState("");
  const [tagColor, setTagColor] = useState("#3b82f6");
  const [communityName, setCommunityName] = useState("");
  const [communityDescription, setCommunityDescription] = useState("");
  const addFolder = useMutation({ mutationFn: () => createFolder(folderName), onSuccess: () => (setFolderName(""), again("folders")()) });
  const dropFolder = useMutation({ mutationFn: deleteFolder, onSuccess: again("folders") });
  const addTag = useMutation({ mutationFn: () => createTag(tagName, tagColor), onSuccess: () => (setTagName(""), again("tags")()) });
  const dropTag = useMutation({ mutationFn: deleteTag, onSuccess: again("tags") });
  const addCommunity = useMutation({
    mutationFn: () => createCommunity(communityName, communityDescription),
    onSuccess: () => (setCommunityName(""), setCommunityDescription(""), again("communities")()),
  });
  const submit = (fn: () => void) => (e: FormEvent) => {
    e.preventDefault();
    fn();
  };
  return (
    <div className="grid fill" style={{ alignItems: "start" }}>
      <OrganiseCard
        id="folders-h"
        title="Folders"
        count={folderList.length}
        empty="No folders yet. A folder groups your lists; choose one in a list's Settings."
        addLabel="New folder…"
        form={(close) => (
          <>
            <form className="row" onSubmit={submit(() => addFolder.mutate(undefined, { onSuccess: close }))}>
              <Field label="New folder" required maxLength={100} value={folderName} onChange={(e) => setFolderName(e.target.value)} />
              <button type="submit" className="btn secondary" disabled={addFolder.isPending}>
                Add folder
              </button>
            </form>
            <ErrorMessage error={addFolder.error} />
          </>
        )}
      >
        <ul className="plain">
          {folderList.map((f) => (
            <li key={f.id} className="row" style={{ alignItems: "center" }}>
              <span style={{ flex: 1 }}>
                {f.name} <span className="muted small">({num(f.list_count)})</span>
              </span>
              <ConfirmButton question={`Delete the folder ${f.name}? Its lists stay.`} label={`Delete folder ${f.name}`} onConfirm={() => dropFolder.mutate(f.id)}>
                Delete
              </ConfirmButton>
            </li>
          ))}
        </ul>
        <ErrorMessage error={dropFolder.error} />
      </OrganiseCard>
      <OrganiseCard
        id="tags-h"
        title="Tags"
        count={tagList.length}
        empty="No tags yet. Tags label lists (Milsim, PvE, testing…); add them in a list's Settings."
        addLabel="New tag…"
        form={(close) => (
          <>
            <form className="row" onSubmit={submit(() => addTag.mutate(undefined, { onSuccess: close }))}>
              <Field label="New tag" required maxLength={100} value={tagName} onChange={(e) => setTagName(e.target.value)} />
              <Field label="Colour" type="color" value={tagColor} onChange={(e) => setTagColor(e.target.value)} style={{ width: "3.5rem", padding: "0.2rem" }} />
              <button type="submit" className="btn secondary" disabled={addTag.isPending}>
                Add tag
              </button>
            </form>
            <ErrorMessage error={addTag.error} />
          </>
        )}
      >
        <ul className="plain">
          {tagList.map((t) => (
            <li key={t.id} className="row" style={{ alignItems: "center" }}>
              <span style={{ flex: 1 }}>
                <TagChip tag={t} /> <span className="muted small">({num(lists.filter((l) => l.tags.some((x) => x.id === t.id)).length)})</span>
              </span>
              <ConfirmButton question={`Delete the tag ${t.name} from every list?`} label={`Delete tag ${t.name}`} onConfirm={() => dropTag.mutate(t.id)}>
                Delete
              </ConfirmButton>
            </li>
          ))}
        </ul>
        <ErrorMessage error={dropTag.error} />
      </OrganiseCard>
      <OrganiseCard
        id="communities-h"
        title="Communities"
        count={communityList.length}
        empty="You are in no community yet. A community gathers its people, lists, servers and permission groups."
        addLabel="New community…"
        form={(close) => (
          <>
            <form className="stack" onSubmit={submit(() => addCommunity.mutate(undefined, { onSuccess: close }))}>
              <Field label="New community" required maxLength={100} value={communityName} onChange={(e) => setCommunityName(e.target.value)} />
              <Field label="What it is about" maxLength={2000} value={communityDescription} onChange={(e) => setCommunityDescription(e.target.value)} />
              <div>
                <button type="submit" className="btn secondary" disabled={addCommunity.isPending}>
                  Create community
                </button>
              </div>
            </form>
            <ErrorMessage error={addCommunity.error} />
          </>
        )}
      >
        <ul className="plain">
          {communityList.map((c) => {
            const its = lists.filter((l) => l.community_id === c.id);
            return (
              <li key={c.id}>
                <Link to="/communities/$id" params={{ id: c.slug }} search={{}}>
                  <strong>{c.name}</strong>
                </Link>{" "}
                <span className="muted small">({c.role})</span>
                {c.description && <div className="muted small">{c.description}</div>}
                <div className="small">
                  {its.length === 0
                    ? "No lists yet."
                    : its.map((l, i) => (
                        <span key={l.id}>
                          {i > 0 && ", "}
                          <Link to="/lists/$id" params={{ id: l.id }} search={{}}>
                            {l.name}
                          </Link>
                        </span>
                      ))}
                </div>
              </li>
            );
          })}
        </ul>
      </OrganiseCard>
    </div>
  );
}

function PublicLists() {
  const [q, setQ] = useState("");
  const search = useDeferredValue(q.trim());
  const pub = useQuery({ ...listQueries.public(search), placeholderData: (prev) => prev });
  return (
    <section className="stack" aria-labelledby="pub-h">
      <h2 id="pub-h">Public lists</h2>
      <Field label="Search public lists" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      {pub.isLoading ? (
        <Skeleton />
      ) : pub.error ? (
        <ErrorMessage error={pub.error} retry={() => pub.refetch()} />
      ) : pub.data!.length === 0 ? (
        <p className="muted">{search ? "No public list matches." : "No public lists yet."}</p>
      ) : (
        <ListsTable caption="Public lists" lists={pub.data!} />
      )}
    </section>
  );
}

/** A new list from scratch: its name, what it is for, whether anyone may see it. */
function NewList({ onCancel }: { onCancel?: () => void }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [isPublic, setIsPublic] = useState(false);
  const create = useMutation({
    mutationFn: () => createList({ name, description, is_public: isPublic }),
    onSuccess: async (r) => {
      await invalidateList.collections(qc);
      await navigate({ to: "/lists/$id", params: { id: r.id }, search: {} });
    },
  });
  return (
    <FormCard id="new-h" title="New list" level={2} onSubmit={() => create.mutate()}>
      <Field label="List name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} autoFocus={!!onCancel} />
      <Field label="Description" maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} hint="Optional: what the list is for." />
      <label className="row check-row">
        <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} /> Public: anyone can see it
      </label>
      <ErrorMessage error={create.error} />
      <div className="row">
        <button type="submit" className="btn" disabled={create.isPending}>
          Create list
        </button>
        {onCancel && (
          <button type="button" className="btn secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </FormCard>
  );
}

export function ListsPage() {
  const { me, token } = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const mine = useQuery({ ...listQueries.mine(), enabled: !!token });
  const pins = useQuery({ ...listQueries.pins(), enabled: !!token });
  const folderList = useQuery({ ...organiseQueries.folders(), enabled: !!token });
  const tagList = useQuery({ ...organiseQueries.tags(), enabled: !!token });
  const communityList = useQuery({ ...organiseQueries.communities(), enabled: !!token });
  const [creating, setCreating] = useState(false);
  const organiseError = folderList.error ?? tagList.error ?? communityList.error;
  const none = mine.data?.length === 0;
  return (
    <div className="stack">
      <div className="toolbar">
        <h1>Mod lists</h1>
        {me && (
          <div className="actions">
            {!none && (
              <button type="button" className="btn panel-toggle" aria-expanded={creating} onClick={() => setCreating((c) => !c)}>
                New list
              </button>
            )}
            <Link to="/groups" className="btn secondary">
              Permission groups
            </Link>
          </div>
        )}
      </div>
      {me && creating && !none && (
        <div id="new-list">
          <NewList onCancel={() => setCreating(false)} />
        </div>
      )}
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
          ) : none ? (
            <>
              <Empty title="No lists yet">A list is what your server runs: start one from scratch, or from a server that is online now.</Empty>
              <NewList />
            </>
          ) : (
            <YourLists lists={mine.data!} folderList={folderList.data ?? []} tagList={tagList.data ?? []} communityList={communityList.data ?? []} />
          )}
          <CopyFromServer
            onDone={async (id) => {
              await invalidateList.collections(qc);
              await navigate({ to: "/lists/$id", params: { id }, search: {} });
            }}
          />
        </section>
      )}
      {me && mine.data && mine.data.length > 0 && (
        <section className="stack" aria-labelledby="organise-h">
          <h2 id="organise-h">Organise</h2>
          {organiseError ? (
            <ErrorMessage error={organiseError} />
          ) : (
            <Organise folderList={folderList.data ?? []} tagList={tagList.data ?? []} communityList={communityList.data ?? []} lists={mine.data ?? []} />
          )}
        </section>
      )}
      <PublicLists />
    </div>
  );
}
