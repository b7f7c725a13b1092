/**
 * Turns and the questions a turn puts to the user: send, cancel, and the answers to approval,
 * elicitation and sampling requests. A turn's events arrive on `turn.event` (the store folds them).
 */
import type { AivoryBridge } from '../bridge/bridge';
import type { InvokeRequest, InvokeResponse } from '../../shared/ipc-contract';

export function sendMessage(
  bridge: AivoryBridge,
  request: InvokeRequest<'chat.send'>,
): Promise<InvokeResponse<'chat.send'>> {
  return bridge.invoke('chat.send', request);
}

export async function cancelTurn(bridge: AivoryBridge, turnId: string): Promise<void> {
  await bridge.invoke('chat.cancel', { turnId });
}

export async function answerApproval(
  bridge: AivoryBridge,
  request: InvokeRequest<'approval.answer'>,
): Promise<void> {
  await bridge.invoke('approval.answer', request);
}

export async function answerElicitation(
  bridge: AivoryBridge,
  request: InvokeRequest<'elicitation.answer'>,
): Promise<void> {
  await bridge.invoke('elicitation.answer', request);
}

export async function answerSampling(
  bridge: AivoryBridge,
  request: InvokeRequest<'sampling.answer'>,
): Promise<void> {
  await bridge.invoke('sampling.answer', request);
}
