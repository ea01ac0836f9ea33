-- Tournaments with the host as director (docs/tournaments.md, "How the server keeps them").
-- Every change to a tournament bumps its `version` in the same transaction as its other rows
-- (a compare-and-swap), so two directors' requests cannot both pair a round.

CREATE TABLE tournaments (
    id             TEXT PRIMARY KEY,
    game           TEXT NOT NULL,
    name           TEXT NOT NULL,
    format         TEXT NOT NULL,                      -- swiss, round-robin, knockout, melee
    rounds_asked   BIGINT NOT NULL,                    -- swiss and melee: the director's number
    board_size     BIGINT NOT NULL,                    -- melee: at most this many at a board
    settings       TEXT NOT NULL,                      -- JSON: every game's lobby settings
    forbidden      TEXT NOT NULL,                      -- JSON: [[entry, entry], ...]
    auto_rounds    BIGINT NOT NULL,                    -- 1: the server starts each next round
    director_hash  TEXT NOT NULL,
    status         TEXT NOT NULL,                      -- entries, running, finished
    round          BIGINT NOT NULL,                    -- the last round started (0 before)
    rounds_total   BIGINT NOT NULL,                    -- fixed when entries close
    created_at     BIGINT NOT NULL,                    -- unix milliseconds
    version        BIGINT NOT NULL
);
CREATE INDEX tournaments_created ON tournaments (created_at);

-- An entrant: `entry` is his entry order (1 first), the core's entrant id; `rating` is his
-- rating when entries closed (or when he entered late), for seeding; NULL when unrated.
CREATE TABLE tournament_entrants (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    entry          BIGINT NOT NULL,
    profile_id     TEXT NOT NULL REFERENCES profiles (id),
    rating         DOUBLE PRECISION,
    first_round    BIGINT NOT NULL,
    withdrawn      BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, entry),
    UNIQUE (tournament_id, profile_id)
);

-- A round once paired: its byes (JSON entries) and, once its last game finished, when.
CREATE TABLE tournament_rounds (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    round          BIGINT NOT NULL,
    byes           TEXT NOT NULL,
    started_at     BIGINT NOT NULL,
    closed_at      BIGINT,
    PRIMARY KEY (tournament_id, round)
);

-- A game of a round: its lobby (created with the id stored here, so creating it again finds
-- it), the entries seated in seat order (JSON), and its result once the lobby finished (JSON;
-- a forfeit by withdrawal is written before the lobby ends and is not overwritten).
CREATE TABLE tournament_games (
    lobby_id       TEXT PRIMARY KEY,
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    round          BIGINT NOT NULL,
    ordinal        BIGINT NOT NULL,
    players        TEXT NOT NULL,
    result         TEXT
);
CREATE INDEX tournament_games_round ON tournament_games (tournament_id, round, ordinal);
