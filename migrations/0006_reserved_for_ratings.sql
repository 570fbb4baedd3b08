-- Placeholder: number 6 is reserved for the ratings migration of another branch (migrations must be numbered
-- without gaps). The ratings branch replaces this file with its own 0006 when both are merged.
CREATE TABLE IF NOT EXISTS reserved_migration_6 (id INTEGER);
DROP TABLE reserved_migration_6;
