-- Profiles (docs/identity.md): a person or a bot that persists across games. No password:
-- a profile is reached by its keys, each stored only as its SHA-256 (as tokens are). The
-- handle is unique server-wide on the same confusable-resistant key seat names use.
CREATE TABLE profiles (
    id          TEXT PRIMARY KEY,
    handle      TEXT NOT NULL,
    handle_key  TEXT NOT NULL UNIQUE,
    kind        TEXT NOT NULL,                         -- human | bot
    owner_id    TEXT REFERENCES profiles (id),         -- a bot's human; NULL for a human
    created_at  BIGINT NOT NULL                        -- unix milliseconds
);
CREATE INDEX profiles_owner ON profiles (owner_id);

CREATE TABLE profile_keys (
    id          TEXT PRIMARY KEY,
    profile_id  TEXT NOT NULL REFERENCES profiles (id),
    key_hash    TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL
);
CREATE INDEX profile_keys_profile ON profile_keys (profile_id);

-- A seat's holding bound to a profile: written with the seat (snapshots read it, so that a
-- profile key is recognised and a step's reliability counted with no query of their own).
-- A substitute or a reissued link clears it. binding: bound (before the start) | retro.
ALTER TABLE players ADD COLUMN profile_id TEXT;
ALTER TABLE players ADD COLUMN profile_kind TEXT;
ALTER TABLE players ADD COLUMN binding TEXT;
CREATE INDEX players_profile ON players (profile_id);

-- Every game a profile held a seat in: a small summary that outlives the lobby (the
-- retention sweep deletes lobbies, never these rows; no foreign key names the lobby).
CREATE TABLE profile_games (
    profile_id  TEXT NOT NULL REFERENCES profiles (id),
    lobby_id    TEXT NOT NULL,
    player_id   TEXT NOT NULL,
    game        TEXT NOT NULL,
    lobby_name  TEXT NOT NULL,
    binding     TEXT NOT NULL,                         -- bound | retro
    bound_at    BIGINT NOT NULL,
    ended_seq   BIGINT,                                -- the lobby's step count when a substitute
                                                       -- or a new link ended the holding
    PRIMARY KEY (profile_id, lobby_id, player_id)
);
