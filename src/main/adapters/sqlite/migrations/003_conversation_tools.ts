/** Migration 3: conversation tools. Never edit a shipped migration; add the next one. */
export default `
-- 003: a conversation's own tool switches, and attachments on user messages.

-- The third availability layer, after the global switch and the model's defaults: a JSON object
-- of tool name → true (added) / false (removed).
ALTER TABLE conversations ADD COLUMN tool_toggles TEXT NOT NULL DEFAULT '{}'
  CHECK (json_valid(tool_toggles));

-- A CHECK constraint cannot be altered in SQLite: the parts table is rebuilt to allow the new
-- 'attachment' kind (nothing references it, so the copy is a plain one).
CREATE TABLE message_parts_v3 (
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL
    CHECK (kind IN ('text', 'reasoning', 'tool-call', 'tool-result', 'artifact', 'attachment')),
  data TEXT NOT NULL CHECK (json_valid(data)),
  PRIMARY KEY (message_id, position)
) WITHOUT ROWID;
INSERT INTO message_parts_v3 (message_id, position, kind, data)
  SELECT message_id, position, kind, data FROM message_parts;
DROP TABLE message_parts;
ALTER TABLE message_parts_v3 RENAME TO message_parts;
`;
