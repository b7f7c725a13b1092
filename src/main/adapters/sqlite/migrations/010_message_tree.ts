/** Migration 10: messages form a tree. Never edit a shipped migration; add the next one. */
export default `
-- 010: versions of answers and edited questions. Each message names its parent (the message it
-- follows; NULL for a conversation's first message); a regenerated answer is a sibling of the
-- answer it replaces, an edited question a sibling of the question. The conversation's
-- active_leaf_id is the last message of the path the user sees (NULL: no messages yet).
ALTER TABLE messages ADD COLUMN parent_id TEXT;
ALTER TABLE conversations ADD COLUMN active_leaf_id TEXT;

-- Until now a conversation was one line: each message follows the one before it.
UPDATE messages SET parent_id = (
  SELECT p.id FROM messages p
  WHERE p.conversation_id = messages.conversation_id
    AND (p.created_at < messages.created_at
      OR (p.created_at = messages.created_at AND p.seq < messages.seq))
  ORDER BY p.created_at DESC, p.seq DESC
  LIMIT 1
);
UPDATE conversations SET active_leaf_id = (
  SELECT m.id FROM messages m WHERE m.conversation_id = conversations.id
  ORDER BY m.created_at DESC, m.seq DESC
  LIMIT 1
);

CREATE INDEX messages_by_parent ON messages (parent_id);
`;
