-- Custom SQL migration file, put your code below! ---- from src/db/custom/a8_sealed_deployment_configs.sql
-- Deployments' config texts (previous_config, new_config: whole server config files with the
-- game's passwords) are stored sealed with the credential key since issue 44
-- (src/features/servers/deploy/config-seal.ts). SQL cannot encrypt: the rows an earlier version
-- wrote in clear are sealed in code at the next start, right after the migrations
-- (sealClearValues in src/db/sealed.ts). These partial indexes hold only the rows whose text is
-- still clear (a sealed text starts with 'v1.'; NULL is in neither), so that look-up reads no
-- deployment's configs once none is left in clear, however many deployments there are.
CREATE INDEX deployments_clear_previous_config_idx ON deployments (id) WHERE substr(previous_config, 1, 3) <> 'v1.';
--> statement-breakpoint
CREATE INDEX deployments_clear_new_config_idx ON deployments (id) WHERE substr(new_config, 1, 3) <> 'v1.';
