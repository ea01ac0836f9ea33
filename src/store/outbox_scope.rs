//! The two outboxes the delivery worker serves (docs/notifications.md): a lobby's (migrations
//! 0005 and 0009) and a tournament's (0029). Their tables have the same columns but the owner's
//! (`lobby_id`, `tournament_id`), so every statement of the worker's path (the claim, the
//! material, the settlement, the failed attempts' record, a dead destination's disabling) is
//! written once here and named for each, and a row carries the [`Scope`] it came from.

use std::sync::LazyLock;

use uuid::Uuid;

/// Which outbox a destination or a delivery belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// A lobby's webhooks and players' own destinations (`notify_*`).
    Lobby,
    /// A tournament director's webhooks (`tournament_webhooks`, `tournament_outbox`, …).
    Tournament,
}

/// Whose news a destination or a delivery carries: a lobby's or a tournament's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Lobby(Uuid),
    Tournament(Uuid),
}

impl Owner {
    pub fn of(scope: Scope, id: Uuid) -> Owner {
        match scope {
            Scope::Lobby => Owner::Lobby(id),
            Scope::Tournament => Owner::Tournament(id),
        }
    }

    pub fn scope(self) -> Scope {
        match self {
            Owner::Lobby(_) => Scope::Lobby,
            Owner::Tournament(_) => Scope::Tournament,
        }
    }

    pub fn id(self) -> Uuid {
        match self {
            Owner::Lobby(id) | Owner::Tournament(id) => id,
        }
    }
}

/// One outbox's tables.
struct Tables {
    targets: &'static str,
    subscriptions: &'static str,
    outbox: &'static str,
    attempts: &'static str,
    events: &'static str,
    owner: &'static str,
    /// The player column a destination has (a tournament's has none).
    player: &'static str,
}

const LOBBY: Tables = Tables {
    targets: "notify_targets",
    subscriptions: "notify_subscriptions",
    outbox: "notify_outbox",
    attempts: "notify_attempts",
    events: "events",
    owner: "lobby_id",
    player: "player_id",
};

const TOURNAMENT: Tables = Tables {
    targets: "tournament_webhooks",
    subscriptions: "tournament_subscriptions",
    outbox: "tournament_outbox",
    attempts: "tournament_attempts",
    events: "tournament_events",
    owner: "tournament_id",
    player: "CAST(NULL AS TEXT)",
};

/// The worker's statements for one outbox.
pub(super) struct Statements {
    /// A destination's columns as `TargetRow::from_row` reads them (owner as `owner_id`).
    pub target_columns: String,
    pub claim_sqlite: String,
    pub claim_postgres: String,
    /// Settles one attempt's row (`delivered_at` and `delivered_status` null unless
    /// delivered: a success is recorded on its row) if the lease `$6` still holds it.
    pub settle_sqlite: String,
    /// Settles a batch given as a JSON array of settlements on the rows whose lease `$2`
    /// still holds; answers the ids it settled.
    pub settle_postgres: String,
    /// Records one failed attempt.
    pub record_sqlite: String,
    /// Records a batch of failed attempts given as a JSON array.
    pub record_postgres: String,
    /// Disables a destination whose delivery died.
    pub disable: String,
    /// A claimed delivery's destination and event, for a list of outbox ids (appended).
    pub material: String,
    /// The last attempts on a destination, newest first: the failed ones and the successes
    /// recorded on their outbox rows.
    pub attempts: String,
    /// A host's or a director's test message.
    pub queue_test: String,
}

impl Scope {
    pub(super) const ALL: [Scope; 2] = [Scope::Lobby, Scope::Tournament];

    pub(super) fn sql(self) -> &'static Statements {
        static FOR_LOBBY: LazyLock<Statements> = LazyLock::new(|| Statements::of(&LOBBY));
        static FOR_TOURNAMENT: LazyLock<Statements> = LazyLock::new(|| Statements::of(&TOURNAMENT));
        match self {
            Scope::Lobby => &FOR_LOBBY,
            Scope::Tournament => &FOR_TOURNAMENT,
        }
    }

    fn tables(self) -> &'static Tables {
        match self {
            Scope::Lobby => &LOBBY,
            Scope::Tournament => &TOURNAMENT,
        }
    }

    /// The outbox table's name (the reads that count rows).
    pub(super) fn outbox(self) -> &'static str {
        self.tables().outbox
    }

    /// The destinations' table.
    pub(super) fn targets(self) -> &'static str {
        self.tables().targets
    }

    /// The owner's column.
    pub(super) fn owner_column(self) -> &'static str {
        self.tables().owner
    }

    /// The subscriptions' table.
    pub(super) fn subscriptions(self) -> &'static str {
        self.tables().subscriptions
    }
}

