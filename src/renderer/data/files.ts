/** Files of the data directory the desktop opens or shows in their folder (the host checks them). */
import type { AivoryBridge } from '../bridge/bridge';

/** Opens a produced file or an attachment with the system's viewer (desktop only). */
export async function openFile(bridge: AivoryBridge, path: string): Promise<void> {
  await bridge.invoke('files.open', { path });
}

/** Shows a file in its folder (desktop only). */
export async function revealFile(bridge: AivoryBridge, path: string): Promise<void> {
  await bridge.invoke('files.reveal', { path });
}
