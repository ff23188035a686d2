// Request and response schemas of the lists feature (zod 4; types come from z.infer).
import { z } from "zod";
import { name, queryBool, text2000, uuid, workshopId } from "../../shared/schemas";

const ageDays = z
  .number({ error: "must be an integer or null" })
  .int({ message: "must be an integer or null" })
  .min(1, { message: "must be at least 1" })
  .max(36500, { message: "must be at most 36500" })
  .nullable();

export const createListBody = z.object({
  name,
  description: text2000.optional(),
  is_public: z.boolean({ error: "must be a boolean" }).optional(),
  max_mod_age_days: ageDays.optional(),
});

export const updateListBody = z.object({
  name: name.optional(),
  description: text2000.optional(),
  is_public: z.boolean({ error: "must be a boolean" }).optional(),
  /** Accepted as a synonym of is_public (the spec's table says "visibility"). */
  visibility: z.enum(["public", "private"], { error: "must be public or private" }).optional(),
  max_mod_age_days: ageDays.optional(),
});

/** Empty string or null unassigns. */
const optionalRef = z.union([uuid, z.literal(""), z.null()], { error: "must be a UUID" });
export const communityBody = z.object({ community_id: optionalRef });
export const folderBody = z.object({ folder_id: optionalRef });

export const shareQuery = z.object({ share: z.string().max(100).optional() });
export const publicListsQuery = z.object({
  public: z.string().optional(),
  share: z.string().optional(),
  search: z.string().max(100).optional(),
  community_id: z.string().max(100).optional(),
  limit: z.coerce.number({ error: "must be an integer" }).int().min(1, { message: "must be 1 to 500" }).max(500, { message: "must be 1 to 500" }).default(100),
  offset: z.coerce.number({ error: "must be an integer" }).int().min(0, { message: "must be at least 0" }).default(0),
});

export const listParams = z.object({ id: z.string() });
export const listModParams = z.object({ id: z.string(), workshopID: workshopId });

export const addModBody = z.object({
  workshop_id: workshopId,
  with_dependencies: z.boolean({ error: "must be a boolean" }).optional(),
});
export const versionBody = z.object({
  version: z.string({ error: "must be a string or null" }).trim().min(1, { message: "must be a non-empty string or null" }).max(200).nullable(),
});
/** Per-mod `required`: true or false states it, null returns to the list's modsRequiredByDefault. */
export const requiredBody = z.object({
  required: z.boolean({ error: "must be true, false or null" }).nullable(),
});
export const reorderBody = z.object({ order: z.array(workshopId, { error: "must be an array of workshop IDs" }).max(1000) });

export const importQuery = z.object({
  check_order: queryBool.optional(),
  share: z.string().optional(),
  /**
   * What to do with pins the catalog does not have: comma-separated
   * `<workshop id>:unpinned` (import the mod without a pin) or `<workshop id>:skip` (leave the
   * entry out; a mod already in the list stays as it is).
   */
  resolve: z.string().max(20_000, { message: "must be at most 20000 characters" }).optional(),
  /** A full config's settings: `keep` the remembered ones (default) or `replace` them with the file's (owners). */
  config: z.enum(["keep", "replace"], { error: "must be keep or replace" }).optional(),
});
export const exportQuery = z.object({
  type: z.enum(["fixed", "latest"], { error: "must be fixed or latest" }).default("fixed"),
  share: z.string().optional(),
});

const snapshotText = (max: number) => z.string({ error: "must be a string" }).max(max, { message: `must be at most ${max} characters` }).nullable().optional();
export const snapshotBody = z.object({
  version_name: snapshotText(100),
  tag: snapshotText(100),
  notes: snapshotText(2000),
  is_release: z.boolean({ error: "must be a boolean" }).optional(),
});
export const snapshotParams = z.object({ id: z.string(), versionID: z.string() });
export const auditParams = z.object({ id: z.string(), entryID: z.string() });

// ---- responses ----------------------------------------------------------------------------

export const createdListResponse = z.object({ id: z.string(), share_token: z.string(), suggestion_token: z.string() });

