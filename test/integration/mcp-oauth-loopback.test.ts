/**
 * The loopback listener of one sign-in (src/main/adapters/oauth/loopback-sign-in.ts) over real
 * sockets: only the redirect with this sign-in's state ends it (others get 400 and the wait goes
 * on); an authorization server's error is a clear message with its control characters gone;
 * abort and timeout end it; the listener is gone afterwards.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loopbackSignIn } from '../../src/main/adapters/oauth/loopback-sign-in';
import { McpError } from '../../src/main/core/ports';

const AUTHORIZE = new URL('https://auth.example.com/authorize?client_id=x');

function signIn(timeoutMs = 60_000) {
  const shown: URL[] = [];
  let showed: () => void = () => undefined;
  const wasShown = new Promise<void>((resolve) => (showed = resolve));
  const session = loopbackSignIn({
    label: 'Lab <b>\u0007',
    timeoutMs,
    show: (url) => {
      shown.push(url);
      showed();
    },
  });
  return { session, shown, wasShown };
}

async function get(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url);
  return { status: response.status, text: await response.text() };
}

/** Whether a new TCP connection to the listener's port is refused (nobody listens). */
function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('loopbackSignIn', () => {
  it('answers 400 to a wrong state and keeps waiting; the right one then ends it', async () => {
    const { session, shown, wasShown } = signIn();
    const redirect = await session.open(undefined, new AbortController().signal);
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const code = session.authorize(AUTHORIZE, 'the-state', new AbortController().signal);
    await wasShown;
    expect(shown.map(String)).toEqual([AUTHORIZE.href]);

    const wrong = await get(`${redirect}?state=not-it&code=injected`);
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('not the one Aivory is waiting for');
    const none = await get(`${redirect}?code=injected`);
    expect(none.status).toBe(400);
    // An error with the wrong state does not end it either.
    expect((await get(`${redirect}?state=x&error=access_denied`)).status).toBe(400);
    expect((await get(`${redirect.replace('/callback', '/other')}?state=the-state`)).status).toBe(
      404,
    );
    const post = await fetch(`${redirect}?state=the-state&code=posted`, { method: 'POST' });
    expect(post.status).toBe(404);

    const right = await get(`${redirect}?state=the-state&code=good-code`);
    expect(right.status).toBe(200);
    // The service's name is shown cleaned and escaped.
    expect(right.text).toContain('Signed in to Lab &lt;b&gt;');
    expect(right.text).not.toContain('\u0007');
    await expect(code).resolves.toBe('good-code');

    // A second redirect with the same state is not accepted after the end.
    expect((await get(`${redirect}?state=the-state&code=again`)).status).toBe(400);
    session.close();
    expect(await refused(`${redirect}?state=the-state&code=late`)).toBe(true);
  });

  it('ends with a clear error, control characters stripped, on error=access_denied', async () => {
    const { session, wasShown } = signIn();
    const redirect = await session.open(undefined, new AbortController().signal);
    const result = session
      .authorize(AUTHORIZE, 's1', new AbortController().signal)
      .catch((error: unknown) => error);
    await wasShown;
    const description = encodeURIComponent('The user\r\nsaid no\u001b[31m red\u0000\u009b');
    const page = await get(
      `${redirect}?state=s1&error=access_denied&error_description=${description}`,
    );
    expect(page.status).toBe(400);
    expect(page.text).toContain('Sign-in did not finish');
    const error = (await result) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).kind).toBe('unauthorized');
    expect((error as McpError).message).toBe(
      'the sign-in was not completed: access_denied: The user said no [31m red',
    );
    // eslint-disable-next-line no-control-regex
    expect((error as McpError).message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    session.close();
    expect(await refused(redirect)).toBe(true);
  });

  it('cuts a huge error description', async () => {
    const { session, wasShown } = signIn();
    const redirect = await session.open(undefined, new AbortController().signal);
    const result = session
      .authorize(AUTHORIZE, 's2', new AbortController().signal)
      .catch((error: unknown) => error);
    await wasShown;
    await get(`${redirect}?state=s2&error=server_error&error_description=${'x'.repeat(5000)}`);
    const error = (await result) as McpError;
    expect(error.message.length).toBeLessThan(300);
    session.close();
  });

  it('a redirect with the state but no code ends it as not completed', async () => {
    const { session, wasShown } = signIn();
    const redirect = await session.open(undefined, new AbortController().signal);
    const result = session
      .authorize(AUTHORIZE, 's3', new AbortController().signal)
      .catch((error: unknown) => error);
    await wasShown;
    expect((await get(`${redirect}?state=s3&code=`)).status).toBe(400);
    expect(((await result) as McpError).message).toBe(
      'the sign-in was not completed: no authorization code',
    );
    session.close();
  });

  it('is canceled by its signal, and the listener is closed afterwards', async () => {
    const { session, wasShown } = signIn();
    const controller = new AbortController();
    const redirect = await session.open(undefined, controller.signal);
    const result = session
      .authorize(AUTHORIZE, 's4', controller.signal)
      .catch((error: unknown) => error);
    await wasShown;
    controller.abort();
    const error = (await result) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.kind).toBe('canceled');
    expect(error.message).toBe('the sign-in was canceled');
    session.close();
    expect(await refused(redirect)).toBe(true);
  });

  it('refuses to open with an aborted signal', async () => {
    const { session } = signIn();
    const controller = new AbortController();
    controller.abort();
    await expect(session.open(undefined, controller.signal)).rejects.toMatchObject({
      kind: 'canceled',
    });
    session.close();
  });

  it('times out', async () => {
    const { session } = signIn(300);
    const redirect = await session.open(undefined, new AbortController().signal);
    await expect(
      session.authorize(AUTHORIZE, 's5', new AbortController().signal),
    ).rejects.toMatchObject({ kind: 'timeout' });
    session.close();
    expect(await refused(redirect)).toBe(true);
  });

  it('reuses the preferred port when free, and takes another when it is not', async () => {
    const first = signIn();
    const redirect = await first.session.open(undefined, new AbortController().signal);
    // Busy (the first listener holds it): another port.
    const second = signIn();
    const other = await second.session.open(redirect, new AbortController().signal);
    expect(other).not.toBe(redirect);
    first.session.close();
    second.session.close();
    // Free again: the same port (a registration naming it stays valid).
    const third = signIn();
    expect(await third.session.open(redirect, new AbortController().signal)).toBe(redirect);
    third.session.close();
    // Only a 127.0.0.1 port above 1023 is preferred.
    const fourth = signIn();
    const notLocal = await fourth.session.open(
      redirect.replace('127.0.0.1', 'evil.example.com'),
      new AbortController().signal,
    );
    expect(notLocal).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    fourth.session.close();
  });
});
