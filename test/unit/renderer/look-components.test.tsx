/**
 * The look's building blocks as rendered: icon buttons named and titled, the message toolbar with
 * its extension slots, a menu button closed, and icons hidden from assistive technology.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CopyIcon, RetryIcon } from '../../../src/renderer/components/icons';
import { MenuButton } from '../../../src/renderer/components/menu';
import { MessageActions, ToolbarButton } from '../../../src/renderer/features/chat/message-actions';

describe('renderer: icons, toolbar and menu button', () => {
  it('icons are decoration: aria-hidden, not focusable', () => {
    const html = renderToStaticMarkup(<CopyIcon />);
    expect(html).toMatch(/^<svg[^>]*aria-hidden="true"/);
    expect(html).toContain('focusable="false"');
    expect(html).toContain('class="lucide lucide-copy icon"');
  });

  it('the message toolbar: built-in actions, then leading and children in their places', () => {
    const html = renderToStaticMarkup(
      <MessageActions
        markdown="**hi**"
        onDelete={() => undefined}
        leading={<span data-testid="version-switcher">‹ 2/3 ›</span>}
      >
        <ToolbarButton
          label="Regenerate"
          icon={<RetryIcon />}
          testId="message-regenerate"
          onClick={() => undefined}
        />
      </MessageActions>,
    );
    expect(html).toMatch(/^<div class="message-actions" role="group" aria-label="Message actions"/);
    const order = ['version-switcher', 'message-copy', 'message-regenerate', 'message-delete'].map(
      (id) => html.indexOf(`data-testid="${id}"`),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Icon-only buttons are named, with the same tooltip.
    expect(html).toMatch(/data-testid="message-copy"[^>]*aria-label="Copy" title="Copy"/);
    expect(html).toMatch(
      /data-testid="message-regenerate" aria-label="Regenerate" title="Regenerate"/,
    );
    expect(html).toMatch(/data-testid="message-delete" aria-label="Delete" title="Delete"/);
    // No text: copy as text only with the rendered body, nothing to copy without Markdown.
    expect(html).not.toContain('message-copy-text');
    const empty = renderToStaticMarkup(<MessageActions markdown="" pinned />);
    expect(empty).not.toContain('message-copy');
    expect(empty).toContain('class="message-actions pinned"');
  });

  it('a toolbar button can show text and a longer tooltip', () => {
    const html = renderToStaticMarkup(
      <ToolbarButton
        label="Retry"
        tooltip="Ask the model again"
        text="Retry"
        icon={<RetryIcon />}
        testId="retry-turn"
        onClick={() => undefined}
      />,
    );
    expect(html).toContain('aria-label="Retry" title="Ask the model again"');
    expect(html).toContain('<span class="message-action-text">Retry</span>');
  });

  it('a menu button is named, says it opens a menu, and renders no list while closed', () => {
    const html = renderToStaticMarkup(
      <MenuButton
        label="More"
        icon={<CopyIcon />}
        testId="more"
        items={[{ id: 'a', label: 'A', onSelect: () => undefined }]}
      />,
    );
    expect(html).toContain('aria-label="More"');
    expect(html).toContain('title="More"');
    expect(html).toContain('aria-haspopup="menu"');
    expect(html).toContain('aria-expanded="false"');
    expect(html).not.toContain('role="menu"');
  });
});
