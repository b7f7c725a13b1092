import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AivoryBridge } from '../../../src/renderer/bridge/bridge';
import { filesUrl } from '../../../src/renderer/bridge/bridge';
import { AssistantMessage, UserMessage } from '../../../src/renderer/features/chat/message-view';
import { AttachmentChips } from '../../../src/renderer/features/composer/attachment-chips';
import { appStore } from '../../../src/renderer/state/store';

/** A bridge that only knows how to name files (no calls are made by a static render). */
function fakeBridge(host: 'browser' | 'electron'): AivoryBridge {
  return {
    host,
    invoke: () => Promise.reject(new Error('not in this test')),
    onEvent: () => () => undefined,
    onConnectionChange: () => () => undefined,
    fileUrl: (path, download) =>
      filesUrl('http://127.0.0.1:5217/', {
        path,
        token: 'T',
        ...(download ? { download: '1' } : {}),
      }),
  };
}

const PLOT = {
  name: 'plot.png',
  path: '/data/artifacts/c/plot.png',
  mime: 'image/png',
  size: 2048,
};
const SVG = {
  name: 'logo.svg',
  path: '/data/artifacts/c/logo.svg',
  mime: 'image/svg+xml',
  size: 99,
};

describe('renderer: files, code blocks and composer chips (static render)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  /** Server rendering reads the store's initial state: give it a bridge. */
  const withBridge = (host: 'browser' | 'electron'): void => {
    const initial = appStore.getInitialState();
    vi.spyOn(appStore, 'getInitialState').mockReturnValue({ ...initial, bridge: fakeBridge(host) });
  };

  it('browser host: artifact images inline from /files, every file with a download link; SVG never inline', () => {
    withBridge('browser');
    const html = renderToStaticMarkup(
      <AssistantMessage
        status="complete"
        parts={[
          { kind: 'artifact', artifact: PLOT },
          { kind: 'artifact', artifact: SVG },
        ]}
        budget={null}
        stopReason={null}
        error={null}
      />,
    );
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain(
      'src="http://127.0.0.1:5217/files?path=%2Fdata%2Fartifacts%2Fc%2Fplot.png&amp;token=T"',
    );
    expect(html).toContain('File: plot.png (2 KiB)');
    expect(html.match(/data-testid="file-download"/g)).toHaveLength(2);
    expect(html).toContain('download="logo.svg"');
    expect(html).toContain('&amp;download=1');
    expect(html).not.toContain('file-open');
  });

  it('desktop: open and show in folder instead of a download', () => {
    withBridge('electron');
    const html = renderToStaticMarkup(
      <UserMessage text="See attached" files={[{ ...PLOT, name: 'photo.png' }]} />,
    );
    expect(html).toContain('data-testid="file-open"');
    expect(html).toContain('data-testid="file-reveal"');
    expect(html).toContain('Attachment: photo.png (2 KiB)');
    expect(html).not.toContain('file-download');
  });

  it('desktop: a file that could run as a program has only "show in folder"', () => {
    withBridge('electron');
    for (const name of ['run-me.bat', 'page.html', 'logo.svg', 'tool.exe']) {
      const html = renderToStaticMarkup(
        <AssistantMessage
          status="complete"
          parts={[{ kind: 'artifact', artifact: { ...PLOT, name } }]}
          budget={null}
          stopReason={null}
          error={null}
        />,
      );
      expect(html, name).not.toContain('data-testid="file-open"');
      expect(html, name).toContain('data-testid="file-reveal"');
    }
  });

  it('a user message being sent shows its files without links; the composer chips can be removed', () => {
    withBridge('browser');
    const sending = renderToStaticMarkup(
      <UserMessage
        text=""
        files={[{ name: 'data.csv', size: 30, mime: 'text/csv', path: null }]}
      />,
    );
    expect(sending).toContain('Attachment: data.csv (30 B)');
    expect(sending).not.toContain('<a ');
    expect(sending).not.toContain('user-text');
    const chips = renderToStaticMarkup(
      <AttachmentChips
        files={[{ id: '1', name: 'data.csv', size: 30, mime: 'text/csv', dataBase64: '' }]}
        onRemove={() => undefined}
      />,
    );
    expect(chips).toContain('data-testid="composer-attachment"');
    expect(chips).toContain('aria-label="Remove data.csv"');
  });

  it('a chip of an MCP resource names the service it came from', () => {
    withBridge('browser');
    const file = { id: '1', name: 'red.png', size: 70, mime: 'image/png', dataBase64: '' };
    const plain = renderToStaticMarkup(
      <AttachmentChips files={[file]} onRemove={() => undefined} />,
    );
    expect(plain).not.toContain('composer-attachment-source');
    const chips = renderToStaticMarkup(
      <AttachmentChips files={[{ ...file, source: 'lab' }]} onRemove={() => undefined} />,
    );
    expect(chips).toContain('data-mime="image/png"');
    expect(chips).toMatch(/data-testid="composer-attachment-source"[^>]*>\s*from lab</);
  });
});
