-- Signed-in browsers (docs/identity.md, "Signing in"): a session starts from a profile key's
-- sign-in link and lives in an HttpOnly cookie. Only its secret's SHA-256 is stored; `id` is
-- the public handle to revoke it by. It ends when its key is revoked (the lookup joins the
-- key) or when it is not used for 90 days (each use moves `expires_at`).
CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    secret_hash  TEXT NOT NULL UNIQUE,
    profile_id   TEXT NOT NULL REFERENCES profiles (id),
    key_id       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX sessions_profile ON sessions (profile_id);
