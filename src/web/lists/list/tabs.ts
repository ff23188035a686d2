// The list page's tabs, in the order they are shown. A new tab: one file in this folder exporting
// a `listTab({ id, label, open, Component })`, and one line here.
import { modsTab } from "./mods";
import { checkTab } from "./check";
import { suggestionsTab } from "./suggestions";
import { templatesTab } from "./templates";
import { importTab } from "./import";
import { exportTab } from "./export";
import { historyTab } from "./history";
import { sharingTab } from "./sharing";
import { settingsTab } from "./settings";

export const LIST_TABS = [modsTab, checkTab, suggestionsTab, templatesTab, importTab, exportTab, historyTab, sharingTab, settingsTab] as const;
export type ListTab = (typeof LIST_TABS)[number]["id"];
