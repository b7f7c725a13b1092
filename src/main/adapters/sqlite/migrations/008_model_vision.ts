/** Migration 8: a saved model says whether it takes images. Never edit a shipped migration. */
export default `
-- 008 (model capabilities): 1 when the model takes images as input, set by the user or from what
-- the provider's model list states. Existing models: 0 (the user can turn it on).
ALTER TABLE models ADD COLUMN vision INTEGER NOT NULL DEFAULT 0 CHECK (vision IN (0, 1));
`;
