/**
 * IP literals as bytes. Only canonical spellings are parsed here: dotted-quad IPv4 with decimal
 * parts (what the WHATWG URL parser and the resolver produce) and RFC 4291 IPv6 text, optionally
 * with an embedded IPv4 tail and a zone id. Odd IPv4 spellings (decimal, octal, hex, short) are
 * the URL parser's job: `new URL()` canonicalises them first, so the policy sees one form only.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface IpAddress {
  version: 4 | 6;
  /** 4 bytes for IPv4, 16 for IPv6, network order. */
  bytes: Uint8Array;
  /** The IPv6 zone id (`fe80::1%eth0` → `eth0`), or null. */
  zone: string | null;
}

/** Parses an IP literal (brackets allowed around IPv6); null when it is not one. */
export function parseIpAddress(text: string): IpAddress | null {
  const unbracketed = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zoneAt = unbracketed.indexOf('%');
  const core = zoneAt === -1 ? unbracketed : unbracketed.slice(0, zoneAt);
  const zone = zoneAt === -1 ? null : unbracketed.slice(zoneAt + 1);
  if (isIPv4(core) && zone === null) return { version: 4, bytes: parseIpv4(core), zone: null };
  if (isIPv6(core)) return { version: 6, bytes: parseIpv6(core), zone };
  return null;
}

function parseIpv4(text: string): Uint8Array {
  return Uint8Array.from(text.split('.').map((part) => Number.parseInt(part, 10)));
}

/** Expects text `isIPv6` accepted: at most one `::`, hex groups, an optional IPv4 tail. */
function parseIpv6(text: string): Uint8Array {
  const groups: number[][] = [[], []];
  const halves = text.split('::');
  halves.forEach((half, index) => {
    if (half === '') return;
    for (const piece of half.split(':')) {
      if (piece.includes('.')) {
        const tail = parseIpv4(piece);
        groups[index]?.push(
          ((tail[0] ?? 0) << 8) | (tail[1] ?? 0),
          ((tail[2] ?? 0) << 8) | (tail[3] ?? 0),
        );
      } else {
        groups[index]?.push(Number.parseInt(piece, 16));
      }
    }
  });
  const head = groups[0] ?? [];
  const tail = groups[1] ?? [];
  const zeros = new Array<number>(8 - head.length - tail.length).fill(0);
  const words = halves.length === 2 ? [...head, ...zeros, ...tail] : head;
  const bytes = new Uint8Array(16);
  words.forEach((word, index) => {
    bytes[index * 2] = word >> 8;
    bytes[index * 2 + 1] = word & 0xff;
  });
  return bytes;
}

/** Dotted-quad text of four bytes of `bytes` starting at `offset`. */
export function formatIpv4(bytes: Uint8Array, offset = 0): string {
  return Array.from(bytes.subarray(offset, offset + 4)).join('.');
}

/** True when the first `prefixLength` bits of `bytes` equal those of `network`. */
export function matchesPrefix(
  bytes: Uint8Array,
  network: readonly number[],
  prefixLength: number,
): boolean {
  for (let bit = 0; bit < prefixLength; bit += 8) {
    const remaining = Math.min(8, prefixLength - bit);
    const mask = (0xff << (8 - remaining)) & 0xff;
    const index = bit / 8;
    if (((bytes[index] ?? 0) & mask) !== ((network[index] ?? 0) & mask)) return false;
  }
  return true;
}

/**
 * A comparison key for an address: equal for every spelling of the same address, and an
 * IPv4-mapped IPv6 address (how a dual-stack socket reports an IPv4 peer) equals its IPv4 form.
 */
export function addressKey(text: string): string | null {
  const parsed = parseIpAddress(text);
  if (!parsed) return null;
  const { bytes } = parsed;
  const mapped =
    parsed.version === 6 &&
    bytes.subarray(0, 10).every((byte) => byte === 0) &&
    bytes[10] === 0xff &&
    bytes[11] === 0xff;
  if (mapped) return formatIpv4(bytes, 12);
  if (parsed.version === 4) return formatIpv4(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
