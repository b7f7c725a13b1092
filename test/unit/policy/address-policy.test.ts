import { describe, expect, it } from 'vitest';
import { checkAddress, describeRefusal } from '../../../src/main/policy/address-policy';
import { addressKey, parseIpAddress } from '../../../src/main/policy/ip-address';

/** Addresses (as a resolver or the URL parser would hand them over) and the class expected. */
const REFUSED: readonly [string, RegExp][] = [
  // loopback
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['::1', /loopback/],
  ['0:0:0:0:0:0:0:1', /loopback/],
  // unspecified
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['::', /unspecified/],
  // private
  ['10.0.0.1', /private/],
  ['10.255.255.255', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.254', /private/],
  ['192.168.1.1', /private/],
  ['192.168.0.1', /private/],
  // link-local, metadata
  ['169.254.169.254', /link-local address \(cloud metadata service\)/],
  ['169.254.170.2', /link-local.*container credentials/],
  ['169.254.0.1', /link-local/],
  ['fe80::1', /link-local/],
  ['febf:ffff::1', /link-local/],
  ['fe80::1%eth0', /zone id/],
  // unique-local, site-local
  ['fd00:ec2::254', /unique-local.*AWS metadata/],
  ['fc00::1', /unique-local/],
  ['fdff:ffff::1', /unique-local/],
  ['fec0::1', /site-local/],
  // multicast, broadcast, reserved
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['ff02::1', /multicast/],
  ['ff0e::1', /multicast/],
  ['255.255.255.255', /broadcast/],
  ['240.0.0.1', /reserved/],
  ['250.1.2.3', /reserved/],
  // carrier-grade NAT, benchmarking, documentation, protocol assignments
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.100.100.200', /carrier-grade NAT.*Alibaba/],
  ['168.63.129.16', /cloud metadata address \(Azure WireServer\)/],
  ['::ffff:168.63.129.16', /IPv4-mapped form of 168\.63\.129\.16/],
  ['100.127.255.254', /carrier-grade NAT/],
  ['198.18.0.1', /benchmarking/],
  ['198.19.255.254', /benchmarking/],
  ['192.0.2.1', /documentation/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['2001:db8::1', /documentation/],
  ['3fff::1', /documentation/],
  ['192.0.0.8', /IETF protocol-assignment/],
  ['192.0.0.170', /IETF protocol-assignment/],
  ['192.88.99.1', /6to4 relay/],
  // IPv4-mapped forms of refused IPv4
  ['::ffff:127.0.0.1', /IPv4-mapped form of 127\.0\.0\.1, a loopback/],
  ['::ffff:7f00:1', /IPv4-mapped form of 127\.0\.0\.1/],
  ['::ffff:a9fe:a9fe', /IPv4-mapped form of 169\.254\.169\.254, a link-local/],
  ['::ffff:10.1.2.3', /IPv4-mapped form of 10\.1\.2\.3, a private/],
  ['::ffff:0.0.0.0', /IPv4-mapped form of 0\.0\.0\.0/],
  ['0:0:0:0:0:ffff:c0a8:0101', /IPv4-mapped form of 192\.168\.1\.1/],
  // IPv4-compatible (deprecated) forms
  ['::127.0.0.1', /IPv4-compatible form of 127\.0\.0\.1/],
  ['::7f00:1', /IPv4-compatible form of 127\.0\.0\.1/],
  ['::a9fe:a9fe', /IPv4-compatible form of 169\.254\.169\.254/],
  ['::8.8.8.8', /deprecated IPv4-compatible/],
  // IPv4-translated (RFC 2765) and other non-global-unicast space
  ['::ffff:0:7f00:1', /reserved/],
  ['4000::1', /reserved/],
  ['e000::1', /reserved/],
  // NAT64 embedding a refused IPv4, local-use NAT64
  ['64:ff9b::7f00:1', /NAT64 form of 127\.0\.0\.1/],
  ['64:ff9b::a9fe:a9fe', /NAT64 form of 169\.254\.169\.254/],
  ['64:ff9b::10.0.0.1', /NAT64 form of 10\.0\.0\.1, a private/],
  ['64:ff9b:1::808:808', /local-use NAT64/],
  // 6to4 embedding a refused IPv4, Teredo, other tunnels and special IPv6
  ['2002:7f00:1::', /6to4 form of 127\.0\.0\.1/],
  ['2002:a9fe:a9fe::1', /6to4 form of 169\.254\.169\.254/],
  ['2002:c0a8:101::1', /6to4 form of 192\.168\.1\.1/],
  ['2001::1', /Teredo/],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
  ['2001:2::1', /IETF protocol-assignment/],
  ['2001:10::1', /IETF protocol-assignment/],
  ['100::1', /discard-only/],
  ['5f00::1', /segment-routing/],
  // not addresses at all
  ['localhost', /not an IP address/],
  ['127.1', /not an IP address/],
  ['0x7f000001', /not an IP address/],
  ['', /not an IP address/],
];

const ALLOWED: readonly string[] = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '45.33.0.10',
  '100.63.255.255',
  '100.128.0.1',
  '172.15.255.255',
  '172.32.0.1',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.1',
  '223.255.255.255',
  '2606:4700::1111',
  '2a01:4f8:aaaa::10',
  '2001:4860:4860::8888',
  '64:ff9b::808:808',
  '64:ff9b::8.8.8.8',
  '::ffff:8.8.8.8',
  '2002:808:808::1',
  '[2606:4700::1111]',
];

describe('address policy', () => {
  it('refuses at least 70 hostile addresses, each with the class in its reason', () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(70);
    for (const [address, reason] of REFUSED) {
      const verdict = checkAddress(address);
      expect(verdict.allowed, address).toBe(false);
      if (!verdict.allowed) expect(describeRefusal(verdict), address).toMatch(reason);
    }
  });

  it('allows public unicast, NAT64 and 6to4 of public IPv4, and IPv4-mapped public IPv4', () => {
    for (const address of ALLOWED)
      expect(checkAddress(address), address).toEqual({ allowed: true });
  });

  it('says exactly what was blocked', () => {
    const verdict = checkAddress('169.254.169.254');
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) {
      expect(describeRefusal(verdict)).toBe(
        '169.254.169.254 is a link-local address (cloud metadata service)',
      );
    }
  });

  it('parses IPv6 spellings to the same bytes and keys mapped IPv4 as IPv4', () => {
    expect(addressKey('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(addressKey('::FFFF:127.0.0.1')).toBe('127.0.0.1');
    expect(addressKey('2a01:4f8:aaaa::10')).toBe(addressKey('2a01:04f8:aaaa:0:0:0:0:0010'));
    expect(addressKey('[::1]')).toBe(addressKey('0:0:0:0:0:0:0:1'));
    expect(parseIpAddress('1::')?.bytes[1]).toBe(1);
    expect(parseIpAddress('::2:3')?.bytes.slice(12)).toEqual(Uint8Array.from([0, 2, 0, 3]));
    expect(parseIpAddress('fe80::1%eth0')?.zone).toBe('eth0');
    expect(parseIpAddress('127.0.0.1%eth0')).toBeNull();
    expect(parseIpAddress('01.2.3.4')).toBeNull();
  });
});
