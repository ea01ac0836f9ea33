-- Unlisted lobbies (issue 14; docs/web.md): 1 keeps the lobby off the public lists (the home
-- page and GET /api/v1/lobbies); its own page works for anyone with the link. BIGINT, as in
-- 0001, so that both backends read it alike.
ALTER TABLE lobbies ADD COLUMN unlisted BIGINT NOT NULL DEFAULT 0;
