-- Ratings kept in their keys' order, checked where they are made (docs/ratings.md, "How the
-- server stores them"): a rated finish upserts each player's `ratings` row and inserts his
-- `rating_changes` row, and a table with a rowid writes each of them twice, once in the table
-- and once in the index of its primary key. Clustered on the primary key (`WITHOUT ROWID`),
-- each is one b-tree write. Their `profile_id` no longer names `profiles` as a foreign key:
-- both are written only by the finish transaction and the rebuild, for profiles that same
-- transaction has just read, and no profile is ever deleted, so the check (a lookup of a
-- 36-character key for every row) could never refuse one (docs/store.md, "Foreign keys").
-- Neither table is referenced by another, so each is rebuilt under its own name in place.

CREATE TABLE ratings_by_key (
    profile_id    TEXT NOT NULL,
    pool          TEXT NOT NULL,
    game          TEXT NOT NULL,
    rating        REAL NOT NULL,
    deviation     REAL NOT NULL,
    volatility    REAL,
    games         BIGINT NOT NULL,
    last_game_at  BIGINT,                              -- unix milliseconds
    PRIMARY KEY (profile_id, pool)
) WITHOUT ROWID;
INSERT INTO ratings_by_key (profile_id, pool, game, rating, deviation, volatility, games,
    last_game_at)
    SELECT profile_id, pool, game, rating, deviation, volatility, games, last_game_at
    FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_by_key RENAME TO ratings;
CREATE INDEX ratings_pool ON ratings (pool);

CREATE TABLE rating_changes_by_key (
    result_seq        BIGINT NOT NULL REFERENCES rated_results (seq),
    ordinal           BIGINT NOT NULL,
    profile_id        TEXT NOT NULL,
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
) WITHOUT ROWID;
INSERT INTO rating_changes_by_key (result_seq, ordinal, profile_id, player_id, place,
    before_rating, before_deviation, before_volatility, before_games, before_last_game_at,
    after_rating, after_deviation, after_volatility, after_games)
    SELECT result_seq, ordinal, profile_id, player_id, place, before_rating, before_deviation,
    before_volatility, before_games, before_last_game_at, after_rating, after_deviation,
    after_volatility, after_games
    FROM rating_changes;
DROP TABLE rating_changes;
ALTER TABLE rating_changes_by_key RENAME TO rating_changes;
CREATE INDEX rating_changes_profile ON rating_changes (profile_id, result_seq);
