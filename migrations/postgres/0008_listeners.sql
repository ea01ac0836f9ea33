-- The Herald processes whose cross-process listener is connected to this database
-- (src/store/pg_listen.rs, docs/store.md "Cross-process wake-up"). A writer's batch announces
-- its commit (NOTIFY) only if a process other than its own is registered here: PostgreSQL
-- commits NOTIFYing transactions one at a time, a cost a process alone on its database has no
-- reason to pay. A listener registers before it catches up and removes its row when it stops;
-- the row of a killed process stays until the next listener to start finds its connection gone,
-- meanwhile costing only announcements nobody hears. PostgreSQL only: SQLite has one process.
CREATE TABLE herald_listeners (
    process TEXT PRIMARY KEY
);
