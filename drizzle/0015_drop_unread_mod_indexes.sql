DROP INDEX `mods_name_idx`;--> statement-breakpoint
DROP INDEX `mods_size_idx`;--> statement-breakpoint
DROP INDEX `mods_updated_idx`;