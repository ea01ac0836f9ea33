-- Ratings (docs/ratings.md, "How the server stores them"). Written by the transaction that
-- finishes a rated lobby; no foreign key names the lobby, so the retention sweep that deletes
-- finished lobbies leaves every rating, result and change in place (a rebuild replays them).

-- A profile's current rating in one pool (`bst/humans`, ...). The numbers are 8-byte floats,
-- so they read back bit for bit; volatility is NULL in a Weng-Lin pool.
CREATE TABLE ratings (
    profile_id    TEXT NOT NULL REFERENCES profiles (id),
    pool          TEXT NOT NULL,
    game          TEXT NOT NULL,
    rating        REAL NOT NULL,
    deviation     REAL NOT NULL,
    volatility    REAL,
    games         BIGINT NOT NULL,
    last_game_at  BIGINT,                              -- unix milliseconds
    PRIMARY KEY (profile_id, pool)
);
CREATE INDEX ratings_pool ON ratings (pool);

-- One rated game: `seq` is the order the finish transactions stored them in, the order a
-- rebuild replays them in.
CREATE TABLE rated_results (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    lobby_id      TEXT NOT NULL UNIQUE,
    pool          TEXT NOT NULL,
    ended_at      BIGINT NOT NULL
);

-- Each rated participant of a result: his place (the result itself, in `ordinal` order)
-- and his rating before and after the game.
CREATE TABLE rating_changes (
    result_seq        BIGINT NOT NULL REFERENCES rated_results (seq),
    ordinal           BIGINT NOT NULL,
    profile_id        TEXT NOT NULL REFERENCES profiles (id),
    player_id         TEXT NOT NULL,
    place             BIGINT NOT NULL,
    before_rating     REAL NOT NULL,
    before_deviation  REAL NOT NULL,
    before_volatility REAL,
    before_games      BIGINT NOT NULL,
    before_last_game_at BIGINT,
    after_rating      REAL NOT NULL,
    after_deviation   REAL NOT NULL,
    after_volatility  REAL,
    after_games       BIGINT NOT NULL,
    PRIMARY KEY (result_seq, ordinal)
);
CREATE INDEX rating_changes_profile ON rating_changes (profile_id, result_seq);