export const listSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  is_public: z.boolean(),
  owner_id: z.string(),
  owner_name: z.string(),
  share_token: z.string().optional(),
  suggestion_token: z.string().optional(),
  require_deploy_approval: z.boolean(),
  community_id: z.string().nullable(),
  folder_id: z.string().nullable(),
  max_mod_age_days: z.number().nullable(),
  mod_count: z.number(),
  total_size_bytes: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The list's tags (so a lists page can show and filter them without a request per list). */
  tags: z.array(z.object({ id: z.string(), name: z.string(), color: z.string() })),
  role: z.string().optional(),
});

export const listItem = z.object({
  workshop_id: z.string(),
  name: z.string(),
  version: z.string(),
  pinned_version: z.string().nullable(),
  size_bytes: z.number(),
  image_url: z.string().nullable(),
  position: z.number(),
  added_at: z.string(),
  /** Who added the mod to the list; null when not recorded (an import by an account since deleted). */
  added_by: z.object({ user_id: z.string(), display_name: z.string() }).nullable(),
  /** When the workshop last updated the mod (the age rule's clock); null when the catalog lacks it. */
  mod_updated_at: z.string().nullable(),
  too_old: z
    .boolean()
    .describe("The list's age rule says this mod is too old: the catalog knows it and its latest version is older than max_mod_age_days (never true without a limit)"),
  /** server.json's per-mod `required` as it applies: the stated value, else the list's modsRequiredByDefault. */
  required: z.boolean(),
  /** The stated value (from the imported file or set by hand); null when the default applies. */
  required_stated: z.boolean().nullable(),
});

export interface DepNodeOut {
  workshop_id: string;
  name: string;
  dependencies: DepNodeOut[];
}
export const depNode: z.ZodType<DepNodeOut> = z.object({
  workshop_id: z.string(),
  name: z.string(),
  get dependencies() {
    return z.array(depNode);
  },
});

export const tagOut = z.object({ id: z.string(), name: z.string(), color: z.string() });

export const listDetail = listSummary.omit({ owner_name: true, role: true, tags: true }).extend({
  items: z.array(listItem),
  tags: z.array(tagOut),
  dependency_tree: z.array(depNode),
  missing_dependencies: z.array(z.object({ workshop_id: z.string(), name: z.string(), required_by: z.array(z.string()) })),
  /** What a mod without a stated `required` means: the remembered config's modsRequiredByDefault, else true (the game's default). */
  mods_required_by_default: z.boolean(),
  /** Whether export/game writes a remembered config (`imported`) or the documented defaults. */
  server_config: z.enum(["imported", "defaults"]),
  /** The caller's rights on this list (owner, primary owner, add, remove, deploy; read via the share link only). */
  my_access: z.object({
    is_owner: z.boolean(),
    is_primary: z.boolean(),
    can_add: z.boolean(),
    can_remove: z.boolean(),
    can_deploy: z.boolean(),
    can_import: z.boolean().describe("May import a server.json into the list (import needs both can_add and can_remove)"),
    via_share: z.boolean(),
  }),
});

/** Something the game would refuse (fatal) or misread in a config, where it stands. */
export const configProblem = z.object({
  kind: z.enum(["unknown_key", "legacy_key", "duplicate_key", "wrong_type", "out_of_range", "pattern", "not_allowed_value", "too_many", "unsafe_integer"]),
  path: z.string(),
  fatal: z.boolean(),
  message: z.string(),
  line: z.number(),
  column: z.number(),
  fix: z.object({ kind: z.literal("rename_key"), from: z.string(), to: z.string(), path: z.string() }).optional(),
  detail: z.string().optional(),
});

