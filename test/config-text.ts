// Comparing config files byte for byte outside `game.mods` (issue "edit, don't rewrite"): the
// text with the mods array's inside cut out, so two files that differ only in their mods compare equal.
import { nodeAt, parseJsonDocument } from "../src/shared/jsonc";

/** `text` with the inside of `game.mods` replaced by `…` (the text itself when it has no game.mods). */
export function outsideMods(text: string): string {
  const arr = nodeAt(parseJsonDocument(text).root, ["game", "mods"]);
  if (!arr || arr.type !== "array") return text;
  return `${text.slice(0, arr.offset + 1)}…${text.slice(arr.offset + arr.length - 1)}`;
}
