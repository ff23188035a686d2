-- auto_deploy (issue 6): any change to a list's mods (add, remove, pin/unpin, reorder, import,
-- template push, accepted suggestion, revert) queues a tiny `deploy.auto-change` job when the
-- list is linked to an auto_deploy server. Its handler (src/features/deploy/jobs.ts) applies the
-- 30 s debounce with the service clock. Catching changes here, in the same transaction as the
-- change, means no mutation path can forget to trigger a deploy. Idempotent (IF NOT EXISTS).
CREATE TRIGGER IF NOT EXISTS servers_auto_deploy_item_insert AFTER INSERT ON list_items
WHEN EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = NEW.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = NEW.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', NEW.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS servers_auto_deploy_item_delete AFTER DELETE ON list_items
WHEN EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = OLD.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = OLD.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', OLD.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS servers_auto_deploy_item_update AFTER UPDATE OF pinned_version, position, workshop_id ON list_items
WHEN (OLD.pinned_version IS NOT NEW.pinned_version OR OLD.position IS NOT NEW.position OR OLD.workshop_id IS NOT NEW.workshop_id)
  AND EXISTS (SELECT 1 FROM servers s WHERE s.linked_list_id = NEW.list_id AND s.auto_deploy = 1)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'queued' AND j.type = 'deploy.auto-change'
                  AND json_extract(j.payload, '$.list_id') = NEW.list_id)
BEGIN
  INSERT INTO jobs (id, type, payload, status, attempts, max_attempts, run_at, created_at)
  VALUES (lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a'
                || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
          'deploy.auto-change', json_object('list_id', NEW.list_id), 'queued', 0, 3, 0,
          CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;
