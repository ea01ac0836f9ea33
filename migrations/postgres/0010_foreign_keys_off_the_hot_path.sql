-- The rows written for every order and every step (orders, events, steps) no longer carry
-- foreign keys. Each such row is written by the store's one write path (src/store/writer.rs)
-- in the transaction that holds its lobby's row lock and moves the lobby's version with a
-- compare-and-swap, for a lobby and a player the decision found in that very version; the
-- retention sweep, the one other place that deletes lobbies, takes the same compare-and-swap
-- before it deletes a lobby's rows. So the keys only re-checked what the store guarantees, and
-- on PostgreSQL the re-check was dear: a trigger per inserted row, each taking a KEY SHARE lock
-- on the lobby's and the player's rows (a WAL record each). Measured, the database's CPU per
-- order fell by a quarter without them (docs/performance.md, "Foreign keys off PostgreSQL's
-- hot path").
-- SQLite keeps its keys: there a check is an in-process lookup of a cached page.
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_lobby_id_fkey;
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_player_id_fkey;
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_lobby_id_fkey;
ALTER TABLE steps DROP CONSTRAINT IF EXISTS steps_lobby_id_fkey;
