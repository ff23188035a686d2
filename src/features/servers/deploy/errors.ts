import { CredentialCryptoError } from "../../../shared/crypto";

/**
 * A deploy failure a user can act on. Its message is stored as the deployment's
 * `error_message` and logged as is: it must never contain a credential or a stack trace.
 */
export class DeployError extends Error {
  override name = "DeployError";
}

/** The target asked us to slow down (a panel's 429) longer than one deploy step waits inline. */
export class RateLimitedError extends DeployError {
  constructor(
    message: string,
    /** How long the target asked to wait, ms (null: it did not say). */
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

/** Turns anything thrown during a deploy into a safe one-line message. */
export function deployErrorMessage(err: unknown): string {
  if (err instanceof DeployError) return err.message;
  if (err instanceof CredentialCryptoError) return err.message;
  return "deployment failed because of an internal error; see the service log";
}
