// The collaboration feature's registry entry: collaborators, co-owners, groups, suggestions, votes, form fields, blocks.
import type { FeatureModule } from "../feature-module";
import { collaborationRoutes } from "./routes";

export const collaborationFeature: FeatureModule = { name: "collaboration", routes: collaborationRoutes };
