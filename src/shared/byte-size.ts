/**
 * Sizes in words, one way everywhere (messages the user and the model read, the UI, the CLI):
 * binary units, named as such — every limit in the app is a power of two (40 MiB is
 * 40 × 1024 × 1024 bytes), so "MB" would be off by 5 %.
 */

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** "512 B", "1.5 KiB", "40 MiB", "1.2 GiB": one decimal at most, none when it is 0. */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  if (bytes < MIB) return `${oneDecimal(bytes / KIB)} KiB`;
  if (bytes < GIB) return `${oneDecimal(bytes / MIB)} MiB`;
  return `${oneDecimal(bytes / GIB)} GiB`;
}

function oneDecimal(value: number): string {
  return String(Number(value.toFixed(1)));
}
