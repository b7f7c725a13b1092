/** Migration 1: initial. Never edit a shipped migration; add the next one. */
export default `
-- 001: the initial schema. Times are epoch milliseconds; JSON columns hold JSON text.

CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  model_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE INDEX conversations_by_update ON conversations (updated_at DESC);

-- 'seq' is the rowid alias: it keeps insertion order stable (VACUUM may renumber implicit rowids)
-- and is the rowid of the message's row in messages_fts.
CREATE TABLE messages (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
  status TEXT NOT NULL
    CHECK (status IN ('streaming', 'complete', 'canceled', 'error', 'interrupted')),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  -- The pid of the process writing a 'streaming' message; NULL once it has left 'streaming'.
  owner_pid INTEGER
);

CREATE INDEX messages_by_conversation ON messages (conversation_id, created_at, seq);
CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';

CREATE TABLE message_parts (
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL
    CHECK (kind IN ('text', 'reasoning', 'tool-call', 'tool-result', 'artifact')),
  data TEXT NOT NULL CHECK (json_valid(data)),
  PRIMARY KEY (message_id, position)
) WITHOUT ROWID;

CREATE TABLE turn_records (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
  message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  model_id TEXT,
  stop_reason TEXT NOT NULL,
  tool_calls TEXT NOT NULL CHECK (json_valid(tool_calls)),
  provider_rounds INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  error_code TEXT
);

CREATE INDEX turn_records_by_conversation ON turn_records (conversation_id, started_at);
CREATE INDEX turn_records_by_message ON turn_records (message_id);

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL CHECK (json_valid(value))
);

CREATE TABLE models (
  id TEXT PRIMARY KEY,
  label TEXT NOT NULL,
  base_url TEXT NOT NULL,
  model TEXT NOT NULL,
  tool_mode TEXT NOT NULL CHECK (tool_mode IN ('native', 'prompt')),
  context_window INTEGER NOT NULL,
  default_tools TEXT NOT NULL CHECK (json_valid(default_tools)),
  api_key_ref TEXT,
  is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1))
);

-- At most one default model.
CREATE UNIQUE INDEX models_single_default ON models (is_default) WHERE is_default = 1;

CREATE TABLE tool_availability (
  tool_name TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1))
);

-- Memories outlive the conversation they came from.
CREATE TABLE memories (
  id TEXT PRIMARY KEY,
  memory_text TEXT NOT NULL,
  slot TEXT,
  value TEXT,
  status TEXT NOT NULL CHECK (status IN ('ACTIVE', 'ARCHIVED')),
  created_at INTEGER NOT NULL,
  conversation_id TEXT REFERENCES conversations (id) ON DELETE SET NULL
);

-- Full-text index over each message's text and reasoning parts; rowid = messages.seq.
CREATE VIRTUAL TABLE messages_fts USING fts5 (
  message_id UNINDEXED,
  conversation_id UNINDEXED,
  text,
  tokenize = 'unicode61 remove_diacritics 2'
);

-- Deleting a message (directly or by cascade from its conversation) drops its index entry.
CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
  DELETE FROM messages_fts WHERE rowid = old.seq;
END;
`;
