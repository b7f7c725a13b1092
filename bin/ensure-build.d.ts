/** Types of bin/ensure-build.js (plain JavaScript: it runs before anything is built). */
export const ROOT: string;
export const OUTPUTS: readonly string[];
export function buildState(): 'missing' | 'stale' | null;
export function ensureBuild(log?: (text: string) => void): void;
