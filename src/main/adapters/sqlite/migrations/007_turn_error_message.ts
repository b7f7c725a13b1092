/** Migration 7: a failed turn keeps its reason. Never edit a shipped migration; add the next one. */
export default `
-- 007: the public message of a failed turn (what the user reads: "Cannot reach the model server
-- at …", "The model server rejected the API key (HTTP 401)"), so a reopened conversation says why
-- it failed, not only that it did. NULL when the turn did not fail (or failed before this).
ALTER TABLE turn_records ADD COLUMN error_message TEXT;
`;
