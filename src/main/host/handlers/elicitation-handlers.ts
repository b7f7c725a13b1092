/** `elicitation.answer`: the renderer's reply to an `elicitation.request` event. */
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type ElicitationHandlers = Pick<ApiHandlers, 'elicitation.answer'>;

/** The elicitation handler over the host context's broker. */
export function createElicitationHandlers(context: HostContext): ElicitationHandlers {
  return {
    'elicitation.answer': ({ elicitationId, answer }) => ({
      accepted: context.elicitations.answer(elicitationId, answer),
    }),
  };
}
