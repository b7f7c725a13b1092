/** Migration 6: a turn remembers its taint. Never edit a shipped migration; add the next one. */
export default `
-- 006: what tainted a turn (the call that did and what it read) is kept with its record, so a
-- reopened conversation still shows it. NULL: the turn read no untrusted content (or was recorded
-- before this migration).
ALTER TABLE turn_records ADD COLUMN taint TEXT CHECK (taint IS NULL OR json_valid(taint));
`;
