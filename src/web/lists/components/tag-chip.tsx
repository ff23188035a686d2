import type { Tag } from "../tags.services";

/** A tag: its colour as a dot, its name in the page's own colours (readable whatever the colour). */
export function TagChip({ tag }: { tag: Tag }) {
  return (
    <span className="tag">
      <span className="tag-dot" style={{ background: tag.color }} aria-hidden="true" />
      {tag.name}
    </span>
  );
}
