// Request and response schemas of collaboration: collaborators, co-owners, permission groups
// (and their assignment to lists), blocks, form fields, suggestions and votes.
import { z } from "zod";
import { name, text2000, uuid, workshopId } from "../../shared/schemas";

const bool = z.boolean({ error: "must be a boolean" });
const boolOrNull = z.boolean({ error: "must be a boolean or null" }).nullable();

// ---- params ---------------------------------------------------------------------------------

export const listParams = z.object({ id: z.string() });
export const listUserParams = z.object({ id: z.string(), userID: z.string() });
export const listGroupParams = z.object({ id: z.string(), groupID: z.string() });
export const listFieldParams = z.object({ id: z.string(), fieldID: z.string() });
export const listSuggestionParams = z.object({ id: z.string(), suggID: z.string() });
export const groupParams = z.object({ groupID: z.string() });
export const groupUserParams = z.object({ groupID: z.string(), userID: z.string() });

export const shareQuery = z.object({ share: z.string().optional() });
/** `token` is the list's suggestion token; `share` its share token. */
export const suggestionTokenQuery = z.object({ token: z.string().optional(), share: z.string().optional() });
export const suggestionListQuery = z.object({
  status: z.enum(["pending", "reviewed", "accepted", "rejected"], { error: "must be pending, reviewed, accepted or rejected" }).optional(),
});

// ---- people ---------------------------------------------------------------------------------

/** A display name or an e-mail address. */
export const searchBody = z.object({
  search: z
    .string({ error: "must be a display name or an e-mail address" })
    .transform((v) => v.trim())
    .refine((v) => v.length >= 1 && v.length <= 320, { message: "must be a display name or an e-mail address" }),
});

export const addCollaboratorBody = searchBody.extend({
  can_add: bool.optional(),
  can_remove: bool.optional(),
  can_deploy: bool.optional(),
});

export const collaboratorFlagsBody = z.object({
  can_add: bool.optional(),
  can_remove: bool.optional(),
  can_deploy: bool.optional(),
});

export const personOut = z.object({ user_id: z.string(), display_name: z.string(), added_at: z.string() });
export const collaboratorOut = z.object({
  user_id: z.string(),
  display_name: z.string(),
  can_add: z.boolean(),
  can_remove: z.boolean(),
  can_deploy: z.boolean(),
  added_at: z.string(),
});

// ---- groups ---------------------------------------------------------------------------------

export const createGroupBody = z.object({
  name,
  description: text2000.optional(),
  can_add: bool.optional(),
  can_remove: bool.optional(),
  can_deploy: bool.optional(),
});
export const updateGroupBody = z.object({
  name: name.optional(),
  description: text2000.optional(),
  can_add: bool.optional(),
  can_remove: bool.optional(),
  can_deploy: bool.optional(),
});
export const assignCommunityBody = z.object({
  community_id: z.union([uuid, z.literal(""), z.null()], { error: "must be a UUID, an empty string or null" }),
});

export const groupOut = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  can_add: z.boolean(),
  can_remove: z.boolean(),
  can_deploy: z.boolean(),
  community_id: z.string().nullable(),
  owner_id: z.string(),
  owner_name: z.string(),
  is_primary_owner: z.boolean(),
  member_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const listGroupBody = z.object({
  group_id: z.string({ error: "must be a group id" }).min(1, { message: "must be a group id" }),
  can_add: boolOrNull.optional(),
  can_remove: boolOrNull.optional(),
  can_deploy: boolOrNull.optional(),
});
export const listGroupPatchBody = z.object({
  can_add: boolOrNull.optional(),
  can_remove: boolOrNull.optional(),
  can_deploy: boolOrNull.optional(),
});

const flags = z.object({ can_add: z.boolean(), can_remove: z.boolean(), can_deploy: z.boolean() });
export const listGroupOut = z.object({
  group_id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Effective flags on this list: the override, or the group default where the override is null. */
  can_add: z.boolean(),
  can_remove: z.boolean(),
  can_deploy: z.boolean(),
  overrides: z.object({ can_add: z.boolean().nullable(), can_remove: z.boolean().nullable(), can_deploy: z.boolean().nullable() }),
  defaults: flags,
  member_count: z.number(),
  added_at: z.string(),
});

