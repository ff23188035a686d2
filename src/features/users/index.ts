// The users feature's registry entry (/users, /me, API keys, approval) and what other features
// may use of it: the accounts sign-in and registration (auth) work with, and the single-use
// e-mail tokens (auth_tokens) of magic links and e-mail verification.
import type { FeatureModule } from "../feature-module";
import { usersRoutes } from "./routes";
import { ensureBootstrapAdmin } from "./service";

export const usersFeature: FeatureModule = {
  name: "users",
  routes: usersRoutes,
  // The first admin on an empty database, from LOADOUT_ADMIN_EMAIL / LOADOUT_ADMIN_PASSWORD.
  start: async (deps) => void (await ensureBootstrapAdmin(deps)),
};

export {
  approvalForNewAccount,
  consumeEmailToken,
  createEmailToken,
  createUser,
  findUserByDiscordId,
  findUserByEmail,
  findUserById,
  hasAdmin,
  linkDiscordId,
  markEmailVerified,
  verifyPassword,
} from "./service";
export { recordSignIn } from "./accounts";
export { callerSource } from "./callers";
