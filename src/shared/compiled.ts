// Whether this process is the compiled executable (`bun build --compile`, scripts/build.ts) rather
// than `bun src/main.ts`. Not from import.meta.dir: with --bytecode (our build) it keeps the path
// the source had on the build machine, so a binary run where that checkout exists would take
// itself for the source tree (measured: the binary rebuilt and recompressed the web app from the
// checkout on its first page, ~1-9 s, and would have failed on any other machine).
/** Files the executable carries (scripts/build.ts embeds the web app's compressed files). */
export const embeddedFiles = (): (Blob & { name: string })[] => (Bun as unknown as { embeddedFiles?: (Blob & { name: string })[] }).embeddedFiles ?? [];

export const isCompiled = (): boolean =>
  embeddedFiles().length > 0 || import.meta.dir.startsWith("/$bunfs") || import.meta.dir.includes("~BUN");
