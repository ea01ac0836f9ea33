//! The statements every write runs, written once for both backends (`$n` placeholders work on
//! SQLite and PostgreSQL alike, each appearing once and in order). Rows are read by column
//! name (`rows.rs`), so a SELECT's columns may come in any order.

pub const INSERT_LOBBY: &str = "INSERT INTO lobbies \
    (id, game, name, settings, status, host_token_hash, seed, created_at, timing, seed_salt, unlisted) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// The compare-and-swap: it changes nothing unless the lobby is still at version `$14`. The
/// clock's columns ($5-$9) are always written whole (they may become NULL).
pub const UPDATE_LOBBY: &str = "UPDATE lobbies SET status = COALESCE($1, status), \
    state = COALESCE($2, state), round = COALESCE($3, round), step = COALESCE($4, step), \
    deadline_at = $5, paused_left = $6, remind_below = $7, wake_at = $8, \
    deadline_moved_from = $9, step_seq = $10, event_seq = $11, \
    fairness = COALESCE($12, fairness), version = version + 1 WHERE id = $13 AND version = $14";

/// A seated player's fallback order and missed-turn count (the deadlines' columns), its
/// binding to a profile, and its shown and other name (an anonymous seat's, docs/table-talk.md),
/// written whole, from the row as the patch leaves it.
pub const PATCH_PLAYER: &str = "UPDATE players SET fallback = $1, misses = $2, \
    profile_id = $3, profile_kind = $4, binding = $5, name = $6, alias = $7 \
    WHERE id = $8 AND lobby_id = $9";

pub const INSERT_PLAYER: &str = "INSERT INTO players \
    (id, lobby_id, seat, name, name_key, join_data, token_hash, profile_id, profile_kind, binding, \
    alias) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// A substitute's name, or a reissued token, for a seated player: a new holding of the seat,
/// so the old one's binding to a profile ends.
pub const UPDATE_PLAYER: &str = "UPDATE players SET name = $1, name_key = $2, token_hash = $3, \
    profile_id = NULL, profile_kind = NULL, binding = NULL, alias = $4 WHERE id = $5 AND lobby_id = $6";

pub const DELETE_PLAYER: &str = "DELETE FROM players WHERE id = $1 AND lobby_id = $2";

/// Closing the gap a removed sign-up leaves, in two statements: UNIQUE (lobby_id, seat) is
/// checked row by row on both backends, so `seat = seat - 1` could meet a seat not yet moved.
/// The seats after the gap go negative first (-seat - 1, all distinct and below every seat),
/// then come back one lower (-(-seat - 1) - 2 = seat - 1).
pub const SEATS_ASIDE: &str =
    "UPDATE players SET seat = -seat - 1 WHERE lobby_id = $1 AND seat > $2";
pub const SEATS_BACK: &str = "UPDATE players SET seat = -seat - 2 WHERE lobby_id = $1 AND seat < 0";

pub const UPSERT_ORDER: &str = "INSERT INTO orders \
    (lobby_id, step_seq, player_id, body, submitted_at) VALUES ($1, $2, $3, $4, $5) \
    ON CONFLICT (lobby_id, step_seq, player_id) \
    DO UPDATE SET body = excluded.body, submitted_at = excluded.submitted_at";

pub const INSERT_STEP: &str = "INSERT INTO steps \
    (lobby_id, seq, round, step, revealed, log, pools, resolved_at, acts, digest, previous_digest) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// A resolved step's orders live on, revealed, in its `steps` row.
pub const DELETE_ORDERS: &str = "DELETE FROM orders WHERE lobby_id = $1 AND step_seq = $2";

/// One pending order withdrawn (a kicked player's).
pub const DELETE_ORDER: &str =
    "DELETE FROM orders WHERE lobby_id = $1 AND step_seq = $2 AND player_id = $3";

pub const INSERT_EVENT: &str =
    "INSERT INTO events (lobby_id, seq, kind, data, created_at) VALUES ($1, $2, $3, $4, $5)";

/// A table-talk message, numbered by the event that announces it.
pub const INSERT_MESSAGE: &str = "INSERT INTO messages \
    (lobby_id, seq, id, sender, recipients, text, sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// A lobby's messages, oldest first.
pub const MESSAGES_OF_LOBBY: &str = "SELECT seq, id, sender, recipients, text, sent_at \
    FROM messages WHERE lobby_id = $1 ORDER BY seq";

/// How far a player has read each conversation.
pub const READ_MARKS: &str = "SELECT conversation, seen_seq FROM message_reads \
    WHERE lobby_id = $1 AND player_id = $2";

/// A conversation read up to a message; a mark never moves back.
pub const MARK_READ: &str = "INSERT INTO message_reads \
    (lobby_id, player_id, conversation, seen_seq) VALUES ($1, $2, $3, $4) \
    ON CONFLICT (lobby_id, player_id, conversation) DO UPDATE SET seen_seq = excluded.seen_seq \
    WHERE excluded.seen_seq > message_reads.seen_seq";

pub const PLAYERS_OF_LOBBY: &str = "SELECT id, seat, name, join_data, token_hash, fallback, misses, \
    profile_id, profile_kind, binding, alias \
    FROM players \
    WHERE lobby_id = $1 ORDER BY seat";

pub const PENDING_ORDERS: &str =
    "SELECT player_id, body, submitted_at FROM orders WHERE lobby_id = $1 AND step_seq = $2";

/// A lobby's columns, as `LobbyRow::read` reads them.
macro_rules! lobby_columns {
    () => {
        "id, game, name, settings, status, host_token_hash, seed, state, round, step, step_seq, \
         event_seq, version, created_at, timing, deadline_at, paused_left, remind_below, wake_at, \
         deadline_moved_from, seed_salt, fairness"
    };
}

pub const LOBBY_BY_ID: &str = concat!("SELECT ", lobby_columns!(), " FROM lobbies WHERE id = $1");

pub const LOBBY_LIST: &str = concat!(
    "SELECT ",
    lobby_columns!(),
    " FROM lobbies WHERE unlisted = 0 ORDER BY created_at DESC, id DESC LIMIT $1"
);

/// The lobbies a personal key remembers (`my_games.rs`), each with the role held in it.
pub const MY_GAMES: &str = concat!(
    "SELECT ",
    lobby_columns!(),
    ", m.role FROM my_games m JOIN lobbies l ON l.id = m.lobby_id \
     WHERE m.key_hash = $1 ORDER BY l.created_at DESC, l.id, m.role"
);

/// The lobby's version: what decides whether a cached snapshot is current.
pub const LOBBY_VERSION: &str = "SELECT version FROM lobbies WHERE id = $1";

/// The same, taking the row's write lock (PostgreSQL) for the rest of the transaction.
pub const LOBBY_VERSION_FOR_UPDATE: &str = "SELECT version FROM lobbies WHERE id = $1 FOR UPDATE";
