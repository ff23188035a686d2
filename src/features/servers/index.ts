// The servers feature as one registry entry: routes of servers, deployments and deploy
// approval, the list check against a server (list-check-routes.ts), plus the deployment
// worker's job handlers (deploy/jobs.ts) and the items scan over the servers' SFTP
// (deploy/addons-over-sftp.ts). Below it: what other features may use of it.
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import type { FeatureModule } from "../feature-module";
import { itemsScanJobs } from "./deploy/addons-over-sftp";
import { deployJobs } from "./deploy/jobs";
import { serversRoutes } from "./routes";
import { listCheckRoutes } from "./list-check-routes";
import { deploymentConfigColumns } from "./deploy/config-seal";
import { rconRoutes } from "./rcon/routes";
import { rconJobs, rconSchedules } from "./rcon/jobs";
import { rconAad, rconManager } from "./rcon/manager";
import { moderationRoutes } from "./moderation/routes";
import { enforceWith } from "./moderation/service";

export const serversFeature: FeatureModule = {
  name: "servers",
  routes: (deps: Deps) => new Elysia().use(serversRoutes(deps)).use(rconRoutes(deps)).use(moderationRoutes(deps)).use(listCheckRoutes(deps)),
  jobs: (deps) => ({ ...deployJobs(deps), ...itemsScanJobs(deps), ...rconJobs(deps) }),
  schedules: rconSchedules,
  sealed: [
    // The server id is the additional authenticated data; key_id names the key beside it.
    { table: "server_credentials", column: "secret", idColumn: "server_id", aad: (id) => id, label: "server credential", keyIdColumn: "key_id" },
    ...deploymentConfigColumns,
    { table: "servers", column: "rcon_password", idColumn: "id", aad: rconAad, label: "server RCON password" },
  ],
  // One RCON connection per own server with RCON settings, its roster read on the schedule, the
  // community's bans re-applied after every (re)connection and enforced on every roster.
  start: (deps) => {
    const m = rconManager(deps);
    enforceWith(deps);
    m.start();
    return { stop: () => m.stop() };
  },
};

// The `loadout rotate-key` command.
export { rotateCredentialKey } from "./service";
// The live scan asks registered servers over A2S: their query address and credentials.
export { parseQueryAddress } from "./model";
export { readCredentialsForServer } from "./service";
// …and the mods a server runs as Loadout deployed them (or a connection test read them), for its live entry.
export { knownServerMods } from "./service";
// The platform's /metrics: players on own servers with RCON (the last fresh roster of each).
export { rconPlayerCounts } from "./rcon/service";
