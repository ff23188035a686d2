// The auth feature's registry entry: register, sign-in, magic link, e-mail verification, chat OAuth.
import type { FeatureModule } from "../feature-module";
import { authRoutes } from "./routes";

export const authFeature: FeatureModule = { name: "auth", routes: authRoutes };
