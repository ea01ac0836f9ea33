-- The large JSON documents (a game's state, a resolved step's log, its revealed orders and
-- pools) are compressed with lz4 rather than PostgreSQL's default pglz when they are stored
-- out of line. Under load, pglz was a tenth of the database's CPU: a state is written at
-- every step and a step's row once per step. lz4 compresses several times faster, and
-- PostgreSQL 14 and later (Debian's packages and the official images) are built with it.
-- Only values written from now on are affected; older ones stay readable as they are.
ALTER TABLE lobbies ALTER COLUMN state SET COMPRESSION lz4;
ALTER TABLE lobbies ALTER COLUMN settings SET COMPRESSION lz4;
ALTER TABLE steps ALTER COLUMN revealed SET COMPRESSION lz4,
                  ALTER COLUMN log SET COMPRESSION lz4,
                  ALTER COLUMN pools SET COMPRESSION lz4;
ALTER TABLE events ALTER COLUMN data SET COMPRESSION lz4;
