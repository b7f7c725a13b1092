/** The machine's memory, for settings that may not exceed it (the sandbox's memory per session). */
import { totalmem } from 'node:os';

/** Total physical memory in MiB (os.totalmem()). */
export function machineMemoryMiB(): number {
  return Math.floor(totalmem() / (1024 * 1024));
}
