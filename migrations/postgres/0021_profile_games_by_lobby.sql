-- The seats' holdings of one lobby, found by the lobby: the transaction that finishes a rated
-- lobby reads its binders by `lobby_id` (docs/ratings.md, "How the server stores them"),
-- which the primary key (profile first) cannot serve, so that each finish scanned every
-- holding ever written.
CREATE INDEX profile_games_lobby ON profile_games (lobby_id);
