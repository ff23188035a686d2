// Runs the fake workshop in its own process (so a benchmark measures only our side):
//   bun test/fakes/workshop-serve.ts <count> [seed]
// serves generateCatalog({ count, seed }) (the ~42,000-mod benchmark catalog at full scale),
// prints the URL on stdout, and on SIGINT or SIGTERM prints one JSON line with the requests it
// answered by kind, then exits.
import { startFakeWorkshop } from "./workshop";
import { generateCatalog } from "../fixtures/workshop/dataset";

const count = Number(process.argv[2] ?? 42_000);
const seed = Number(process.argv[3] ?? 42);
const fake = startFakeWorkshop({ mods: generateCatalog({ count, seed }) });
console.log(fake.url);
const report = () => {
  const kinds = { listing: fake.dataRequestsTo("listing").length, detail: fake.dataRequestsTo("detail").length, scenarios: fake.dataRequestsTo("scenarios").length };
  console.log(JSON.stringify({ requests: fake.requests.length, ...kinds }));
  fake.stop();
  process.exit(0);
};
process.on("SIGINT", report);
process.on("SIGTERM", report);
