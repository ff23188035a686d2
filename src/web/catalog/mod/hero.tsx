// The top of a mod page: its picture and facts, its tags (links to the catalog filtered by them),
// the workshop link and "Add to list".
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery } from "@tanstack/react-query";
import { bytes, count, date, num, safeHref, tagLabel } from "../../app/format";
import { useSession } from "../../app/session";
import type { ModDetail } from "../../app/types";
import { ErrorMessage, Notice, RemoteImage, SelectField, Skeleton } from "../../ui/components";
import { listQueries } from "../../lists/lists.queries";
import { addMod } from "../../lists/lists.services";

export function Hero({ mod }: { mod: ModDetail }) {
  return (
    <div className="mod-hero">
      <RemoteImage src={mod.image_url} alt={`Preview of ${mod.name}`} width={320} height={180} className="hero-image" />
      <div>
        <h1>{mod.name}</h1>
        <p className="muted">by {mod.author || "unknown author"}</p>
        {mod.state !== "active" && <Notice kind="warn">This mod is {mod.state} on the workshop.</Notice>}
        <dl className="facts">
          <dt>Version</dt>
          <dd>{mod.version}</dd>
          <dt>Size</dt>
          <dd>{bytes(mod.size_bytes)}</dd>
          <dt>Rating</dt>
          <dd>{mod.rating === null ? "not rated" : `${Math.round(mod.rating * 100)} % positive, ${count(mod.rating_count, "rating")}`}</dd>
          <dt>Subscribers</dt>
          <dd>{num(mod.subscriber_count)}</dd>
          <dt>Updated</dt>
          <dd>{date(mod.updated_at)}</dd>
          <dt>Game version</dt>
          <dd>{mod.game_version ?? "–"}</dd>
        </dl>
        <p>
          {mod.tags.map((t) => (
            <Link key={t} className="tag" to="/mods" search={{ tag: t }}>
              {tagLabel(t)}
            </Link>
          ))}
        </p>
        <div className="row">
          {safeHref(mod.workshop_url) && (
            <a className="btn secondary" href={safeHref(mod.workshop_url)} rel="noopener noreferrer" target="_blank">
              Workshop page<span className="sr-only"> (opens in a new tab)</span>
            </a>
          )}
          <AddToList id={mod.workshop_id} />
        </div>
      </div>
    </div>
  );
}

function AddToList({ id }: { id: string }) {
  const { me } = useSession();
  const [open, setOpen] = useState(false);
  const [listId, setListId] = useState("");
  const lists = useQuery({ ...listQueries.mine(), enabled: open && !!me });
  const add = useMutation({ mutationFn: () => addMod(listId, id, false) });
  if (!me)
    return (
      <Link className="btn" to="/sign-in" search={{ next: `/mods/${id}` }}>
        Sign in to add to a list
      </Link>
    );
  if (!open)
    return (
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Add to list
      </button>
    );
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      {lists.isLoading ? (
        <Skeleton lines={1} />
      ) : (lists.data ?? []).length === 0 ? (
        <span className="muted">You have no lists yet.</span>
      ) : (
        <SelectField label="List" value={listId} required onChange={(e) => setListId(e.target.value)}>
          <option value="">Choose a list</option>
          {lists.data!.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
      )}
      <button className="btn" type="submit" disabled={!listId || add.isPending}>
        Add
      </button>
      {add.isSuccess && <Notice kind="ok">Added (with the dependencies it needs).</Notice>}
      <ErrorMessage error={add.error} />
    </form>
  );
}
