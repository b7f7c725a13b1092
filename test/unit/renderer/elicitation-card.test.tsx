/**
 * The elicitation card, rendered statically: the third-party service named, its message as text
 * (never HTML), one input per field, Accept / Decline / Cancel; URL mode shows the origin
 * prominently with Open and Decline. And the draft: defaults first, empty inputs taking them,
 * problems per field.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ElicitationCard } from '../../../src/renderer/features/elicitation/elicitation-prompt';
import {
  ElicitationInbox,
  inlineRequest,
  modalRequest,
} from '../../../src/renderer/features/elicitation/elicitation-inbox';
import type { ElicitationRequestView } from '../../../src/renderer/features/elicitation/elicitation-form';
import {
  draftContent,
  enqueueElicitation,
  initialDraft,
  settleElicitation,
  urlOrigin,
} from '../../../src/renderer/features/elicitation/elicitation-form';

const FORM: ElicitationRequestView = {
  elicitationId: 'elicitation_1',
  turnId: 'turn_1',
  conversationId: 'conv_1',
  service: 'everything',
  mode: 'form',
  message: '<b>Please</b> fill **this**',
  url: null,
  fields: [
    { name: 'name', title: 'Name', description: 'Your name', required: true, type: 'string' },
    { name: 'ok', title: 'Agree', description: '', required: false, type: 'boolean' },
    {
      name: 'n',
      title: 'Number',
      description: '',
      required: false,
      type: 'integer',
      minimum: 1,
      default: 42,
    },
    {
      name: 'pet',
      title: 'Pet',
      description: '',
      required: false,
      type: 'enum',
      options: [
        { value: 'p1', label: 'Cats' },
        { value: 'p2', label: 'Dogs' },
      ],
      default: 'p1',
    },
    {
      name: 'tags',
      title: 'Tags',
      description: '',
      required: false,
      type: 'multi-enum',
      options: [{ value: 'x', label: 'X' }],
    },
  ],
};

describe('renderer: elicitation card', () => {
  it('names the third-party service and shows its message as text, one input per field', () => {
    const html = renderToStaticMarkup(
      <ElicitationCard request={FORM} waiting={0} onAnswer={() => undefined} />,
    );
    expect(html).toContain('“everything” is a third-party MCP server, not Aivory.');
    expect(html).toContain('&lt;b&gt;Please&lt;/b&gt; fill **this**');
    expect(html).not.toContain('<b>Please');
    for (const name of ['name', 'ok', 'n', 'pet', 'tags'])
      expect(html).toContain(`data-testid="elicitation-field-${name}"`);
    expect(html).toContain('type="checkbox"');
    expect(html).toContain('<option value="p2">Dogs</option>');
    for (const button of ['accept', 'decline', 'cancel'])
      expect(html).toContain(`data-testid="elicitation-${button}"`);
    expect(html).toContain('never to the model');
  });

  it('URL mode: the origin large, the full URL, Open and Decline only', () => {
    const html = renderToStaticMarkup(
      <ElicitationCard
        request={{
          ...FORM,
          mode: 'url',
          fields: [],
          url: 'https://xn--pple-43d.example:8443/login?next=/',
        }}
        waiting={2}
        onAnswer={() => undefined}
      />,
    );
    expect(html).toContain(
      '<p class="elicitation-origin" data-testid="elicitation-origin">https://xn--pple-43d.example:8443</p>',
    );
    expect(html).toContain('data-testid="elicitation-open"');
    expect(html).not.toContain('data-testid="elicitation-accept"');
    expect(html).not.toContain('data-testid="elicitation-cancel"');
    expect(html).toContain('2 more waiting');
    expect(urlOrigin('not a url')).toBeNull();
  });

  it('the draft starts from the defaults; empty inputs take them; problems per field', () => {
    const draft = initialDraft(FORM.fields);
    expect(draft).toEqual({ name: '', ok: false, n: '42', pet: 'p1', tags: [] });
    expect(draftContent(FORM.fields, draft).problems).toEqual({ name: { kind: 'required' } });
    expect(draftContent(FORM.fields, { ...draft, name: 'Ada', n: '' })).toEqual({
      content: { name: 'Ada', ok: false, n: 42, pet: 'p1' },
      problems: {},
    });
    expect(draftContent(FORM.fields, { ...draft, name: 'Ada', n: '0.5' }).problems).toEqual({
      n: { kind: 'integer' },
    });
    const queue = enqueueElicitation(enqueueElicitation([], FORM), FORM);
    expect(queue).toHaveLength(1);
    expect(settleElicitation(queue, 'elicitation_1')).toEqual([]);
  });

  it('in the conversation: a labelled group, not a dialog; a required page says the tool waits', () => {
    const html = renderToStaticMarkup(
      <ElicitationCard
        request={{
          ...FORM,
          mode: 'url',
          fields: [],
          url: 'https://auth.example.com/link/1',
          retry: true,
        }}
        inline
        waiting={0}
        onAnswer={() => undefined}
      />,
    );
    expect(html).toContain('data-placement="inline"');
    expect(html).toContain('data-step="ask"');
    expect(html).not.toContain('role="dialog"');
    expect(html).toMatch(/<section [^>]*aria-labelledby="([^"]+)"[\s\S]*<h3 id="\1">/);
    expect(html).toContain('An MCP server needs you to open a web page first');
    expect(html).toContain('The tool cannot run until you have been to this site.');
    expect(html).toContain('“everything” is a third-party MCP server, not Aivory.');
    expect(html).toContain('data-testid="elicitation-open"');
    expect(html).toContain('data-testid="elicitation-decline"');
    expect(html).not.toContain('data-testid="elicitation-done"');
  });

  it('the inbox: a turn on screen shows its own request inline; others fall back to the modal', () => {
    const inbox = new ElicitationInbox();
    const other = { ...FORM, elicitationId: 'elicitation_2', turnId: 'turn_2' };
    const loose = { ...FORM, elicitationId: 'elicitation_3', turnId: null };
    inbox.add(FORM);
    inbox.add(other);
    inbox.add(loose);
    expect(modalRequest(inbox.snapshot())?.elicitationId).toBe('elicitation_1');
    const release = inbox.claim('turn_1');
    expect(inlineRequest(inbox.snapshot(), 'turn_1')?.elicitationId).toBe('elicitation_1');
    expect(modalRequest(inbox.snapshot())?.elicitationId).toBe('elicitation_2');
    inbox.claim('turn_2');
    expect(modalRequest(inbox.snapshot())?.elicitationId).toBe('elicitation_3');
    inbox.remove('elicitation_3');
    expect(modalRequest(inbox.snapshot())).toBeUndefined();
    release();
    release();
    expect(modalRequest(inbox.snapshot())?.elicitationId).toBe('elicitation_1');
  });
});
