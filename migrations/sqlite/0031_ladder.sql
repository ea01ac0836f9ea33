-- The ladder (docs/bots.md, "The ladder"): the bots entered in each game's ladder, and the
-- rounds the server paired. A round is one row per interval, keyed by the instant its interval
-- began: the process whose insert of that row succeeds pairs the round and writes its games in
-- the same transaction, so a second process, or a second tick of the same interval, finds the
-- row and does nothing. Each game's lobby id is drawn before the lobby exists (as a
-- tournament's is); `made` turns 1 once the lobby stands started, so a round interrupted
-- between its transaction and its lobbies is finished by the next tick.
CREATE TABLE ladder_entries (
    game        TEXT NOT NULL,
    profile_id  TEXT NOT NULL REFERENCES profiles (id),
    entered_at  BIGINT NOT NULL,                       -- unix milliseconds
    PRIMARY KEY (game, profile_id)
);

CREATE TABLE ladder_rounds (
    round_at    BIGINT PRIMARY KEY,                    -- the interval's start, unix milliseconds
    paired_at   BIGINT NOT NULL
);

-- No foreign key to the lobby: the retention sweep may delete a finished one.
CREATE TABLE ladder_games (
    lobby_id    TEXT PRIMARY KEY,
    round_at    BIGINT NOT NULL REFERENCES ladder_rounds (round_at),
    game        TEXT NOT NULL,
    made        BIGINT NOT NULL DEFAULT 0              -- 1 once the lobby stands started
);
CREATE INDEX ladder_games_game ON ladder_games (game, round_at);
CREATE INDEX ladder_games_unmade ON ladder_games (made);

-- Each ladder game's seats, in seat order: what counts a bot's games in progress.
CREATE TABLE ladder_seats (
    lobby_id    TEXT NOT NULL REFERENCES ladder_games (lobby_id),
    seat        BIGINT NOT NULL,
    profile_id  TEXT NOT NULL REFERENCES profiles (id),
    PRIMARY KEY (lobby_id, seat)
);
CREATE INDEX ladder_seats_profile ON ladder_seats (profile_id);
