/**
 * The renderer may not call the browser's own dialogs (eslint.config.js): Electron implements
 * none of prompt, alert and confirm, so a call there breaks the desktop app silently.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const RULES = new Set(['no-restricted-globals', 'no-restricted-properties']);

const eslint = new ESLint({
  cwd: root,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }],
});

async function dialogErrors(code: string): Promise<string[]> {
  const file = join(root, 'src/renderer/features/chat/dialog-probe.tsx');
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId !== null && RULES.has(message.ruleId))
    .map((message) => message.message);
}

describe('no browser dialogs in the renderer', () => {
  it.each([
    ['window.prompt', "export const title = window.prompt('New title', 'x');"],
    ['window.confirm', "export const sure = window.confirm('Delete?');"],
    ['window.alert', "window.alert('Saved');"],
    ['a bare confirm', "export const sure = confirm('Delete?');"],
    ['a bare prompt', "export const title = prompt('New title');"],
    ['globalThis.alert', "globalThis.alert('Saved');"],
  ])('refuses %s', async (_name, code) => {
    const errors = await dialogErrors(code);
    expect(errors.length).toBe(1);
    expect(errors[0]).toMatch(/Electron has no browser dialogs/);
  });

  it('lets the app ask in its own dialog', async () => {
    const code = [
      "import { askConfirm } from '../../components/confirm-dialog';",
      "export const ask = (): Promise<boolean> => askConfirm({ title: 't', message: 'm', confirmLabel: 'c' });",
    ].join('\n');
    expect(await dialogErrors(code)).toEqual([]);
  });
});
