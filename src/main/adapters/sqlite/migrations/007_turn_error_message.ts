/**
 * Migration 7: a finished turn keeps its reason, its budget meter and the model that answered.
 * Never edit a shipped migration; add the next one.
 */
export default `
-- 007: the public message of a failed turn (what the user reads: "Cannot reach the model server
-- at …", "The model server rejected the API key (HTTP 401)"), so a reopened conversation says why
-- it failed, not only that it did. NULL when the turn did not fail (or failed before this).
ALTER TABLE turn_records ADD COLUMN error_message TEXT;
-- The last budget meter of the turn (JSON: { perTool: { name: { used, limit } }, total, rounds }),
-- so a reopened turn reads "total 1/48" as it did live. NULL: recorded before this.
ALTER TABLE turn_records ADD COLUMN budget TEXT CHECK (budget IS NULL OR json_valid(budget));
-- The model name the request carried (model_id names a saved model, or is NULL for one given by
-- flags or AIVORY_*), so every answer can say which model wrote it.
ALTER TABLE turn_records ADD COLUMN model_name TEXT;
`;
