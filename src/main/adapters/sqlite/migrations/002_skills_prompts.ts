/** Migration 2: skills prompts. Never edit a shipped migration; add the next one. */
export default `
-- 002: the user's skills (with their attached assets) and prompt templates.

-- A skill's name is its identity (use_skill loads it by name); assets follow a rename.
CREATE TABLE skills (
  name TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64 AND name NOT GLOB '*[^a-z0-9-]*'),
  icon TEXT NOT NULL DEFAULT '',
  when_to_use TEXT NOT NULL,
  instructions TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Assets live in the database beside their skill: one file to back up, written and deleted in the
-- same transaction as the skill, and kept apart from conversation attachments (seed 003: 管理员
-- 资产与用户附件的备份和访问控制不同). Listing reads the metadata columns only.
CREATE TABLE skill_assets (
  skill_name TEXT NOT NULL REFERENCES skills (name) ON DELETE CASCADE ON UPDATE CASCADE,
  name TEXT NOT NULL,
  mime TEXT NOT NULL,
  size INTEGER NOT NULL CHECK (size >= 0),
  data BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (skill_name, name)
);

CREATE TABLE prompt_templates (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  tags TEXT NOT NULL CHECK (json_valid(tags)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE INDEX prompt_templates_by_update ON prompt_templates (updated_at DESC);
`;
