/**
 * Every error answer's stable machine code (`{error, code}`) and the one status it comes with. The
 * message stays for people and may change; a code does not. Codes are namespaced by what they are
 * about (`list.not_found`, `server.credentials_missing`); the seven without a namespace predate
 * the namespaces and are kept as they were, and `internal` (a 500) is about nothing in particular.
 * The table in docs/architecture.md ("Errors") is this list (test/error-codes.test.ts holds the two
 * equal).
 */
export const ERROR_CODES = {
  unauthorized: { status: 401, meaning: "not signed in, or the token, key or account is no longer valid: sign in again" },
  invalid_credentials: { status: 401, meaning: "sign-in with a wrong e-mail or password" },
  invalid_workshop_id: { status: 400, meaning: "a workshop ID that is not 16 hexadecimal characters" },
  mod_not_found: { status: 404, meaning: "the catalog has no such mod" },
  list_full: { status: 409, meaning: "the change would take the list over its 1000 mods" },
  mod_in_list: { status: 409, meaning: "the mod is already in the list" },
  mod_too_old: { status: 422, meaning: "the list's age rule (max_mod_age_days) refuses the mod" },
  "request.invalid": { status: 400, meaning: "a field of the request is missing or wrong; the message names it" },
  "request.invalid_json": { status: 400, meaning: "the body is not JSON" },
  "request.too_complex": { status: 400, meaning: "the JSON nests too deep or holds too many elements" },
  "request.bad_encoding": { status: 400, meaning: "an uploaded file is neither UTF-8 nor UTF-16 with a byte order mark" },
  "request.url_not_allowed": { status: 400, meaning: "a URL points at a private or loopback address (LOADOUT_ALLOW_PRIVATE_URLS)" },
  "request.route_not_found": { status: 404, meaning: "no such path" },
  "request.too_large": { status: 413, meaning: "the body is over the size limit" },
  "request.unsupported_media_type": { status: 415, meaning: "the body is not application/json" },
  "request.rate_limited": { status: 429, meaning: "too many requests; wait the Retry-After seconds" },
  "request.headers_too_large": { status: 431, meaning: "the request's headers are over the size limit" },
  internal: { status: 500, meaning: "the service failed; the x-request-id header finds it in the log" },
  "auth.too_many_failed_logins": { status: 429, meaning: "too many failed sign-ins for the address; wait the Retry-After seconds" },
  "auth.token_invalid": { status: 401, meaning: "an e-mail link's token is unknown, used or expired" },
  "auth.chat_login_not_configured": { status: 404, meaning: "chat login is not set up on this service" },
  "auth.chat_login_refused": { status: 401, meaning: "the chat provider refused the sign-in" },
  "auth.chat_login_state_invalid": { status: 400, meaning: "the chat login's state does not match the one it started with" },
  "auth.chat_provider_failed": { status: 502, meaning: "the chat provider did not answer as expected" },
  "auth.admin_only": { status: 403, meaning: "only an admin may do this" },
  "user.not_found": { status: 404, meaning: "no such user" },
  "user.name_ambiguous": { status: 409, meaning: "several users have that name; name them by e-mail" },
  "user.email_taken": { status: 409, meaning: "an account with that e-mail exists" },
  "user.registration_closed": { status: 403, meaning: "registration is closed" },
  "user.pending_approval": { status: 403, meaning: "the account waits for an admin's approval" },
  "user.disabled": { status: 403, meaning: "the account is disabled" },
  "user.no_password": { status: 409, meaning: "the account signs in without a password" },
  "user.wrong_password": { status: 403, meaning: "current_password is not the account's password" },
  "user.cannot_disable_self": { status: 409, meaning: "an admin cannot disable their own account" },
  "user.cannot_delete_self": { status: 409, meaning: "an admin deletes their own account from their settings" },
  "user.last_admin": { status: 409, meaning: "the change would leave no admin" },
  "api_key.not_found": { status: 404, meaning: "no such API key of the caller" },
  "mod.version_not_found": { status: 404, meaning: "the mod has no such version" },
  "mod.version_unknown": { status: 400, meaning: "a version named in the request does not exist for the mod" },
  "list.not_found": { status: 404, meaning: "no such list, or not one the caller may see" },
  "list.forbidden": { status: 403, meaning: "the caller may see the list but not do this" },
  "list.blocked": { status: 403, meaning: "the caller is blocked from the list" },
  "list.mod_not_in_list": { status: 404, meaning: "the mod is not in the list" },
  "list.no_config": { status: 404, meaning: "the list keeps no server config" },
  "list.config_unreadable": { status: 409, meaning: "the list's stored config secrets cannot be opened (a different LOADOUT_SECRET_KEY)" },
  "list.already_owner": { status: 409, meaning: "the user owns the list already" },
  "list.already_co_owner": { status: 409, meaning: "the user is a co-owner already" },
  "list.already_collaborator": { status: 409, meaning: "the user is a collaborator already" },
  "list.co_owner_not_found": { status: 404, meaning: "the user is not a co-owner of the list" },
  "list.collaborator_not_found": { status: 404, meaning: "the user is not a collaborator of the list" },
  "list.cannot_block_owner": { status: 400, meaning: "an owner of the list cannot be blocked" },
  "list.already_blocked": { status: 409, meaning: "the user is blocked already" },
  "list.not_blocked": { status: 404, meaning: "the user is not blocked" },
  "list.form_field_not_found": { status: 404, meaning: "the list's suggestion form has no such field" },
  "list.group_already_assigned": { status: 409, meaning: "the group is assigned to the list already" },
  "list.group_not_assigned": { status: 404, meaning: "the group is not assigned to the list" },
  "import.unreadable": { status: 400, meaning: "the imported file is none of the shapes an import takes" },
  "import.unresolved_pins": { status: 400, meaning: "pins on versions the catalog lacks, each to resolve (resolve=<id>:unpinned or :skip)" },
  "audit.not_found": { status: 404, meaning: "no such audit entry" },
  "audit.not_revertible": { status: 409, meaning: "the entry's kind of change cannot be reverted" },
  "audit.revert_conflict": { status: 409, meaning: "the list changed since; reverting the entry would not undo it" },
  "snapshot.not_found": { status: 404, meaning: "no such snapshot" },
  "suggestion.not_found": { status: 404, meaning: "no such suggestion" },
  "suggestion.already_exists": { status: 409, meaning: "the mod is suggested already" },
  "suggestion.already_reviewed": { status: 409, meaning: "the suggestion is accepted or rejected already" },
  "group.not_found": { status: 404, meaning: "no such permission group" },
  "group.forbidden": { status: 403, meaning: "a member of the group may not do this" },
  "group.already_owner": { status: 409, meaning: "the user owns the group" },
  "group.already_co_owner": { status: 409, meaning: "the user is a co-owner of the group already" },
  "group.already_member": { status: 409, meaning: "the user is a member of the group already" },
  "group.co_owner_not_found": { status: 404, meaning: "the user is not a co-owner of the group" },
  "group.member_not_found": { status: 404, meaning: "the user is not a member of the group" },
  "tag.not_found": { status: 404, meaning: "no such tag" },
  "tag.already_exists": { status: 409, meaning: "a tag of that name exists" },
  "tag.already_assigned": { status: 409, meaning: "the tag is on the list already" },
  "tag.not_assigned": { status: 404, meaning: "the tag is not on the list" },
  "folder.not_found": { status: 404, meaning: "no such folder" },
  "template.not_found": { status: 404, meaning: "no such template" },
  "template.link_not_found": { status: 404, meaning: "the list does not follow the template" },
  "template.forbidden": { status: 403, meaning: "the caller may not change the template" },
  "community.not_found": { status: 404, meaning: "no such community" },
  "community.forbidden": { status: 403, meaning: "the caller may not change the community" },
  "live.server_not_found": { status: 404, meaning: "the live tracker has no such server" },
  "server.not_found": { status: 404, meaning: "no such server of the caller" },
  "server.credentials_missing": { status: 409, meaning: "the server has no stored credentials" },
  "server.config_unreadable": { status: 502, meaning: "the server's config could not be read" },
  "server.config_has_no_rcon": { status: 409, meaning: "the server's config has no rcon block with a password" },
  "server.rcon_not_set": { status: 409, meaning: "the server has no RCON settings" },
  "server.rcon_not_found": { status: 404, meaning: "there are no RCON settings to forget" },
  "server.command_failed": { status: 502, meaning: "the game server did not carry out the command" },
  "deploy.blocked": { status: 409, meaning: "the pre-flight found what stops the deploy (findings in the body)" },
  "deploy.approval_not_required": { status: 409, meaning: "the list does not require deploy approval: deploy directly" },
  "deployment.not_found": { status: 404, meaning: "no such deployment" },
  "deployment.finished": { status: 409, meaning: "the deployment has finished" },
  "deployment.not_waiting": { status: 409, meaning: "the deployment is not waiting for an empty server" },
  "deploy_request.not_found": { status: 404, meaning: "no such deploy request" },
  "deploy_request.already_reviewed": { status: 409, meaning: "the deploy request is approved or rejected already" },
  "deploy_request.requester_lost_access": { status: 409, meaning: "the requester can no longer deploy the list" },
  "deploy_request.server_changed_owner": { status: 409, meaning: "the server no longer belongs to the requester" },
  "player.not_found": { status: 404, meaning: "no such player seen on the server" },
  "player.not_online": { status: 404, meaning: "the player is not on the server's latest roster" },
  "ban.not_found": { status: 404, meaning: "no such ban" },
  "ban.forbidden": { status: 403, meaning: "a moderator lifts only their own bans" },
  "moderator.not_found": { status: 404, meaning: "the user is not a moderator of the server" },
  "moderator.is_owner": { status: 409, meaning: "the owner moderates their own server already" },
  "webhook.not_found": { status: 404, meaning: "no such webhook" },
  "webhook.limit_reached": { status: 409, meaning: "the owner has as many webhooks as allowed" },
  "notification.not_found": { status: 404, meaning: "no such notification" },
  "job.not_found": { status: 404, meaning: "no such job" },
  "job.not_retryable": { status: 409, meaning: "only a failed or cancelled job is retried" },
  "job.not_cancellable": { status: 409, meaning: "only a queued job is cancelled" },
} as const satisfies Record<string, { status: number; meaning: string }>;
export type ErrorCode = keyof typeof ERROR_CODES;

/** The one error type of the service: rendered as `{error: message, code}` with the code's status. */
export class AppError extends Error {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** More fields of the body beside `error` (a 409 carrying its findings). */
  readonly body?: Record<string, unknown>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    opts: { headers?: Record<string, string>; body?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = ERROR_CODES[code].status;
    this.headers = opts.headers;
    this.body = opts.body;
  }
}

export const tooManyRequests = (retryAfterSeconds: number, message = "too many requests") =>
  new AppError("request.rate_limited", message, { headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
