/// <reference lib="dom" />
/**
 * e2e: in `aivory serve` an HTML artifact cannot reach the network over WebRTC (issue 37, item 5).
 * No CSP directive Chromium implements governs WebRTC (it logs `webrtc 'block'` as unrecognized),
 * and a script that removes `RTCPeerConnection` before the page's own is undone by a srcdoc child
 * frame (a fresh realm: measured while choosing the fix). So a browser tab shows HTML with its
 * scripts off (the frame's scriptless variant: only its bootstrap runs, a srcdoc child inherits
 * the policy) until the user runs them. The page here tries RTCPeerConnection to a loopback UDP
 * listener the test starts (a STUN server as far as Chromium knows) from its own script, an event
 * handler and a srcdoc child: the listener gets nothing while the page shows its text. Run by the
 * user's choice, the same page's STUN requests do arrive — what the viewer's note says.
 * Screenshot: docs/screenshots/artifact-html-scripts-off.png.
 */
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './helpers/browser';
import { useAppFixture } from './helpers/app-fixture';
import { filesScript, HELLO_ANSWER } from './helpers/files-script';

const POLL = { timeout: 30_000 };

/** A page that tries WebRTC to `port` every way a page can start it. */
function webrtcPage(port: number): string {
  const attempt =
    `var pc=new RTCPeerConnection({iceServers:[{urls:'stun:127.0.0.1:${port}'}]});` +
    "pc.createDataChannel('x');pc.createOffer().then(function(o){return pc.setLocalDescription(o)});";
  return (
    '<!doctype html><html><body><h1 id="title">A page that calls out</h1>' +
    '<p id="status">no script ran</p>' +
    `<script>document.getElementById('status').textContent='script ran';${attempt}</script>` +
    `<img src="data:," alt="" onerror="${attempt.replaceAll('"', '&quot;')}">` +
    `<iframe id="child" srcdoc="<script>${attempt.replaceAll('"', '&quot;')}</script>"></iframe>` +
    '</body></html>'
  );
}

describe('e2e: an HTML artifact in a browser tab reaches no one over WebRTC', () => {
  const app = useAppFixture(filesScript);
  const folder = mkdtempSync(join(tmpdir(), 'aivory-webrtc-'));
  const udp = createSocket('udp4');
  const packets: number[] = [];
  let path = '';

  beforeAll(async () => {
    udp.on('message', (message) => packets.push(message.length));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    path = join(folder, 'caller.html');
    writeFileSync(path, webrtcPage(udp.address().port));
  });
  afterAll(() => {
    udp.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows the page without its scripts; the listener gets nothing; running them is a choice', async () => {
    const { page } = app().browser;
    await page.goto(app().serve.url);
    await page.getByTestId('composer-attach-input').setInputFiles([path]);
    await expect.poll(() => page.getByTestId('composer-attachment').count(), POLL).toBe(1);
    await page.getByTestId('composer-input').fill('Here is a page');
    await page.getByTestId('composer-input').press('Enter');
    const answer = page.getByTestId('message-assistant').filter({ hasText: HELLO_ANSWER });
    await expect.poll(() => answer.getAttribute('data-status'), POLL).toBe('complete');
    await page
      .locator('[data-testid="message-file"][data-name="caller.html"] [data-testid="file-view"]')
      .click();
    const frame = page.frameLocator('[data-testid="artifact-frame"]');
    await expect
      .poll(() => frame.locator('#title').textContent(), POLL)
      .toBe('A page that calls out');
    expect(await page.getByTestId('artifact-scripts-off').textContent()).toContain('WebRTC');
    // The page is parsed and its srcdoc child loaded: every script it has would have run by now.
    await expect
      .poll(() => frame.locator('#child').evaluate((child: HTMLIFrameElement) => child.isConnected))
      .toBe(true);
    // The srcdoc child: the frame whose parent is the artifact's frame.
    const child = page.frames().find((entry) => {
      const grandparent = entry.parentFrame()?.parentFrame();
      return grandparent !== null && grandparent !== undefined;
    });
    expect(child).toBeDefined();
    await child?.waitForLoadState('load');
    expect(await frame.locator('#status').textContent()).toBe('no script ran');
    const withoutScripts = packets.length;
    await screenshot(page, 'artifact-html-scripts-off');

    // The user's choice: the same page with its scripts. Its STUN requests reach the listener,
    // which shows the listener hears a page that can (and that the note above says so).
    await page.getByTestId('artifact-run-scripts').click();
    await expect.poll(() => frame.locator('#status').textContent(), POLL).toBe('script ran');
    await expect.poll(() => packets.length, POLL).toBeGreaterThan(0);
    expect(await page.getByTestId('artifact-scripts-running').textContent()).toContain('WebRTC');
    expect(withoutScripts).toBe(0);
    await page.keyboard.press('Escape');
  }, 120_000);
});
