/** `approval.answer`: the renderer's reply to an `approval.request` event. */
import type { ApiHandlers } from '../dispatcher';
import type { HostContext } from '../host-context';

type ApprovalHandlers = Pick<ApiHandlers, 'approval.answer'>;

/** The approval handler over the host context's broker. */
export function createApprovalHandlers(context: HostContext): ApprovalHandlers {
  return {
    'approval.answer': ({ approvalId, answer }) => ({
      accepted: context.approvals.answer(approvalId, answer),
    }),
  };
}
