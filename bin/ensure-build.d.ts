/** Types of bin/ensure-build.js (plain JavaScript: it runs before anything is built). */
export const ROOT: string;
export const OUTPUTS: readonly string[];
/** The newest modification time (ms) under a file or folder, links followed; 0 when missing. */
export function newestMtime(path: string): number;
export function buildState(): 'missing' | 'stale' | null;
export function ensureBuild(log?: (text: string) => void): void;