// ---- moderation -----------------------------------------------------------------------------

export const blockBody = z.object({ user_id: z.string({ error: "must be a user id" }).min(1, { message: "must be a user id" }) });
export const blockOut = z.object({ user_id: z.string(), display_name: z.string(), blocked_by: z.string().nullable(), created_at: z.string() });

// ---- form fields ----------------------------------------------------------------------------

export const FIELD_TYPES = ["text", "checkbox", "select"] as const;
export const formFieldBody = z
  .object({
    label: z
      .string({ error: "must be 1 to 200 characters" })
      .transform((v) => v.trim())
      .refine((v) => v.length >= 1 && v.length <= 200, { message: "must be 1 to 200 characters" }),
    type: z.enum(FIELD_TYPES, { error: "must be text, checkbox or select" }),
    required: bool.optional(),
    options: z
      .array(
        z
          .string({ error: "must be an array of strings" })
          .transform((v) => v.trim())
          .refine((v) => v.length >= 1 && v.length <= 200, { message: "each option must be 1 to 200 characters" }),
        { error: "must be an array of strings" },
      )
      .max(100, { message: "must have at most 100 options" })
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    const opts = v.options ?? [];
    if (v.type === "select" && opts.length === 0) ctx.addIssue({ code: "custom", path: ["options"], message: "a select field needs at least one option" });
    if (v.type !== "select" && opts.length > 0) ctx.addIssue({ code: "custom", path: ["options"], message: "only select fields have options" });
    if (new Set(opts).size !== opts.length) ctx.addIssue({ code: "custom", path: ["options"], message: "options must be unique" });
  });
export type FormFieldInput = z.infer<typeof formFieldBody>;

export const formFieldOut = z.object({
  id: z.string(),
  list_id: z.string(),
  label: z.string(),
  type: z.enum(FIELD_TYPES),
  required: z.boolean(),
  options: z.array(z.string()),
  position: z.number(),
  created_at: z.string(),
});

// ---- suggestions ----------------------------------------------------------------------------

const answerValue = z.union([z.string(), z.boolean()], { error: "answers must be strings or booleans" });
/** Object form `{<field_id>: value}` or array form `[{field_id, value}]` (docs/collaboration.md). */
export const formAnswersIn = z.union(
  [
    z.record(z.string(), answerValue),
    z.array(z.object({ field_id: z.string({ error: "field_id must be a string" }), value: answerValue }), { error: "must be an object or an array of {field_id, value}" }),
  ],
  { error: "must be an object keyed by field id or an array of {field_id, value}" },
);

export const createSuggestionBody = z.object({
  workshop_id: workshopId,
  reason: text2000.optional(),
  form_answers: formAnswersIn.nullable().optional(),
  /** The list's suggestion token, as an alternative to `?token=`. */
  suggestion_token: z.string().optional(),
});

export const voteBody = z.object({
  vote: z.union([z.literal(1), z.literal(0)], { error: "must be 1 or 0" }),
  suggestion_token: z.string().optional(),
});
export const voteOut = z.object({ votes: z.number(), voted: z.boolean() });

export const reviewBody = z.object({
  status: z.enum(["accepted", "rejected"], { error: "must be accepted or rejected" }),
  note: text2000.nullable().optional(),
});

export const suggestionOut = z.object({
  id: z.string(),
  list_id: z.string(),
  workshop_id: z.string(),
  mod_name: z.string().nullable(),
  reason: z.string(),
  form_answers: z.record(z.string(), z.union([z.string(), z.boolean()])),
  status: z.enum(["pending", "accepted", "rejected"]),
  note: z.string().nullable(),
  user_id: z.string(),
  display_name: z.string(),
  reviewed_by: z.string().nullable(),
  reviewed_at: z.string().nullable(),
  created_at: z.string(),
  votes: z.number(),
  voted: z.boolean(),
});
