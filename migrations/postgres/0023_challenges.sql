-- Challenges between profiles (docs/bots.md, "Challenges"): one profile asks another to a game
-- of `game` with `settings`; the opponent accepts (a started lobby with both seated and bound,
-- `lobby_id`) or declines, or it lapses 24 hours after `created_at`.
-- state: open | accepted | declined.
CREATE TABLE challenges (
    id           TEXT PRIMARY KEY,
    from_profile TEXT NOT NULL REFERENCES profiles (id),
    to_profile   TEXT NOT NULL REFERENCES profiles (id),
    game         TEXT NOT NULL,
    settings     TEXT NOT NULL,                        -- JSON object, as sent
    created_at   BIGINT NOT NULL,                      -- unix milliseconds
    state        TEXT NOT NULL,
    lobby_id     TEXT
);
CREATE INDEX challenges_to ON challenges (to_profile, state);
