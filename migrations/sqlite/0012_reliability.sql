-- The reliability record (docs/identity.md, "Reliability"): one row per step a bound seat
-- owed, written in the transaction that resolved the step. Kept when the lobby is deleted.
-- outcome: on-time | missed | excused.
CREATE TABLE owed_steps (
    profile_id  TEXT NOT NULL REFERENCES profiles (id),
    lobby_id    TEXT NOT NULL,
    step_seq    BIGINT NOT NULL,
    player_id   TEXT NOT NULL,
    round       BIGINT NOT NULL,
    step        TEXT NOT NULL,
    due_at      BIGINT NOT NULL,                       -- when it resolved, unix milliseconds
    outcome     TEXT NOT NULL,
    PRIMARY KEY (lobby_id, step_seq, player_id)
);
CREATE INDEX owed_steps_profile ON owed_steps (profile_id, due_at);
