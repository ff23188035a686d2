// Runs the fake BattleMetrics in its own process (so a benchmark measures only our side):
//   bun test/fakes/battlemetrics-serve.ts <count> [seed] [--churn]
// prints the URL on stdout and serves until killed. --churn moves player counts and changes one
// mod version on every 20th server (a steady-state scan after the first).
import { generateBmServers, startFakeBattleMetrics } from "./battlemetrics";

const count = Number(process.argv[2] ?? 5000);
const seed = Number(process.argv[3] ?? 42);
const servers = generateBmServers(count, { seed });
if (process.argv.includes("--churn")) {
  servers.forEach((s, i) => {
    const a = s.attributes as any;
    a.players = (a.players + 3) % (a.maxPlayers + 1);
    if (i % 20 === 0 && a.details.reforger.mods.length > 0) a.details.reforger.mods[0].version = "2.0.0";
  });
}
const fake = startFakeBattleMetrics({ servers });
console.log(fake.url);
