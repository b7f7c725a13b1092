/** Migration 15: turn leases. Never edit a shipped migration; add the next one. */
export default `
-- 015 (turn leases): the turn running in a conversation, whichever process runs it, so a second
-- turn in the same conversation is refused instead of interleaving with it (issue 21). One row per
-- conversation with a running turn: the owner's pid and a heartbeat (ms since the epoch) the owner
-- renews while the turn runs. A row whose owner is dead, or whose heartbeat is old (the pid was
-- reused), is stale and taken over by the next turn; it goes with its conversation.
CREATE TABLE turn_leases (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations (id) ON DELETE CASCADE,
  turn_id TEXT NOT NULL,
  owner_pid INTEGER NOT NULL,
  claimed_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
) WITHOUT ROWID;
`;
