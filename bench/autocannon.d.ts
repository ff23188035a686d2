// autocannon ships no types and @types/autocannon is not a dependency: the runner uses a small,
// dynamically checked part of its API (see bench/run.ts `drive`).
declare module "autocannon" {
  const autocannon: (opts: Record<string, unknown>) => Promise<any>;
  export default autocannon;
}
