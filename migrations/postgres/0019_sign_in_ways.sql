-- Two more ways to sign a browser in (docs/identity.md, "Passkeys" and "A sign-in code by
-- mail"), each off unless configured. A session they start names the passkey or the mail
-- address it came from in `sessions.key_id`, so that removing either ends its sessions.

-- A passkey: webauthn-rs's record of the credential (its id, public key and counter), as
-- JSON. Not a secret, yet shown nowhere: a page lists a passkey by its own id and dates.
CREATE TABLE passkeys (
    id             TEXT PRIMARY KEY,
    profile_id     TEXT NOT NULL REFERENCES profiles (id),
    credential_id  TEXT NOT NULL UNIQUE,                  -- base64url, to find it at sign-in
    passkey        TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    used_at        BIGINT
);
CREATE INDEX passkeys_profile ON passkeys (profile_id);

-- A registration or sign-in under way: its challenge state lives here, not in one process's
-- memory, so that any process may finish it; single use, a few minutes.
CREATE TABLE passkey_ceremonies (
    id          TEXT PRIMARY KEY,
    profile_id  TEXT NOT NULL REFERENCES profiles (id),
    kind        TEXT NOT NULL,                            -- register | sign-in
    state       TEXT NOT NULL,
    expires_at  BIGINT NOT NULL
);

-- A profile's confirmed mail address, stored only as the SHA-256 of its normalised form:
-- a sign-in code goes to the address typed, once its hash is found here.
CREATE TABLE profile_mail (
    id            TEXT PRIMARY KEY,
    profile_id    TEXT NOT NULL REFERENCES profiles (id),
    address_hash  TEXT NOT NULL UNIQUE,
    created_at    BIGINT NOT NULL
);
CREATE INDEX profile_mail_profile ON profile_mail (profile_id);

-- Every code asked for, known address or not (so that the answer and the limits are the
-- same either way): its hash, how often it was tried, and who asked (hashed), counted for
-- the limits per address and per client. profile_id NULL: an unknown address, whose code
-- was never sent and never matches.
CREATE TABLE mail_codes (
    id            TEXT PRIMARY KEY,
    purpose       TEXT NOT NULL,                          -- confirm | sign-in
    address_hash  TEXT NOT NULL,
    client_hash   TEXT NOT NULL,
    profile_id    TEXT,
    code_hash     TEXT NOT NULL,
    tries         BIGINT NOT NULL,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL
);
CREATE INDEX mail_codes_address ON mail_codes (address_hash, created_at);
CREATE INDEX mail_codes_client ON mail_codes (client_hash, created_at);
