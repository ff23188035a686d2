// The servers feature as one registry entry: routes of servers, deployments and deploy
// approval, plus the deployment worker's job handlers (src/features/deploy/jobs.ts).
import type { FeatureModule } from "../feature-module";
import { deployJobs } from "../deploy/jobs";
import { serversRoutes } from "./routes";

export const serversFeature: FeatureModule = {
  name: "servers",
  routes: serversRoutes,
  jobs: (deps) => deployJobs(deps),
};

export { rotateCredentialKey } from "./service";
