/**
 * `$BROWSER` for sign-in tests: the redirect follower (oauth-browser.ts), run by plain node (it
 * has no imports and only erasable types, so node's type stripping runs it without tsx and its
 * second process).
 */
import { fileURLToPath } from 'node:url';

export const REDIRECT_FOLLOWER = `${process.execPath} ${fileURLToPath(new URL('./oauth-browser.ts', import.meta.url))}`;
