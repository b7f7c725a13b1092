/**
 * The only user of ipcMain: one invoke handler that fills in the sender descriptor (frame URL,
 * main frame, the app's own window) and hands the call to the transport-neutral dispatcher, and
 * the forwarding of hub events to the window.
 */
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { ipcMain } from 'electron';
import type { ApiHost } from '../../host/api-handlers';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../../shared/ipc/electron-channels';
import { electronSender } from './sender-validation';

/** Registers the API for `window`; returns the function that removes it. */
export function registerApiIpc(window: BrowserWindow, host: ApiHost): () => void {
  ipcMain.removeHandler(INVOKE_CHANNEL);
  ipcMain.handle(INVOKE_CHANNEL, (event: IpcMainInvokeEvent, method: unknown, payload: unknown) =>
    host.dispatch(
      method,
      payload,
      electronSender({
        frameUrl: event.senderFrame?.url ?? null,
        isMainFrame: event.senderFrame === event.sender.mainFrame,
        fromAppWindow: !window.isDestroyed() && event.sender === window.webContents,
      }),
    ),
  );
  const unsubscribe = host.events.subscribe((event) => {
    if (!window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, event.name, event.payload);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
  };
}
