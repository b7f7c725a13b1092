/**
 * web_fetch and fetch_image end to end: the real tools on the real guarded fetcher, against the
 * lab's public hosts (test/support/netns-lab.ts), with canaries on every refused target.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { setUpFetchLab } from '../../support/fetch-lab';
import { buildPng, TINY_GIF, TINY_JPEG } from '../../support/fetch-images';

const lab = setUpFetchLab();

afterEach(async () => {
  expect(await lab().canaryConnections()).toEqual([]);
});

const NEWS = 'http://news.example-public.test';
const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

async function webFetch(args: Record<string, unknown>) {
  const answer = await lab().run({ operation: 'web_fetch', args });
  if (!answer.tool) throw new Error(`no tool result: ${JSON.stringify(answer)}`);
  return answer.tool;
}

async function fetchImage(args: Record<string, unknown>, noSandbox = false) {
  const answer = await lab().run({ operation: 'fetch_image', args, noSandbox });
  if (!answer.tool) throw new Error(`no tool result: ${JSON.stringify(answer)}`);
  return { ...answer.tool, staged: answer.staged ?? [] };
}

describe('web_fetch over the lab', () => {
  it('returns the article as Markdown with its title, final URL and absolute links', async () => {
    const output = await webFetch({ url: `${NEWS}/redirect?to=%2Farticle` });
    expect(output.isError).toBe(false);
    expect(output.content).toMatch(
      /^Title: Lab News: news\.example-public\.test\nURL: http:\/\/news\.example-public\.test\/article\n\n/,
    );
    expect(output.content).toContain('[the plain page](http://news.example-public.test/plain)');
    expect(output.content).not.toContain('footer');
  });

  it('fetches a batch of four concurrently, in order, one failure reported in its place', async () => {
    const urls = [
      `${NEWS}/doc.pdf`,
      'http://169.254.169.254/latest/meta-data/',
      `${NEWS}/json`,
      'https://secure.example-public.test/plain',
    ];
    const output = await webFetch({ urls });
    expect(output.isError).toBe(false);
    const sections = output.content.split(/\n\n(?==== )/);
    expect(sections.map((section) => section.split('\n')[0])).toEqual(
      urls.map((url, index) => `=== ${index + 1} of 4: ${url} ===`),
    );
    expect(sections[0]).toContain(
      'Title: Lab PDF\nURL: http://news.example-public.test/doc.pdf\n\nLab PDF text',
    );
    expect(sections[1]).toContain(
      'Could not fetch http://169.254.169.254/latest/meta-data/: blocked: 169.254.169.254 is a link-local address (cloud metadata service)',
    );
    expect(sections[2]).toContain('{\n  "lab": true,\n  "items": [\n    1,\n    2\n  ]\n}');
    expect(sections[3]).toContain('Plain text from the lab.');
  });

  it('refuses binary content and reports limits as tool errors with clear messages', async () => {
    expect(await webFetch({ url: `${NEWS}/binary` })).toEqual({
      isError: true,
      content: `Could not fetch ${NEWS}/binary: unsupported content type application/octet-stream: web_fetch reads HTML, plain text, JSON, XML and PDF`,
    });
    expect(await webFetch({ url: `${NEWS}/image.png` })).toMatchObject({
      isError: true,
      content: /use fetch_image for images/,
    });
    expect(await webFetch({ url: `${NEWS}/gzip-bomb` })).toMatchObject({
      isError: true,
      content: /is larger than 5 MiB once decompressed/,
    });
    expect(await webFetch({ url: `${NEWS}/redirect?to=http%3A%2F%2F0x7f.1%2F` })).toMatchObject({
      isError: true,
      content:
        /blocked: 127\.0\.0\.1 is a loopback address \(after a redirect to http:\/\/0x7f\.1\/\)/,
    });
  });
});

describe('fetch_image over the lab', () => {
  it('stages PNG, JPEG and GIF bytes unchanged under /workspace/downloads', async () => {
    const cases: [string, Buffer, string][] = [
      ['/image.png', buildPng(8, 6), 'image.png'],
      ['/image.jpg', TINY_JPEG, 'image.jpg'],
      ['/image.gif', TINY_GIF, 'image.gif'],
    ];
    for (const [path, bytes, name] of cases) {
      const output = await fetchImage({ url: `${NEWS}${path}` });
      expect(output.isError, path).toBe(false);
      expect(output.content).toContain(`Saved the image to /workspace/downloads/${name} (`);
      expect(output.staged).toEqual([
        { conversationId: 'conv_lab', name, size: bytes.length, sha256: sha256(bytes) },
      ]);
    }
  });

  it('trusts the bytes over the content type: a PNG sent as JPEG or as octet-stream is saved as .png', async () => {
    const asJpeg = await fetchImage({ url: `${NEWS}/png-as-jpeg.jpg`, filename: 'chart.jpg' });
    expect(asJpeg).toMatchObject({ isError: false, staged: [{ name: 'chart.png' }] });
    const asOctet = await fetchImage({ url: `${NEWS}/png-as-octet` });
    expect(asOctet).toMatchObject({ isError: false, staged: [{ name: 'png-as-octet.png' }] });
  });

  it('refuses SVG, non-images, HTML posing as PNG, pixel bombs, oversized files and blocked targets', async () => {
    const refusals: [string, RegExp][] = [
      ['/image.svg', /SVG images are refused/],
      ['/png-as-text', /not an image: the server sent text\/plain/],
      [
        '/html-as-png.png',
        /the content is an HTML page, not an image \(the server said image\/png\)/,
      ],
      ['/pixel-bomb.png', /50000×50000 pixels/],
      ['/too-big.png', /is larger than 20 MiB/],
      [
        '/redirect?to=http%3A%2F%2F169.254.169.254%2Flatest%2Fmeta-data%2F',
        /blocked: 169\.254\.169\.254 is a link-local address/,
      ],
    ];
    for (const [path, reason] of refusals) {
      const output = await fetchImage({ url: `${NEWS}${path}` });
      expect(output.isError, path).toBe(true);
      expect(output.content, path).toMatch(reason);
      expect(output.staged, path).toEqual([]);
    }
    expect(await fetchImage({ url: 'http://[::ffff:10.77.0.1]/x.png' })).toMatchObject({
      isError: true,
      content: /IPv4-mapped form of 10\.77\.0\.1/,
    });
  });

  it('sanitises a hostile filename to one component with the right extension', async () => {
    const output = await fetchImage({
      url: `${NEWS}/image.png`,
      filename: '../../../../root/.bashrc\u202Egnp.exe',
    });
    expect(output).toMatchObject({ isError: false, staged: [{ name: 'bashrcgnp.png' }] });
  });

  it('says clearly when no sandbox is configured, without fetching', async () => {
    const before = lab().publicRequests().length;
    const output = await fetchImage({ url: `${NEWS}/image.png` }, true);
    expect(output).toMatchObject({
      isError: true,
      content: /needs the Python sandbox, which is not configured/,
    });
    expect(lab().publicRequests()).toHaveLength(before);
  });
});
