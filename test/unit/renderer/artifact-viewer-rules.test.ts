/**
 * The artifact viewer's pure rules: which viewer a file gets and its size cap, the conversation's
 * files in order for next / previous, and the isolated frame's document and CSP.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/shared/dto';
import {
  ARTIFACT_FRAME_BOOTSTRAP_SHA256,
  ARTIFACT_FRAME_CSP,
  ARTIFACT_FRAME_HTML,
  ARTIFACT_FRAME_NO_SCRIPTS,
  ARTIFACT_FRAME_NO_SCRIPTS_CSP,
  artifactFrameHeaders,
  isArtifactFramePath,
} from '../../../src/shared/artifact-frame';
import {
  codeLanguage,
  tooLargeToView,
  VIEWER_LIMITS,
  viewerKind,
} from '../../../src/renderer/features/artifacts/artifact-kind';
import {
  conversationFiles,
  stepFile,
} from '../../../src/renderer/features/artifacts/artifact-files';

describe('artifact viewer: kinds and caps', () => {
  it('picks the viewer by extension, none for unknown or extension-less names', () => {
    expect(viewerKind('report.MD')).toBe('markdown');
    expect(viewerKind('data.json')).toBe('json');
    expect(viewerKind('fit.py')).toBe('code');
    expect(viewerKind('notes.txt')).toBe('text');
    expect(viewerKind('plot.png')).toBe('image');
    expect(viewerKind('table.tsv')).toBe('csv');
    expect(viewerKind('page.htm')).toBe('html');
    expect(viewerKind('chart.svg')).toBe('svg');
    expect(viewerKind('archive.zip')).toBeNull();
    expect(viewerKind('Makefile')).toBeNull();
    // A trailing dot or an NTFS stream leaves no extension (shared/openable-files.ts).
    expect(viewerKind('page.html.')).toBeNull();
    expect(viewerKind('page.html:x')).toBeNull();
  });

  it('caps every viewer; past the cap a file is too large to preview', () => {
    expect(tooLargeToView('csv', VIEWER_LIMITS.csv)).toBe(false);
    expect(tooLargeToView('csv', VIEWER_LIMITS.csv + 1)).toBe(true);
    expect(VIEWER_LIMITS.markdown).toBeLessThan(VIEWER_LIMITS.text);
    expect(codeLanguage('nb.ipynb')).toBe('json');
    expect(codeLanguage('a.yml')).toBe('yaml');
  });
});

describe('artifact viewer: the conversation files', () => {
  const file = (name: string) => ({ name, path: `/data/${name}`, size: 1, mime: 'text/plain' });
  const message = (id: string, parts: Message['parts']): Message =>
    ({ id, conversationId: 'c', role: 'assistant', parts }) as unknown as Message;
  const messages = [
    message('1', [{ kind: 'attachment', attachment: file('a.csv') }]),
    message('2', [
      { kind: 'text', text: 'here' },
      { kind: 'artifact', artifact: file('b.png') },
      { kind: 'artifact', artifact: file('a.csv') },
    ]),
    message('3', [{ kind: 'artifact', artifact: file('c.html') }]),
  ] as Message[];

  it('lists attachments and artifacts in order, each path once', () => {
    expect(conversationFiles(messages).map((entry) => entry.name)).toEqual([
      'a.csv',
      'b.png',
      'c.html',
    ]);
  });

  it('steps forward and back, wrapping round', () => {
    const files = conversationFiles(messages);
    expect(stepFile(files, file('a.csv'), 1)?.name).toBe('b.png');
    expect(stepFile(files, file('a.csv'), -1)?.name).toBe('c.html');
    expect(stepFile(files, file('c.html'), 1)?.name).toBe('a.csv');
    expect(stepFile([], file('a.csv'), 1)).toBeNull();
  });
});

describe('artifact viewer: the isolated frame', () => {
  it('allows inline script and style but no network, no forms, no same origin', () => {
    const directives = new Map(
      ARTIFACT_FRAME_CSP.split('; ').map((directive) => {
        const [name = '', ...values] = directive.split(' ');
        return [name, values.join(' ')];
      }),
    );
    expect(directives.get('default-src')).toBe("'none'");
    expect(directives.get('script-src')).toBe("'unsafe-inline'");
    expect(directives.get('img-src')).toBe('data: blob:');
    expect(directives.get('form-action')).toBe("'none'");
    expect(directives.get('sandbox')).toBe('allow-scripts');
    expect(directives.has('connect-src')).toBe(false);
    expect(ARTIFACT_FRAME_CSP).not.toMatch(/https?:|'self'|\*/);
  });

  it('takes the page only from its parent, once', () => {
    expect(ARTIFACT_FRAME_HTML).toContain('event.source !== parent');
    expect(ARTIFACT_FRAME_HTML).toContain('done = true');
    expect(isArtifactFramePath('/artifact-frame.html?x=1')).toBe(true);
    expect(isArtifactFramePath('app://aivory/artifact-frame.html')).toBe(true);
    expect(isArtifactFramePath('/artifact-frame.html/../index.html')).toBe(false);
    expect(isArtifactFramePath('/index.html')).toBe(false);
  });

  it('has a scriptless variant whose CSP runs the bootstrap alone (a browser tab cannot deny WebRTC)', () => {
    const script = /<script>([\s\S]*?)<\/script>/.exec(ARTIFACT_FRAME_HTML)?.[1] ?? '';
    expect(createHash('sha256').update(script).digest('base64')).toBe(
      ARTIFACT_FRAME_BOOTSTRAP_SHA256,
    );
    expect(ARTIFACT_FRAME_NO_SCRIPTS_CSP).toContain(
      `script-src 'sha256-${ARTIFACT_FRAME_BOOTSTRAP_SHA256}'`,
    );
    expect(ARTIFACT_FRAME_NO_SCRIPTS_CSP).not.toMatch(/script-src[^;]*unsafe/);
    expect(
      artifactFrameHeaders(`/artifact-frame.html?${ARTIFACT_FRAME_NO_SCRIPTS}`)[
        'Content-Security-Policy'
      ],
    ).toBe(ARTIFACT_FRAME_NO_SCRIPTS_CSP);
    expect(artifactFrameHeaders('/artifact-frame.html')['Content-Security-Policy']).toBe(
      ARTIFACT_FRAME_CSP,
    );
  });
});
