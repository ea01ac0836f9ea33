-- How far each player has read each of their table-talk conversations (docs/table-talk.md,
-- "Pages"): `conversation` is "all" (the public channel) or the correspondent's player id, and
-- `seen_seq` the number of the last message of it the player has seen. Unread counts are the
-- messages after it. Written only when the player opens a conversation, never on the order
-- path; deleted with the lobby by the retention sweep.
CREATE TABLE message_reads (
    lobby_id     TEXT NOT NULL,
    player_id    TEXT NOT NULL,
    conversation TEXT NOT NULL,
    seen_seq     BIGINT NOT NULL,
    PRIMARY KEY (lobby_id, player_id, conversation)
);
