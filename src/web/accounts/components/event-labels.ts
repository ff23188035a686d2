// What each event is called, in the sentence "tell me when …": the webhook form and its list
// (Settings) and the notification preferences (Notifications) name events alike.
export const EVENT_LABELS: Record<string, string> = {
  mod_added: "a mod is added",
  mod_removed: "a mod is removed",
  mod_updated: "a mod in the list gets a new version",
  version_changed: "a pinned version changes",
  list_imported: "a server.json is imported",
  suggestion_created: "someone suggests a mod",
  suggestion_reviewed: "a suggestion is accepted or rejected",
  deploy_requested: "a deploy waits for approval",
  deploy_request_decided: "a deploy request is decided",
  deployment_succeeded: "a deployment succeeds",
  deployment_failed: "a deployment fails",
  "deploy.restarting": "a server restarts for a deploy",
  "deploy.verified": "a restarted server is back with the new mods",
  "deploy.rolled_back": "a server that did not come back is rolled back",
};
