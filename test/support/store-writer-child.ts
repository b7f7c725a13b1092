/**
 * A child process for the crash-recovery tests: `node --import tsx store-writer-child.ts
 * <database> <stream|hold>`. It opens the store, creates conversation `c1` and a streaming
 * assistant message `a1`, and prints `ready <pid>`. Then:
 * - `stream`: every 20 ms appends `chunk-<n> ` to the message's text, commits it with
 *   `updateMessage`, and only then prints `committed <text as JSON>`, so every printed text is
 *   already on disk when the parent reads it;
 * - `hold`: keeps the message streaming and sleeps until it is killed.
 */
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';

const UPDATE_INTERVAL_MS = 20;

const [databasePath, mode] = process.argv.slice(2);
if (databasePath === undefined || (mode !== 'stream' && mode !== 'hold')) {
  process.stderr.write('usage: store-writer-child <database> <stream|hold>\n');
  process.exit(2);
}

const store = openStore(databasePath);
store.conversations.createConversation({ id: 'c1', title: 'Crash test', modelId: null });
store.conversations.createMessage({
  id: 'a1',
  conversationId: 'c1',
  role: 'assistant',
  status: 'streaming',
  parts: [],
});
process.stdout.write(`ready ${process.pid}\n`);

if (mode === 'hold') {
  setInterval(() => undefined, 60_000);
} else {
  let text = '';
  let index = 0;
  setInterval(() => {
    text += `chunk-${index} `;
    index += 1;
    store.conversations.updateMessage('a1', { parts: [{ kind: 'text', text }] });
    process.stdout.write(`committed ${JSON.stringify(text)}\n`);
  }, UPDATE_INTERVAL_MS);
}
