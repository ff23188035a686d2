// The servers feature as one registry entry: routes of servers, deployments and deploy
// approval, plus the deployment worker's job handlers (src/features/servers/deploy/jobs.ts) and the items
// scan over the servers' SFTP (src/features/servers/deploy/addons-over-sftp.ts).
import type { FeatureModule } from "../feature-module";
import { itemsScanJobs } from "./deploy/addons-over-sftp";
import { deployJobs } from "./deploy/jobs";
import { serversRoutes } from "./routes";

export const serversFeature: FeatureModule = {
  name: "servers",
  routes: serversRoutes,
  jobs: (deps) => ({ ...deployJobs(deps), ...itemsScanJobs(deps) }),
};

export { rotateCredentialKey } from "./service";
