/**
 * A stand-in for the user's browser in sign-in tests, used as `$BROWSER`: it opens the URL it is
 * given and follows the redirects (as a browser would after the user approves) until a page
 * answers, which is Aivory's loopback listener receiving the authorization code. It only ever
 * reaches the addresses the test's local authorization server redirects to. Like a browser it
 * keeps the cookies each host sets (name=value per host; path and expiry ignored) and sends them
 * back to it: a real authorization server (oidc-provider) ties its login page to the request by
 * a cookie.
 *
 * Usage: BROWSER="node test/support/oauth-browser.ts" (plain node runs it: no imports, types only)
 */
const MAX_HOPS = 10;

/** Per host, the cookies it set. */
const jar = new Map<string, Map<string, string>>();

function cookieHeader(url: URL): Record<string, string> {
  const cookies = jar.get(url.host);
  if (cookies === undefined || cookies.size === 0) return {};
  return { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
}

function keep(url: URL, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const cookies = jar.get(url.host) ?? new Map<string, string>();
    cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    jar.set(url.host, cookies);
  }
}

async function follow(start: string): Promise<void> {
  let url = new URL(start);
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`not a web page: ${url.protocol}`);
    const response = await fetch(url, { redirect: 'manual', headers: cookieHeader(url) });
    keep(url, response);
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (response.status < 300 || response.status >= 400 || location === null) {
      process.stderr.write(`oauth-browser: ${response.status} at ${url.origin}${url.pathname}\n`);
      return;
    }
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}

const target = process.argv[2];
if (target === undefined) {
  process.stderr.write('usage: oauth-browser URL\n');
  process.exit(2);
}
follow(target).catch((error: unknown) => {
  process.stderr.write(
    `oauth-browser: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
