/**
 * The approval requests a window shows, oldest first: a request joins on `approval.request` and
 * leaves when it is answered here or settled elsewhere (another window, the turn canceled, the
 * wait timed out). Pure.
 */
import type { EventPayload } from '../../../shared/ipc-contract';

/** One request as the host sent it. */
export type ApprovalRequestView = EventPayload<'approval.request'>;

/** The queue after a request arrived (a repeated id is ignored). */
export function enqueue(
  queue: readonly ApprovalRequestView[],
  request: ApprovalRequestView,
): ApprovalRequestView[] {
  if (queue.some((item) => item.approvalId === request.approvalId)) return [...queue];
  return [...queue, request];
}

/** The queue without `approvalId`. */
export function settle(
  queue: readonly ApprovalRequestView[],
  approvalId: string,
): ApprovalRequestView[] {
  return queue.filter((item) => item.approvalId !== approvalId);
}

/** The exact arguments, as the card shows them. */
export function argumentsText(request: ApprovalRequestView): string {
  return JSON.stringify(request.arguments, null, 2);
}
