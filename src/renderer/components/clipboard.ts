/**
 * Copies text to the clipboard: the async Clipboard API, or — where it is refused (the desktop
 * shell denies every permission request) — a hidden text area and the copy command.
 */

/** Resolves true once the text is on the clipboard. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyWithSelection(text);
  }
}

function copyWithSelection(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'clipboard-helper';
  document.body.append(area);
  area.select();
  try {
    // Deprecated, yet the only way left when the Clipboard API is refused.
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
