/** The two IPC channels of the Electron shell: one invoke channel, one event channel. */

/** renderer → main: `invoke(INVOKE_CHANNEL, method, payload)` answers an InvokeResult. */
export const INVOKE_CHANNEL = 'aivory:invoke';
/** main → renderer: `send(EVENT_CHANNEL, name, payload)` for every EventContract event. */
export const EVENT_CHANNEL = 'aivory:event';
