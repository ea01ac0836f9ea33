-- Herald's schema (PostgreSQL; mirrors migrations/sqlite). Only TEXT and BIGINT columns: they read the same through sqlx's Any driver
-- on SQLite and PostgreSQL, so one store implementation serves both (the PostgreSQL file
-- mirrors this one). JSON documents are stored as TEXT; the host, not SQL, interprets them.

-- One row per lobby. `version` is bumped by every change and checked by every update
-- (compare-and-swap), so two writers can never both apply a change made from the same snapshot.
CREATE TABLE lobbies (
    id              TEXT PRIMARY KEY,
    game            TEXT NOT NULL,
    name            TEXT NOT NULL,
    settings        TEXT NOT NULL,           -- validated settings JSON; may hold secrets (seed, pool)
    status          TEXT NOT NULL,           -- signups | closed | running | finished
    host_token_hash TEXT NOT NULL UNIQUE,    -- SHA-256 of the host token; the token itself is never stored
    seed            BIGINT NOT NULL,         -- the game's RNG seed (u64 bits); secret until the game ends
    state           TEXT,                    -- the game state JSON (secrets included); NULL before start
    round           BIGINT NOT NULL DEFAULT 0,
    step            TEXT,
    step_seq        BIGINT NOT NULL DEFAULT 0, -- steps resolved so far; pending orders are keyed by it
    event_seq       BIGINT NOT NULL DEFAULT 0, -- last event number published for this lobby
    version         BIGINT NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL          -- unix milliseconds
);
CREATE INDEX lobbies_newest ON lobbies (created_at DESC);

-- Seated players in sign-up order. Names are unique per lobby ignoring case (name_key).
CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    lobby_id   TEXT NOT NULL REFERENCES lobbies (id),
    seat       BIGINT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    join_data  TEXT NOT NULL,                -- the game's join choice (BST: character)
    token_hash TEXT NOT NULL UNIQUE,         -- SHA-256 of the player token
    UNIQUE (lobby_id, seat),
    UNIQUE (lobby_id, name_key)
);

-- Secret orders for the step being collected (keyed by the lobby's step_seq). A replacement
-- overwrites the row; the rows of a step are deleted when it resolves (they live on, revealed,
-- in `steps`).
CREATE TABLE orders (
    lobby_id     TEXT NOT NULL REFERENCES lobbies (id),
    step_seq     BIGINT NOT NULL,
    player_id    TEXT NOT NULL REFERENCES players (id),
    body         TEXT NOT NULL,
    submitted_at BIGINT NOT NULL,
    PRIMARY KEY (lobby_id, step_seq, player_id)
);

-- Every resolved step: what it revealed, its log, and the public pools after it.
CREATE TABLE steps (
    lobby_id    TEXT NOT NULL REFERENCES lobbies (id),
    seq         BIGINT NOT NULL,
    round       BIGINT NOT NULL,
    step        TEXT NOT NULL,
    revealed    TEXT NOT NULL,
    log         TEXT NOT NULL,
    pools       TEXT NOT NULL,
    resolved_at BIGINT NOT NULL,
    PRIMARY KEY (lobby_id, seq)
);

-- The lobby's public event feed, numbered per lobby so that a client can resume from the last
-- event it saw (SSE Last-Event-ID).
CREATE TABLE events (
    lobby_id   TEXT NOT NULL REFERENCES lobbies (id),
    seq        BIGINT NOT NULL,
    kind       TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (lobby_id, seq)
);
