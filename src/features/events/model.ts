// Request and response schemas of the webhooks and notifications routes.
import { z } from "zod";
import { name, queryBool, uuid } from "../../shared/schemas";
import { EVENT_KINDS } from "./kinds";

const kindsList = EVENT_KINDS.join(", ");

const eventKind = z.string({ error: "must be an event kind" }).refine((v) => (EVENT_KINDS as readonly string[]).includes(v), {
  message: `unknown event kind (one of ${kindsList})`,
});

const webhookUrl = z
  .string({ error: "must be a URL" })
  .trim()
  .min(1, { message: "must be a URL" })
  .max(2048, { message: "must be at most 2048 characters" });

const eventsArray = z
  .array(eventKind, { error: "must be an array of event kinds" })
  .min(1, { message: "must name at least one event kind" })
  .transform((v) => [...new Set(v)]);

export const createWebhookBody = z.object({
  url: webhookUrl,
  type: z.enum(["chat", "custom"], { error: "must be chat or custom" }),
  /** Defaults to every event kind. */
  events: eventsArray.optional(),
  scope: z.enum(["global", "list"], { error: "must be global or list" }).default("global"),
  list_id: uuid.nullish(),
  name: name.optional(),
});
export type CreateWebhookInput = z.infer<typeof createWebhookBody>;

export const updateWebhookBody = z.object({
  url: webhookUrl.optional(),
  events: eventsArray.optional(),
  scope: z.enum(["global", "list"], { error: "must be global or list" }).optional(),
  list_id: uuid.nullish(),
  name: name.optional(),
  /** true re-enables an auto-disabled webhook (and clears its failure count). */
  enabled: z.boolean({ error: "must be a boolean" }).optional(),
});
export type UpdateWebhookInput = z.infer<typeof updateWebhookBody>;

export const webhookView = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  type: z.enum(["chat", "custom"]),
  events: z.array(z.string()),
  scope: z.enum(["global", "list"]),
  list_id: z.string().nullable(),
  enabled: z.boolean(),
  consecutive_failures: z.number().int(),
  disabled_at: z.string().nullable(),
  last_delivery_at: z.string().nullable(),
  last_status: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookView = z.infer<typeof webhookView>;

/** The creation answer: the webhook plus, for custom webhooks, its signing secret (shown once). */
export const createdWebhookView = webhookView.extend({ secret: z.string().optional() });

export const deliveryView = z.object({
  id: z.string(),
  event_id: z.string(),
  event: z.string(),
  attempt: z.number().int(),
  success: z.boolean(),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  next_retry_at: z.string().nullable(),
  created_at: z.string(),
});

export const testResultView = z.object({
  ok: z.boolean(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});

export const notificationView = z.object({
  id: z.string(),
  event: z.string(),
  title: z.string(),
  body: z.string(),
  list_id: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  read: z.boolean(),
  created_at: z.string(),
});

export const inboxQuery = z.object({
  unread: queryBool.optional(),
  limit: z.coerce
    .number({ error: "must be an integer" })
    .int({ message: "must be an integer" })
    .min(1, { message: "must be 1 to 200" })
    .max(200, { message: "must be 1 to 200" })
    .default(50),
});

export const idParams = z.object({ id: z.string() });

export const preferencesBody = z.object({
  events: z
    .record(z.string(), z.boolean({ error: "must be a boolean" }), { error: "must be an object of event kind to boolean" })
    .superRefine((v, ctx) => {
      for (const k of Object.keys(v)) {
        if (!(EVENT_KINDS as readonly string[]).includes(k)) {
          ctx.addIssue({ code: "custom", message: `unknown event kind ${k}` });
          return;
        }
      }
    }),
});

export const preferencesView = z.object({ events: z.record(z.string(), z.boolean()) });
