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
