-- A tournament's webhooks (docs/notifications.md, "Tournament webhooks"): the director's
-- destinations, the tournament's own events, and what is owed and tried, beside the lobbies'
-- tables of 0005 and 0009 with the same columns. New tables rather than a wider
-- `notify_targets`: its `lobby_id` is NOT NULL and names a lobby, and SQLite can neither drop
-- that nor rebuild a table that `notify_outbox` and `notify_subscriptions` reference with
-- ON DELETE CASCADE. The delivery worker and the store's claim, settlement and material are one
-- code path over both sets of tables (`store/delivery_rows.rs`, `Scope`).

-- A destination: `channel` 'discord' | 'standard', `address` the URL (never shown once
-- stored), `secret` a `standard` endpoint's signing key, `enabled` 0 once a delivery went dead.
CREATE TABLE tournament_webhooks (
    id             TEXT PRIMARY KEY,
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    channel        TEXT NOT NULL,
    address        TEXT NOT NULL,
    secret         TEXT,
    enabled        BIGINT NOT NULL DEFAULT 1,
    created_at     BIGINT NOT NULL
);
CREATE INDEX tournament_webhooks_tournament ON tournament_webhooks (tournament_id);

-- Which tournament events each destination wants, keyed as the writer looks them up.
CREATE TABLE tournament_subscriptions (
    tournament_id  TEXT NOT NULL,
    kind           TEXT NOT NULL,
    target_id      TEXT NOT NULL REFERENCES tournament_webhooks (id) ON DELETE CASCADE,
    PRIMARY KEY (tournament_id, kind, target_id)
);
CREATE INDEX tournament_subscriptions_target ON tournament_subscriptions (target_id);

-- The tournament's news: `round-started` and `finished`, written in the transaction that pairs
-- the round or finishes the tournament. `seq` is the tournament's version that change wrote
-- (each change moves it on once), so it is unique without a counter of its own.
CREATE TABLE tournament_events (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    seq            BIGINT NOT NULL,
    kind           TEXT NOT NULL,
    data           TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);

-- The outbox and its failed attempts, as `notify_outbox` (0005, 0009) and `notify_attempts`.
CREATE TABLE tournament_outbox (
    id               TEXT PRIMARY KEY,
    target_id        TEXT NOT NULL REFERENCES tournament_webhooks (id) ON DELETE CASCADE,
    tournament_id    TEXT NOT NULL,
    event_seq        BIGINT,
    kind             TEXT NOT NULL,
    status           TEXT NOT NULL,
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_at          BIGINT NOT NULL,
    lease_owner      TEXT,
    lease_until      BIGINT,
    created_at       BIGINT NOT NULL,
    delivered_at     BIGINT,
    delivered_status BIGINT
);
CREATE INDEX tournament_outbox_due ON tournament_outbox (next_at) WHERE status = 'pending';
CREATE INDEX tournament_outbox_target ON tournament_outbox (target_id, created_at);

CREATE TABLE tournament_attempts (
    outbox_id  TEXT NOT NULL REFERENCES tournament_outbox (id) ON DELETE CASCADE,
    attempt    BIGINT NOT NULL,
    target_id  TEXT NOT NULL,
    at         BIGINT NOT NULL,
    status     BIGINT,
    error      TEXT,
    PRIMARY KEY (outbox_id, attempt)
);
CREATE INDEX tournament_attempts_target ON tournament_attempts (target_id, at);
