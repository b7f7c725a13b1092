/**
 * Finds local OpenAI-compatible servers for the first-run screen: every candidate's `GET
 * /models` is asked in parallel with a short deadline; those that answer are listed with their
 * models. Nothing but the candidates' loopback URLs is contacted.
 */
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { listServerModels } from '../../adapters/lazy-clients';
import type { DiscoveryCandidate } from '../host-context';

/** A local server answers its model list in milliseconds; a closed port fails at once. */
export const DISCOVERY_TIMEOUT_MS = 1500;

/** The candidates that answered, in candidate order, each with the models it lists. */
export async function discoverLocalServers(
  candidates: readonly DiscoveryCandidate[],
): Promise<InvokeResponse<'models.discover'>> {
  const answers = await Promise.all(
    candidates.map(async (candidate) => {
      try {
        const models = await listServerModels({
          baseUrl: candidate.baseUrl,
          apiKey: null,
          maxRetries: 0,
          signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
        });
        return { name: candidate.name, baseUrl: candidate.baseUrl, models };
      } catch {
        return null;
      }
    }),
  );
  return answers.filter((answer) => answer !== null);
}
