// Typing a mod's name with suggestions from /mods/autocomplete, as WAI-ARIA's combobox pattern
// describes (an editable combobox with list autocomplete): the input is role=combobox and owns a
// listbox of options; ArrowDown/ArrowUp move through them (wrapping), Home/End jump, Enter
// chooses the active one, Escape closes the list (a second Escape clears the text), and the number
// of suggestions is announced in a live region. The catalog's search and the mod picker use it.
import { useEffect, useId, useRef, useState, type CSSProperties, type KeyboardEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { autocomplete } from "../catalog.services";

export interface PickedMod {
  workshop_id: string;
  name: string;
}

export function ModCombobox({
  label,
  onChoose,
  note,
  required,
  text,
  onText,
  clearOnChoose,
  style,
}: {
  label: string;
  onChoose: (m: PickedMod) => void;
  /** Words after an option's name (e.g. " (already in the list)"). */
  note?: (workshopId: string) => string;
  required?: boolean;
  /** The text, when the caller keeps it (the catalog's search); else kept here. */
  text?: string;
  onText?: (q: string) => void;
  clearOnChoose?: boolean;
  style?: CSSProperties;
}) {
  const [own, setOwn] = useState("");
  const q = text ?? own;
  const setQ = onText ?? setOwn;
  const [debounced, setDebounced] = useState(q.trim());
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inputId = useId();
  const listId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(q.trim()), 150);
    return () => clearTimeout(t);
  }, [q]);
  const found = useQuery({
    queryKey: ["autocomplete", debounced],
    queryFn: ({ signal }) => autocomplete(debounced, signal),
    enabled: open && debounced.length >= 2,
    staleTime: 60_000,
  });
  const asked = open && debounced.length >= 2;
  const items = asked ? (found.data ?? []) : [];
  const choose = (m: PickedMod) => {
    setOpen(false);
    setActive(-1);
    if (clearOnChoose) setQ("");
    onChoose({ workshop_id: m.workshop_id, name: m.name });
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const n = items.length;
    if (e.key === "ArrowDown") {
      e.preventDefault();
      if (!open) setOpen(true);
      if (n) setActive((a) => (a + 1) % n);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      if (n) setActive((a) => (a <= 0 ? n - 1 : a - 1));
    } else if ((e.key === "Home" || e.key === "End") && n && active >= 0) {
      e.preventDefault();
      setActive(e.key === "Home" ? 0 : n - 1);
    } else if (e.key === "Enter" && active >= 0 && items[active]) {
      e.preventDefault();
      choose(items[active]!);
    } else if (e.key === "Escape") {
      if (open && n) {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (q) {
        e.preventDefault();
        setQ("");
      }
    }
  };
  const expanded = items.length > 0;
  const status = !asked || found.isFetching ? "" : items.length === 0 ? "No mod found" : items.length === 1 ? "1 mod found" : `${items.length} mods found`;
  return (
    <div
      className="field suggest"
      style={style}
      ref={wrap}
      onBlur={(e) => {
        if (!wrap.current?.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <label htmlFor={inputId}>{label}</label>
      <input
        id={inputId}
        type="search"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 && items[active] ? `${listId}-${active}` : undefined}
        autoComplete="off"
        required={required}
        placeholder="Name, author or tag"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKey}
      />
      <ul id={listId} role="listbox" aria-label={`Mods for ${label}`} hidden={!expanded}>
        {items.map((m, i) => (
          <li
            key={m.workshop_id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? "active" : undefined}
            onMouseDown={(e) => {
              // mousedown, before the input's blur closes the list
              e.preventDefault();
              choose(m);
            }}
          >
            {m.name}
            {note?.(m.workshop_id) ?? ""}
          </li>
        ))}
      </ul>
      <span className="sr-only" role="status" aria-live="polite">
        {status}
      </span>
    </div>
  );
}
