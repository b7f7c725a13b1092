/**
 * The conversations the UI bench opens, written straight into a data directory's SQLite through
 * the store API before `aivory serve` starts: one holding 2,000 messages and a 20-message one as
 * the baseline. Assistant messages are Markdown of realistic length (paragraphs, lists, code).
 */
import { join } from 'node:path';
import { openStore } from '../../src/main/adapters/sqlite/sqlite-store';
import { seededRandom } from '../statistics';

/** A seeded conversation: its list title and the text only its last message contains. */
export interface SeededConversation {
  title: string;
  lastMarker: string;
  messages: number;
}

const WORDS = (
  'the model reads the table and compares each value with the previous quarter before it ' +
  'writes a short summary of what changed and why the numbers moved in that direction'
).split(' ');

function sentence(random: () => number, words: number): string {
  const picked = Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]);
  const text = picked.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** An assistant answer of ~500–900 characters: paragraphs, sometimes a list or a code block. */
function assistantText(random: () => number, index: number): string {
  const blocks = [`${sentence(random, 14)} ${sentence(random, 18)} **Note ${index}**.`];
  if (index % 3 === 0) blocks.push(['- first item', '- second `item`', '- third item'].join('\n'));
  if (index % 5 === 0) blocks.push('```python\nfor row in rows:\n    print(row)\n```');
  blocks.push(`${sentence(random, 20)} ${sentence(random, 16)}`);
  return blocks.join('\n\n');
}

/** Writes one conversation of `count` alternating user/assistant messages. */
export function seedConversation(
  store: ReturnType<typeof openStore>,
  id: string,
  title: string,
  count: number,
): SeededConversation {
  const random = seededRandom(count);
  const lastMarker = `END-OF-${id.toUpperCase()}`;
  store.conversations.createConversation({ id, title, modelId: null });
  for (let index = 0; index < count; index += 1) {
    const user = index % 2 === 0;
    const last = index === count - 1;
    const text = user ? `Question ${index}: ${sentence(random, 12)}` : assistantText(random, index);
    store.conversations.createMessage({
      id: `${id}_m${index}`,
      conversationId: id,
      role: user ? 'user' : 'assistant',
      status: 'complete',
      parts: [{ kind: 'text', text: last ? `${text} ${lastMarker}` : text }],
    });
  }
  return { title, lastMarker, messages: count };
}

/** Seeds `<home>/aivory.db`; the long conversation is written last, so it is listed first. */
export function seedHistory(home: string): { long: SeededConversation; short: SeededConversation } {
  const store = openStore(join(home, 'aivory.db'));
  try {
    const short = seedConversation(store, 'bench_short', 'Short history (20 messages)', 20);
    const long = seedConversation(store, 'bench_long', 'Long history (2,000 messages)', 2000);
    return { long, short };
  } finally {
    store.close();
  }
}
