// zod schemas of the workshop's Next.js data routes (external-formats.md §2).
// Every payload the scraper reads is parsed through these; a failure names the path that
// changed so a job error says exactly which part of the site's shape moved.
import { z } from "zod";

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not a date");
const workshopIdSchema = z.string().regex(/^[0-9A-Fa-f]{16}$/, "not a 16-hex workshop id");

export const previewSchema = z.object({
  url: z.string(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  thumbnails: z.unknown().optional(),
});

export const tagSchema = z.object({
  name: z.string(),
  category: z.string().nullish(),
});

export const authorSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  username: z.string(),
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

export const listingPageSchema = z.object({
  pageProps: z.object({
    assets: z.object({
      count: z.number().int().nonnegative(),
      rows: z.array(assetRowSchema),
    }),
  }),
});
export type ListingPage = z.infer<typeof listingPageSchema>["pageProps"]["assets"];

export const assetVersionSchema = z.object({
  version: z.string(),
  approved: z.boolean().nullish(),
  published: z.boolean().nullish(),
  gameVersion: z.string().nullish(),
  totalFileSize: z.number().nullish(),
  createdAt: isoDate,
  scenariosCount: z.number().nullish(),
  dependenciesCount: z.number().nullish(),
});
export type AssetVersion = z.infer<typeof assetVersionSchema>;

export const screenshotSchema = z.object({
  url: z.string(),
  width: z.number().nullish(),
  height: z.number().nullish(),
  thumbnails: z.unknown().optional(),
});

export const detailAssetSchema = assetRowSchema.extend({
  description: z.string().nullish(),
  license: z.string().nullish(),
  screenshots: z.array(screenshotSchema).nullish(),
  gameVersion: z.string().nullish(),
  obsolete: z.boolean().nullish(),
  versions: z.array(assetVersionSchema),
});
export type DetailAsset = z.infer<typeof detailAssetSchema>;

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
