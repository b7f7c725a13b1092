/** Migration 18: knowledge folders and their full-text index. Never edit a shipped migration. */
export default `
-- 018 (knowledge, issue 38): folders of the user's own documents, indexed for search. The files
-- themselves stay where they are; only what was read from them lives here.

-- A folder the user added: a unique name (for the CLI and citations) and its absolute path.
-- settings: JSON for what later slices add per folder (an embedding model, the watcher).
-- scan_*: the last catch-up scan, so status can say whether it finished (a killed one did not)
-- and what it left out (scan_note: e.g. the file-count limit reached).
CREATE TABLE knowledge_folders (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  path TEXT NOT NULL,
  added_at INTEGER NOT NULL,
  settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
  scan_started_at INTEGER,
  scan_finished_at INTEGER,
  scan_note TEXT
);

-- One row per file found in a folder, whatever became of it: indexed, skipped (and why: too
-- large, not text, a kind not read yet) or failed (and why: a damaged PDF, a read error).
-- size + mtime_ms decide whether a scan reads the file again; content_hash (SHA-256 of its
-- bytes, NULL when not read) recognises an unchanged file with a new mtime and a renamed file.
CREATE TABLE knowledge_files (
  id INTEGER PRIMARY KEY,
  folder_id TEXT NOT NULL REFERENCES knowledge_folders (id) ON DELETE CASCADE,
  relative_path TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  content_hash TEXT,
  kind TEXT,
  status TEXT NOT NULL CHECK (status IN ('indexed', 'skipped', 'failed')),
  reason TEXT,
  indexed_at INTEGER NOT NULL,
  UNIQUE (folder_id, relative_path)
);
CREATE INDEX knowledge_files_by_hash ON knowledge_files (folder_id, content_hash);

-- The passages of an indexed file, in order. content_hash (SHA-256 of text) is what a re-read
-- compares (an unchanged passage keeps its row and id) and what embeddings will be keyed by.
-- Location: a line range (text, code, Markdown, HTML, CSV) or a page (PDF).
CREATE TABLE knowledge_chunks (
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES knowledge_files (id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  text TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  line_start INTEGER,
  line_end INTEGER,
  page INTEGER,
  CHECK ((line_start IS NOT NULL AND line_end IS NOT NULL) OR page IS NOT NULL)
);
CREATE INDEX knowledge_chunks_by_file ON knowledge_chunks (file_id, ordinal);
CREATE INDEX knowledge_chunks_by_hash ON knowledge_chunks (content_hash);

-- Full-text index over the passages, an external-content table: the text is stored once (in
-- knowledge_chunks); the triggers keep the index in step, deletes by cascade included.
CREATE VIRTUAL TABLE knowledge_fts USING fts5 (
  text,
  content = 'knowledge_chunks',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER knowledge_chunks_after_insert AFTER INSERT ON knowledge_chunks BEGIN
  INSERT INTO knowledge_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER knowledge_chunks_after_delete AFTER DELETE ON knowledge_chunks BEGIN
  INSERT INTO knowledge_fts (knowledge_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER knowledge_chunks_after_update AFTER UPDATE OF text ON knowledge_chunks BEGIN
  INSERT INTO knowledge_fts (knowledge_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO knowledge_fts (rowid, text) VALUES (new.id, new.text);
END;
`;
