-- A profile's own challenges, newest first, for its page (docs/bots.md, "Challenges").
CREATE INDEX challenges_from ON challenges (from_profile, created_at);
