// Choosing a mod from the catalog by typing: the accessible combobox (mod-combobox.tsx), cleared
// after each choice.
import { ModCombobox, type PickedMod } from "./mod-combobox";

export type { PickedMod };

export function ModPicker({ label, onPick, note, required }: { label: string; onPick: (m: PickedMod) => void; note?: (workshopId: string) => string; required?: boolean }) {
  return <ModCombobox label={label} onChoose={onPick} note={note} required={required} clearOnChoose />;
}