export const importDiff = z.object({
  /** New mods the catalog knows; `pinned`: the file names a version, which the mod comes in pinned to. */
  added: z.array(z.object({ workshop_id: z.string(), name: z.string(), version: z.string(), size_bytes: z.number(), in_catalog: z.boolean(), pinned: z.boolean() })),
  removed: z.array(z.object({ workshop_id: z.string(), name: z.string() })),
  version_changed: z.array(z.object({ workshop_id: z.string(), name: z.string(), old_version: z.string().nullable(), new_version: z.string().nullable() })),
  order_changed: z.array(z.object({ workshop_id: z.string(), name: z.string(), old_index: z.number(), new_index: z.number() })),
  unchanged: z.array(z.object({ modId: z.string(), name: z.string(), version: z.string().optional(), required: z.boolean().optional() })),
  not_in_catalog: z.array(z.object({ mod_id: z.string(), name: z.string(), version: z.string().nullable() })),
  /** Mods whose stated `required` changes (null: not stated, the default applies). */
  required_changed: z.array(z.object({ workshop_id: z.string(), name: z.string(), old_required: z.boolean().nullable(), new_required: z.boolean().nullable() })),
  /**
   * Mods the list follows at their newest (unpinned) whose entry in the file names that newest
   * version: not pinned by the import, they stay unpinned and move on with the next update.
   */
  kept_latest: z.array(z.object({ workshop_id: z.string(), name: z.string(), version: z.string() })),
  /**
   * Every pin the catalog does not have, all at once, with the resolution chosen in `resolve`
   * (null: none yet; import-apply refuses the file until each has one).
   */
  stale_pins: z.array(
    z.object({
      workshop_id: z.string(),
      name: z.string(),
      version: z.string(),
      entry: z.string(),
      latest_version: z.string(),
      in_list: z.boolean(),
      resolution: z.enum(["unpinned", "skip"]).nullable(),
    }),
  ),
  /** What the reader tolerated or assumed, in words ("3 comments were ignored"). */
  notes: z.array(z.string()),
  /** Settings of a full config that differ from, are added to or would be removed from the list's remembered ones (paths; secrets by path, for owners only). */
  config_changes: z.array(z.string()),
  /** What the import does with the file's settings (docs/lists.md "What a file says is kept"). */
  config: z
    .object({
      file: z.enum(["settings", "mods_only", "none"]),
      remembered: z.boolean(),
      action: z.enum(["remember", "replace", "keep", "none"]),
      may_replace: z.boolean(),
      changed: z.array(z.string()),
      added: z.array(z.string()),
      removed: z.array(z.string()),
      secrets: z.array(z.object({ path: z.string(), state: z.enum(["changed", "set_by_file"]) })),
      problems: z.array(configProblem),
    })
    .optional(),
});
export const importApplyResponse = z.object({ ok: z.boolean(), added: z.number(), removed: z.number(), version_changed: z.number() });

/** A list's remembered server config, secrets never included. */
export const serverConfigOut = z.object({
  source: z.enum(["imported", "defaults"]),
  /** Every key of the file but game.mods, in the file's order; null at each secret's place. Null when the list has none. */
  settings: z.record(z.string(), z.unknown()).nullable(),
  secrets: z.array(z.object({ path: z.string(), set: z.boolean() })),
  updated_at: z.string().nullable(),
});
export const serverConfigBody = z.object({
  settings: z.record(z.string(), z.unknown(), { error: "must be an object" }).optional(),
  secrets: z.record(z.string(), z.string().max(1000, { message: "must be at most 1000 characters" }).nullable(), { error: "must be an object of path: string or null" }).optional(),
});

export const snapshotOut = z.object({
  id: z.string(),
  list_id: z.string(),
  version_name: z.string().nullable(),
  tag: z.string().nullable(),
  notes: z.string().nullable(),
  is_release: z.boolean(),
  snapshot_json: z.array(z.object({ modId: z.string(), name: z.string(), version: z.string() })),
  created_by: z.string().nullable(),
  created_at: z.string(),
});

export const auditOut = z.object({
  id: z.string(),
  action: z.string(),
  workshop_id: z.string().nullable(),
  mod_name: z.string().nullable(),
  old_value: z.record(z.string(), z.unknown()).nullable(),
  new_value: z.record(z.string(), z.unknown()).nullable(),
  user_id: z.string().nullable(),
  display_name: z.string().nullable(),
  reverted: z.boolean(),
  created_at: z.string(),
});

export const addModResponse = z.object({
  ok: z.boolean(),
  added: z.array(z.object({ workshop_id: z.string(), name: z.string(), in_catalog: z.boolean() })),
});

