// zod schemas of the workshop's Next.js data routes (/_next/data/<buildId>/...; docs/catalog.md
// "The real site, and the evidence for each shape").
// Every payload the scraper reads is parsed through these; a failure names the path that
// changed so a job error says exactly which part of the site's shape moved.
import { z } from "zod";

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not a date");
const workshopIdSchema = z.string().regex(/^[0-9A-Fa-f]{16}$/, "not a 16-hex workshop id");

/** A thumbnail of a preview or screenshot: `thumbnails` is an object keyed by MIME type. */
export const thumbnailSchema = z.object({
  url: z.string(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  contentType: z.string().nullish(),
});
/** `{"image/jpeg": [{url, width, height, contentType}, ...]}`; anything else is ignored, never a failure. */
const thumbnailsSchema = z.record(z.string(), z.array(thumbnailSchema)).nullish().catch(null);

export const previewSchema = z.object({
  url: z.string(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  contentType: z.string().nullish(),
  thumbnails: thumbnailsSchema,
});

export const tagSchema = z.object({
  name: z.string(),
  category: z.string().nullish(),
});

export const authorSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  username: z.string(),
  roles: z.unknown().optional(),
  personalBlocked: z.boolean().nullish(),
});

/** A row of the listing (`pageProps.assets.rows[]`). */
export const assetRowSchema = z.object({
  id: workshopIdSchema,
  name: z.string(),
  type: z.string().nullish(),
  summary: z.string().nullish(),
  author: authorSchema.nullish(),
  unlisted: z.boolean().nullish(),
  private: z.boolean().nullish(),
  blocked: z.boolean().nullish(),
  averageRating: z.number().nullish(),
  ratingCount: z.number().nullish(),
  subscriberCount: z.number().nullish(),
  currentVersionNumber: z.string(),
  currentVersionSize: z.number().nullish(),
  previews: z.array(previewSchema).nullish(),
  tags: z.array(tagSchema).nullish(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type AssetRow = z.infer<typeof assetRowSchema>;

/**
 * The listing page's envelope. Rows are checked one by one (assetRowSchema), so one row the
 * site changed is skipped and counted while the rest of its page is stored.
 */
export const listingPageSchema = z.object({
  pageProps: z.object({
    assets: z.object({
      count: z.number().int().nonnegative(),
      rows: z.array(z.unknown()),
    }),
  }),
});

export interface SkippedRow {
  /** The row's id when it has a readable one. */
  id: string | null;
  /** `field: message` of the first problem. */
  error: string;
}

export interface ListingPage {
  count: number;
  rows: AssetRow[];
  /** Rows that failed their schema: skipped, not stored. */
  skipped: SkippedRow[];
}

export const assetVersionSchema = z.object({
  version: z.string(),
  approved: z.boolean().nullish(),
  published: z.boolean().nullish(),
  milestone: z.boolean().nullish(),
  gameVersion: z.string().nullish(),
  totalFileSize: z.number().nullish(),
  createdAt: isoDate,
  updatedAt: isoDate.nullish(),
  assetId: z.string().nullish(),
  scenariosCount: z.number().nullish(),
  dependenciesCount: z.number().nullish(),
});
export type AssetVersion = z.infer<typeof assetVersionSchema>;

export const screenshotSchema = previewSchema;

export const scenarioSchema = z.object({
  name: z.string(),
  gameId: z.string(),
  gameMode: z.string().nullish(),
  playerCount: z.number().nullish(),
  image: z.unknown().optional(),
  description: z.string().nullish(),
});
export type Scenario = z.infer<typeof scenarioSchema>;

export interface DependencyNode {
  version: string;
  totalFileSize?: number | null;
  asset: { id: string; name: string };
  dependencies?: DependencyNode[] | null;
}

export const dependencySchema: z.ZodType<DependencyNode> = z.lazy(() =>
  z.object({
    version: z.string(),
    totalFileSize: z.number().nullish(),
    asset: z.object({ id: workshopIdSchema, name: z.string() }),
    dependencies: z.array(dependencySchema).nullish(),
  }),
);

export const detailAssetSchema = assetRowSchema.extend({
  description: z.string().nullish(),
  license: z.string().nullish(),
  screenshots: z.array(screenshotSchema).nullish(),
  gameVersion: z.string().nullish(),
  obsolete: z.boolean().nullish(),
  ratings: z.object({ likes: z.number().nullish(), dislikes: z.number().nullish(), rating: z.number().nullish() }).nullish(),
  /** The version history; the site may cap it (a saved real output shows exactly 10). */
  versions: z.array(assetVersionSchema),
  /** The dependency tree as real consumers read it (gruppe-adler/arsa-backend, soda3x/ArmaReforgerServerTool). */
  dependencies: z.array(dependencySchema).nullish(),
});
export type DetailAsset = z.infer<typeof detailAssetSchema>;

export const assetVersionDetailSchema = z.object({
  changelog: z.string().nullish(),
  scenarios: z.array(scenarioSchema).nullish(),
  dependencies: z.array(dependencySchema).nullish(),
});
export type AssetVersionDetail = z.infer<typeof assetVersionDetailSchema>;

export const detailPageSchema = z.object({
  pageProps: z.object({
    asset: detailAssetSchema,
    assetVersionDetail: assetVersionDetailSchema.nullish(),
    getAssetDownloadTotal: z.object({ total: z.number() }).nullish(),
  }),
});

export const scenariosPageSchema = z.object({
  pageProps: z.object({
    assetVersionDetail: assetVersionDetailSchema,
  }),
});

/** What the client hands back for one mod: the page parsed and flattened a little. */
export interface WorkshopDetail {
  asset: DetailAsset;
  versionDetail: AssetVersionDetail;
  downloadTotal: number;
}

/** Renders the first few issues of a failed parse as `what: path: message; ...`. */
export function describeZodError(what: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((i) => {
    const path = i.path.length ? i.path.join(".") : "(root)";
    return `${path}: ${i.message}`;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : "";
  return `workshop ${what} payload changed shape: ${parts.join("; ")}${more}`;
}

// ---- The detail page without zod, for the crawl ----
// A crawl reads ~42,000 detail pages; zod's generic parse of one cost ~0.1 ms of the ~1.1 ms a mod
// cost in all. readDetailPage reads the same shape by hand and gives the same output
// detailPageSchema.parse would (unknown keys dropped, a key absent in the input absent in the
// output, author.id as a string, thumbnails that fail their shape as null), or null whenever the
// page is anything but plainly valid: the caller then parses it with zod, so every refusal and
// its message still come from the schemas above. workshop-schemas.test.ts compares the two on
// the fixtures, the generated catalog and a mutation of every field.

const NOT_PLAIN = Symbol("not plain");
type Obj = Record<string, unknown>;
const HEX16 = /^[0-9A-Fa-f]{16}$/;

function fail(): never {
  throw NOT_PLAIN;
}
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : fail());
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : fail());
const str = (v: unknown): string => (typeof v === "string" ? v : fail());
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : fail());
const bool = (v: unknown): boolean => (typeof v === "boolean" ? v : fail());
const date = (v: unknown): string => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? v : fail());
const hex16 = (v: unknown): string => (typeof v === "string" && HEX16.test(v) ? v : fail());

/** `z.array(f)`: every index read (a hole is undefined, as zod sees it). */
function each(v: unknown, f: Reader): unknown[] {
  const a = arr(v);
  const out: unknown[] = new Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = f(a[i]);
  return out;
}
type Reader = (v: unknown) => unknown;
/** A key of a z.object: required, `.nullish()` (absent stays absent, null stays null) or `z.unknown().optional()`. */
type Field = { read: Reader; kind: "required" | "nullish" | "optional" };
const req = (read: Reader): Field => ({ read, kind: "required" });
const opt = (read: Reader): Field => ({ read, kind: "nullish" });
const anything: Field = { read: (v) => v, kind: "optional" };
const list = (f: Reader): Reader => (v) => each(v, f);
/** `z.object(spec)`: the spec's keys in its order, unknown keys dropped. */
function shape(spec: Record<string, Field>): Reader {
  const keys = Object.keys(spec);
  return (v) => {
    const s = obj(v);
    const o: Obj = {};
    for (const k of keys) {
      const f = spec[k]!;
      const x = s[k];
      if (f.kind === "required") o[k] = f.read(x);
      else if (x !== undefined) o[k] = f.kind === "nullish" && x === null ? null : f.read(x);
    }
    return o;
  };
}

const thumbnail = shape({ url: req(str), width: opt(num), height: opt(num), contentType: opt(str) });
/** `z.record(z.string(), z.array(thumbnail)).nullish().catch(null)`: whatever fails is null. */
const thumbnails: Field = {
  kind: "optional",
  read: (v) => {
    if (!isObj(v)) return null;
    const o: Obj = {};
    try {
      for (const k of Object.keys(v)) {
        if (k === "__proto__") fail();
        o[k] = each(v[k], thumbnail);
      }
    } catch (e) {
      if (e !== NOT_PLAIN) throw e;
      return null;
    }
    return o;
  },
};
const preview = shape({ url: req(str), width: opt(num), height: opt(num), contentType: opt(str), thumbnails });
const dependency: Reader = (v) => dependencyShape(v);
const dependencyShape = shape({
  version: req(str),
  totalFileSize: opt(num),
  asset: req(shape({ id: req(hex16), name: req(str) })),
  dependencies: opt(list(dependency)),
});
const detailAsset = shape({
  id: req(hex16),
  name: req(str),
  type: opt(str),
  summary: opt(str),
  // a number id is zod's path (its transform makes it a string)
  author: opt(shape({ id: req(str), username: req(str), roles: anything, personalBlocked: opt(bool) })),
  unlisted: opt(bool),
  private: opt(bool),
  blocked: opt(bool),
  averageRating: opt(num),
  ratingCount: opt(num),
  subscriberCount: opt(num),
  currentVersionNumber: req(str),
  currentVersionSize: opt(num),
  previews: opt(list(preview)),
  tags: opt(list(shape({ name: req(str), category: opt(str) }))),
  createdAt: req(date),
  updatedAt: req(date),
  description: opt(str),
  license: opt(str),
  screenshots: opt(list(preview)),
  gameVersion: opt(str),
  obsolete: opt(bool),
  ratings: opt(shape({ likes: opt(num), dislikes: opt(num), rating: opt(num) })),
  versions: req(
    list(
      shape({
        version: req(str),
        approved: opt(bool),
        published: opt(bool),
        milestone: opt(bool),
        gameVersion: opt(str),
        totalFileSize: opt(num),
        createdAt: req(date),
        updatedAt: opt(date),
        assetId: opt(str),
        scenariosCount: opt(num),
        dependenciesCount: opt(num),
      }),
    ),
  ),
  dependencies: opt(list(dependency)),
});
const detailPage = shape({
  pageProps: req(
    shape({
      asset: req(detailAsset),
      assetVersionDetail: opt(
        shape({
          changelog: opt(str),
          scenarios: opt(
            list(shape({ name: req(str), gameId: req(str), gameMode: opt(str), playerCount: opt(num), image: anything, description: opt(str) })),
          ),
          dependencies: opt(list(dependency)),
        }),
      ),
      getAssetDownloadTotal: opt(shape({ total: req(num) })),
    }),
  ),
});

/** What `detailPageSchema.parse(json)` gives for a plainly valid page; null otherwise (use zod). */
export function readDetailPage(json: unknown): z.output<typeof detailPageSchema> | null {
  try {
    return detailPage(json) as z.output<typeof detailPageSchema>;
  } catch {
    return null; // not plain (or anything unexpected): zod decides
  }
}
