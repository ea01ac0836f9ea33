-- The host's reminders (docs/notifications.md, "Reminders"): one row per player and step the
-- host reminded them of. The key is what makes "at most one reminder per player per step" hold
-- whoever asks and however often: the reminder and its deliveries are written in one
-- transaction that starts with this row's insert, so of two racing requests the second finds
-- the row and queues nothing. A step is named by the lobby's `step_seq` (as pending orders and
-- the reliability record name it) rather than by its round and name, since a duel's decision
-- step can come twice in one round under the same name; `round` and `step` are kept beside it
-- for the notice, which says them in words. Rows go with their lobby and their player.
CREATE TABLE seat_reminders (
    lobby_id     TEXT NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    player_id    TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    step_seq     BIGINT NOT NULL,
    round        BIGINT NOT NULL,
    step         TEXT NOT NULL,
    reminded_at  BIGINT NOT NULL,                      -- unix milliseconds
    PRIMARY KEY (lobby_id, step_seq, player_id)
);
CREATE INDEX seat_reminders_player ON seat_reminders (player_id);
