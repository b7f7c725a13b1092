/**
 * The stores, one per aggregate. A consumer depends on the one it uses (the chat service on
 * `ConversationStore`, the skills service on `SkillStore`, …); `openStore` returns the SQLite
 * connection with one field per store (`conversations`, `memories`, `settings`, `library`,
 * `mcp`, `knowledge`). `AppStores` is how the composition root hands them out.
 */
import type { ConversationStore } from './conversation-store';
import type { KnowledgeStore } from './knowledge';
import type { LibraryStore } from './library-store';
import type { McpStore } from './mcp-store';
import type { MemoryStore } from './memory-store';
import type { SettingsStore } from './settings-store';

export interface AppStores {
  conversations: ConversationStore;
  memories: MemoryStore;
  /** Settings groups, models and the global tool switches. */
  settings: SettingsStore;
  /** Skills and prompt templates. */
  library: LibraryStore;
  mcp: McpStore;
  /** Knowledge folders: their files, passages and full-text index. */
  knowledge: KnowledgeStore;
}
