-- My games (issue 14; docs/web.md): which lobbies a browser's personal key hosts or plays in.
-- The key is stored only as its SHA-256 (as tokens are); no lobby token is stored here: a
-- game's private link stays in that lobby's own cookie. Rows go with their lobby (retention).
CREATE TABLE my_games (
    key_hash   TEXT NOT NULL,
    lobby_id   TEXT NOT NULL REFERENCES lobbies (id),
    role       TEXT NOT NULL,            -- host | player
    added_at   BIGINT NOT NULL,          -- unix milliseconds
    PRIMARY KEY (key_hash, lobby_id, role)
);
CREATE INDEX my_games_lobby ON my_games (lobby_id);
