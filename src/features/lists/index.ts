// The lists feature's registry entry and its public face: what other features may call.
// Everything else in this folder is the feature's own (docs/architecture.md, "Features and their
// public faces"); the tables are public in tables.ts.
import type { FeatureModule } from "../feature-module";
import { listsRoutes } from "./routes";
import { listConfigAad } from "./server-config";
import { documentAad, revisionAad } from "./remembered-config";

export const listsFeature: FeatureModule = {
  name: "lists",
  routes: listsRoutes,
  // Sealed with the credential key (src/db/sealed.ts): rotate-key and restore iterate these.
  sealed: [
    { table: "list_server_configs", column: "secrets", idColumn: "list_id", aad: listConfigAad, label: "list config secret" },
    { table: "list_server_configs", column: "document", idColumn: "list_id", aad: documentAad, label: "list server config" },
    { table: "list_server_config_revisions", column: "document", idColumn: "audit_id", aad: revisionAad, label: "earlier list server config" },
  ],
};

// Who may do what with a list: one permission model for every list, suggestion, deploy and server route.
export {
  resolveListAccess,
  requireListRead,
  requireListOwner,
  requireListPrimary,
  requireListRight,
  requireListMember,
  type AccessUser,
  type ListAccess,
} from "./access";
export { listParams } from "./model";
// Lists and their mods: creating a list, adding mods (suggestions), applying an import (templates,
// copy from a live server), the limits those obey.
export { createList } from "./service";
export { addModsToList } from "./mods";
export { applyImport, type ApplyImportResult } from "./import";
export { listFull, MAX_MODS, inTransaction } from "./rules";
export { listExists, listItemKeys, listItems, dependencyClosure, dependencyEdges } from "./repository";
// What a list turns into on a server: its pre-flight report, its server.json mods, the remembered config.
export { addModLabel, checkList, namesInWords } from "./check";
export { listModsForExport } from "./export";
export type { ImportEntry, ServerJsonMod } from "./server-json-format";
export { ConfigShapeError, writeModsIntoConfig, type ModToWrite } from "./server-json-edit";
// What the game refuses in a server config (the import preview and the deploy pre-flight).
export { checkGameConfig, type ConfigIssue } from "./game-config-check";
export { renameKeyFix } from "./game-config-paths";
export { listRequiredDefault } from "./remembered-config";
