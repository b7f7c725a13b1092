/**
 * Which IP addresses a model-chosen URL may reach: public unicast only. Everything a request
 * could use to reach this machine, its LAN, a cloud metadata service or a tunnel into one is
 * refused, including IPv6 spellings that embed a refused IPv4 address (mapped, compatible,
 * NAT64, 6to4). Pure: no I/O, so every case is unit-tested.
 */
import { formatIpv4, matchesPrefix, parseIpAddress } from './ip-address';
import type { IpAddress } from './ip-address';

export type AddressVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /** The address as given, e.g. `169.254.169.254`. */
      address: string;
      /** What it is, ready for a sentence: `a link-local address (cloud metadata service)`. */
      label: string;
    };

interface Range {
  network: readonly number[];
  prefixLength: number;
  label: string;
}

/** Refused IPv4 ranges, most specific first (RFC 6890 special-purpose registry and friends). */
const IPV4_REFUSED: readonly Range[] = [
  { network: [0, 0, 0, 0], prefixLength: 8, label: 'an unspecified ("this network") address' },
  { network: [10, 0, 0, 0], prefixLength: 8, label: 'a private address' },
  { network: [100, 64, 0, 0], prefixLength: 10, label: 'a carrier-grade NAT (shared) address' },
  { network: [127, 0, 0, 0], prefixLength: 8, label: 'a loopback address' },
  { network: [169, 254, 0, 0], prefixLength: 16, label: 'a link-local address' },
  { network: [172, 16, 0, 0], prefixLength: 12, label: 'a private address' },
  { network: [192, 0, 0, 0], prefixLength: 24, label: 'an IETF protocol-assignment address' },
  { network: [192, 0, 2, 0], prefixLength: 24, label: 'a documentation address' },
  { network: [192, 88, 99, 0], prefixLength: 24, label: 'a deprecated 6to4 relay address' },
  { network: [192, 168, 0, 0], prefixLength: 16, label: 'a private address' },
  { network: [198, 18, 0, 0], prefixLength: 15, label: 'a benchmarking address' },
  { network: [198, 51, 100, 0], prefixLength: 24, label: 'a documentation address' },
  { network: [203, 0, 113, 0], prefixLength: 24, label: 'a documentation address' },
  { network: [224, 0, 0, 0], prefixLength: 4, label: 'a multicast address' },
  { network: [255, 255, 255, 255], prefixLength: 32, label: 'the broadcast address' },
  { network: [240, 0, 0, 0], prefixLength: 4, label: 'a reserved address' },
  // Public on paper, but inside Azure it is the host's own WireServer (VM metadata, the guest
  // agent's certificates and extension settings) and answers every VM.
  { network: [168, 63, 129, 16], prefixLength: 32, label: 'a cloud metadata address' },
];

/** Refused IPv6 ranges that carry no IPv4 address worth judging. Checked after the embeddings. */
const IPV6_REFUSED: readonly Range[] = [
  {
    network: [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01],
    prefixLength: 48,
    label: 'a local-use NAT64 address',
  },
  { network: [0x01, 0x00], prefixLength: 64, label: 'a discard-only address' },
  { network: [0x20, 0x01, 0x00, 0x00], prefixLength: 32, label: 'a Teredo tunnel address' },
  { network: [0x20, 0x01, 0x0d, 0xb8], prefixLength: 32, label: 'a documentation address' },
  { network: [0x20, 0x01], prefixLength: 23, label: 'an IETF protocol-assignment address' },
  { network: [0x3f, 0xff], prefixLength: 20, label: 'a documentation address' },
  { network: [0x5f, 0x00], prefixLength: 16, label: 'a segment-routing (SRv6) address' },
  { network: [0xfc, 0x00], prefixLength: 7, label: 'a unique-local (private) address' },
  { network: [0xfe, 0x80], prefixLength: 10, label: 'a link-local address' },
  { network: [0xfe, 0xc0], prefixLength: 10, label: 'a deprecated site-local address' },
  { network: [0xff, 0x00], prefixLength: 8, label: 'a multicast address' },
];

