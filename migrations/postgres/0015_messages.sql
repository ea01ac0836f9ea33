-- Table talk (docs/table-talk.md): the messages players send each other while a game runs.
-- `seq` is the number of the `message` event that announced the message, so a lobby's messages
-- are numbered in the order they were sent and a message is written with its event or not at
-- all. `recipients` is a JSON list of player ids for a private message, NULL for one to
-- everyone. The text is as the sender wrote it once checked (NFC, trimmed). No foreign keys:
-- a message is written only by the store's one write path, under its lobby's compare-and-swap,
-- for a lobby and players the decision found in that very version; the retention sweep
-- deletes a lobby's messages with its other rows.
CREATE TABLE messages (
    lobby_id   TEXT NOT NULL,
    seq        BIGINT NOT NULL,
    id         TEXT NOT NULL UNIQUE,
    sender     TEXT NOT NULL,
    recipients TEXT,
    text       TEXT NOT NULL,
    sent_at    BIGINT NOT NULL,
    PRIMARY KEY (lobby_id, seq)
);
