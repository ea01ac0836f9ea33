-- Notifications (issue 15; docs/notifications.md): where a lobby's news goes, what is owed to
-- each destination, and what each attempt to deliver it gave. BIGINT and TEXT only, as in 0001,
-- so that both backends read them alike. Every row hangs off its lobby (and a player's off the
-- player) with ON DELETE CASCADE: deleting a lobby (retention) or a sign-up (leaving) deletes
-- its addresses, its queued deliveries and their attempts with it.

-- A destination: the host's lobby webhook (player_id NULL) or a player's own mail or webhook.
--   `channel`          'discord' | 'standard' (webhooks) or 'mail' (an email address);
--   `address`          the URL or the email address: never shown to anyone once stored;
--   `secret`           a `standard` endpoint's signing key (`whsec_…`), shown once at creation;
--                      kept as is, since signing needs it;
--   `enabled`          1, or 0 once a delivery to it went dead (the host re-enables it).
CREATE TABLE notify_targets (
    id               TEXT PRIMARY KEY,
    lobby_id         TEXT NOT NULL REFERENCES lobbies (id) ON DELETE CASCADE,
    player_id        TEXT REFERENCES players (id) ON DELETE CASCADE,
    channel          TEXT NOT NULL,
    address          TEXT NOT NULL,
    secret           TEXT,
    enabled          BIGINT NOT NULL DEFAULT 1,
    created_at       BIGINT NOT NULL
);
CREATE INDEX notify_targets_lobby ON notify_targets (lobby_id);
CREATE INDEX notify_targets_player ON notify_targets (player_id);

-- The tokens of mails' unsubscribe links, as SHA-256 (hex): each mail carries a fresh one, and
-- any of them deletes its destination without a login.
CREATE TABLE notify_unsubscribe (
    token_hash TEXT PRIMARY KEY,
    target_id  TEXT NOT NULL REFERENCES notify_targets (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);
CREATE INDEX notify_unsubscribe_target ON notify_unsubscribe (target_id);

-- Which event kinds (the stream's names) each destination wants. Keyed by lobby and kind first:
-- the writer looks them up for every event it inserts.
CREATE TABLE notify_subscriptions (
    lobby_id  TEXT NOT NULL,
    kind      TEXT NOT NULL,
    target_id TEXT NOT NULL REFERENCES notify_targets (id) ON DELETE CASCADE,
    PRIMARY KEY (lobby_id, kind, target_id)
);
CREATE INDEX notify_subscriptions_target ON notify_subscriptions (target_id);

-- The outbox: one row per (destination, event), inserted in the transaction that inserts the
-- event. `id` is the delivery id every attempt carries (`<target>.<event seq>`, or a fresh one
-- for a host's test), so a receiver can drop a duplicate.
--   `status`       'pending' | 'delivered' | 'dead';
--   `next_at`      unix ms of the next attempt;
--   `lease_owner`, `lease_until`: the worker that claimed the row and until when; another
--                  process takes it only once the lease has run out.
CREATE TABLE notify_outbox (
    id          TEXT PRIMARY KEY,
    target_id   TEXT NOT NULL REFERENCES notify_targets (id) ON DELETE CASCADE,
    lobby_id    TEXT NOT NULL,
    event_seq   BIGINT,
    kind        TEXT NOT NULL,
    status      TEXT NOT NULL,
    attempts    BIGINT NOT NULL DEFAULT 0,
    next_at     BIGINT NOT NULL,
    lease_owner TEXT,
    lease_until BIGINT,
    created_at  BIGINT NOT NULL
);
CREATE INDEX notify_outbox_due ON notify_outbox (next_at) WHERE status = 'pending';
CREATE INDEX notify_outbox_target ON notify_outbox (target_id, created_at);

-- Each attempt: the HTTP status (NULL when none came back, or for mail) and the error in words.
CREATE TABLE notify_attempts (
    outbox_id TEXT NOT NULL REFERENCES notify_outbox (id) ON DELETE CASCADE,
    attempt   BIGINT NOT NULL,
    target_id TEXT NOT NULL,
    at        BIGINT NOT NULL,
    status    BIGINT,
    error     TEXT,
    PRIMARY KEY (outbox_id, attempt)
);
CREATE INDEX notify_attempts_target ON notify_attempts (target_id, at);