/** Well-known metadata endpoints, named in the message so the user sees what was at stake. */
const NOTES: ReadonlyMap<string, string> = new Map([
  ['169.254.169.254', 'cloud metadata service'],
  ['169.254.170.2', 'container credentials service'],
  ['100.100.100.200', 'Alibaba Cloud metadata service'],
  ['168.63.129.16', 'Azure WireServer'],
]);

/** AWS's IPv6 metadata address, parsed at the first IPv6 check (not at every start). */
let ipv6Metadata: Uint8Array | null = null;

/** Judges one IP literal (IPv4 dotted quad or IPv6, brackets and zone id allowed). */
export function checkAddress(address: string): AddressVerdict {
  const parsed = parseIpAddress(address);
  if (!parsed) return { allowed: false, address, label: 'not an IP address' };
  const label = parsed.version === 4 ? ipv4Label(parsed.bytes) : ipv6Label(parsed);
  return label === null ? { allowed: true } : { allowed: false, address, label };
}

/** The sentence a refusal becomes: `169.254.169.254 is a link-local address (…)`. */
export function describeRefusal(verdict: { address: string; label: string }): string {
  return `${verdict.address} is ${verdict.label}`;
}

function ipv4Label(bytes: Uint8Array, offset = 0): string | null {
  const quad = bytes.subarray(offset, offset + 4);
  const range = IPV4_REFUSED.find((entry) =>
    matchesPrefix(quad, entry.network, entry.prefixLength),
  );
  if (!range) return null;
  const note = NOTES.get(formatIpv4(quad));
  return note ? `${range.label} (${note})` : range.label;
}

function ipv6Label(parsed: IpAddress): string | null {
  const { bytes } = parsed;
  // A zone id only means something for link-scoped addresses; refuse rather than guess.
  if (parsed.zone !== null) return 'a scoped address with a zone id';
  const zeroPrefix = (length: number): boolean =>
    bytes.subarray(0, length).every((byte) => byte === 0);
  if (zeroPrefix(16)) return 'the unspecified address';
  if (zeroPrefix(15) && bytes[15] === 1) return 'a loopback address';
  if (zeroPrefix(10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return embedded(bytes, 12, 'an IPv4-mapped form of', null);
  }
  if (zeroPrefix(12)) {
    return embedded(
      bytes,
      12,
      'an IPv4-compatible form of',
      'a deprecated IPv4-compatible address',
    );
  }
  // Well-known NAT64 (RFC 6052): judge the IPv4 inside, so DNS64 networks keep working.
  if (matchesPrefix(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) {
    return embedded(bytes, 12, 'a NAT64 form of', null);
  }
  // 6to4 (RFC 3056): the IPv4 address of the relay sits in bytes 2–5.
  if (matchesPrefix(bytes, [0x20, 0x02], 16)) return embedded(bytes, 2, 'a 6to4 form of', null);
  const range = IPV6_REFUSED.find((entry) =>
    matchesPrefix(bytes, entry.network, entry.prefixLength),
  );
  if (range) {
    ipv6Metadata ??= parseIpAddress('fd00:ec2::254')?.bytes ?? null;
    const isMetadata =
      ipv6Metadata !== null && ipv6Metadata.every((byte, index) => byte === bytes[index]);
    return isMetadata ? `${range.label} (AWS metadata service)` : range.label;
  }
  // Global unicast is 2000::/3; everything else is reserved by IANA.
  if (!matchesPrefix(bytes, [0x20], 3)) return 'a reserved address (not global unicast)';
  return null;
}

/**
 * The label for an IPv6 address that carries an IPv4 address at `offset`: refused when the
 * IPv4 address is; otherwise `whenPublic` (null: allowed).
 */
function embedded(
  bytes: Uint8Array,
  offset: number,
  form: string,
  whenPublic: string | null,
): string | null {
  const inner = ipv4Label(bytes, offset);
  if (inner === null) return whenPublic;
  return `${form} ${formatIpv4(bytes, offset)}, ${inner}`;
}
