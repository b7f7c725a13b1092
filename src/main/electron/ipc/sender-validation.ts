/**
 * What an Electron IPC sender is, as the transport-neutral dispatcher sees it. The dispatcher then
 * refuses anything that is not the app's own main frame in the app's own window.
 */
import type { SenderDescriptor } from '../../host/sender';
import { originOf } from '../../host/sender';
import { isAppUrl } from '../security';

/** The facts typed-ipc.ts reads off an IpcMainInvokeEvent. */
export interface ElectronSenderFacts {
  /** `event.senderFrame?.url`; null when the frame is gone (navigated or destroyed). */
  frameUrl: string | null;
  /** `event.senderFrame === event.sender.mainFrame`. */
  isMainFrame: boolean;
  /** `event.sender === mainWindow.webContents`: not a devtools, webview or stray window. */
  fromAppWindow: boolean;
}

/** The sender descriptor of an IPC call; a sender that fails any check is unauthenticated. */
export function electronSender(facts: ElectronSenderFacts): SenderDescriptor {
  const appFrame = facts.frameUrl !== null && isAppUrl(facts.frameUrl);
  return {
    transport: 'electron',
    origin: appFrame && facts.frameUrl !== null ? originOf(facts.frameUrl) : null,
    mainFrame: facts.isMainFrame,
    authenticated: facts.fromAppWindow && appFrame,
  };
}
