/** Migration 16: where a conversation's title came from. Never edit a shipped migration. */
export default `
-- 016 (titles, issue 22): 'message' is the first message cut short (set when the conversation is
-- created), 'generated' a short title the conversation's model wrote after its first answer,
-- 'user' a title the user gave it (a rename). A generated title never replaces the user's.
-- Conversations from before are 'message'.
ALTER TABLE conversations ADD COLUMN title_source TEXT NOT NULL DEFAULT 'message'
  CHECK (title_source IN ('message', 'generated', 'user'));
`;