impl Statements {
    fn of(t: &Tables) -> Statements {
        let Tables {
            targets,
            subscriptions: _,
            outbox,
            attempts,
            events,
            owner,
            player,
        } = t;
        let claim = |lock: &str| {
            format!(
                "UPDATE {outbox} SET lease_owner = $1, lease_until = $2 \
                 WHERE id IN (SELECT id FROM {outbox} WHERE status = 'pending' AND next_at <= $3 \
                 AND (lease_until IS NULL OR lease_until <= $3) ORDER BY next_at LIMIT $4{lock}) \
                 AND (lease_until IS NULL OR lease_until <= $3) \
                 RETURNING id, target_id, {owner} AS owner_id, event_seq, kind, attempts, created_at"
            )
        };
        Statements {
            target_columns: format!(
                "id, {owner} AS owner_id, {player} AS player_id, channel, address, secret, \
                 enabled, created_at"
            ),
            claim_sqlite: claim(""),
            claim_postgres: claim(" FOR UPDATE SKIP LOCKED"),
            settle_sqlite: format!(
                "UPDATE {outbox} SET status = $1, attempts = attempts + 1, next_at = $2, \
                 lease_owner = NULL, lease_until = NULL, delivered_at = $3, delivered_status = $4 \
                 WHERE id = $5 AND lease_owner = $6"
            ),
            settle_postgres: format!(
                "UPDATE {outbox} SET status = f.state, attempts = attempts + 1, \
                 next_at = f.next_at, lease_owner = NULL, lease_until = NULL, \
                 delivered_at = f.delivered_at, delivered_status = f.delivered_status \
                 FROM jsonb_to_recordset($1::jsonb) AS f(id text, state text, next_at bigint, \
                 delivered_at bigint, delivered_status bigint) \
                 WHERE {outbox}.id = f.id AND {outbox}.lease_owner = $2 \
                 RETURNING {outbox}.id"
            ),
            record_sqlite: format!(
                "INSERT INTO {attempts} (outbox_id, attempt, target_id, at, status, error) \
                 VALUES ($1, $2, $3, $4, $5, $6)"
            ),
            record_postgres: format!(
                "INSERT INTO {attempts} (outbox_id, attempt, target_id, at, status, error) \
                 SELECT outbox_id, attempt, target_id, at, status, error \
                 FROM jsonb_to_recordset($1::jsonb) AS f(outbox_id text, attempt bigint, \
                 target_id text, at bigint, status bigint, error text)"
            ),
            disable: format!("UPDATE {targets} SET enabled = 0 WHERE id = $1"),
            material: format!(
                "SELECT o.id AS outbox_id, t.id, t.{owner} AS owner_id, \
                 {player_of_t} AS player_id, t.channel, t.address, t.secret, t.enabled, \
                 t.created_at, e.seq, e.kind, e.data \
                 FROM {outbox} o JOIN {targets} t ON t.id = o.target_id \
                 LEFT JOIN {events} e ON e.{owner} = o.{owner} AND e.seq = o.event_seq",
                player_of_t = match *player {
                    "player_id" => "t.player_id",
                    other => other,
                }
            ),
            attempts: format!(
                "SELECT outbox_id, kind, attempt, at, status, error FROM ( \
                 SELECT a.outbox_id, o.kind, a.attempt, a.at, a.status, a.error \
                 FROM {attempts} a JOIN {outbox} o ON o.id = a.outbox_id \
                 WHERE a.target_id = $1 \
                 UNION ALL \
                 SELECT o.id AS outbox_id, o.kind, o.attempts AS attempt, o.delivered_at AS at, \
                 o.delivered_status AS status, CAST(NULL AS TEXT) AS error \
                 FROM {outbox} o WHERE o.target_id = $1 AND o.delivered_at IS NOT NULL \
                 ) AS attempts ORDER BY at DESC, attempt DESC LIMIT $2"
            ),
            queue_test: format!(
                "INSERT INTO {outbox} \
                 (id, target_id, {owner}, event_seq, kind, status, attempts, next_at, created_at) \
                 VALUES ($1, $2, $3, NULL, 'test', 'pending', 0, $4, $4)"
            ),
        }
    }
}
