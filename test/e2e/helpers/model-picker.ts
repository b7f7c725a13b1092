/** Choosing the composer's model through its popover, as a person does (a click on the model). */
import type { Page } from 'playwright-core';

export async function chooseModel(
  page: Page,
  which: { id: string } | { text: string },
): Promise<void> {
  await page.getByTestId('model-picker').click();
  const popover = page.getByTestId('model-picker-popover');
  await popover.waitFor();
  const options = popover.getByTestId('model-option');
  const option =
    'id' in which
      ? options.and(page.locator(`[data-model-id="${which.id}"]`))
      : options.filter({ hasText: which.text });
  await option.click();
  await popover.waitFor({ state: 'detached' });
}
