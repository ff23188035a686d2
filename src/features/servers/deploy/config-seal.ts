// A deployment's config texts (`previous_config`, the file as read before the deploy wrote, and
// `new_config`, what it wrote) are whole server config files: they hold the game's passwords
// (`passwordAdmin`, `rcon.password`, `game.password`). They are stored sealed with the credential
// key like the server's credentials (docs/deploy.md "Credentials"), each bound to its deployment
// and to its column (a previous config cannot be swapped for the new one), and opened only where
// they are used: the rollback, the "restarting" event's mod changes and the view of a deployment
// whose rollback failed.
import type { Deps } from "../../../deps";
import type { SealedColumn } from "../../../db/sealed";
import { CredentialCryptoError, decryptSecret, encryptSecret, sealedKeyId } from "../../../shared/crypto";
import type { DeploymentRow } from "../repository";

export type ConfigColumn = "previous_config" | "new_config";

export const deploymentConfigAad = (column: ConfigColumn) => (deploymentId: string) =>
  `deployment-config:${deploymentId}:${column === "previous_config" ? "previous" : "new"}`;

/** The declarations of the two sealed columns (the servers feature's `sealed`). */
export const deploymentConfigColumns: SealedColumn[] = (["previous_config", "new_config"] as const).map((column) => ({
  table: "deployments",
  column,
  idColumn: "id",
  aad: deploymentConfigAad(column),
  label: "deployment config",
  // Stored in clear by earlier versions: sealed at the next start (src/db/custom/a8_sealed_deployment_configs.sql).
  legacyClear: true,
}));

export function sealConfig(deps: Pick<Deps, "secrets">, deploymentId: string, column: ConfigColumn, text: string): string {
  return encryptSecret(text, deps.secrets.credentialKey, deploymentConfigAad(column)(deploymentId));
}

/**
 * The opened config text of a deployment (null when none was stored). Throws
 * CredentialCryptoError when it does not open (a key that is gone, a damaged record). A value
 * still in clear (written by an earlier version, not yet sealed by the start-up step) is the text.
 */
export function openConfig(deps: Pick<Deps, "secrets">, d: Pick<DeploymentRow, "id" | ConfigColumn>, column: ConfigColumn): string | null {
  const stored = d[column];
  if (stored === null) return null;
  if (sealedKeyId(stored) === null) return stored;
  return decryptSecret(stored, deps.secrets.credentialKey, deploymentConfigAad(column)(d.id));
}

/** As openConfig, but null when it does not open (for what only shows it). */
export function openConfigOrNull(deps: Pick<Deps, "secrets">, d: Pick<DeploymentRow, "id" | ConfigColumn>, column: ConfigColumn): string | null {
  try {
    return openConfig(deps, d, column);
  } catch (e) {
    if (e instanceof CredentialCryptoError) return null;
    throw e;
  }
}
