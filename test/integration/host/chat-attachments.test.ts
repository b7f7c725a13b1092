import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../../src/main/host/event-hub';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from '../../../src/shared/ipc/chat-extras-methods';
import type { ScriptedLlmServer } from '../../support/scripted-llm-server';
import { startScriptedLlmServer } from '../../support/scripted-llm-server';
import type { HostFixture } from '../../support/host/host-fixture';
import { openHostFixture } from '../../support/host/host-fixture';

const CSV = 'city,visits\nOslo,3\nBergen,5\n';
const csvFile = {
  name: 'visits.csv',
  mime: 'text/csv',
  dataBase64: Buffer.from(CSV).toString('base64'),
};

describe('chat.send with attached files', () => {
  let fixture: HostFixture | null = null;
  let server: ScriptedLlmServer | null = null;

  afterEach(async () => {
    await fixture?.close();
    await server?.close();
    fixture = null;
    server = null;
  });

  /** A host whose model is the scripted server; resolves each turn's end. */
  async function open(): Promise<HostFixture> {
    server = await startScriptedLlmServer(() => ({ content: 'Read it.' }));
    fixture = openHostFixture({
      env: { AIVORY_BASE_URL: server.baseUrl, AIVORY_MODEL: 'scripted-model' },
    });
    return fixture;
  }
  function turnEnd(host: HostFixture): Promise<void> {
    return new Promise((resolve) => {
      host.host.events.subscribe((event: HubEvent) => {
        if (event.name === 'turn.event' && event.payload.event.type === 'turn-end') resolve();
      });
    });
  }

  it('stores the files under uploads/, tells the model about them, and the user message lists them', async () => {
    const host = await open();
    const ended = turnEnd(host);
    const sent = await host.value('chat.send', { text: 'Sum the visits', attachments: [csvFile] });
    await ended;
    const request = server?.requests.find((entry) => entry.path.endsWith('/chat/completions'));
    const messages = (request?.body.messages ?? []) as { role: string; content: string }[];
    const userText = messages.findLast((message) => message.role === 'user')?.content ?? '';
    expect(userText).toContain('Sum the visits');
    expect(userText).toContain('[Attached files]');
    expect(userText).toContain('- visits.csv (text/csv, 28 B)');
    expect(userText).toContain('Bergen,5');
    const stored = await host.value('conversations.get', { id: sent.conversationId });
    const user = stored.messages.find((message) => message.role === 'user');
    const attachment = user?.parts.find((part) => part.kind === 'attachment');
    expect(attachment).toMatchObject({
      kind: 'attachment',
      attachment: { name: 'visits.csv', mime: 'text/csv', size: CSV.length },
    });
    const path = attachment?.kind === 'attachment' ? attachment.attachment.path : '';
    expect(path.startsWith(join(host.app.dataDir, 'uploads', sent.conversationId))).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(CSV);
  });

  it('a message may be only files; the conversation is named after the first one', async () => {
    const host = await open();
    const ended = turnEnd(host);
    const sent = await host.value('chat.send', { text: '', attachments: [csvFile] });
    await ended;
    const stored = await host.value('conversations.get', { id: sent.conversationId });
    expect(stored.conversation.title).toBe('visits.csv');
  });

  it('refuses malformed attachments before anything is stored', async () => {
    const host = await open();
    const atCap = 'A'.repeat(4 * Math.floor(MAX_ATTACHMENT_BYTES / 3));
    const overCap = `${atCap}AAAA`;
    const file = (changes: Record<string, unknown>) => ({ ...csvFile, ...changes });
    const malformed: [string, unknown][] = [
      ['no text, no files', { text: '' }],
      ['no text, empty list', { text: '  ', attachments: [] }],
      ['too many files', { text: 'x', attachments: Array(MAX_ATTACHMENTS + 1).fill(csvFile) }],
      ['one file over 40 MiB', { text: 'x', attachments: [file({ dataBase64: overCap })] }],
      [
        'files over 100 MiB together',
        { text: 'x', attachments: [atCap, atCap, atCap].map((data) => file({ dataBase64: data })) },
      ],
      ['not base64', { text: 'x', attachments: [file({ dataBase64: 'not base64!' })] }],
      ['bad padding', { text: 'x', attachments: [file({ dataBase64: 'QUJD=' })] }],
      ['a path as name', { text: 'x', attachments: [file({ name: '../../secrets.json' })] }],
      ['a backslash name', { text: 'x', attachments: [file({ name: 'a\\b.txt' })] }],
      ['a control character', { text: 'x', attachments: [file({ name: 'a\u0007.txt' })] }],
      ['an empty name', { text: 'x', attachments: [file({ name: ' ' })] }],
      ['a bad MIME type', { text: 'x', attachments: [file({ mime: 'text' })] }],
      ['an unknown key', { text: 'x', attachments: [file({ path: '/etc/passwd' })] }],
      ['bytes instead of base64', { text: 'x', attachments: [file({ dataBase64: [1, 2] })] }],
    ];
    for (const [label, payload] of malformed) {
      expect(await host.call('chat.send', payload as never), label).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
    }
    expect(existsSync(join(host.app.dataDir, 'uploads'))).toBe(false);
    expect(server?.requests ?? []).toEqual([]);
  }, 120_000);
});
