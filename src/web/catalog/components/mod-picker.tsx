// Choosing a mod from the catalog by typing: suggestions from /mods/autocomplete as buttons.
import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { autocomplete } from "../catalog.services";

export interface PickedMod {
  workshop_id: string;
  name: string;
}

export function ModPicker({ label, onPick, note, required }: { label: string; onPick: (m: PickedMod) => void; note?: (workshopId: string) => string; required?: boolean }) {
  const id = useId();
  const [q, setQ] = useState("");
  const found = useQuery({ queryKey: ["autocomplete", q.trim()], queryFn: ({ signal }) => autocomplete(q.trim(), signal), enabled: q.trim().length >= 2 });
  return (
    <div className="field suggest">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" autoComplete="off" required={required} value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, author or tag" />
      {found.data && found.data.length > 0 && (
        <ul aria-label="Mods found">
          {found.data.map((m) => (
            <li key={m.workshop_id}>
              <button type="button" className="btn link" onClick={() => (setQ(""), onPick({ workshop_id: m.workshop_id, name: m.name }))}>
                {m.name}
                {note?.(m.workshop_id) ?? ""}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
