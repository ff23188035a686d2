// The users feature's registry entry (/users, /me, API keys, approval) and what other features
// may use of it: the accounts sign-in and registration (auth) work with.
import type { FeatureModule } from "../feature-module";
import { usersRoutes } from "./routes";

export const usersFeature: FeatureModule = { name: "users", routes: usersRoutes };

export { approvalForNewAccount, createUser, findUserByEmail, hasAdmin, verifyPassword } from "./service";
