/** `sampling.answer`: the renderer's reply to a `sampling.request` event. */
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type SamplingHandlers = Pick<ApiHandlers, 'sampling.answer'>;

/** The sampling handler over the host context's broker. */
export function createSamplingHandlers(context: HostContext): SamplingHandlers {
  return {
    'sampling.answer': ({ samplingId, decision }) => ({
      accepted: context.samplings.answer(samplingId, decision),
    }),
  };
}
