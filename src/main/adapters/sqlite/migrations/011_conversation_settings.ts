/** Migration 11: per-conversation settings and model defaults. Never edit a shipped migration. */
export default `
-- 011 (conversation settings): a conversation's own instructions, sampling parameters and
-- context policy (JSON, checked on read; {} : none), a model's default parameters (JSON; {} : none),
-- and how many earlier messages a turn left out of its request (NULL: older turns).
ALTER TABLE conversations ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'
  CHECK (json_valid(settings) AND json_type(settings) = 'object');
ALTER TABLE models ADD COLUMN defaults TEXT NOT NULL DEFAULT '{}'
  CHECK (json_valid(defaults) AND json_type(defaults) = 'object');
ALTER TABLE turn_records ADD COLUMN omitted_messages INTEGER
  CHECK (omitted_messages IS NULL OR omitted_messages >= 0);
`;
