-- A delivery's successful attempt is recorded on its own outbox row, which the settlement
-- updates anyway: `delivered_at` (unix ms) and the receiver's HTTP status (NULL for mail).
-- notify_attempts keeps the attempts that failed. Its two indexes are keyed by destination
-- first, so a batch of successes inserted there dirtied a random index page each, and on
-- SQLite that meant tens of WAL pages fsync'd per batch on the lobbies' writer
-- (docs/performance.md, issue 15). Successes recorded before this migration stay in
-- notify_attempts, with `delivered_at` NULL here, so the host's list counts them once.
ALTER TABLE notify_outbox ADD COLUMN delivered_at BIGINT;
ALTER TABLE notify_outbox ADD COLUMN delivered_status BIGINT;
