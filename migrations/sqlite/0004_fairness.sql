-- Provable fairness (issue 17; docs/fairness.md). TEXT only, as in 0001.

-- `seed_salt`: the secret salt of the seed's commitment (hex), published with the seed once the
-- game is over; NULL for lobbies created before this migration, which have no commitment.
-- `fairness`: what the lobby keeps between steps for its chain, as JSON: the digest at the
-- head of the chain and the acts (kicks, renames) not yet filed with a step.
ALTER TABLE lobbies ADD COLUMN seed_salt TEXT;
ALTER TABLE lobbies ADD COLUMN fairness TEXT NOT NULL DEFAULT '{}';

-- Each resolved step's replay inputs (the acts since the step before, JSON) and its chained
-- digest (hex). Steps resolved before this migration have none ('[]', '').
ALTER TABLE steps ADD COLUMN acts TEXT NOT NULL DEFAULT '[]';
ALTER TABLE steps ADD COLUMN digest TEXT NOT NULL DEFAULT '';
ALTER TABLE steps ADD COLUMN previous_digest TEXT NOT NULL DEFAULT '';
