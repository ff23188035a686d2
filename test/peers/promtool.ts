// `promtool check metrics` (Debian's prometheus package) is the judge of every metrics body.
// The spec fixes five gauge names that promtool's linter dislikes (a gauge named *_total or
// *_count); those lint lines, and only those, are accepted (docs/live.md "Metrics").
const ACCEPTED_LINT_NAMES = [
  "loadout_server_mods_count",
  "loadout_community_servers_total",
  "loadout_community_players_total",
  "loadout_community_queue_total",
  "loadout_community_public_lists_total",
];

export interface PromtoolResult {
  exitCode: number;
  output: string;
  /** Lines that are neither empty nor an accepted lint about a spec-fixed name. */
  problems: string[];
}

export function promtoolPath(): string {
  const p = Bun.which("promtool");
  if (!p) throw new Error("promtool not found: install Debian's `prometheus` package (.ci/run does)");
  return p;
}

export async function promtoolCheck(body: string): Promise<PromtoolResult> {
  const proc = Bun.spawn([promtoolPath(), "check", "metrics"], { stdin: new Blob([body]), stdout: "pipe", stderr: "pipe" });
  const [out, err, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const output = (out + err).trim();
  const problems = output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    // promtool words it "non-counter metrics should not have "_total" suffix" and
    // "non-histogram and non-summary metrics should not have "_count" suffix".
    .filter((l) => !ACCEPTED_LINT_NAMES.some((n) => l.startsWith(n + " ") && /metrics should not have "_(total|count)" suffix/.test(l)));
  return { exitCode, output, problems };
}

/** True when promtool accepts the body (exit 0, or exit 3 with only the accepted lint lines). */
export const promtoolAccepts = (r: PromtoolResult) => r.exitCode === 0 || (r.exitCode === 3 && r.problems.length === 0);
