/**
 * What the fetch lab's test side (fetch-lab.ts) and its client under test (fetch-lab-client.ts)
 * say to each other: one JSON command per line in, one answer per line out. Types only, kept
 * apart from the client so that importing the lab does not type-check the tools it runs (the e2e
 * program's DOM types clash with theirs).
 */
import type { FetchLimits } from '../../src/main/adapters/fetch/fetch-limits';

export interface LabResolverSpec {
  /** hostname → addresses (every lookup). */
  hosts: Record<string, string[]>;
  /** hostname → answers per lookup; the last answer repeats. Wins over `hosts`. */
  sequences?: Record<string, string[][]>;
}

export interface LabCommand {
  id: number;
  /** `raw`: an UNGUARDED http.get, used only to prove the canaries would catch a leak. */
  operation: 'fetch' | 'web_fetch' | 'fetch_image' | 'raw' | 'exchange';
  /** For `exchange`: the addresses handed to openExchange as "checked". */
  addresses?: string[];
  /** For `fetch`: the URL. For the tools: their arguments. */
  url?: string;
  args?: Record<string, unknown>;
  resolver: LabResolverSpec;
  limits?: Partial<FetchLimits>;
  /** For `fetch`: media types accepted (`*` for any). */
  accept?: string[];
  /** Abort the caller's signal after this many ms. */
  cancelAfterMs?: number;
  /** fetch_image without a sandbox. */
  noSandbox?: boolean;
}

export interface LabAnswer {
  id: number;
  elapsedMs: number;
  lookups: string[];
  fetch?: {
    ok: boolean;
    error?: string;
    finalUrl?: string;
    mediaType?: string;
    size?: number;
    text?: string;
  };
  raw?: { status: number; body: string } | { error: string };
  tool?: { content: string; isError: boolean };
  staged?: { conversationId: string; name: string; size: number; sha256: string }[];
  thrown?: string;
}
