// Runs the fake BattleMetrics in its own process (so a benchmark measures only our side):
//   bun test/fakes/battlemetrics-serve.ts <count> [seed] [--churn [K]]
// prints the URL on stdout and serves until killed. --churn moves player counts and changes one
// mod version on every 20th server (a steady-state scan after the first). --churn K (0-19) is the
// K-th such round in a row: players moved K + 1 times, and the mod versions of rounds 0..K
// changed (each on its own 20th of the servers), so each round differs from the one before in
// ~5 % of the lists (--churn alone is --churn 0).
import { generateBmServers, startFakeBattleMetrics } from "./battlemetrics";

const count = Number(process.argv[2] ?? 5000);
const seed = Number(process.argv[3] ?? 42);
const servers = generateBmServers(count, { seed });
const at = process.argv.indexOf("--churn");
if (at >= 0) {
  const k = /^\d+$/.test(process.argv[at + 1] ?? "") ? Number(process.argv[at + 1]) : 0;
  if (k > 19) throw new Error("--churn K: 0 to 19");
  servers.forEach((s, i) => {
    const a = s.attributes as any;
    a.players = (a.players + 3 * (k + 1)) % (a.maxPlayers + 1);
    if (i % 20 <= k && a.details.reforger.mods.length > 0) a.details.reforger.mods[0].version = `2.0.${i % 20}`;
  });
}
const fake = startFakeBattleMetrics({ servers });
console.log(fake.url);
