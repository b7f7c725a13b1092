/**
 * A conversation whose sandbox workspace cannot be restored because no save of it can be read
 * (the only save is damaged, or the older one too): every python_execute in it fails until the
 * user chooses to start with an empty /workspace, the damaged save kept aside (the sidecar's
 * POST /workspaces/reset-damaged). The tool's result says so and names the two ways to choose;
 * the chat shows the first as a button on that result (the renderer recognises the result by its
 * first words, which no program's output can start with: those results start with `status:`).
 */
import { AivoryError } from './errors';

/** The first words of python_execute's result in that case. */
export const DAMAGED_WORKSPACE_PREFIX = "This conversation's sandbox files could not be restored:";

/** The CLI command that makes the choice (the app's button does the same). */
export function resetWorkspaceCommand(conversationId: string): string {
  return `aivory sandbox reset-workspace ${conversationId}`;
}

/**
 * What the model and the user read. `detail` is the sidecar's account: what is damaged, and the
 * path (or URL) of the save, which stays where it is until the user chooses.
 */
export function damagedWorkspaceResult(detail: string, conversationId: string): string {
  return [
    `${DAMAGED_WORKSPACE_PREFIX} ${detail}`,
    `Every python_execute in this conversation fails until the user chooses to start with an empty /workspace; the damaged save is then kept aside under a name ending in .damaged-<time>, not deleted. To choose: the "Start with an empty workspace" button under this call in the app, or \`${resetWorkspaceCommand(conversationId)}\` in a terminal.`,
    'Tell the user this in your answer, and do not call python_execute again in this turn.',
  ].join('\n');
}

/** Whether a python_execute result is the one above (the chat then offers the choice). */
export function isDamagedWorkspaceResult(output: string): boolean {
  return output.startsWith(DAMAGED_WORKSPACE_PREFIX);
}

/** The sidecar answered 409 `damaged-save`: no save of the conversation's workspace can be read. */
export class DamagedWorkspaceError extends AivoryError {
  /** The sidecar's account, without its "Restoring the archived workspace failed: " lead. */
  readonly detail: string;

  constructor(detail: string) {
    super('provider', `Restoring the sandbox files failed: ${detail}`);
    this.name = 'DamagedWorkspaceError';
    this.detail = detail;
  }
}
