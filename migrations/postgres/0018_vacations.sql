-- Vacations (docs/identity.md, "Vacations"): a profile declares ahead when it is away. The rows
-- are kept after they end, since the allowance (14 days per rolling 365) counts them; a
-- vacation ended early keeps the part that was taken. Times are unix milliseconds.
CREATE TABLE vacations (
    id          TEXT PRIMARY KEY,
    profile_id  TEXT NOT NULL REFERENCES profiles (id),
    from_at     BIGINT NOT NULL,
    until_at    BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX vacations_profile ON vacations (profile_id, until_at);

-- The open step's deadline before a vacation moved it (NULL: not moved). A step's deadline
-- moves at most once for a vacation; the column goes with the rest of the clock.
ALTER TABLE lobbies ADD COLUMN deadline_moved_from BIGINT;

-- Why a miss is excused: 'host' (with the host's reason, shown to the player) or 'vacation'.
ALTER TABLE owed_steps ADD COLUMN excused_by TEXT;
ALTER TABLE owed_steps ADD COLUMN excuse_reason TEXT;
