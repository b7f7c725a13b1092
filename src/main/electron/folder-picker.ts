/**
 * The desktop's "choose a folder" dialog for MCP roots, over a narrow port of Electron's
 * `dialog.showOpenDialog` (wired in index.ts), so it is tested without Electron: one folder, the
 * parent window when there is one, null when canceled.
 */

/** The part of `dialog.showOpenDialog` used here. */
export type ShowOpenDialog = (options: {
  title: string;
  properties: ('openDirectory' | 'createDirectory' | 'dontAddToRecent')[];
}) => Promise<{ canceled: boolean; filePaths: string[] }>;

/** A folder picker for `DesktopShell.pickFolder`. */
export function createFolderPicker(show: ShowOpenDialog): () => Promise<string | null> {
  return async () => {
    const result = await show({
      title: 'Share a folder with the MCP service',
      properties: ['openDirectory', 'createDirectory', 'dontAddToRecent'],
    });
    const [path] = result.filePaths;
    return result.canceled || path === undefined ? null : path;
  };
}
