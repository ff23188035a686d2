// Whether this process is the compiled executable (`bun build --compile`, scripts/build.ts) rather
// than `bun src/main.ts`: its entry point lives in Bun's embedded file system. Asked of `Bun.main`
// at run time, not of import.meta.dir: with --bytecode (our build) import.meta.dir keeps the path
// the source had on the build machine, so a binary run where that checkout exists would take
// itself for the source tree (rebuilding the web app from the checkout on its first page, and
// failing on any other machine; docs/performance.md records the cost).
export const isCompiled = (): boolean => Bun.main.startsWith("/$bunfs") || Bun.main.includes("~BUN");

/** Files the executable carries (scripts/build.ts embeds the web app's compressed files). */
export const embeddedFiles = (): (Blob & { name: string })[] =>
  (Bun as unknown as { embeddedFiles?: (Blob & { name: string })[] }).embeddedFiles ?? [];
