/**
 * Secrets inside a service's URL or arguments (an imported `${input:key}` marked password, a
 * `${env:API_TOKEN}`, an `sk-…` key in `--api-key=…`): the secret itself goes to the SecretStore
 * and the stored URL / argument keeps a placeholder, `$(secret:REF)`, filled in only when the
 * service is connected or started. So listings, exports, the database and messages never hold it.
 * The placeholder's characters survive URL normalisation (none is percent-encoded in a path or a
 * query), and only references of the service's own (`mcp.<id>.value.…`) are ever filled in.
 */
import { AivoryError } from '../../../shared/errors';
import type { McpService } from '../../../shared/mcp';
import type { SecretStore } from '../../core/ports';
import { redactSecrets } from '../../policy/redact';
import { isSecretName, looksSecret } from '../../policy/secret-mask';

const PLACEHOLDER = /\$\(secret:(mcp\.[A-Za-z0-9_-]+\.value\.[A-Za-z0-9_.-]+)\)/g;

/** The placeholder standing for the secret kept under `ref`. */
function secretPlaceholder(ref: string): string {
  return `$(secret:${ref})`;
}

/** The SecretStore reference of the `index`th secret part of service `serviceId`. */
export function secretPartRef(serviceId: string, stamp: string, index: number): string {
  return `mcp.${serviceId}.value.${stamp}.${index}`;
}

/** The references `text` holds that belong to service `serviceId`. */
function partRefsIn(text: string, serviceId: string): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .map((match) => match[1] ?? '')
    .filter((ref) => ref.startsWith(`mcp.${serviceId}.value.`));
}

/** Every secret part reference of a service's URL and arguments. */
export function servicePartRefs(service: Pick<McpService, 'id' | 'url' | 'args'>): string[] {
  const texts = [service.url ?? '', ...service.args];
  return [...new Set(texts.flatMap((text) => partRefsIn(text, service.id)))];
}

/** True when `text` holds a placeholder (of any service). */
export function hasSecretPart(text: string): boolean {
  return text.search(PLACEHOLDER) !== -1;
}

/** `text` with each placeholder replaced by `by` (for an export). */
export function replaceSecretParts(text: string, by: string): string {
  return text.replace(PLACEHOLDER, by);
}

/** A placeholder of a new service, numbered by the order of `McpServiceInput.secretParts`. */
const NEW_PLACEHOLDER = /\$\(secret:(\d{1,3})\)/g;

/** The placeholder of the `index`th secret part of a service not saved yet. */
export function newPartPlaceholder(index: number): string {
  return `$(secret:${index})`;
}

/** True when `text` holds a placeholder, of a saved service or a new one. */
export function mentionsSecretPart(text: string): boolean {
  return text.includes('$(secret:');
}

/**
 * `texts` (a new service's URL and arguments, with `$(secret:N)` where its Nth secret part goes)
 * with each placeholder bound to the reference `ref(N)`; `refs` lists the references used with
 * their values, for the caller to store once the service is saved. A number without a part is
 * refused.
 */
export function bindSecretParts(
  texts: readonly string[],
  parts: readonly string[],
  ref: (index: number) => string,
): { texts: string[]; refs: [string, string][] } {
  const used = new Map<number, string>();
  const bound = texts.map((text) =>
    text.replace(NEW_PLACEHOLDER, (whole, digits: string) => {
      const index = Number(digits);
      if (index >= parts.length) throw new RangeError(`no secret part ${index}`);
      used.set(index, ref(index));
      return secretPlaceholder(ref(index));
    }),
  );
  return {
    texts: bound,
    refs: [...used].map(([index, name]) => [name, parts[index] ?? '']),
  };
}

/** An option such as `--api-key` or `-t`, possibly with its value (`--token=…`). */
const OPTION = /^(--?[A-Za-z][\w-]*)(?:=(.*))?$/s;

/**
 * A local server's arguments with the secrets typed into them lifted out: a value that reads as
 * a secret (`sk-…`, `Bearer …`, a password in a URL), the value of an option named like a secret
 * (`--api-key VALUE`, `--token=VALUE`). Each becomes a `$(secret:N)` part appended to `parts`,
 * so it is kept in the SecretStore, not the database (issue 37: `aivory mcp add --arg sk-…` was
 * stored in clear). Placeholders already there, and values that start with `-`, stay as they are.
 */
export function liftLiteralSecrets(args: readonly string[], parts: string[]): string[] {
  const lift = (value: string): string => {
    parts.push(value);
    return newPartPlaceholder(parts.length - 1);
  };
  return args.map((arg, index) => {
    if (mentionsSecretPart(arg) || arg === '') return arg;
    const option = OPTION.exec(arg);
    if (option !== null) {
      const [, name = '', value] = option;
      if (value !== undefined && value !== '' && (isSecretName(name) || looksSecret('', value))) {
        return `${name}=${lift(value)}`;
      }
      return arg;
    }
    const previous = OPTION.exec(args[index - 1] ?? '');
    const valueOfSecretOption =
      previous !== null && previous[2] === undefined && isSecretName(previous[1] ?? '');
    return valueOfSecretOption || looksSecret('', arg) ? lift(arg) : arg;
  });
}

/** `text` (of a new service) with each `$(secret:N)` shown as `show(N)`. */
export function showNewParts(text: string, show: (index: number) => string): string {
  return text.replace(NEW_PLACEHOLDER, (whole, digits: string) => show(Number(digits)));
}

/**
 * `text` with the service's placeholders filled in from the SecretStore (a missing secret is
 * empty); `values` lists what was filled in, for the caller to keep out of messages.
 */
export async function fillSecretParts(
  text: string,
  serviceId: string,
  secrets: Pick<SecretStore, 'get'>,
  values: string[],
): Promise<string> {
  const found = new Map<string, string>();
  for (const ref of partRefsIn(text, serviceId)) {
    const value = (await secrets.get(ref)) ?? '';
    found.set(ref, value);
    if (value !== '') values.push(value);
  }
  return text.replace(PLACEHOLDER, (whole, ref: string) => found.get(ref) ?? whole);
}

/** `message` with each of `values` (as typed and as a URL carries it) replaced by `••••`. */
export function hideSecretParts(message: string, values: readonly string[]): string {
  return redactSecrets(message, values, '••••');
}

/**
 * A new service's URL and arguments (`parsed`, changed in place) with each `$(secret:N)` bound
 * to a reference of the service's own, its secret part (`parts[N]`) stored under it: the
 * database keeps placeholders only.
 */
export async function storeSecretParts(
  parsed: { url: string | null; args: string[] },
  parts: readonly string[],
  to: { serviceId: string; stamp: string; secrets: Pick<SecretStore, 'set'> },
): Promise<void> {
  if (parts.length === 0) return;
  let bound;
  try {
    bound = bindSecretParts([parsed.url ?? '', ...parsed.args], parts, (index) =>
      secretPartRef(to.serviceId, to.stamp, index),
    );
  } catch {
    throw new AivoryError('invalid-input', 'A secret part of the URL or arguments is missing.');
  }
  const [url = '', ...args] = bound.texts;
  if (parsed.url !== null) parsed.url = url;
  parsed.args = args;
  for (const [ref, value] of bound.refs) await to.secrets.set(ref, value);
}
