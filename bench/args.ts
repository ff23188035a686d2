// The benches' command-line options: `--name value` or `--name=value`; a value is not taken from a
// following `--flag` (so `--name --other` leaves `name` at its default).
export function argOf(name: string, def: string): string;
export function argOf(name: string, def?: string): string | undefined;
export function argOf(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  const next = i >= 0 ? process.argv[i + 1] : undefined;
  if (next !== undefined && !next.startsWith("--")) return next;
  const eq = process.argv.find((a) => a.startsWith(`--${name}=`));
  return eq !== undefined ? eq.slice(name.length + 3) : def;
}
