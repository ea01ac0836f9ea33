-- Deadlines, reminders, fallback orders and missed turns (issue 12; docs/deadlines.md).
-- BIGINT and TEXT only, as in 0001, so that both backends read them alike.

-- `timing`: the lobby's deadline settings as validated at creation (deadline_seconds,
-- decision_deadline_seconds, reminder_seconds, miss_limit), kept apart from the game's own
-- settings, which each game parses strictly.
-- The open step's clock (all NULL when it has none):
--   `deadline_at`  unix ms when the step resolves without the missing orders; NULL while paused;
--   `paused_left`  ms that were left when the host paused the clock; NULL unless paused;
--   `remind_below` a reminder of r seconds is still to fire while r*1000 < remind_below (the
--                  time that was left when the clock was set or the last reminder fired), so
--                  each fires once and those that do not fit the deadline never do;
--   `wake_at`      the earliest instant the scheduler must act on this lobby (a reminder or
--                  the deadline); NULL when nothing is due. Indexed: the scheduler reads the
--                  earliest one and the due ones, never the whole table.
ALTER TABLE lobbies ADD COLUMN timing TEXT NOT NULL DEFAULT '{}';
ALTER TABLE lobbies ADD COLUMN deadline_at BIGINT;
ALTER TABLE lobbies ADD COLUMN paused_left BIGINT;
ALTER TABLE lobbies ADD COLUMN remind_below BIGINT;
ALTER TABLE lobbies ADD COLUMN wake_at BIGINT;
CREATE INDEX lobbies_wake_at ON lobbies (wake_at) WHERE wake_at IS NOT NULL;

-- A player's standing fallback order (secret, like an order: the checked main-step answer
-- without round and step), and how many steps in a row they have let time out.
ALTER TABLE players ADD COLUMN fallback TEXT;
ALTER TABLE players ADD COLUMN misses BIGINT NOT NULL DEFAULT 0;
