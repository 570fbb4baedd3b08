-- Several bot processes share one database (one per group of gateway shards). A timer or an outbox row is
-- claimed by one process before it acts on it: claimed_by names the process (its WORKER_NAME), claimed_until
-- is the end of the lease. A process that crashes leaves its claims behind; once the lease ends, another
-- process (or the same one restarted, which keeps its name) takes them over.

ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN claimed_until REAL;

ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until REAL;
