/** Migration 12: a conversation can be pinned. Never edit a shipped migration; add the next one. */
export default `
-- 012 (pins): when the user pinned the conversation (ms since the epoch), NULL when not pinned.
-- Pinned conversations head the list (newest pin first); pinning is not activity, so updated_at
-- and the order by activity stay as they were.
ALTER TABLE conversations ADD COLUMN pinned_at INTEGER;
`;
